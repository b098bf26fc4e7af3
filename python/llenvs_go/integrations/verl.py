"""veRL: a drop-in ``compute_score`` and datasets in ``RLHFDataset``'s schema.

veRL 0.9's reward-loop managers call the reward function with keywords,
once per sample: a plain function through the event loop's thread pool, an
``async def`` awaited on the loop itself::

    compute_score(data_source=..., solution_str=..., ground_truth=..., extra_info=..., **kwargs)

where ``ground_truth`` is the row's ``reward_model["ground_truth"]``,
``extra_info`` is the row's ``extra_info`` (``{}`` when the row has none;
``num_turns`` and ``rollout_reward_scores`` added in place) and ``kwargs``
holds ``reward_kwargs`` from the config and, with a reward model,
``reward_router_address`` / ``reward_model_tokenizer``. Older managers and
llenvs call it positionally, ``(data_source, solution_str, ground_truth,
extra_info)``. Both work here.

Two ways to use it:

- ``make_verl_reward_fn(env)`` in your own reward file, scoring against
  ``env``; rows built from another environment are refused.
- the shipped file ``llenvs_go/integrations/verl_reward.py`` (or
  ``pkg://llenvs_go.integrations.verl_reward``), whose :func:`compute_score`
  rebuilds each row's environment from the reference in its ``extra_info``;
  its ``compute_score_async`` is the same for managers that await.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Sequence
from typing import Any

from llenvs_go.integrations._references import (
    REFERENCE_KEY,
    BoundEnvironment,
    EnvironmentMismatchError,
    RefusedReferenceError,
    UnscorableRowError,
    allow_environments,
    bound_from_reference,
    task_index_of,
)
from llenvs_go.integrations.agent_loop import LLEnvsAgentLoop
from llenvs_go.integrations.dataset_provider import DatasetProvider

_UNSET: Any = object()

__all__ = ["EnvironmentMismatchError", "LLEnvsAgentLoop", "RefusedReferenceError", "UnscorableRowError",
           "allow_environments", "compute_score", "compute_score_async", "make_verl_dataset", "make_verl_reward_fn",
           "write_verl_parquet"]


def _task_of(extra_info: Any) -> int:
    if not isinstance(extra_info, dict) or "task_index" not in extra_info:
        got = "None" if extra_info is None else f"extra_info with keys {sorted(extra_info)}" \
            if isinstance(extra_info, dict) else type(extra_info).__name__
        raise UnscorableRowError(
            f"compute_score needs extra_info['task_index'] to know the task, got {got}; build the rows with "
            "llenvs_go.integrations.verl.make_verl_dataset (its extra_info carries task_index and the environment)")
    return task_index_of(extra_info["task_index"], "extra_info['task_index']")


def _text_of(solution_str: Any) -> str:
    if type(solution_str) is str:
        return solution_str
    if isinstance(solution_str, str):
        return str(solution_str)
    raise TypeError(f"solution_str must be the decoded response (a str), got {type(solution_str).__name__}")


def _score(bound: BoundEnvironment, solution_str: Any, ground_truth: Any, extra_info: Any,
           return_dict: bool) -> Any:
    try:
        i = extra_info["task_index"]
    except (TypeError, KeyError):
        i = _task_of(extra_info)  # raises, saying what the row lacks
    if type(i) is not int:
        i = task_index_of(i, "extra_info['task_index']")
    reference = extra_info.get(REFERENCE_KEY)
    if reference and reference != bound.reference:
        bound.check_reference(reference)
    if ground_truth:
        bound.check_truth(i, ground_truth)
    text = solution_str if type(solution_str) is str else _text_of(solution_str)
    if not return_dict:
        return bound.scorer.total(i, text)
    r = bound.scorer.score(i, text)
    out = {"score": r.total}
    for name, value in r.signals.items():
        out[name] = 0.0 if value is None else value
    out["answer_found"] = 0.0 if r.extracted_answer is None else 1.0
    return out


def make_verl_reward_fn(environment: Any, *, return_dict: bool = False,
                        asynchronous: bool = False) -> Callable[..., Any]:
    """A veRL ``compute_score`` that scores responses against ``environment``'s tasks.

    Args:
        environment: any single-turn environment with llenvs' protocol
            (``environment_registry.get(...)`` or one written in Python).
        return_dict: return ``{"score": total, <signal>: value, ...,
            "answer_found": 0.0 | 1.0}`` instead of the total alone; every
            sample has the same numeric keys (veRL stacks them by the first
            sample's keys).
        asynchronous: return an ``async def``. veRL's reward-loop managers
            (``naive``, the default, ``dapo``, ``limited``) await an async
            function on their event loop instead of sending each call to a
            thread pool; a sample the Go core scores on its own is scored
            right there (a few microseconds, less than the thread hop it
            saves), anything that runs Python code (an environment written
            in Python, the reasoning-gym fallback, Python reward functions)
            or a response over 1 MiB in a worker thread. veRL's ``remote``
            manager accepts only the plain function.

    The function takes ``(data_source, solution_str, ground_truth,
    extra_info, **kwargs)`` by keyword or position, reads the task from
    ``extra_info["task_index"]`` and checks the row against the environment
    (its ``env_reference`` and its ground truth): a row built from another
    environment (seed, size, configuration) raises
    :class:`EnvironmentMismatchError`, a row without a task index
    :class:`UnscorableRowError`. One sample is scored per call, on the
    library's single-item path; it is safe from many threads.
    """
    bound = BoundEnvironment(environment)

    def compute_score(data_source: Any = None, solution_str: Any = None, ground_truth: Any = None,
                      extra_info: Any = None, **kwargs: Any) -> Any:
        """Score ``solution_str`` against the task ``extra_info["task_index"]`` (veRL's compute_score)."""
        return _score(bound, solution_str, ground_truth, extra_info, return_dict)

    if not asynchronous:
        return compute_score

    async def compute_score_async(data_source: Any = None, solution_str: Any = None, ground_truth: Any = None,
                                  extra_info: Any = None, **kwargs: Any) -> Any:
        """Score ``solution_str`` against the task ``extra_info["task_index"]`` (veRL's async compute_score)."""
        if _runs_inline(bound, solution_str):
            return _score(bound, solution_str, ground_truth, extra_info, return_dict)
        return await asyncio.to_thread(_score, bound, solution_str, ground_truth, extra_info, return_dict)

    return compute_score_async


# Longest response (in characters) scored on the event loop's thread by the
# async functions: Go scores 1 MB in well under a millisecond, so the loop is
# never held for long; longer ones go to a worker thread.
_INLINE_MAX_CHARS = 1 << 20


def _runs_inline(bound: BoundEnvironment, solution_str: Any) -> bool:
    """Whether one sample is cheap enough to score without leaving the event loop's thread.

    True when the Go core scores the environment on its own (no Python
    ``reset``/``step``, reward function or reasoning-gym fallback) and the
    response is not huge: a thread hop would cost tens of times the scoring
    itself. Anything that may run Python code or take long goes to a worker
    thread, so the event loop is never blocked.
    """
    return (bound.scorer._native and bound.environment.backend == "native"
            and (type(solution_str) is not str or len(solution_str) <= _INLINE_MAX_CHARS))


def compute_score(data_source: Any = None, solution_str: Any = None, ground_truth: Any = None,
                  extra_info: Any = None, **kwargs: Any) -> float:
    """Score a response against the environment named by its row (the shipped reward function).

    The environment is rebuilt from ``extra_info["env_reference"]`` (written
    by :func:`make_verl_dataset`), once per process and per configuration,
    so a batch that mixes environments scores each row against its own.
    Returns the total reward as a float.

    Rows are untrusted input: a reference may select a built-in procedural
    task, or an environment configured for this process
    (``$LLENVS_GO_ENVIRONMENTS``, ``allow_environments``, or
    ``+reward.custom_reward_function.reward_kwargs.environments=<file>``,
    which veRL passes here as ``environments=``), never a hub dataset, a
    file or a loader option.

    Raises:
        UnscorableRowError: ``extra_info`` has no task index or no reference.
        RefusedReferenceError: the reference names what a row may not
            choose (a hub dataset, a file, a URL, a loader option); the
            message says how to configure the environment.
        EnvironmentMismatchError: the row's ground truth is not the task's
            (the row was built with another version of the environment).
    """
    i = _task_of(extra_info)
    bound = bound_from_reference(extra_info.get(REFERENCE_KEY), kwargs.get("environments"))
    bound.check_truth(i, ground_truth)
    return bound.scorer.total(i, _text_of(solution_str))



async def compute_score_async(data_source: Any = None, solution_str: Any = None, ground_truth: Any = None,
                              extra_info: Any = None, **kwargs: Any) -> float:
    """:func:`compute_score` as an ``async def``, for veRL's reward-loop managers that await it.

    veRL's ``naive`` manager (the default) sends a plain function to a thread
    pool once per sample, and that hop costs far more than scoring a sample
    in Go; an async function is awaited on the manager's event loop instead.
    A sample the Go core scores on its own is scored right there, anything
    that runs Python code (the reasoning-gym fallback, an environment with
    Python reward functions) or a response over 1 MiB in a worker thread.
    Select it with ``reward.custom_reward_function.name=compute_score_async``.
    veRL's ``remote`` manager refuses async functions: use
    :func:`compute_score` there.
    """
    i = _task_of(extra_info)
    bound = bound_from_reference(extra_info.get(REFERENCE_KEY), kwargs.get("environments"))
    if _runs_inline(bound, solution_str):
        bound.check_truth(i, ground_truth)
        return bound.scorer.total(i, _text_of(solution_str))
    return await asyncio.to_thread(compute_score, data_source, solution_str, ground_truth, extra_info, **kwargs)


def make_verl_dataset(environment: Any, num_tasks: int | None = None, *, split: str = "train",
                      system_prompt: Any = _UNSET, ability: str | None = None,
                      indices: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Rows for veRL's ``RLHFDataset``, one per task (the first ``num_tasks``; all when None).

    Each row::

        {"data_source": <task name>,
         "prompt": [{"role": "system", "content": <answer-format prompt>}, {"role": "user", "content": <question>}],
         "ability": <adapter name>,
         "reward_model": {"style": "rule", "ground_truth": <answer>},
         "extra_info": {"index": i, "task_index": i, "split": split, "env_reference": <configuration JSON>},
         "ground_truth": <answer>}

    ``env_reference`` is the environment's configuration as JSON text ("" for
    an environment written in Python); the shipped ``compute_score`` rebuilds
    the environment from it. The top-level ``ground_truth`` is llenvs' key.
    Save the rows with :func:`write_verl_parquet`.

    Args:
        environment: any environment with llenvs' protocol and ``len()``.
        num_tasks: how many tasks (from index 0); a negative count gives no rows.
        split: ``extra_info["split"]``.
        system_prompt: the system message (a prompt name, text, or None for
            none); the environment's own answer-format prompt by default.
        ability: the ``ability`` column; the environment's adapter name by default.
        indices: these tasks instead of the first ``num_tasks`` (e.g. one
            chunk of a large export).
    """
    provider = DatasetProvider(environment) if system_prompt is _UNSET else \
        DatasetProvider(environment, system_prompt=system_prompt)
    n = len(provider) if num_tasks is None else max(0, min(int(num_tasks), len(provider)))
    bound = BoundEnvironment(environment)
    spec = environment.spec
    source, reference = spec.name, bound.reference
    ability = spec.adapter if ability is None else ability
    rows = []
    for item in provider.get_items(range(n) if indices is None else indices):
        truth = "" if item.ground_truth is None else item.ground_truth
        i = item.task_index
        rows.append({
            "data_source": source,
            "prompt": [{"role": m.get("role"), "content": m.get("content")} for m in item.messages],
            "ability": ability,
            "reward_model": {"style": "rule", "ground_truth": truth},
            "extra_info": {"index": i, "task_index": i, "split": split, REFERENCE_KEY: reference},
            "ground_truth": truth,
        })
    return rows


def write_verl_parquet(rows: list[dict[str, Any]], path: str | os.PathLike[str]) -> str:
    """Save rows of :func:`make_verl_dataset` as a parquet file for ``data.train_files`` (needs pyarrow).

    Parquet cannot store an empty struct: a ``{}`` anywhere in a row is a
    ValueError naming where (carry nested configuration as JSON text).
    Returns the path written.
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as e:
        raise ImportError("write_verl_parquet needs pyarrow: pip install pyarrow (datasets brings it)") from e
    for k, row in enumerate(rows):
        where = _empty_dict(row, f"rows[{k}]")
        if where:
            raise ValueError(f"{where} is an empty dict, which parquet cannot store; drop it or store it as JSON text")
    path = os.fspath(path)
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def _empty_dict(value: Any, where: str) -> str | None:
    if isinstance(value, dict):
        if not value:
            return where
        for k, v in value.items():
            found = _empty_dict(v, f"{where}[{k!r}]")
            if found:
                return found
    elif isinstance(value, list):
        for k, v in enumerate(value):
            found = _empty_dict(v, f"{where}[{k}]")
            if found:
                return found
    return None
