"""What the multi-turn dataset rows of veRL, TRL and OpenRLHF share: the episode's first turn and the
environment's reference.

A multi-turn row is not scored against a response: the framework's agent loop
(``verl_agent_loop``, ``trl_rollout``, ``openrlhf_agent``) plays the row's task
with its own environment and returns the episode's reward. A row therefore
carries what those loops read (the task index), the conversation the episode
opens with (``initial_messages`` of the reset state, the very messages the
loops send to the model first and TRL's rollout function matches prompts by)
and the environment's reference in the form the loops are configured with: a
JSON object of ``environment_registry.get`` arguments (the veRL loop's
``env:``, ``$LLENVS_GO_AGENT_ENV`` of the OpenRLHF executor, the ``env`` of
``make_grpo_rollout_func``).
"""

from __future__ import annotations

import dataclasses
import json
import operator
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from llenvs_go.core.config import IterativeConfig
from llenvs_go.integrations._references import canonical_config, environment_reference
from llenvs_go.integrations.chat_messages import initial_messages

_CONFIG_KEYS = ("name", "adapter", "size", "seed")


def is_multi_turn(environment: Any) -> bool:
    """Whether ``environment`` plays episodes of more than one step (``spec.is_multi_turn``)."""
    return bool(getattr(getattr(environment, "spec", None), "is_multi_turn", False))


def refuse_text_prompts(conversational: bool, environment: Any) -> None:
    """A multi-turn row's prompt is a conversation: plain-text prompts are a ValueError saying so."""
    if not conversational:
        raise ValueError(
            f"{environment.spec.name!r} is multi-turn: its rows carry the chat messages the agent loop opens the "
            "episode with, so they cannot be plain text; use conversational=True (drop --text)")


def refuse_system_prompt(system_prompt: Any, unset: Any, environment: Any) -> None:
    """A multi-turn row opens with the environment's own conversation: another system prompt is a ValueError."""
    if system_prompt is not unset:
        raise ValueError(
            f"{environment.spec.name!r} is multi-turn: its rows carry the messages the agent loop sends, which "
            "open with the environment's own system prompt, so system_prompt= cannot change them; set the "
            "system prompt in the environment's configuration instead")


def agent_reference(environment: Any) -> str:
    """The environment as the agent loops are configured with it: JSON text of ``environment_registry.get``
    arguments (keys sorted, defaults left out, task options as top-level keys, the system prompt always,
    ``iterative`` for an iterative environment), or ``""`` when it cannot be rebuilt from a configuration
    (written in Python) or the rebuilt environment would not open its episodes with the same messages."""
    try:
        reference = _registry_arguments(environment)
    except (TypeError, ValueError):
        return ""
    if reference and not _reproduces(environment, reference):
        return ""
    return reference


def _registry_arguments(environment: Any) -> str:
    inner = getattr(environment, "inner", None)
    iterative = getattr(environment, "config", None)
    wrap: dict[str, Any] | None = None
    if isinstance(iterative, IterativeConfig) and inner is not None:
        defaults = IterativeConfig()
        wrap = {f.name: getattr(iterative, f.name) for f in dataclasses.fields(IterativeConfig)
                if getattr(iterative, f.name) != getattr(defaults, f.name)}
        environment = inner
    reference = environment_reference(environment)
    if not reference:
        return ""
    config = canonical_config(json.loads(reference))
    params = config.pop("params", None) or {}
    if any(k in config for k in params):  # a task option named like a configuration field: not expressible
        return ""
    config.update(params)
    # The conversation's own settings, which single-turn references leave out (they do not change a score).
    if "system_prompt" not in config and hasattr(environment, "system_prompt"):
        config["system_prompt"] = environment.system_prompt
    if "prompt_template" not in config and getattr(environment, "prompt_template", None) is not None:
        config["prompt_template"] = environment.prompt_template
    if wrap is not None:
        if "iterative" in config:
            return ""
        config["iterative"] = wrap
    return json.dumps(config, sort_keys=True, separators=(",", ":"))


_checked: dict[str, bool] = {}  # references already rebuilt: whether they open task 0 with the same messages
_checked_lock = threading.Lock()


