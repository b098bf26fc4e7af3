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
import json
import os
from collections.abc import Callable, Sequence
from typing import Any

from llenvs_go.integrations._multiturn import (
    agent_reference,
    episode_starts,
    is_multi_turn,
    refuse_system_prompt,
    task_indices,
)
from llenvs_go.integrations._references import (
    PROCEDURAL_ADAPTERS,
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
from llenvs_go.integrations.verl_sources import default_compute_score, family_of, is_known_source, score_sources

_UNSET: Any = object()
#: The ``agent_name`` of multi-turn rows: the name the docs give ``LLEnvsVerlAgentLoop``'s config entry.
AGENT_NAME = "llenvs"

__all__ = ["AGENT_NAME", "EnvironmentMismatchError", "LLEnvsAgentLoop", "RefusedReferenceError", "UnscorableRowError",
           "allow_environments", "compute_score", "compute_score_async", "compute_score_batch", "make_verl_dataset",
           "make_verl_reward_fn", "write_verl_parquet"]


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
    _, status = bound.scorer.outcome(i, text)
    r = bound.scorer.score(i, text)
    out = {"score": r.total}
    for name, value in r.signals.items():
        out[name] = 0.0 if value is None else value
    out["answer_found"] = 0.0 if r.extracted_answer is None else 1.0
    out["llenvs/timeout"] = 1.0 if status == "timeout" else 0.0
    out["llenvs/error"] = 1.0 if status == "error" else 0.0
    return out


def make_verl_reward_fn(environment: Any, *, return_dict: bool = False,
                        asynchronous: bool = False) -> Callable[..., Any]:
    """A veRL ``compute_score`` that scores responses against ``environment``'s tasks.

    Args:
        environment: any single-turn environment with llenvs' protocol
            (``environment_registry.get(...)`` or one written in Python).
        return_dict: return ``{"score": total, <signal>: value, ...,
            "answer_found": 0.0 | 1.0, "llenvs/timeout": 0.0 | 1.0,
            "llenvs/error": 0.0 | 1.0}`` instead of the total alone; every
            sample has the same numeric keys (veRL stacks them by the first
            sample's keys and logs their means). A sample whose scoring
            timed out or failed has score 0.0 and its key at 1.0; in the
            plain float form it is 0.0 with a ``ScoringFailureWarning``.
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


def _by_source(data_source: Any, extra_info: Any) -> bool:
    """Whether a row is scored by its data_source's veRL rule rather than as an llenvs row.

    A row with an llenvs reference is an llenvs row; so is one whose
    data_source veRL does not know but which has a task index or names an
    llenvs task (the llenvs path then says what the row lacks). Every other
    row is routed by its data_source (an unknown one raising veRL's
    NotImplementedError).
    """
    if isinstance(extra_info, dict) and extra_info.get(REFERENCE_KEY):
        return False
    if is_known_source(data_source):
        return True
    try:
        family_of(data_source)
        return True
    except NotImplementedError:
        if isinstance(extra_info, dict) and "task_index" in extra_info:
            return False
        return not _names_llenvs_task(data_source)


def _names_llenvs_task(name: Any) -> bool:
    from llenvs_go.core.registry import environment_registry

    # Procedural task names only: make_verl_dataset writes them as data_source ("gsm8k" is a veRL user's name too).
    return isinstance(name, str) and any((a, name) in environment_registry for a in PROCEDURAL_ADAPTERS)


def compute_score(data_source: Any = None, solution_str: Any = None, ground_truth: Any = None,
                  extra_info: Any = None, **kwargs: Any) -> float | dict[str, Any]:
    """Score a response: against the environment named by its row, or by its data_source's veRL rule.

    A row built by :func:`make_verl_dataset` names its environment in
    ``extra_info["env_reference"]``; the environment is rebuilt from it
    once per process and per configuration, so a batch that mixes
    environments scores each row against its own, and the total reward is
    returned as a float. Any other row (a veRL user's own gsm8k, MATH,
    DAPO, Numina, geometry3k or search-R1 parquet, whose ``extra_info`` is
    None, ``{}`` or ``{"index", "split"}``) is routed by ``data_source`` as
    veRL 0.9.1's ``default_compute_score`` routes it and gets the same
    value and type (a float, or math_dapo's ``{"score", "acc", "pred"}``),
    computed in Go (:mod:`llenvs_go.integrations.verl_sources`).

    Rows are untrusted input: a reference may select a built-in procedural
    task, or an environment configured for this process
    (``$LLENVS_GO_ENVIRONMENTS``, ``allow_environments``, or
    ``+reward.custom_reward_function.reward_kwargs.environments=<file>``,
    which veRL passes here as ``environments=``), never a hub dataset, a
    file or a loader option.

    Raises:
        NotImplementedError: a row without a reference whose data_source
            veRL does not know either (as veRL raises; the message names
            the closest source).
        UnscorableRowError: an llenvs row without a task index or a reference.
        RefusedReferenceError: the reference names what a row may not
            choose (a hub dataset, a file, a URL, a loader option); the
            message says how to configure the environment.
        EnvironmentMismatchError: the row's ground truth is not the task's
            (the row was built with another version of the environment).
    """
    if _by_source(data_source, extra_info):
        return default_compute_score(data_source, solution_str, ground_truth)
    i = _task_of(extra_info)
    bound = bound_from_reference(extra_info.get(REFERENCE_KEY), kwargs.get("environments"))
    bound.check_truth(i, ground_truth)
    return bound.scorer.total(i, _text_of(solution_str))



async def compute_score_async(data_source: Any = None, solution_str: Any = None, ground_truth: Any = None,
                              extra_info: Any = None, **kwargs: Any) -> float | dict[str, Any]:
    """:func:`compute_score` as an ``async def``, for veRL's reward-loop managers that await it.

    veRL's ``naive`` manager (the default) sends a plain function to a thread
    pool once per sample, and that hop costs far more than scoring a sample
    in Go; an async function is awaited on the manager's event loop instead.
    A sample the Go core scores on its own (every row routed by its
    data_source, and Go-backed environments) is scored right there,
    anything that runs Python code (the reasoning-gym fallback, an
    environment with Python reward functions) or a response over 1 MiB in a
    worker thread.
    Select it with ``reward.custom_reward_function.name=compute_score_async``.
    veRL's ``remote`` manager refuses async functions: use
    :func:`compute_score` there.
    """
    if _by_source(data_source, extra_info):
        if type(solution_str) is str and len(solution_str) > _INLINE_MAX_CHARS:
            return await asyncio.to_thread(default_compute_score, data_source, solution_str, ground_truth)
        return default_compute_score(data_source, solution_str, ground_truth)
    i = _task_of(extra_info)
    bound = bound_from_reference(extra_info.get(REFERENCE_KEY), kwargs.get("environments"))
    if _runs_inline(bound, solution_str):
        bound.check_truth(i, ground_truth)
        return bound.scorer.total(i, _text_of(solution_str))
    return await asyncio.to_thread(compute_score, data_source, solution_str, ground_truth, extra_info, **kwargs)


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[Any], ground_truths: Sequence[Any],
                        extra_infos: Sequence[Any] | None = None, **kwargs: Any) -> list[float | dict[str, Any]]:
    """:func:`compute_score` for a whole batch, as veRL's ``batch`` reward manager calls it (one entry per sample).

    Rows routed by their data_source are scored in one call into Go, and
    the rows of each llenvs environment in one call each. Raises what
    :func:`compute_score` raises for a bad row.
    """
    n = len(solution_strs)
    infos = list(extra_infos) if extra_infos is not None else [None] * n
    if len(data_sources) != n or len(ground_truths) != n or len(infos) != n:
        raise ValueError(f"data_sources, solution_strs, ground_truths and extra_infos must have one entry per sample, "
                         f"got {len(data_sources)}, {n}, {len(ground_truths)} and {len(infos)}")
    out: list[Any] = [None] * n
    by_source = [k for k in range(n) if _by_source(data_sources[k], infos[k])]
    if by_source:
        scored = score_sources([data_sources[k] for k in by_source], [solution_strs[k] for k in by_source],
                               [ground_truths[k] for k in by_source])
        for j, k in enumerate(by_source):
            out[k] = scored.value(j)
    groups: dict[int, tuple[BoundEnvironment, list[int], list[int]]] = {}
    for k in range(n):
        if out[k] is None:
            i = _task_of(infos[k])
            bound = bound_from_reference(infos[k].get(REFERENCE_KEY), kwargs.get("environments"))
            bound.check_truth(i, ground_truths[k])
            group = groups.setdefault(id(bound), (bound, [], []))
            group[1].append(k)
            group[2].append(i)
    for bound, rows, tasks in groups.values():
        for k, total in zip(rows, bound.scorer.totals(tasks, [_text_of(solution_strs[k]) for k in rows]), strict=True):
            out[k] = total
    return out


def make_verl_dataset(environment: Any, num_tasks: int | None = None, *, split: str = "train",
                      system_prompt: Any = _UNSET, ability: str | None = None,
                      indices: Sequence[int] | None = None, agent_name: str = AGENT_NAME) -> list[dict[str, Any]]:
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

    A multi-turn environment (``spec.is_multi_turn``) gives rows for the agent
    loop :class:`~llenvs_go.integrations.verl_agent_loop.LLEnvsVerlAgentLoop`,
    which plays each row's task and returns the episode's reward (no
    ``compute_score`` is involved)::

        {"data_source": <environment name>,
         "agent_name": agent_name,
         "prompt": <the messages the episode opens with>,
         "ability": <adapter name>,
         "reward_model": {"style": "rule", "ground_truth": <answer>},
         "extra_info": {"index": i, "task_index": i, "split": split,
                        "env_reference": <environment_registry.get arguments as JSON>,
                        "tools": <OpenAI tool schemas as JSON, only for environments with tools>},
         "ground_truth": <answer>}

    The loop plays its own configured ``env`` (give it the rows'
    ``env_reference``) and finds the task in ``extra_info["task_index"]``.

    Args:
        environment: any environment with llenvs' protocol and ``len()``.
        num_tasks: how many tasks (from index 0); a negative count gives no rows.
        split: ``extra_info["split"]``.
        system_prompt: the system message (a prompt name, text, or None for
            none); the environment's own answer-format prompt by default.
        ability: the ``ability`` column; the environment's adapter name by default.
        indices: these tasks instead of the first ``num_tasks`` (e.g. one
            chunk of a large export).
        agent_name: multi-turn rows: the ``agent_name`` column, the name of the
            loop's entry in ``rollout.agent.agent_loop_config_path``.

    Raises:
        ValueError: ``system_prompt`` given for a multi-turn environment (its
            rows open with the environment's own conversation).
    """
    if is_multi_turn(environment):
        return _multi_turn_rows(environment, num_tasks, split, system_prompt, ability, indices, agent_name)
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


def _multi_turn_rows(environment: Any, num_tasks: int | None, split: str, system_prompt: Any, ability: str | None,
                     indices: Sequence[int] | None, agent_name: str) -> list[dict[str, Any]]:
    """The rows of a multi-turn environment (see :func:`make_verl_dataset`)."""
    refuse_system_prompt(system_prompt, _UNSET, environment)
    if not isinstance(agent_name, str) or not agent_name:
        raise ValueError(f"agent_name must be the non-empty name of the agent loop's config entry, got {agent_name!r}")
    spec = environment.spec
    reference = agent_reference(environment)
    ability = spec.adapter if ability is None else ability
    rows = []
    for start in episode_starts(environment, task_indices(environment, num_tasks, indices)):
        i = start.task_index
        extra: dict[str, Any] = {"index": i, "task_index": i, "split": split, REFERENCE_KEY: reference}
        if start.tools:
            extra["tools"] = json.dumps(start.tools, sort_keys=True)
        rows.append({
            "data_source": spec.name,
            "agent_name": agent_name,
            "prompt": start.messages,
            "ability": ability,
            "reward_model": {"style": "rule", "ground_truth": start.ground_truth},
            "extra_info": extra,
            "ground_truth": start.ground_truth,
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
    check_parquet_rows(rows)
    path = os.fspath(path)
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def check_parquet_rows(rows: Sequence[dict[str, Any]], first: int = 0) -> None:
    """Raise ValueError naming the first empty dict in ``rows`` (numbered from ``first``): parquet cannot store one."""
    for k, row in enumerate(rows, first):
        where = _empty_dict(row, f"rows[{k}]")
        if where:
            raise ValueError(f"{where} is an empty dict, which parquet cannot store; drop it or store it as JSON text")


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
