"""Multi-turn rollouts for TRL.

* :func:`make_trl_rollout_fn` is the API page's ``rollout_fn(task_index=..., generate_fn=...)``: one episode
  of :class:`~llenvs_go.integrations.agent_loop.LLEnvsAgentLoop`.
* :func:`make_grpo_rollout_func` is a ``rollout_func`` for TRL's ``GRPOTrainer`` (the contract of
  ``trl/trainer/grpo_trainer.py``, TRL 1.16): ``rollout_func(prompts, trainer)`` plays one episode per
  prompt and returns ``prompt_ids``, ``completion_ids`` (every response token), ``logprobs``, ``env_mask``
  (1 = model token, which TRL multiplies into the loss mask) and, forwarded to the reward functions,
  ``task_index``, ``env_reward``, ``num_turns`` and ``truncated``. Pass :func:`environment_reward` as a
  reward function to train on the environment's rewards.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from typing import Any

from llenvs_go.integrations._multiturn import marked_task_index
from llenvs_go.integrations.agent_loop import (
    Episode,
    GenerateCall,
    GenerateFn,
    LLEnvsAgentLoop,
    action_from_output,
    environment_from,
    generate_caller,
    play_episode,
)
from llenvs_go.integrations.token_mask import TrajectoryMasker, initial_messages


def make_trl_rollout_fn(env: Any, tokenizer: Any, max_steps: int = 20) -> Callable[..., Any]:
    """``async rollout_fn(task_index, generate_fn, **kwargs) -> dict``: one episode (see
    :meth:`LLEnvsAgentLoop.run`)."""
    loop = LLEnvsAgentLoop(env, tokenizer, max_steps=max_steps)

    async def rollout_fn(task_index: int, generate_fn: GenerateFn, **kwargs: Any) -> dict[str, Any]:
        return await loop.run(task_index=task_index, generate_fn=generate_fn, seed=kwargs.get("seed"))

    return rollout_fn


def environment_reward(completions: Sequence[Any], env_reward: Sequence[float] | None = None,
                       **kwargs: Any) -> list[float | None]:
    """A GRPOTrainer reward function: the environment's total reward of each episode, as forwarded by
    :func:`make_grpo_rollout_func` (None, i.e. not applicable, without it)."""
    if env_reward is None:
        return [None] * len(completions)
    return [float(r) for r in env_reward]


def _prompt_key(prompt: Any) -> str:
    """The text that identifies a prompt: a str itself, or the last user message's content."""
    if isinstance(prompt, str):
        return prompt
    for m in reversed(list(prompt)):
        if m.get("role") == "user":
            c = m.get("content")
            return c if isinstance(c, str) else str(c)
    raise ValueError("a conversational prompt without a user message")


class _TaskIndex:
    """Finds the task index of a prompt by the environment's initial prompts, built once on first use."""

    def __init__(self, env: Any, num_tasks: int | None):
        self.env = env
        self.num_tasks = num_tasks
        self._index: dict[str, int] | None = None
        self._lock = threading.Lock()

    def __call__(self, prompt: Any) -> int:
        marked = marked_task_index(prompt)  # a multi-turn row of make_trl_dataset names its task
        if marked is not None:
            return marked
        with self._lock:
            if self._index is None:
                n = self.num_tasks if self.num_tasks is not None else len(self.env)
                index: dict[str, int] = {}
                for i in range(n):
                    state, _ = self.env.reset(options={"task_index": i})
                    index.setdefault(_prompt_key(initial_messages(state)), i)
                self._index = index
        key = _prompt_key(prompt)
        if key not in self._index:
            raise KeyError(f"no task of {getattr(getattr(self.env, 'spec', None), 'name', 'the environment')} "
                           f"has the prompt {key[:80]!r}; build the dataset with make_trl_dataset(env) or pass "
                           "task_index_of=")
        return self._index[key]


def _hf_generate(trainer: Any, tokenizer: Any) -> Callable[[list[int]], dict[str, Any]]:
    """Token-in/token-out sampling with the trainer's own model (``model.generate``), for runs without
    vLLM: the sampled ids and their logprobs under the sampling distribution."""
    import torch

    model = trainer.accelerator.unwrap_model(trainer.model) if hasattr(trainer, "accelerator") else trainer.model
    args = trainer.args
    max_new = int(getattr(args, "max_completion_length", 256) or 256)

    def generate(context: list[int]) -> dict[str, Any]:
        device = next(model.parameters()).device
        ids = torch.tensor([context], device=device)
        with torch.no_grad():
            out = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=max_new, do_sample=True,
                                 temperature=float(getattr(args, "temperature", 1.0) or 1.0),
                                 pad_token_id=tokenizer.pad_token_id, return_dict_in_generate=True,
                                 output_scores=True)
        new = out.sequences[0, ids.shape[1]:]
        scores = model.compute_transition_scores(out.sequences, out.scores, normalize_logits=True)[0]
        eos = tokenizer.eos_token_id
        token_ids = new.tolist()
        if eos is not None and eos in token_ids:  # cut the padding after the end of turn
            token_ids = token_ids[: token_ids.index(eos) + 1]
        return {"text": tokenizer.decode(token_ids, skip_special_tokens=True), "token_ids": token_ids,
                "logprobs": [float(x) for x in scores[: len(token_ids)].tolist()]}

    return generate