def _reproduces(environment: Any, reference: str) -> bool:
    """Whether the environment rebuilt from ``reference`` opens task 0 with ``environment``'s messages."""
    with _checked_lock:
        known = _checked.get(reference)
    if known is not None:
        return known
    from llenvs_go.integrations.agent_loop import environment_from

    try:
        rebuilt = environment_from(json.loads(reference))
        ok = len(rebuilt) == len(environment) and (len(environment) == 0 or (
            _first_messages(rebuilt) == _first_messages(environment)))
    except Exception:  # noqa: BLE001 - a reference that does not rebuild is no reference
        ok = False
    with _checked_lock:
        if len(_checked) < 1024:
            _checked[reference] = ok
    return ok


def _first_messages(environment: Any) -> list[dict[str, Any]]:
    state, _ = environment.reset(options={"task_index": 0})
    return [{"role": m.get("role"), "content": m.get("content")} for m in initial_messages(state)]


@dataclasses.dataclass(frozen=True)
class EpisodeStart:
    """The first turn of one task's episode.

    Attributes:
        task_index: the task.
        messages: the messages the episode opens with (role and content), as the agent loops send them.
        ground_truth: the task's expected answer ("" when the environment has none).
        tools: the tools offered on the first turn, as OpenAI function schemas (empty without tools).
    """

    task_index: int
    messages: list[dict[str, Any]]
    ground_truth: str
    tools: list[dict[str, Any]]


def task_indices(environment: Any, num_tasks: int | None, indices: Sequence[int] | None) -> Iterable[int]:
    """The tasks of an export: ``indices`` (each checked), else the first ``num_tasks`` (all when None)."""
    n = len(environment)
    if indices is None:
        return range(n if num_tasks is None else max(0, min(int(num_tasks), n)))
    out = []
    for i in indices:
        try:
            k = operator.index(i)
        except TypeError:
            raise TypeError(f"task indices must be ints, got {type(i).__name__} ({i!r})") from None
        if isinstance(i, bool) or not 0 <= k < n:
            raise IndexError(f"task index {i!r} is out of range for {environment.spec.name!r} "
                             f"(it has {n} tasks: 0 to {n - 1})")
        out.append(k)
    return out


def episode_starts(environment: Any, indices: Iterable[int]) -> list[EpisodeStart]:
    """The first turn of each task's episode: ``reset(options={"task_index": i})`` and its messages."""
    out = []
    for i in indices:
        state, _ = environment.reset(options={"task_index": i})
        messages = [{"role": m.get("role"), "content": m.get("content")} for m in initial_messages(state)]
        truth = getattr(state.hidden, "expected_answer", None)
        tools = [t.to_openai_schema() for t in (state.observation.available_tools or ())]
        out.append(EpisodeStart(task_index=i, messages=messages, ground_truth="" if truth is None else str(truth),
                                tools=tools))
    return out


#: Key of the last user message of a multi-turn TRL prompt that holds the task index. TRL hands its rollout
#: function the prompts alone, and tasks whose episodes open with the same text (every guess_number task
#: asks the same question) are told apart by it; chat templates leave keys they do not know out.
PROMPT_TASK_KEY = "llenvs_task_index"


def mark_prompt(messages: list[dict[str, Any]], task_index: int) -> list[dict[str, Any]]:
    """``messages`` with the task index under :data:`PROMPT_TASK_KEY` in the last user message."""
    out = [dict(m) for m in messages]
    for m in reversed(out):
        if m.get("role") == "user":
            m[PROMPT_TASK_KEY] = task_index
            break
    else:
        raise ValueError(f"the episode of task {task_index} opens without a user message: {messages!r}")
    return out


def marked_task_index(prompt: Any) -> int | None:
    """The task index a prompt of :func:`mark_prompt` holds; None for any other prompt."""
    if isinstance(prompt, str):
        return None
    try:
        messages = list(prompt)
    except TypeError:
        return None
    for m in reversed(messages):
        if isinstance(m, dict) and m.get("role") == "user":
            value = m.get(PROMPT_TASK_KEY)
            return None if value is None else operator.index(value)
    return None
