"""An OpenRLHF agent file that plays llenvs-go environments.

OpenRLHF (0.11; ``openrlhf/utils/agent.py``, ``openrlhf/trainer/ray/vllm_engine.py``) runs the file given to
``--train.agent_func_path`` as a module and instantiates its ``AgentExecutor`` with no arguments, once per
vLLM actor. Point it at this file (``python -c "import llenvs_go.integrations.openrlhf_agent as m;
print(m.__file__)"``) and name the environment in ``LLENVS_GO_AGENT_ENV``: a JSON object of
``environment_registry.get`` arguments, e.g. ``{"name": "guess_number", "adapter": "native"}``
(``LLENVS_GO_AGENT_MAX_STEPS`` bounds the turns, default 20). The dataset's ``--data.label_key`` column
carries each row's task index (an int, a numeric string, or a JSON object with ``task_index``).

``AgentExecutor.execute`` is OpenRLHF's full-control agent: token-in/token-out through the vLLM engine,
the context for each turn and the final ``observation_tokens``/``action_ranges`` built by
:class:`~llenvs_go.integrations.TrajectoryMasker` (the chat template's own turn markup, carried ids
unchanged), the environment's total reward as ``reward``. Environment steps run in a worker thread, off
the actor's event loop.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from copy import deepcopy
from typing import Any

try:
    from openrlhf.utils.agent import AgentExecutorBase
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "llenvs_go.integrations.openrlhf_agent needs OpenRLHF: pip install openrlhf "
        f"(importing openrlhf.utils.agent failed: {e})") from e

from llenvs_go.core.state import Action
from llenvs_go.integrations.agent_loop import Episode, environment_from
from llenvs_go.integrations.token_mask import TrajectoryMasker


def task_index_of(label: Any) -> int:
    """The task index a row's label carries: an int, a numeric string, or a JSON object / mapping with
    ``task_index``."""
    if isinstance(label, bool):
        raise ValueError(f"a task index label cannot be a bool ({label!r})")
    if isinstance(label, int):
        return label
    if isinstance(label, str):
        s = label.strip()
        if s.lstrip("-").isdigit():
            return int(s)
        label = json.loads(s)
    if isinstance(label, dict) and "task_index" in label:
        return int(label["task_index"])
    raise ValueError(f"cannot read a task index from the label {label!r}; use --data.label_key on a column "
                     "holding the task index")


class AgentExecutor(AgentExecutorBase):
    """OpenRLHF's full-control agent executor over an llenvs-go environment (see the module doc).

    ``env`` and ``max_steps`` default to ``LLENVS_GO_AGENT_ENV`` and ``LLENVS_GO_AGENT_MAX_STEPS``.
    """

    def __init__(self, env: Any = None, max_steps: int | None = None):
        if env is None:
            spec = os.environ.get("LLENVS_GO_AGENT_ENV")
            if not spec:
                raise ValueError("set LLENVS_GO_AGENT_ENV to a JSON object such as "
                                 '{"name": "guess_number", "adapter": "native"}')
            env = json.loads(spec)
        self.env = environment_from(env)
        self.max_steps = int(max_steps if max_steps is not None else os.environ.get("LLENVS_GO_AGENT_MAX_STEPS", 20))
        self._maskers: dict[int, TrajectoryMasker] = {}
        self._lock = threading.Lock()

    def _masker(self, tokenizer: Any) -> TrajectoryMasker:
        with self._lock:
            m = self._maskers.get(id(tokenizer))
            if m is None:
                m = self._maskers[id(tokenizer)] = TrajectoryMasker(tokenizer)
            return m

    async def execute(self, prompt: Any, label: Any, sampling_params: Any, max_length: int, hf_tokenizer: Any,
                      llm_engine: Any, images: Any = None) -> dict[str, Any]:
        """One episode of the label's task; returns OpenRLHF's agent result dict."""
        masker = self._masker(hf_tokenizer)
        ep = await asyncio.to_thread(Episode, self.env, masker, task_index_of(label), max_steps=self.max_steps)
        want_logprobs = getattr(sampling_params, "logprobs", None) is not None
        length_cut = False
        while not ep.done:
            context = await asyncio.to_thread(masker.next_prompt_ids, ep.trajectory)
            params = deepcopy(sampling_params)
            params.max_tokens = max_length - len(context)
            if params.max_tokens <= 0:
                length_cut = True
                break
            out = (await llm_engine.generate(context, params, multi_modal_data=None)).outputs[0]
            ids = list(out.token_ids)
            logprobs = None
            if want_logprobs and out.logprobs is not None:
                logprobs = [float(lp[t].logprob) for lp, t in zip(out.logprobs, ids, strict=True)]
            await asyncio.to_thread(ep.act, Action.from_text(out.text, token_ids=ids, logprobs=logprobs))
            length_cut = out.finish_reason == "length"
        masked = await asyncio.to_thread(masker.mask_trajectory, ep.trajectory)
        prompt_ids = list(masked.prompt_ids)
        budget = max(max_length - len(prompt_ids), 0)
        response = list(masked.response_ids[:budget])
        mask = masked.response_mask[:budget]
        tokens = prompt_ids + response
        ranges: list[tuple[int, int]] = []
        start = None
        for i, m in enumerate(list(mask) + [0]):
            if m and start is None:
                start = i
            elif not m and start is not None:
                ranges.append((len(prompt_ids) + start, len(prompt_ids) + i))
                start = None
        rollout_logprobs = None
        if want_logprobs:
            lps = masked.response_logprobs or (0.0,) * len(masked.response_ids)
            rollout_logprobs = [0.0] * len(prompt_ids) + list(lps[:budget])
        reward = float(sum(masked.rewards))
        return {
            "prompt": prompt,
            "label": label,
            "images": images,
            "mm_train_inputs": None,
            "reward": reward,
            "scores": reward,
            "observation_tokens": tokens,
            "action_ranges": ranges,
            "rollout_log_probs": rollout_logprobs,
            "truncated": bool(length_cut or ep.truncated or len(masked.response_ids) > budget),
            "extra_logs": {"num_turns": float(masked.num_turns), "terminated": float(ep.terminated)},
        }
