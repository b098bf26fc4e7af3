"""The multi-turn agent loop: the trainer's model generates, the environment answers.

``LLEnvsAgentLoop(env, tokenizer, max_steps=20).run(task_index=..., generate_fn=...)`` plays one
episode and returns its tensors. ``generate_fn(messages)`` gets the whole conversation so far (chat
messages, in the roles the tokenizer's chat template has) and may be sync or async; it returns the
model's text, or a mapping ``{"text": str, "token_ids": list[int], "logprobs": list[float] | None}``
when the ids the model generated are known (they are then used as they are).

Every call of ``run`` keeps its own state, so many episodes run concurrently under asyncio
(``asyncio.gather``) on one loop object.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from llenvs_go.core.state import Action, State
from llenvs_go.core.trajectory import Trajectory, Transition
from llenvs_go.integrations.token_mask import TrajectoryMasker, assistant_message, initial_messages

GenerateOutput = str | Mapping[str, Any]
GenerateFn = Callable[[list[dict[str, Any]]], GenerateOutput | Awaitable[GenerateOutput]]


def environment_from(env: Any) -> Any:
    """An environment from an environment object (returned as is) or a mapping of
    ``environment_registry.get`` arguments (``{"name": ..., "adapter": ..., ...}``), e.g. from a
    framework's YAML file."""
    if isinstance(env, Mapping):
        from llenvs_go.core.registry import environment_registry

        cfg = {str(k): v for k, v in env.items()}
        if "name" not in cfg:
            raise ValueError(f"an environment mapping needs a 'name' (got keys {sorted(cfg)})")
        return environment_registry.get(**cfg)
    if not hasattr(env, "reset") or not hasattr(env, "step"):
        raise TypeError(f"expected an environment (with reset and step) or a mapping, got {type(env).__name__}")
    return env


def action_from_output(output: GenerateOutput) -> Action:
    """The Action for a generate_fn result: a str, or a mapping with ``text`` and optionally
    ``token_ids`` and ``logprobs``."""
    if isinstance(output, str):
        return Action.from_text(output)
    if isinstance(output, Mapping):
        text = output.get("text")
        if not isinstance(text, str):
            raise TypeError(f"generate_fn returned a mapping whose 'text' is {type(text).__name__}, not str")
        ids = output.get("token_ids")
        lps = output.get("logprobs")
        if ids is not None and lps is not None and len(lps) != len(ids):
            raise ValueError(f"generate_fn returned {len(ids)} token_ids but {len(lps)} logprobs")
        return Action.from_text(text, token_ids=None if ids is None else [int(i) for i in ids],
                                logprobs=None if lps is None else [float(x) for x in lps])
    raise TypeError(f"generate_fn must return a str or a mapping with 'text', got {type(output).__name__}")


class Episode:
    """One episode in progress: the environment's state, the trajectory and the conversation.

    The loops and the framework adapters drive it: :meth:`act` takes the model's output, steps the
    environment and extends the conversation.
    """

    def __init__(self, env: Any, masker: TrajectoryMasker, task_index: int, *, max_steps: int,
                 seed: int | None = None):
        state, info = env.reset(seed=seed, options={"task_index": task_index})
        self.env = env
        self.masker = masker
        self.task_index = task_index
        self.info = info
        self.state: State[Any] = state
        self.trajectory: Trajectory[Any] = Trajectory.create(state)
        self.messages = masker.template_messages(initial_messages(state))
        self.max_steps = max_steps
        self.done = False
        self.terminated = False
        self.truncated = False
        limit = getattr(getattr(env, "spec", None), "max_steps", None)
        self._env_limit = limit if isinstance(limit, int) and limit > 0 else None

    @property
    def num_turns(self) -> int:
        """Steps taken so far."""
        return len(self.trajectory)

    def act(self, action: Action) -> Transition[Any]:
        """Step the environment with ``action`` and record the step."""
        if self.done:
            raise RuntimeError("the episode is over; start a new one")
        result = self.env.step(self.state, action)
        t = Transition(state=self.state, action=action, next_state=result.next_state, rewards=result.rewards,
                       resolved_action=result.resolved_action, extracted_action=result.extracted_action,
                       info=dict(result.info))
        self.trajectory.add_transition(t)
        self.messages.append(assistant_message(action))
        self.state = result.next_state
        self.terminated = bool(result.terminated)
        out_of_turns = self.num_turns >= self.max_steps or (self._env_limit is not None
                                                            and self.num_turns >= self._env_limit)
        self.truncated = not self.terminated and (bool(result.truncated) or out_of_turns)
        self.done = self.terminated or self.truncated
        if not self.done:
            self.messages.extend(self.masker.turn_messages(t))
        return t

    def result(self) -> dict[str, Any]:
        """The episode's tensors (``prompt_ids``, ``response_ids``, ``response_mask``, ``rewards``,
        ``num_turns``, ``truncated``, ``token_rewards``, ``response_logprobs``), the conversation
        (``messages``) and whether it ended on its own (``terminated``)."""
        masked = self.masker.mask_trajectory(self.trajectory)
        out = masked.to_dict()
        out["truncated"] = masked.truncated or self.truncated
        out["terminated"] = self.terminated
        out["messages"] = list(self.messages)
        return out


async def _generate(generate_fn: GenerateFn, messages: list[dict[str, Any]]) -> GenerateOutput:
    out = generate_fn(messages)
    if inspect.isawaitable(out):
        out = await out
    return out  # type: ignore[return-value]


class LLEnvsAgentLoop:
    """Plays multi-turn episodes of an environment with a caller's model.

    Args:
        env: any llenvs environment (``reset(options={"task_index": i})`` and ``step``).
        tokenizer: the model's tokenizer (see :class:`TrajectoryMasker`).
        max_steps: the most model turns per episode; reaching it sets ``truncated``.
        max_length: the most response tokens kept (see :class:`TrajectoryMasker`).
        chat_template: as for :class:`TrajectoryMasker`.
    """

    def __init__(self, env: Any, tokenizer: Any, max_steps: int = 20, *, max_length: int | None = None,
                 chat_template: bool | str | None = None):
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        self.env = env
        self.tokenizer = tokenizer
        self.max_steps = max_steps
        self.masker = TrajectoryMasker(tokenizer, max_length=max_length, chat_template=chat_template)

    def start(self, task_index: int, *, seed: int | None = None) -> Episode:
        """A new episode of task ``task_index``."""
        return Episode(self.env, self.masker, task_index, max_steps=self.max_steps, seed=seed)

    async def run(self, task_index: int, generate_fn: GenerateFn, *, seed: int | None = None) -> dict[str, Any]:
        """Play one episode; returns ``prompt_ids``, ``response_ids``, ``response_mask``, ``rewards``,
        ``num_turns``, ``truncated``, ``token_rewards`` (plus ``response_logprobs``, ``terminated``
        and ``messages``)."""
        ep = self.start(task_index, seed=seed)
        while not ep.done:
            ep.act(action_from_output(await _generate(generate_fn, list(ep.messages))))
        return ep.result()
