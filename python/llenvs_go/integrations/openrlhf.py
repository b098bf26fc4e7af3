"""OpenRLHF: a ``reward_func`` for ``--reward.remote_url <file>.py`` and its JSONL dataset.

OpenRLHF 0.11's ``SingleTurnAgentExecutor`` loads the reward file as a module
and calls ``reward_func([query], [prompt], [label])`` positionally, one sample
per call, from a worker thread. ``query`` is the decoded prompt and response
(special tokens included), ``prompt`` the prompt after the chat template and
``label`` the row's ``--data.label_key`` value. If the function raises,
OpenRLHF logs the exception at INFO level, the reward becomes None and
training fails later: the functions here never raise for a bad sample; it
gets 0 and is counted in ``extra_logs``.

The label of a row made by :func:`make_openrlhf_dataset` names its task and
environment: ``llenvs:<task_index>:<ground-truth fingerprint>:<environment
configuration JSON>``.
"""

from __future__ import annotations

import json
import logging
import os
from array import array
from collections.abc import Callable, Sequence
from typing import Any

from llenvs_go.integrations._multiturn import (
    agent_reference,
    episode_starts,
    is_multi_turn,
    refuse_system_prompt,
    refuse_text_prompts,
    task_indices,
)
from llenvs_go.integrations._references import (
    LABEL_PREFIX,
    REFERENCE_KEY,
    BoundEnvironment,
    EnvironmentMismatchError,
    RefusedReferenceError,
    UnscorableRowError,
    allow_environments,
    bound_from_reference,
    make_label,
    parse_label,
    task_index_of,
)
from llenvs_go.integrations.dataset_provider import DatasetProvider

logger = logging.getLogger("llenvs_go.integrations.openrlhf")

_UNSET: Any = object()
#: extra_logs keys: how many samples of the call could not be scored (they got 0), and how many of those because
#: they were built from another environment.
UNSCORED_KEY = "llenvs/unscored"
MISMATCH_KEY = "llenvs/env_mismatch"
#: extra_logs key: how many unscored samples had a reference that a row may not choose (a hub dataset, a file, ...).
REFUSED_KEY = "llenvs/refused_reference"
#: extra_logs keys: how many samples' scoring timed out (a budget reached) or failed; they get reward 0.0 and
#: score -1.0, outside the 0-1 range of --algo.dynamic_filtering, so a group holding one is filtered out there.
TIMEOUT_KEY = "llenvs/timeout"
ERROR_KEY = "llenvs/error"
UNSCORED_SCORE = -1.0
_TAILS = (64, 16)  # characters of the prompt's end looked for in the query when the prompt is not its prefix
_warned = [0]  # how many unscorable samples were logged in this process

__all__ = ["ERROR_KEY", "MISMATCH_KEY", "REFUSED_KEY", "TIMEOUT_KEY", "UNSCORED_KEY", "EnvironmentMismatchError",
           "RefusedReferenceError", "UnscorableRowError", "allow_environments", "make_openrlhf_dataset",
           "make_openrlhf_reward_fn", "response_of", "reward_func", "write_openrlhf_jsonl"]


def response_of(query: Any, prompt: Any) -> str:
    """The response part of an OpenRLHF query.

    ``query[len(prompt):]`` when the prompt is its prefix; otherwise what
    follows the prompt's last characters in the query (decoding the prompt's
    tokens does not always give the prompt back, and long prompts are
    truncated on the left); otherwise the whole query.
    """
    if type(query) is not str:
        if not isinstance(query, str):
            raise UnscorableRowError(f"query must be a str, got {type(query).__name__}")
        query = str(query)
    if isinstance(prompt, str) and prompt:
        if query.startswith(prompt):
            return query[len(prompt):]
        for size in _TAILS:
            tail = prompt[-size:]
            k = query.find(tail)
            if k >= 0:
                return query[k + len(tail):]
    return query


_TORCH: list[Any] = []  # the torch module, or None when it cannot be imported (looked up once per process)


def _torch() -> Any:
    if not _TORCH:
        try:
            import torch
        except ImportError:
            torch = None
        _TORCH.append(torch)
    return _TORCH[0]


def _tensor(torch: Any, values: list[float]) -> Any:
    # From a float32 buffer: a third of the cost of torch.tensor(list) for one value.
    if not values:
        return torch.zeros(0, dtype=torch.float32)
    return torch.frombuffer(array("f", values), dtype=torch.float32)


