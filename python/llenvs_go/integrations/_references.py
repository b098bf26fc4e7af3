"""What the framework adapters share: an environment's reference, its tasks' ground truths, mismatch checks.

A training row names its environment by a *reference*: the JSON text of the
configuration the environment is rebuilt from (task name, adapter, seed,
size, extractor, task options). A process that scores the row either has the
environment at hand (``make_*_reward_fn(env)``) and checks that the row was
built from it, or rebuilds it from the reference (the shipped reward files),
once per process and per configuration. Rows also carry the task's ground
truth (or its fingerprint in an OpenRLHF label), which is checked against
the environment's own: a row is never scored against the wrong task.

Nothing here parses JSON per scored item: references are compared and looked
up as strings.
"""

from __future__ import annotations

import json
import logging
import operator
import zlib
from collections.abc import Sequence
from typing import Any

from llenvs_go.core.native import NativeEnvironment
from llenvs_go.integrations._environments import resets_natively
from llenvs_go.integrations.scoring import Scorer

logger = logging.getLogger("llenvs_go.integrations")

#: Key of the environment reference in a veRL row's ``extra_info`` and name of the TRL column.
REFERENCE_KEY = "env_reference"
#: Prefix of the labels of OpenRLHF rows: ``llenvs:<task_index>:<fingerprint>:<reference>``.
LABEL_PREFIX = "llenvs:"

# Configuration keys that describe the machine rather than the tasks (left out of references).
_MACHINE_KEYS = ("data_dir",)
_CHUNK = 1024  # ground truths are fetched this many tasks at a time


class EnvironmentMismatchError(ValueError):
    """A training row was built from another environment (seed, size, configuration) than the one scoring it."""


class UnscorableRowError(ValueError):
    """A row (label, ``extra_info``) does not say which task it is, so it cannot be scored."""


