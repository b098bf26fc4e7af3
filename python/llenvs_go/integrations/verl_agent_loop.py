"""A veRL agent loop that plays llenvs-go environments: ``LLEnvsVerlAgentLoop``.

veRL (0.9; ``verl/experimental/agent_loop/agent_loop.py``) builds agent loops from the YAML file named by
``actor_rollout_ref.rollout.agent.agent_loop_config_path``; an entry's extra keys are passed to the
constructor::

    - name: llenvs
      _target_: llenvs_go.integrations.verl_agent_loop.LLEnvsVerlAgentLoop
      env: {name: guess_number, adapter: native}
      max_steps: 8

Select it with ``rollout.agent.default_agent_loop=llenvs`` or a dataset column ``agent_name``. Each row's
``extra_info.task_index`` (else ``index``) names the task. Generation is token-in/token-out through veRL's
server manager, with one request id per episode (its prefix cache stays warm); the result is an
``AgentLoopOutput`` masked by :class:`~llenvs_go.integrations.TrajectoryMasker` (response cut at
``rollout.response_length``), with the environment's total reward as ``reward_score`` and the per-step
rewards in ``extra_fields["turn_scores"]``.

This module needs veRL (``pip install verl``).
"""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import uuid4

try:
    from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "llenvs_go.integrations.verl_agent_loop needs veRL: pip install verl "
        f"(importing verl.experimental.agent_loop failed: {e})") from e

from llenvs_go.core.state import Action
from llenvs_go.integrations.agent_loop import Episode, environment_from
from llenvs_go.integrations.token_mask import TrajectoryMasker


def _plain(value: Any) -> Any:
    """An OmegaConf node as plain Python containers (other values unchanged)."""
    try:
        from omegaconf import DictConfig, ListConfig, OmegaConf
    except ImportError:  # pragma: no cover
        return value
    if isinstance(value, DictConfig | ListConfig):
        return OmegaConf.to_container(value, resolve=True)
    return value


def task_index_of(kwargs: dict[str, Any]) -> int:
    """The task index of a veRL row: ``extra_info["task_index"]``, else ``extra_info["index"]``, else
    ``index``."""
    extra = _plain(kwargs.get("extra_info")) or {}
    for value in (extra.get("task_index"), extra.get("index"), kwargs.get("index")):
        if value is not None:
            return int(value)
    raise KeyError("the row has no task index: put it in extra_info['task_index'] (make_verl_dataset does)")


class LLEnvsVerlAgentLoop(AgentLoopBase):
    """veRL ``AgentLoopBase`` that plays one episode of an llenvs-go environment per row.

    Args (besides veRL's own): ``env`` (an environment or a mapping of ``environment_registry.get``
    arguments) and ``max_steps`` (the most model turns).
    """

    def __init__(self, *args: Any, env: Any = None, max_steps: int = 20, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if env is None:
            raise ValueError("LLEnvsVerlAgentLoop needs env= (e.g. {name: guess_number, adapter: native}) "
                             "in its agent loop config entry")
        self.env = environment_from(_plain(env))
        self.max_steps = int(max_steps)
        self.response_length = int(self.rollout_config.response_length)
        self.masker = TrajectoryMasker(self.tokenizer, max_length=self.response_length,
                                       template_kwargs=_plain(self.apply_chat_template_kwargs) or None)

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        """Play the row's task: generate through the server manager, step the environment, mask."""
        task_index = task_index_of(kwargs)
        ep = await asyncio.to_thread(Episode, self.env, self.masker, task_index, max_steps=self.max_steps)
        request_id = uuid4().hex
        prompt_len: int | None = None
        generate_s = 0.0
        aborted = False
        while not ep.done:
            context = await asyncio.to_thread(self.masker.next_prompt_ids, ep.trajectory)
            if prompt_len is None:
                prompt_len = len(context)
            elif len(context) - prompt_len >= self.response_length:
                ep.truncated = True  # the response budget is spent
                break
            t0 = asyncio.get_running_loop().time()
            out = await self.server_manager.generate(request_id=request_id, prompt_ids=context,
                                                     sampling_params=sampling_params)
            generate_s += asyncio.get_running_loop().time() - t0
            ids = list(out.token_ids)
            text = self.tokenizer.decode(ids, skip_special_tokens=True)
            action = Action.from_text(text, token_ids=ids, logprobs=out.log_probs or None)
            await asyncio.to_thread(ep.act, action)
            if getattr(out, "stop_reason", None) == "aborted":
                aborted = True
                break
        result = await asyncio.to_thread(ep.result)
        rewards = result["rewards"]
        logprobs = result["response_logprobs"]
        return AgentLoopOutput(
            prompt_ids=result["prompt_ids"],
            response_ids=result["response_ids"],
            response_mask=result["response_mask"],
            response_logprobs=logprobs if sampling_params.get("logprobs") and logprobs is not None else None,
            reward_score=float(sum(rewards)),
            num_turns=result["num_turns"],
            metrics={"generate_sequences": generate_s, "tool_calls": 0.0},
            extra_fields={"turn_scores": list(rewards), "tool_rewards": [], "truncated": result["truncated"],
                          "aborted": aborted, "task_index": task_index},
        )

