"""TRL: a reward function for ``GRPOTrainer(reward_funcs=...)`` and its dataset.

TRL 1.x calls every reward function with keywords only, once per generation
batch::

    reward_func(prompts=..., completions=..., completion_ids=..., trainer_state=...,
                log_extra=..., log_metric=..., <every dataset column but prompt>=...)

so the task index arrives as ``task_index=`` (the column's own name).
Completions are strings for a standard dataset and lists of messages for a
conversational one (``prompt`` holds messages). The whole batch is scored in
one call into Go.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from llenvs_go.integrations._multiturn import (
    agent_reference,
    episode_starts,
    is_multi_turn,
    mark_prompt,
    refuse_system_prompt,
    refuse_text_prompts,
    task_indices,
)
from llenvs_go.integrations._references import (
    REFERENCE_KEY,
    BoundEnvironment,
    EnvironmentMismatchError,
    completion_text,
    mismatch_message,
    same_environment,
)
from llenvs_go.integrations.dataset_provider import DatasetProvider
from llenvs_go.integrations.trl_environment import make_environment_factory
from llenvs_go.integrations.trl_rewards import accuracy_reward, reasoning_accuracy_reward, think_format_reward
from llenvs_go.integrations.trl_rollout import make_trl_rollout_fn

_UNSET: Any = object()

#: Keywords TRL passes to reward functions itself; a dataset column of one of these names breaks the call.
TRL_KEYWORDS = frozenset({"prompts", "completions", "completion_ids", "trainer_state", "log_extra", "log_metric",
                          "environments", "environment"})

__all__ = ["TRL_KEYWORDS", "EnvironmentMismatchError", "accuracy_reward", "make_environment_factory",
           "make_trl_dataset", "make_trl_reward_fn", "make_trl_rollout_fn", "reasoning_accuracy_reward",
           "think_format_reward"]


def _texts(completions: Any) -> list[str] | tuple[str, ...]:
    if isinstance(completions, (str, bytes)) or not isinstance(completions, Sequence):
        raise TypeError(f"completions must be a list (one completion per row), got {type(completions).__name__}")
    if type(completions) in (list, tuple) and all(type(c) is str for c in completions):
        return completions
    return [completion_text(c) for c in completions]


def _column(value: Any, name: str, n: int) -> list[Any]:
    """A dataset column as TRL passes it (a list, a tuple or a numpy array) as a list of ``n`` Python values."""
    if type(value) is not list:
        if isinstance(value, (str, bytes, dict)) or not (isinstance(value, Sequence) or hasattr(value, "tolist")):
            raise TypeError(f"{name} must be a column (a list, tuple or numpy array with one entry per completion), "
                            f"got {type(value).__name__}")
        value = value.tolist() if hasattr(value, "tolist") else list(value)
        if not isinstance(value, list):  # a 0-d numpy array
            raise TypeError(f"{name} must be a column with one entry per completion, got a scalar array")
    if len(value) != n:
        raise ValueError(f"{name} has {len(value)} entries but there are {n} completions; pass one per completion")
    return value


#: Statuses of samples that were not scored (see ``llenvs_go.integrations.scoring.STATUSES``).
UNSCORED_STATUSES = ("timeout", "error")


def _score(bound: BoundEnvironment, completions: Any, task_index: Any, task_indices: Any, ground_truth: Any,
           env_reference: Any, unscored: float | None = None, log_metric: Any = None) -> list[float | None]:
    which = "task_index" if task_index is not None else "task_indices"
    indices = task_index if task_index is not None else task_indices
    if indices is None:
        raise TypeError("the reward function needs the task of each completion: a dataset column 'task_index' "
                        "(make_trl_dataset has one; TRL passes it as task_index=) or task_indices=[...]")
    texts = _texts(completions)
    indices = _column(indices, which, len(texts))
    if env_reference is not None:
        _check_references(bound, _column(env_reference, "env_reference", len(texts)))
    if ground_truth is not None:
        truths = _column(ground_truth, "ground_truth", len(texts))
        if truths:
            _check_truths(bound, indices, truths)
    totals, statuses = bound.scorer.outcomes(indices, texts)
    if statuses.count("timeout") + statuses.count("error"):
        out: list[float | None] = list(totals)
        for k, status in enumerate(statuses):
            if status in UNSCORED_STATUSES:
                out[k] = unscored
        if callable(log_metric):
            for status in UNSCORED_STATUSES:
                log_metric(f"llenvs/{status}", float(statuses.count(status)))
        return out
    if callable(log_metric):
        for status in UNSCORED_STATUSES:
            log_metric(f"llenvs/{status}", 0.0)  # every rank logs the same keys on every call
    return totals


def _check_references(bound: BoundEnvironment, references: list[Any]) -> None:
    own = bound.reference
    if references.count(own) == len(references):
        return
    seen = set()
    for r in references:
        if not r or r == own:
            continue
        if not isinstance(r, str):
            raise TypeError(f"env_reference entries must be str (the column make_trl_dataset writes), "
                            f"got {type(r).__name__}")
        if r not in seen:
            seen.add(r)
            if not same_environment(r, own):
                raise EnvironmentMismatchError(mismatch_message(r, own))


def _check_truths(bound: BoundEnvironment, indices: Sequence[int], truths: Sequence[Any]) -> None:
    if bound.truths(indices) != list(truths):
        for i, truth in zip(indices, truths, strict=True):
            bound.check_truth(i, truth)


def make_trl_reward_fn(environment: Any, *, asynchronous: bool = False,
                       unscored: float | None = None) -> Callable[..., list[float | None]]:
    """A reward function for TRL's ``GRPOTrainer`` that scores completions against ``environment``'s tasks.

    It accepts TRL's real call (``prompts``, ``completions``,
    ``completion_ids``, ``trainer_state``, ``log_extra``, ``log_metric`` and
    every dataset column by its own name), reads the tasks from
    ``task_index=`` (or llenvs' ``task_indices=``), scores standard (str) and
    conversational (the last assistant message's content) completions, and
    returns one float per completion. When the dataset's ``env_reference``
    and ``ground_truth`` columns arrive they are checked against the
    environment: rows built from another environment raise
    :class:`EnvironmentMismatchError`. Its ``__name__`` (what TRL logs the
    reward under) is ``<task name>_reward``.

    Args:
        environment: any single-turn environment with llenvs' protocol.
        asynchronous: return an ``async def`` (TRL awaits it on its event
            loop thread, concurrently with other async reward functions; the
            scoring runs in a worker thread).
        unscored: the reward of a sample whose scoring timed out (a budget
            reached) or failed. ``None`` (the default) is TRL's "no reward
            for this sample": a completion every reward function gave None
            is left out of its group's baseline and gets advantage 0, so the
            model is never trained on a false 0. Give a number (e.g. 0.0) to
            score such samples as wrong instead. When TRL passes
            ``log_metric``, the counts are logged as ``llenvs/timeout`` and
            ``llenvs/error`` on every call.
    """
    bound = BoundEnvironment(environment)
    name = f"{bound.name}_reward"

    def reward_func(prompts: Any = None, completions: Any = None, completion_ids: Any = None, *,
                    task_index: Any = None, task_indices: Any = None, ground_truth: Any = None,
                    env_reference: Any = None, **kwargs: Any) -> list[float | None]:
        """One reward per completion (TRL's reward-function call)."""
        return _score(bound, completions, task_index, task_indices, ground_truth, env_reference, unscored,
                      kwargs.get("log_metric"))

    if asynchronous:
        async def reward_func_async(prompts: Any = None, completions: Any = None, completion_ids: Any = None, *,
                                    task_index: Any = None, task_indices: Any = None, ground_truth: Any = None,
                                    env_reference: Any = None, **kwargs: Any) -> list[float | None]:
            """One reward per completion (TRL's reward-function call), scored in a worker thread."""
            return await asyncio.to_thread(_score, bound, completions, task_index, task_indices, ground_truth,
                                           env_reference, unscored, kwargs.get("log_metric"))

        fn: Callable[..., Any] = reward_func_async
    else:
        fn = reward_func
    fn.__name__ = fn.__qualname__ = name
    return fn


def make_trl_dataset(environment: Any, num_tasks: int | None = None, conversational: bool = True, *,
                     system_prompt: Any = _UNSET, indices: Sequence[int] | None = None) -> Any:
    """A ``datasets.Dataset`` for ``GRPOTrainer(train_dataset=...)``, one row per task (needs ``datasets``).

    Columns:
        prompt: the chat messages (the answer-format system prompt, then the
            question) when ``conversational``; otherwise one text, the
            system prompt and the question separated by a blank line.
        task_index: the task (TRL passes it to reward functions as ``task_index=``).
        ground_truth: the expected answer ("" when the environment has none).
        env_reference: the environment's configuration as JSON text.

    No column is named like one of TRL's own keywords (:data:`TRL_KEYWORDS`).

    A multi-turn environment (``spec.is_multi_turn``) gives rows for
    :func:`~llenvs_go.integrations.trl_rollout.make_grpo_rollout_func`, which
    gets the prompts alone and finds each one's task: ``prompt`` is the
    messages the episode opens with, the last user message also holding the
    task index under ``"llenvs_task_index"`` (the rollout function reads it;
    chat templates ignore it; every guess_number task opens with the same
    text, so the text alone cannot tell the tasks apart), and
    ``env_reference`` the environment as the rollout function's ``env``
    (JSON of ``environment_registry.get`` arguments). The columns are the
    same; ``conversational=False`` and ``system_prompt`` are refused (a
    ValueError), since the episode's conversation is the environment's own.

    Args:
        environment: any environment with llenvs' protocol and ``len()``.
        num_tasks: how many tasks (from index 0); all when None.
        conversational: messages (True) or plain text (False) in ``prompt``.
        system_prompt: the system message (a prompt name, text, or None);
            the environment's own answer-format prompt by default.
        indices: these tasks instead of the first ``num_tasks`` (e.g. one
            chunk of a large export).
    """
    try:
        import datasets
    except ImportError as e:
        raise ImportError("make_trl_dataset needs the datasets package: pip install datasets") from e
    if is_multi_turn(environment):
        refuse_text_prompts(conversational, environment)
        refuse_system_prompt(system_prompt, _UNSET, environment)
        starts = episode_starts(environment, task_indices(environment, num_tasks, indices))
        return datasets.Dataset.from_dict({
            "prompt": [mark_prompt(s.messages, s.task_index) for s in starts],
            "task_index": [s.task_index for s in starts],
            "ground_truth": [s.ground_truth for s in starts],
            REFERENCE_KEY: [agent_reference(environment)] * len(starts),
        })
    provider = DatasetProvider(environment) if system_prompt is _UNSET else \
        DatasetProvider(environment, system_prompt=system_prompt)
    n = len(provider) if num_tasks is None else max(0, min(int(num_tasks), len(provider)))
    items = provider.get_items(range(n) if indices is None else indices)
    n = len(items)
    reference = BoundEnvironment(environment).reference
    if conversational:
        # An environment whose observation has no messages (llenvs' single-turn ones) asks its prompt as the user.
        prompts: list[Any] = [[{"role": m.get("role"), "content": m.get("content")} for m in it.messages]
                              or [{"role": "user", "content": it.prompt}] for it in items]
    else:
        prompts = ["\n\n".join(str(m.get("content") or "") for m in it.messages) or it.prompt for it in items]
    return datasets.Dataset.from_dict({
        "prompt": prompts,
        "task_index": [it.task_index for it in items],
        "ground_truth": ["" if it.ground_truth is None else it.ground_truth for it in items],
        REFERENCE_KEY: [reference] * n,
    })