def environment_reference(environment: Any) -> str:
    """The reference training rows carry for ``environment``: JSON text of its configuration.

    The same configuration always gives the same text (keys sorted, size
    made explicit, the machine's data directory left out), so references are
    compared as strings. An environment that cannot be rebuilt from a
    configuration (one written in Python, one with Python reward
    functions, or one whose rows were given in memory) has the reference ``""``; rows built from it are checked by
    their ground truths alone.
    """
    if not isinstance(environment, NativeEnvironment) or environment.python_rewards:
        return ""
    if not getattr(environment, "rebuildable", True):  # rows given in memory: not named by the configuration
        return ""
    config = environment.config
    for key in _MACHINE_KEYS:
        config.pop(key, None)
    config["size"] = len(environment)
    try:
        return json.dumps(config, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return ""


def build_from_reference(reference: str) -> Any:
    """A new environment built from a reference made by :func:`environment_reference`."""
    from llenvs_go.core.registry import environment_registry

    if not isinstance(reference, str) or not reference:
        raise UnscorableRowError(
            f"the row carries no environment reference (got {reference!r}); build the rows with "
            "make_verl_dataset / make_openrlhf_dataset, or score with a reward function made from the "
            "environment (make_verl_reward_fn(env), make_openrlhf_reward_fn(env))")
    try:
        config = json.loads(reference)
    except ValueError:
        config = None
    if not isinstance(config, dict) or not isinstance(config.get("name"), str):
        raise UnscorableRowError(f"not an environment reference: {_short(reference)!r} (expected the JSON "
                                 "configuration written by make_verl_dataset / make_openrlhf_dataset)")
    config = dict(config)
    name = config.pop("name")
    adapter = config.pop("adapter", "reasoning_gym")
    params = config.pop("params", None) or {}
    return environment_registry.get(name=name, adapter=adapter, **config, **params)


class BoundEnvironment:
    """One environment as the adapters use it: its scorer, its reference and its tasks' ground truths.

    Ground truths are fetched when first needed, a chunk of tasks at a time
    (one call into Go for a Go-backed environment), and kept. It pickles as
    its environment.
    """

    __slots__ = ("environment", "scorer", "reference", "_native", "_truths", "_fingerprints", "_size")

    def __init__(self, environment: Any, reference: str | None = None):
        self.environment = environment
        self.scorer = Scorer(environment)
        self.reference = environment_reference(environment) if reference is None else reference
        self._native = resets_natively(environment)
        self._truths: dict[int, str | None] = {}
        self._fingerprints: dict[int, str] = {}
        self._size: int | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (BoundEnvironment, (self.environment, self.reference))

    @property
    def name(self) -> str:
        """The environment's spec name (veRL's ``data_source``)."""
        return self.environment.spec.name

    # -- ground truths -------------------------------------------------------
    def truth(self, task_index: int) -> str | None:
        """The ground truth of one task (None for an environment without one)."""
        try:
            return self._truths[task_index]
        except KeyError:
            self._fetch((task_index,))
            return self._truths[task_index]

    def truths(self, indices: Sequence[int]) -> list[str | None]:
        """The ground truths of ``indices``, in order."""
        cache = self._truths
        try:
            return [cache[i] for i in indices]
        except KeyError:
            self._fetch([i for i in set(indices) if i not in cache])
            return [cache[i] for i in indices]

    def fingerprint(self, task_index: int) -> str:
        """The fingerprint of a task's ground truth (8 hex digits of CRC-32; "" without a ground truth)."""
        fp = self._fingerprints.get(task_index)
        if fp is None:
            fp = self._fingerprints[task_index] = truth_fingerprint(self.truth(task_index))
        return fp

    def _fetch(self, missing: Sequence[int]) -> None:
        env = self.environment
        if not self._native:
            for i in missing:
                state, _ = env.reset(options={"task_index": i})
                self._truths[i] = getattr(state.hidden, "expected_answer", None)
            return
        if self._size is None:
            self._size = len(env)
        wanted = sorted({env.check_index(i) for i in missing})
        chunks = sorted({i // _CHUNK for i in wanted})
        for c in chunks:
            lo, hi = c * _CHUNK, min(c * _CHUNK + _CHUNK, self._size)
            _, truths = env.task_texts(range(lo, hi))
            self._truths.update(zip(range(lo, hi), truths, strict=True))

    # -- checks -------------------------------------------------------------
    def check_reference(self, reference: Any) -> None:
        """Raise EnvironmentMismatchError when a row's reference names another environment."""
        if reference and reference != self.reference:
            raise EnvironmentMismatchError(mismatch_message(reference, self.reference))

    def check_truth(self, task_index: int, ground_truth: Any) -> None:
        """Raise EnvironmentMismatchError when a row's ground truth is not this environment's for the task."""
        if ground_truth is None or ground_truth == "":
            return
        own = self.truth(task_index)
        if own is not None and own != ground_truth:
            raise EnvironmentMismatchError(
                f"task {task_index}: the row's ground truth {_short(str(ground_truth))!r} is not this environment's "
                f"{_short(own)!r}: the row was built from another environment ({self.describe()} scores here); "
                "rebuild the dataset, or score with the environment it was built from")

    def check_fingerprint(self, task_index: int, fingerprint: str) -> None:
        """Raise EnvironmentMismatchError when a label's ground-truth fingerprint is not this environment's."""
        if fingerprint and fingerprint != self.fingerprint(task_index):
            raise EnvironmentMismatchError(
                f"task {task_index}: the label's ground-truth fingerprint {fingerprint} is not this environment's "
                f"({self.fingerprint(task_index) or 'no ground truth'}): the row was built from another environment "
                f"({self.describe()} scores here)")

    def describe(self) -> str:
        """A short description of the environment for messages: name, seed and size."""
        env = self.environment
        config = getattr(env, "config", None)
        if isinstance(config, dict):
            return f"{config.get('name')!r} seed={config.get('seed')} size={len(env)}"
        return repr(env)


def truth_fingerprint(truth: str | None) -> str:
    """8 hex digits of the CRC-32 of a ground truth's UTF-8 text; "" for None."""
    if truth is None:
        return ""
    return format(zlib.crc32(truth.encode("utf-8", "surrogatepass")), "08x")


def mismatch_message(row_reference: str, own_reference: str) -> str:
    """Say how the environment a row was built from differs from the one scoring it."""
    try:
        row, own = json.loads(row_reference), json.loads(own_reference) if own_reference else {}
    except ValueError:
        return (f"the row was built from another environment ({_short(row_reference)!r}) than the one scoring it "
                f"({_short(own_reference)!r})")
    if not own:
        return (f"the row was built from {row.get('name')!r} (seed={row.get('seed')}, size={row.get('size')}), "
                "but this reward function scores an environment written in Python; score it with the environment "
                "it was built from")
    keys = sorted(set(row) | set(own))
    diffs = [f"{k} (row: {row.get(k)!r}, here: {own.get(k)!r})" for k in keys if row.get(k) != own.get(k)]
    return (f"the row was built from another environment than the one scoring it; they differ in "
            f"{', '.join(diffs)}. Rebuild the dataset from this environment, or score with the environment the rows "
            "were built from")


_BUILT: dict[str, BoundEnvironment] = {}  # per process: reference -> environment rebuilt from it


def bound_from_reference(reference: str) -> BoundEnvironment:
    """The environment a reference names, built once per process and per configuration."""
    bound = _BUILT.get(reference)
    if bound is None:
        bound = _BUILT.setdefault(reference, BoundEnvironment(build_from_reference(reference), reference))
    return bound


def task_index_of(value: Any, what: str) -> int:
    """``value`` as a task index, or UnscorableRowError naming ``what``."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise UnscorableRowError(f"{what} must be an int task index, got {_short(repr(value))}")
    return operator.index(value)


def make_label(task_index: int, truth: str | None, reference: str) -> str:
    """The label of an OpenRLHF row: ``llenvs:<task_index>:<fingerprint>:<reference>``."""
    return f"{LABEL_PREFIX}{task_index}:{truth_fingerprint(truth)}:{reference}"


def parse_label(label: Any) -> tuple[int, str, str]:
    """``(task_index, fingerprint, reference)`` of a label; a bare int (or digits) is a task index alone.

    Raises UnscorableRowError naming the label when it is none of these.
    """
    if isinstance(label, str):
        if label.startswith(LABEL_PREFIX):
            parts = label[len(LABEL_PREFIX):].split(":", 2)
            if len(parts) == 3 and parts[0].isdigit():
                return int(parts[0]), parts[1], parts[2]
        elif label.strip().isdigit():
            return int(label), "", ""
    elif not isinstance(label, bool) and hasattr(label, "__index__"):
        i = operator.index(label)
        if i >= 0:
            return i, "", ""
    raise UnscorableRowError(
        f"label {_short(repr(label))} is not an llenvs task reference (expected "
        "'llenvs:<task_index>:<fingerprint>:<environment>' as make_openrlhf_dataset writes it, or a task index)")


def completion_text(completion: Any) -> str:
    """The text to score of one completion: a str as it is; for a conversational completion (a list of
    messages) the content of its last assistant message ("" when there is none)."""
    if type(completion) is str:
        return completion
    if isinstance(completion, dict):
        completion = (completion,)
    if isinstance(completion, (list, tuple)):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role", "assistant") == "assistant":
                return content_text(message.get("content"))
        return ""
    if isinstance(completion, str):
        return str(completion)
    raise TypeError(f"a completion must be a str or a list of chat messages, got {type(completion).__name__}")


def content_text(content: Any) -> str:
    """A message's content as text: a str, or the text parts of a list of content parts joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        return "".join(p.get("text") or "" for p in content
                       if isinstance(p, dict) and p.get("type", "text") == "text")
    return str(content)


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