def make_grpo_rollout_func(env: Any, generate_fn: GenerateFn | None = None, *, tokenizer: Any = None,
                           max_steps: int = 20, max_length: int | None = None, num_tasks: int | None = None,
                           task_index_of: Callable[[Any], int] | None = None) -> Callable[[list, Any], dict]:
    """A ``rollout_func`` for ``GRPOTrainer(..., rollout_func=...)``: one episode per prompt.

    Args:
        env: the environment (an object, or a dict of ``environment_registry.get`` arguments).
        generate_fn: the model, called with the conversation, and ``tools=`` the environment's tools when
            it takes that keyword (sync or async; a str or a mapping with ``text``, ``token_ids``,
            ``logprobs``; see :mod:`~llenvs_go.integrations.agent_loop`). None samples token-in/token-out from
            ``trainer.model`` (slow; for small runs without vLLM).
        tokenizer: the model's tokenizer; None uses ``trainer.processing_class``.
        max_steps: the most model turns per episode.
        max_length: the most completion tokens (model and environment); None uses
            ``trainer.args.max_completion_length``.
        num_tasks: how many tasks to index when finding a prompt's task (default ``len(env)``).
        task_index_of: maps a prompt (str or messages) to its task index, instead of the index.
    """
    env = environment_from(env)
    call = None if generate_fn is None else generate_caller(generate_fn)
    find = task_index_of or _TaskIndex(env, num_tasks)
    maskers: dict[int, TrajectoryMasker] = {}

    def rollout_func(prompts: list, trainer: Any) -> dict[str, Any]:
        tok = tokenizer if tokenizer is not None else trainer.processing_class
        tok = getattr(tok, "tokenizer", tok)  # a processor's tokenizer
        limit = max_length if max_length is not None else getattr(trainer.args, "max_completion_length", None)
        masker = maskers.get(id(tok))
        if masker is None or masker.max_length != limit:
            masker = maskers[id(tok)] = TrajectoryMasker(tok, max_length=limit)
        tasks = [find(p) for p in prompts]
        results: list[dict[str, Any]]
        if call is None:
            gen = _hf_generate(trainer, tok)
            results = [_play_tokens(env, masker, i, gen, max_steps) for i in tasks]
        else:
            async def play_all() -> list[dict[str, Any]]:
                return await asyncio.gather(*(_play(env, masker, i, call, max_steps) for i in tasks))
            results = _run(play_all())
        logprobs: list[list[float]] | None = [r["response_logprobs"] for r in results]
        if any(lp is None for lp in logprobs or ()):
            logprobs = None
        return {
            "prompt_ids": [r["prompt_ids"] for r in results],
            "completion_ids": [r["response_ids"] for r in results],
            "logprobs": logprobs,
            "env_mask": [r["response_mask"] for r in results],
            "task_index": tasks,
            "env_reward": [float(sum(r["rewards"])) for r in results],
            "num_turns": [r["num_turns"] for r in results],
            "truncated": [r["truncated"] for r in results],
        }

    return rollout_func


async def _play(env: Any, masker: TrajectoryMasker, task_index: int, call: GenerateCall,
                max_steps: int) -> dict[str, Any]:
    ep = Episode(env, masker, task_index, max_steps=max_steps)
    await play_episode(ep, call)
    return ep.result()


def _play_tokens(env: Any, masker: TrajectoryMasker, task_index: int,
                 generate: Callable[[list[int]], dict[str, Any]], max_steps: int) -> dict[str, Any]:
    """An episode generated token-in/token-out from the masker's next-turn ids."""
    ep = Episode(env, masker, task_index, max_steps=max_steps)
    while not ep.done:
        ep.act(action_from_output(generate(masker.next_prompt_ids(ep.trajectory))))
    return ep.result()


def _run(coro: Any) -> Any:
    """Run a coroutine to completion from sync code, also when this thread already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as e:  # re-raised in the caller's thread
            box["error"] = e

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