class _Tally:
    """The rewards, statuses and counters of one reward_func call, packed as OpenRLHF reads them."""

    __slots__ = ("rewards", "statuses", "unscored", "mismatched", "refused")

    def __init__(self, n: int):
        self.rewards = [0.0] * n
        self.statuses = ["incorrect"] * n
        self.unscored = self.mismatched = self.refused = 0

    def fail(self, k: int, label: Any, error: BaseException) -> None:
        """Sample k could not be scored: reward 0, counted by kind, logged."""
        self.unscored += 1
        if isinstance(error, EnvironmentMismatchError):
            self.mismatched += 1
        elif isinstance(error, RefusedReferenceError):
            self.refused += 1
        _report(k, label, error)

    def pack(self) -> dict[str, Any]:
        rewards, statuses = self.rewards, self.statuses
        scores = [UNSCORED_SCORE if s == "timeout" or s == "error" else r for r, s in zip(rewards, statuses,
                                                                                           strict=True)]
        logs = {UNSCORED_KEY: float(self.unscored), MISMATCH_KEY: float(self.mismatched),
                REFUSED_KEY: float(self.refused), TIMEOUT_KEY: float(statuses.count("timeout")),
                ERROR_KEY: float(statuses.count("error"))}
        torch = _torch()
        if torch is None:
            return {"rewards": rewards, "scores": scores, "extra_logs": logs}
        return {"rewards": _tensor(torch, rewards), "scores": _tensor(torch, scores), "extra_logs": logs}


def _report(k: int, label: Any, error: BaseException) -> None:
    _warned[0] += 1
    n = _warned[0]
    if n <= 10 or n % 1000 == 0:
        shown = repr(label)
        if len(shown) > 100:
            shown = shown[:97] + "..."
        logger.warning("llenvs_go: sample %d (label %s) scored 0: %s: %s (%d unscorable samples so far in this "
                       "process)", k, shown, type(error).__name__, error, n)


def _length(queries: Any) -> int:
    try:
        return len(queries)
    except TypeError:
        return 0


def _score_into(tally: _Tally, keep: Sequence[int], resolve: Callable[[Any, Any], tuple[BoundEnvironment, int]],
                queries: Any, prompts: Any, labels: Any, task_indices: Any) -> None:
    """Score samples ``keep`` whose labels name their task, one by one, into ``tally``."""
    for k in keep:
        label = None
        try:
            label = labels[k] if labels is not None and k < len(labels) else None
            given = task_indices[k] if task_indices is not None else None
            bound, i = resolve(label, given)
            prompt = prompts[k] if prompts is not None and k < len(prompts) else None
            tally.rewards[k], tally.statuses[k] = bound.scorer.outcome(i, response_of(queries[k], prompt))
        except Exception as e:  # noqa: BLE001 - OpenRLHF swallows exceptions and fails later: never raise
            tally.fail(k, label, e)


def make_openrlhf_reward_fn(environment: Any) -> Callable[..., dict[str, Any]]:
    """An OpenRLHF ``reward_func(queries, prompts, labels)`` scoring against ``environment``'s tasks.

    Each sample's task comes from its label (as :func:`make_openrlhf_dataset`
    writes it, or a bare task index), or from llenvs' ``task_indices=``. A
    label made from another environment (seed, size, configuration, ground
    truth) is a mismatch. Returns ``{"rewards", "scores", "extra_logs"}``:
    ``rewards`` and ``scores`` are 1-D float32 torch tensors of
    ``len(queries)`` when torch is importable (lists otherwise);
    ``extra_logs`` holds five numbers, ``llenvs/unscored`` (how many
    samples could not be scored: empty, garbage or out-of-range label, None,
    mismatch, refused reference), ``llenvs/env_mismatch`` (how many of those
    were built from another environment), ``llenvs/refused_reference``
    (how many named what a row may not choose; always 0 here, where the
    environment is given), ``llenvs/timeout`` and ``llenvs/error`` (how
    many were scored but whose scoring reached its budget or failed: reward
    0.0 and score -1.0, outside the 0-1 range of dynamic filtering, so
    ``--algo.dynamic_filtering_enable`` drops their group instead of
    training on a false 0). An unscorable sample gets 0 and a logged
    warning, never an exception; the other samples are scored.
    """
    bound = BoundEnvironment(environment)

    def resolve(label: Any, given: Any) -> tuple[BoundEnvironment, int]:
        if given is not None:
            return bound, task_index_of(given, "task_indices[k]")
        i, fingerprint, reference = parse_label(label)
        bound.check_reference(reference)
        bound.check_fingerprint(i, fingerprint)
        return bound, i

    def reward_func(queries: Any, prompts: Any = None, labels: Any = None, task_indices: Any = None,
                    **kwargs: Any) -> dict[str, Any]:
        """Rewards of ``queries`` (OpenRLHF's ``reward_func(queries, prompts, labels)``)."""
        n = _length(queries)
        tally = _Tally(n)
        _score_into(tally, range(n), resolve, queries, prompts, labels, task_indices)
        return tally.pack()

    return reward_func


#: Environment variable choosing how the shipped reward_func scores a plain label (a ground truth):
#: ``math`` (the default: the response's last ``\boxed{}`` verified against the label by the math verifier)
#: or ``exact`` (that box's content equal to the label, both stripped).
LABEL_SCORING_VAR = "LLENVS_GO_LABEL_SCORING"
LABEL_SCORINGS = ("math", "exact")
_BOXED: list[Any] = []  # the Go boxed extractor, made on first use


def _label_scoring(kwargs: dict[str, Any]) -> str:
    rule = kwargs.get("label_scoring") or os.environ.get(LABEL_SCORING_VAR) or "math"
    if rule not in LABEL_SCORINGS:
        raise ValueError(f"label scoring {rule!r} is not one of {', '.join(LABEL_SCORINGS)} "
                         f"(set ${LABEL_SCORING_VAR} or label_scoring=)")
    return rule


def _plain_label(label: Any) -> str | None:
    """A label's ground truth (a non-empty str that is not ``llenvs:...``, or a number as text); None otherwise."""
    if isinstance(label, str):
        return label if label.strip() and not label.startswith(LABEL_PREFIX) else None
    if isinstance(label, (int, float)) and not isinstance(label, bool) and label == label:
        return str(label)
    return None


def _score_plain_labels(responses: list[str], labels: list[str], rule: str) -> list[float]:
    """Rewards of responses against ground-truth labels: the last ``\boxed{}`` of each, under ``rule``, in one call."""
    if not _BOXED:
        from llenvs_go.core.extraction import BoxedExtractor

        _BOXED.append(BoxedExtractor())
    answers = [a for a, _ in _BOXED[0].extract_batch(responses)]
    if rule == "exact":
        return [1.0 if a is not None and a == g.strip() else 0.0 for a, g in zip(answers, labels, strict=True)]
    from llenvs_go import math_verify

    found = [k for k, a in enumerate(answers) if a is not None]
    golds = [labels[k] if ("\\boxed" in labels[k] or "$" in labels[k]) else f"\\boxed{{{labels[k]}}}" for k in found]
    verdicts = math_verify.verify_batch(golds, [f"\\boxed{{{answers[k]}}}" for k in found]) if found else []
    rewards = [0.0] * len(responses)
    for k, ok in zip(found, verdicts, strict=True):
        rewards[k] = 1.0 if ok else 0.0
    return rewards


def _resolve_reference(label: Any, given: Any) -> tuple[BoundEnvironment, int]:
    i, fingerprint, reference = parse_label(label)
    if not reference:
        raise UnscorableRowError(f"label {label!r} names no environment; write the rows with make_openrlhf_dataset, "
                                 "or score with make_openrlhf_reward_fn(env)")
    bound = bound_from_reference(reference)
    bound.check_fingerprint(i, fingerprint)
    return bound, i


def reward_func(queries: Any, prompts: Any = None, labels: Any = None, **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's ``reward_func(queries, prompts, labels)``: rows of :func:`make_openrlhf_dataset`, or plain labels.

    A label that is not an llenvs reference (``llenvs:...``) is the
    sample's ground truth, as OpenRLHF's math recipes write them: the
    response (the query after its prompt) is scored by its last
    ``\boxed{}``, verified against the label by the math verifier
    (``$LLENVS_GO_LABEL_SCORING=exact`` compares the box's text instead).
    Those samples are scored together, in one call into Go.

    Each label names its environment, which is rebuilt once per process and
    per configuration (a batch may mix environments). Labels are untrusted
    input: a label may select a built-in procedural task, or an environment
    configured for this process (``$LLENVS_GO_ENVIRONMENTS``, or
    :func:`allow_environments` in the process that loads this file), never a
    hub dataset, a file or a loader option; a refused label is an unscored
    sample, counted under ``llenvs/refused_reference``. Returns what
    :func:`make_openrlhf_reward_fn`'s function returns; never raises for a
    bad sample.
    """
    n = _length(queries)
    tally = _Tally(n)
    try:
        truths = [_plain_label(labels[k]) if labels is not None and k < len(labels) else None for k in range(n)]
    except TypeError:
        truths = [None] * n
    _score_into(tally, [k for k in range(n) if truths[k] is None], _resolve_reference, queries, prompts, labels,
                None)
    plain = [k for k in range(n) if truths[k] is not None]
    if plain:
        rule = _label_scoring(kwargs)
        texts, scored = [], []
        for k in plain:
            try:
                prompt = prompts[k] if prompts is not None and k < len(prompts) else None
                texts.append(response_of(queries[k], prompt))
                scored.append(k)
            except Exception as e:  # noqa: BLE001 - never raise for one bad sample
                tally.fail(k, labels[k], e)
        for k, r in zip(scored, _score_plain_labels(texts, [truths[k] for k in scored], rule), strict=True):
            tally.rewards[k] = r
            tally.statuses[k] = "correct" if r == 1.0 else "incorrect"
    return tally.pack()


def make_openrlhf_dataset(environment: Any, num_tasks: int | None = None, *, conversational: bool = True,
                          system_prompt: Any = _UNSET, indices: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Rows for OpenRLHF's ``PromptDataset`` (``--data.input_key input --data.label_key label``).

    Each row is ``{"input": <messages, or text>, "label": <task reference>,
    "datasource": <task name>}``. With ``conversational`` the input is the
    chat messages (the answer-format system prompt, then the question; use
    ``--data.apply_chat_template``); otherwise one text, the system prompt
    and the question separated by a blank line. The label is
    ``llenvs:<task_index>:<ground-truth fingerprint>:<environment JSON>``.
    ``indices`` selects tasks instead of the first ``num_tasks`` (e.g. one
    chunk of a large export). Save the rows with :func:`write_openrlhf_jsonl`.

    A multi-turn environment (``spec.is_multi_turn``) gives rows for the agent
    executor ``llenvs_go/integrations/openrlhf_agent.py``
    (``--train.agent_func_path``), which plays each row's task and returns the
    episode's reward: ``input`` is the messages the episode opens with, and
    the label is JSON text ``{"task_index": i, "env_reference": <the
    environment as environment_registry.get arguments, JSON text>}`` (the
    executor reads ``task_index``; ``env_reference`` is what to put in
    ``$LLENVS_GO_AGENT_ENV``). ``conversational=False`` and ``system_prompt``
    are refused (a ValueError), since the episode's conversation is the
    environment's own.
    """
    if is_multi_turn(environment):
        refuse_text_prompts(conversational, environment)
        refuse_system_prompt(system_prompt, _UNSET, environment)
        reference = agent_reference(environment)
        source = environment.spec.name
        return [{"input": s.messages,
                 "label": json.dumps({"task_index": s.task_index, REFERENCE_KEY: reference}, sort_keys=True),
                 "datasource": source}
                for s in episode_starts(environment, task_indices(environment, num_tasks, indices))]
    provider = DatasetProvider(environment) if system_prompt is _UNSET else \
        DatasetProvider(environment, system_prompt=system_prompt)
    n = len(provider) if num_tasks is None else max(0, min(int(num_tasks), len(provider)))
    reference = BoundEnvironment(environment).reference
    source = environment.spec.name
    rows = []
    for it in provider.get_items(range(n) if indices is None else indices):
        messages = [{"role": m.get("role"), "content": m.get("content")} for m in it.messages]
        text = "\n\n".join(str(m["content"] or "") for m in messages) or it.prompt
        rows.append({"input": messages if conversational else text,
                     "label": make_label(it.task_index, it.ground_truth, reference), "datasource": source})
    return rows


def write_openrlhf_jsonl(rows: Sequence[dict[str, Any]], path: str | os.PathLike[str]) -> str:
    """Save rows as JSON Lines for ``--data.prompt_dataset``; returns the path written."""
    path = os.fspath(path)
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False))
            f.write("\n")
    return path
