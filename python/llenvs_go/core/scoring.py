"""Scoring responses against environment tasks, one at a time or in bulk.

For a Go-backed environment ``Scorer.score_batch`` crosses into Go once per
batch: the responses' own UTF-8 buffers are read in place, Go scores them in
parallel, and the totals come back in one float64 array. Rich per-item results
are built only when an item is read.

Any other environment with llenvs' ``Environment`` protocol (one written in
Python, a subclass that overrides ``step``, a Go-backed one with Python reward
functions) is scored as llenvs scores it: ``reset`` then ``step`` per response.

Python code that scoring runs can be given a deadline per item: it then runs
in a worker process that is killed when an item runs past it (``Scorer``'s
``timeout``; ``llenvs_go._deadline``). reasoning-gym's own ``score_answer``
for tasks without a Go port has one by default.
"""

from __future__ import annotations

import ctypes
import gc
import json
import operator
import struct
import threading
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, overload

from llenvs_go import _deadline, _native
from llenvs_go._native import ffi
from llenvs_go.core.dispatch import require_environment, scores_natively
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.reward import as_bundle
from llenvs_go.core.state import Action

_single = threading.local()  # per-thread result slots of score() and total(), by signal count


class ScoringFailureWarning(RuntimeWarning):
    """Some responses of a reward batch could not be scored; they got 0.0."""


@dataclass(frozen=True)
class ScoringResult:
    """The score of one response.

    Attributes:
        total: weighted sum of the numeric signals.
        signals: signal name -> unweighted reward (None for a feedback-only signal).
        extracted_answer: what the extractor found; None when it found
            nothing ("" is a valid extraction).
        metadata: signal name -> that signal's metadata (signals without
            metadata are left out), plus ``"backend"`` for Go-backed
            environments; an item of ``score_batch`` whose scoring failed has
            total 0.0 and ``metadata["error"]``. For results of a Go-backed
            batch it is built the first time it is read.
    """

    # Slots: a result of a batch is made by setting five slots, with no
    # per-object dict; an unread metadata is _source._metadata_of(_index).
    __slots__ = ("total", "signals", "extracted_answer", "metadata", "_source", "_index")

    total: float
    signals: dict[str, float | None]
    extracted_answer: str | None
    metadata: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        # Only reached when a slot is unset: "metadata" of a lazy result.
        if name == "metadata":
            try:
                source = _get_source(self)
            except AttributeError:
                source = None
            if source is not None:
                m = source._metadata_of(_get_index(self))
                _set_metadata(self, m)
                _del_source(self)  # the columns are no longer needed by this result
                return m
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (ScoringResult, (self.total, self.signals, self.extracted_answer, self.metadata))


_set_total = ScoringResult.total.__set__  # type: ignore[attr-defined]
_set_signals = ScoringResult.signals.__set__  # type: ignore[attr-defined]
_set_answer = ScoringResult.extracted_answer.__set__  # type: ignore[attr-defined]
_set_metadata = ScoringResult.metadata.__set__  # type: ignore[attr-defined]
_get_source = ScoringResult._source.__get__  # type: ignore[attr-defined]
_set_source = ScoringResult._source.__set__  # type: ignore[attr-defined]
_del_source = ScoringResult._source.__delete__  # type: ignore[attr-defined]
_get_index = ScoringResult._index.__get__  # type: ignore[attr-defined]
_set_index = ScoringResult._index.__set__  # type: ignore[attr-defined]


def _lazy_result(total: float, signals: dict[str, float | None], answer: str | None, source: Any,
                 index: int) -> ScoringResult:
    """A result whose metadata is ``source._metadata_of(index)``, built when first read."""
    r = _new(ScoringResult)
    _set_total(r, total)
    _set_signals(r, signals)
    _set_answer(r, answer)
    _set_source(r, source)
    _set_index(r, index)
    return r


_new = object.__new__
_loads = json.loads
_getitem = operator.getitem
_consume = deque(maxlen=0).extend  # runs a map for its effects

# Sections of the rich scoring buffer, in the order of capi/scored.go.
(_ANSWER_KIND, _ANSWER_START, _ANSWER_END, _ANSWER_DATA, _META_OFFSETS, _META_DATA, _EXPECTED_INDEX,
 _EXPECTED_OFFSETS, _EXPECTED_DATA, _ERROR_ITEM, _ERROR_OFFSETS, _ERROR_DATA, _SECTIONS) = range(13)
_ANSWER_SPAN, _ANSWER_OWN = 1, 2


_HEAD = struct.Struct(f"<{1 + 2 * _SECTIONS}q")
_SPAN = struct.Struct("<q")


#: The outcome of a scored item, in ``ScoringResults.statuses`` and ``metadata["status"]``.
STATUSES = ("correct", "incorrect", "no_answer", "timeout", "error")
_VERDICT = 255  # an answer was found and scored: correct or incorrect by its correctness
_HAS_ERROR = bytes(1 if f & _native.ITEM_ERROR else 0 for f in range(256))  # for bytes.translate
# LLENVS_ITEM_* flags -> the status's index, or _VERDICT (a table for bytes.translate).
_FLAG_STATUS = bytes(3 if f & _native.ITEM_TIMEOUT else 4 if f & _native.ITEM_ERROR else
                     2 if not f & _native.ITEM_FOUND else _VERDICT for f in range(256))


def item_statuses(flags: bytes, values: Sequence[float], names: Sequence[str], totals: Sequence[float]) -> list[str]:
    """Every item's outcome from its flags and signals.

    ``timeout`` when scoring stopped at its budget, ``error`` when it failed,
    ``no_answer`` when nothing was extracted, ``correct`` when the answer's
    ``correctness`` signal is 1 (full credit; without a correctness signal,
    when the total is positive) and ``incorrect`` otherwise.
    """
    codes = flags.translate(_FLAG_STATUS)
    k = len(names)
    credit = values[names.index("correctness")::k] if "correctness" in names else totals
    full = 1.0 if "correctness" in names else 1e-300
    return [STATUSES[c] if c != _VERDICT else "correct" if v >= full else "incorrect"
            for c, v in zip(codes, credit, strict=True)]


def status_of(result: ScoringResult) -> str:
    """The outcome of a result built in Python (an environment scored by llenvs' reset and step)."""
    if "error" in result.metadata:
        return "timeout" if "timeout" in str(result.metadata["error"]).lower() else "error"
    c = result.signals.get("correctness", result.total)
    if c is not None and c >= (1.0 if "correctness" in result.signals else 1e-300):
        return "correct"
    return "no_answer" if result.extracted_answer is None else "incorrect"


class _Columns:
    """The rich part of a Go-scored batch: the library's one buffer, read where and when needed.

    It also holds what an item's metadata is made from, so that a result
    built from it refers to it alone (no reference cycle through the results).
    """

    __slots__ = ("data", "head", "texts", "names", "indices", "backend", "fallback_expected", "statuses", "_errors",
                 "_expected", "_extractions", "_metas", "_read_one")

    def __init__(self, data: bytes, texts: Sequence[str], names: list[str], indices: list[int], backend: str,
                 fallback_expected: Callable[[int], str | None] | None = None):
        self.data = data
        self.head = _HEAD.unpack_from(data)
        self.texts = texts
        self.names = names
        self.indices = indices
        self.backend = backend
        self.fallback_expected = fallback_expected
        self.statuses: list[str] = []  # every item's outcome, set by the Scorer once the signals are final
        self._errors: dict[int, str] | None = None
        self._expected: dict[int, str] | None = None
        self._extractions: list[Any] | None = None
        self._metas: list[dict[str, Any]] | None = None
        self._read_one = False

    def _metadata_of(self, i: int) -> dict[str, Any]:
        """Item i's metadata: per signal, and the backend; the error when it failed.

        The first read builds only item i's; the next builds every item's at
        once (a loop over the columns, with no per-item lookups in the buffer).
        """
        metas = self._metas
        if metas is None:
            if not self._read_one:
                self._read_one = True
                m = self._metadata(self.answer(i, self.texts[i]), self.extraction(i), self.indices[i])
                error = self.errors().get(i)
                if error is not None:
                    m["error"] = error
                m["status"] = self.statuses[i]
                return m
            metas = self._metas = self._all_metadata()
        return metas[i]

    def _all_metadata(self) -> list[dict[str, Any]]:
        data, head = self.data, self.head
        if self._extractions is None:
            base = head[1 + 2 * _META_DATA]
            self._extractions = _loads(data[base: base + head[2 + 2 * _META_DATA]])
        make = self._metadata
        out = [make(a, x, t) for a, x, t in zip(self.answers(self.texts), self._extractions, self.indices,
                                                   strict=True)]
        for i, error in self.errors().items():
            out[i]["error"] = error
        for m, status in zip(out, self.statuses, strict=True):
            m["status"] = status
        return out

    def _metadata(self, answer: str | None, extraction: Any, task_index: int) -> dict[str, Any]:
        metadata: dict[str, Any] = {}
        for name in self.names:
            if name == "correctness":
                if answer is None:
                    metadata[name] = {"extracted": None, "extraction": extraction}
                else:
                    expected = self.expected(task_index)
                    if expected is None and self.fallback_expected is not None:
                        expected = self.fallback_expected(task_index)
                    metadata[name] = {"extracted": answer, "expected": expected, "extraction": extraction}
            else:
                metadata[name] = {"extraction": extraction}
        metadata["backend"] = self.backend
        return metadata

    def answer(self, i: int, text: str) -> str | None:
        data, head = self.data, self.head
        k = data[head[1 + 2 * _ANSWER_KIND] + i]
        if k == 0:
            return None
        a = _SPAN.unpack_from(data, head[1 + 2 * _ANSWER_START] + 8 * i)[0]
        b = _SPAN.unpack_from(data, head[1 + 2 * _ANSWER_END] + 8 * i)[0]
        if k == _ANSWER_SPAN:
            if text.isascii():
                return text[a:b]
            return text.encode("utf-8", "surrogatepass")[a:b].decode("utf-8", "surrogatepass")
        base = head[1 + 2 * _ANSWER_DATA]
        return data[base + a: base + b].decode("utf-8", "surrogatepass")

    def answers(self, texts: Sequence[str]) -> list[str | None]:
        """Every item's extracted answer: the spans sliced from their strs in one pass over the batch."""
        data, head = self.data, self.head
        n = len(texts)
        kinds = data[head[1 + 2 * _ANSWER_KIND]: head[1 + 2 * _ANSWER_KIND] + n]
        starts = struct.unpack_from(f"<{n}q", data, head[1 + 2 * _ANSWER_START])
        ends = struct.unpack_from(f"<{n}q", data, head[1 + 2 * _ANSWER_END])
        # Spans are byte offsets, which are str offsets in an ASCII str (an O(1) test).
        out: list[str | None] = list(map(_getitem, texts, map(slice, starts, ends)))
        if kinds.count(_ANSWER_SPAN) != n:
            base = head[1 + 2 * _ANSWER_DATA]
            for i in [i for i, k in enumerate(kinds) if k != _ANSWER_SPAN]:
                out[i] = None if kinds[i] == 0 else data[base + starts[i]: base + ends[i]].decode("utf-8",
                                                                                              "surrogatepass")
        if not all(map(str.isascii, texts)):
            for i, t in enumerate(texts):
                if kinds[i] == _ANSWER_SPAN and not t.isascii():
                    out[i] = t.encode("utf-8", "surrogatepass")[starts[i]: ends[i]].decode("utf-8", "surrogatepass")
        return out

    def extraction(self, i: int) -> Any:
        """Item i's extraction metadata; the first read of a batch decodes every item's at once."""
        data, head = self.data, self.head
        base = head[1 + 2 * _META_DATA]
        if len(self.texts) == 1:
            a, b = struct.unpack_from("<qq", data, head[1 + 2 * _META_OFFSETS] + 16 * i)
            return _loads(data[base + a: base + b])
        if self._extractions is None:
            self._extractions = _loads(data[base: base + head[2 + 2 * _META_DATA]])
        return self._extractions[i]

    def expected(self, task_index: int) -> str | None:
        if self._expected is None:
            self._expected = self._strings(_EXPECTED_INDEX, _EXPECTED_OFFSETS, _EXPECTED_DATA)
        return self._expected.get(task_index)

    def errors(self) -> dict[int, str]:
        if self._errors is None:
            self._errors = self._strings(_ERROR_ITEM, _ERROR_OFFSETS, _ERROR_DATA)
        return self._errors

    def _strings(self, keys: int, offsets: int, data: int) -> dict[int, str]:
        head, raw = self.head, self.data
        count = head[2 + 2 * keys] // 8
        if not count:
            return {}
        ks = struct.unpack_from(f"<{count}q", raw, head[1 + 2 * keys])
        off = struct.unpack_from(f"<{count + 1}q", raw, head[1 + 2 * offsets])
        base = head[1 + 2 * data]
        return {k: raw[base + off[j]: base + off[j + 1]].decode("utf-8", "surrogatepass") for j, k in enumerate(ks)}


class _OneCall:
    """One thread's result slots for ``llenvs_score_one`` (k signals), as doubles and as int64s."""

    __slots__ = ("doubles", "words", "address")

    def __init__(self, k: int):
        self.doubles = (ctypes.c_double * (6 + max(k, 1)))()
        self.words = (ctypes.c_int64 * 6).from_buffer(self.doubles)
        self.address = ctypes.addressof(self.doubles)

    def take(self) -> bytes:
        """The library's error buffer, copied and freed."""
        words = self.words
        p = words[4]
        if not p:
            return b""
        try:
            return ffi.unpack(ffi.cast("char *", p), words[5])
        finally:
            _native.lib().llenvs_free(ffi.cast("void *", p))
            words[4] = 0


def _one_call(k: int) -> _OneCall:
    """This thread's result slots for one item with k signals (made once per thread)."""
    try:
        return _single.calls[k]
    except AttributeError:
        _single.calls = {}
    except KeyError:
        pass
    c = _single.calls[k] = _OneCall(k)
    return c


_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1


class ScoringResults(Sequence[ScoringResult]):
    """The results of ``score_batch``, in input order.

    A read-only sequence. Everything comes back from Go in the batch's one
    call, as columns: ``totals`` at once, and each ``ScoringResult`` made
    when it is read (its ``metadata`` when that is read).

    ``errors`` maps the position of each item whose scoring failed to the
    reason (such items have total 0.0 and ``metadata["error"]``), and
    ``statuses`` gives every item's outcome (one of :data:`STATUSES`, also
    in its ``metadata["status"]``): a timeout or a failure is never a
    plain wrong answer.
    """

    __slots__ = ("_totals", "_values", "_names", "_columns", "_items", "_some", "_errors", "_statuses")

    def __init__(self, totals: list[float], values: list[float], names: list[str], columns: _Columns | None):
        self._totals = totals
        self._values = values
        self._names = names
        self._columns = columns
        self._items: list[ScoringResult] | None = None  # every result, once iterated
        self._some: dict[int, ScoringResult] = {}  # results read one by one before that
        self._errors: dict[int, str] | None = None
        self._statuses: list[str] | None = columns.statuses if columns is not None else None

    @property
    def statuses(self) -> list[str]:
        """Every item's outcome, in order: ``correct``, ``incorrect``, ``no_answer``, ``timeout`` or ``error``."""
        if self._statuses is None:
            self._statuses = [status_of(r) for r in self] if self._totals else []
        return list(self._statuses)

    @property
    def errors(self) -> dict[int, str]:
        """Position -> why scoring that item failed; empty when every item was scored."""
        if self._errors is None:
            self._errors = dict(self._columns.errors()) if self._columns is not None else {}
        return self._errors

    @classmethod
    def of(cls, results: Sequence[ScoringResult]) -> ScoringResults:
        """Results already built, as a ``ScoringResults``."""
        out = cls([float(r.total) for r in results], [], [], None)
        out._items = list(results)
        out._statuses = [r.metadata.get("status") or status_of(r) for r in results]
        out._errors = {i: r.metadata["error"] for i, r in enumerate(results) if "error" in r.metadata}
        return out

    @property
    def totals(self) -> list[float]:
        """Every item's total (a new list of floats)."""
        return list(self._totals)

    def __len__(self) -> int:
        return len(self._totals)

    @overload
    def __getitem__(self, i: int) -> ScoringResult: ...

    @overload
    def __getitem__(self, i: slice) -> list[ScoringResult]: ...

    def __getitem__(self, i: int | slice) -> ScoringResult | list[ScoringResult]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self._totals)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"result index {i} out of range for {n} results")
        if self._items is not None:
            return self._items[i]
        r = self._some.get(i)
        if r is None:
            r = self._some[i] = self._build(i)
        return r

    def __iter__(self) -> Iterator[ScoringResult]:
        if self._items is None:
            self._items = self._build_all()
        return iter(self._items)

    def _build_all(self) -> list[ScoringResult]:
        # Every result at once, each field set by a map over its column: no Python code per item
        # but the signals dict.
        if not self._totals:
            return []  # an empty batch has no columns
        columns = self._columns
        assert columns is not None
        n = len(self._totals)
        names, values = self._names, self._values
        k = len(names)
        if k == 1:
            name = names[0]
            signals = [{name: v} for v in values]
        else:
            signals = [dict(zip(names, values[i * k: (i + 1) * k], strict=True)) for i in range(n)]
        paused = gc.isenabled()  # the results are acyclic: nothing for the collector to find
        if paused:
            gc.disable()
        try:
            items = list(map(_new, repeat(ScoringResult, n)))
            _consume(map(_set_total, items, self._totals))
            _consume(map(_set_signals, items, signals))
            _consume(map(_set_answer, items, columns.answers(columns.texts)))
            _consume(map(_set_source, items, repeat(columns, n)))
            _consume(map(_set_index, items, range(n)))
        finally:
            if paused:
                gc.enable()
        for i, r in self._some.items():  # keep the results already handed out
            items[i] = r
        self._some = {}
        return items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        failed = f", {len(self.errors)} failed" if self.errors else ""
        return f"ScoringResults({len(self)} items, mean total {sum(self._totals) / max(len(self), 1):.4f}{failed})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as built results, so a worker process can return them.
        return (ScoringResults.of, (list(self),))

    def _build(self, i: int) -> ScoringResult:
        names = self._names
        k = len(names)
        if k == 1:
            signals = {names[0]: self._values[i]}
        else:
            signals = dict(zip(names, self._values[i * k: (i + 1) * k], strict=True))
        columns = self._columns
        assert columns is not None
        return _lazy_result(self._totals[i], signals, columns.answer(i, columns.texts[i]), columns, i)


class _PythonSteps:
    """llenvs' ``reset`` + ``step`` of an environment scored in Python, one item at a time: a worker's job.

    An item is ``(task_index, response, strict)``. What ``reset`` raises is
    raised to the caller, as in process; what ``step`` raises is the item's
    error, or raised too when ``strict`` (``Scorer.score``).
    """

    def __init__(self, environment: Any):
        self.environment = environment

    def __call__(self, item: tuple[Any, Any, bool]) -> ScoringResult:
        task_index, text, strict = item
        env = self.environment
        try:
            state, _ = env.reset(options={"task_index": task_index})
        except Exception as e:  # noqa: BLE001 - raised in the caller
            raise _deadline.Propagate(e) from None
        try:
            r = result_from_step(env.step(state, Action.from_text(text)))
        except Exception as e:
            if strict:
                raise _deadline.Propagate(e) from None
            raise
        if "status" not in r.metadata:
            r.metadata["status"] = status_of(r)
        return r


class Scorer:
    """Scores responses with a single-turn environment's own reward computation.

    Args:
        environment: any single-turn environment with llenvs' ``Environment``
            protocol (``spec``, ``reset``, ``step``) that supports task
            indices. A Go-backed environment from ``environment_registry``
            is scored in Go, in bulk; any other is scored as llenvs scores
            it, ``reset(options={"task_index": i})`` then ``step``.
        timeout: seconds per item that the Python code of scoring may run:
            an environment written in Python (its ``reset`` and ``step``),
            Python reward functions of a Go-backed one, and reasoning-gym's
            own ``score_answer`` for tasks without a Go port. With a number
            that code runs in a worker process that is killed when an item
            runs past it; the item is then ``"timeout"`` (total 0.0, the
            reason in ``metadata["error"]``), one that kills the worker
            ``"error"``, and the rest are scored. The environment is pickled
            (with cloudpickle when installed) once, here, and the worker
            scores that copy. None scores in this process, without a
            deadline, as llenvs does. ``"default"``: the
            ``LLENVS_GO_PYTHON_TIMEOUT`` environment variable when set
            (seconds, or ``none``), else 10 s for reasoning-gym's
            ``score_answer`` and None for the rest. Go's own signals have
            their own budgets and never need a worker.

    Raises:
        TypeError: the environment is multi-turn or has no task indices, or a
            timeout is set and the environment (scored in Python) cannot be
            pickled; that message names the part that does not pickle.
    """

    def __init__(self, environment: Any, timeout: _deadline.Timeout = _deadline.DEFAULT):
        spec = require_environment(environment, "Scorer", need_len=False)
        if spec.is_multi_turn:
            raise TypeError(
                f"Scorer only supports single-turn environments, but {spec.name!r} is multi-turn. "
                "Use the AgentLoop or rollout_func integration for multi-turn training."
            )
        if not spec.supports_task_index:
            raise TypeError(
                f"Scorer requires an environment that supports task indexing, but {spec.name!r} does not "
                "(supports_task_index=False)."
            )
        self.environment = environment
        self._names_cache: list[str] | None = None
        self._native_path: bool | None = None
        self._one: tuple[Any, int, list[str]] | None = None
        self._set_timeout(_deadline.check_timeout(timeout))
        if self._python_timeout is not None and not self._native:
            self._steps_job()  # an environment that cannot be pickled is a TypeError now, not at the first batch

    def _set_timeout(self, timeout: _deadline.Timeout) -> None:
        self._timeout = timeout
        self._python_timeout = _deadline.resolve_timeout(timeout, fallback=False)
        self._fallback_timeout = _deadline.resolve_timeout(timeout, fallback=True)
        if _deadline.in_worker():  # the caller's deadline already holds for everything run here
            self._python_timeout = self._fallback_timeout = None
        self._steps: _deadline.SupervisedJob | None = None

    @property
    def timeout(self) -> float | None:
        """Seconds per item the Python code of this Scorer may run before its worker is stopped (None: in this
        process, without a deadline; also for an environment scored entirely in Go)."""
        if not self._native:
            return self._python_timeout
        return self._fallback_timeout if self.environment.backend == "python" else None

    def _steps_job(self) -> _deadline.SupervisedJob:
        # The worker job of an environment scored in Python (made once: the copy the workers score).
        job = self._steps
        if job is None:
            env = self.environment
            name = getattr(getattr(env, "spec", None), "name", None)
            what = f"the environment {name!r} ({type(env).__name__})" if name else f"the {type(env).__name__}"
            job = self._steps = _deadline.SupervisedJob(_PythonSteps(env), what, blame=(env, "environment"))
        return job

    @property
    def _native(self) -> bool:
        # Decided on first use, so that unpickling never touches the library.
        if self._native_path is None:
            self._native_path = scores_natively(self.environment)
        return self._native_path

    @property
    def _names(self) -> list[str]:
        if self._names_cache is None:
            env = self.environment
            if self._native:
                self._names_cache = [s["name"] for s in env.signal_specs]
            else:
                self._names_cache = [rf.name for rf in getattr(env, "reward_functions", ())]
        return self._names_cache

    @classmethod
    def from_config(cls, config: Any) -> Scorer:
        """Build the environment an ``EnvironmentConfig`` describes and wrap it."""
        return cls(config.build())

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt without touching the library: a worker that cannot use it
        # (a forked child) then fails on first use, where the error reaches
        # the caller, rather than while unpickling.
        return (_rebuild_scorer, (self.environment, self._timeout))

    @property
    def signal_names(self) -> list[str]:
        """Names of the signals in every result, in order (those of ``environment.reward_functions``
        for an environment scored in Python)."""
        return list(self._names)

    def score(self, task_index: int, response: str) -> ScoringResult:
        """Score one response against task ``task_index``.

        For an environment scored in Python, what its ``reset`` or ``step``
        raises propagates (an out-of-range index, a bug in a reward function).
        """
        one = self._one or self._one_path()
        if one is None or type(response) is not str or type(task_index) is not int:
            return self._score_general(task_index, response)
        c = self._call_one(one, task_index, response)
        if c is None:  # not encodable as UTF-8: the batch path handles it
            return self._run((task_index,), (response,), rich=True)[0]
        words = c.words
        f = words[1]
        if f & _native.ITEM_FOUND:
            if not f & _native.ITEM_SPAN:  # a cleaner changed the answer: it comes as bytes
                return self._run((task_index,), (response,), rich=True)[0]
            a, b = words[2], words[3]
            answer = response[a:b] if response.isascii() else \
                response.encode("utf-8", "surrogatepass")[a:b].decode("utf-8", "surrogatepass")
        else:
            answer = None
        d = c.doubles
        names = one[2]
        signals = {names[0]: d[6]} if len(names) == 1 else {n: d[6 + j] for j, n in enumerate(names)}
        r = _new(ScoringResult)
        _set_total(r, d[0])
        _set_signals(r, signals)
        _set_answer(r, answer)
        _set_source(r, self)
        _set_index(r, (task_index, response))
        return r

    def _metadata_of(self, item: tuple[int, str]) -> dict[str, Any]:
        # The metadata of a result of score(): the item scored again, with its columns.
        return self._run(item[:1], item[1:], rich=True)[0].metadata

    def _score_general(self, task_index: int, response: str) -> ScoringResult:
        if not self._native:
            return self._score_python(task_index, response)
        if isinstance(response, (bytes, bytearray)):
            raise TypeError(f"response must be a str, got {type(response).__name__}")
        return self._run((task_index,), (response,), rich=True)[0]

    def total(self, task_index: int, response: str) -> float:
        """The total reward of one response: the cheapest single-item path (a reward function
        called once per sample). A response that cannot be scored (or that ran past its
        timeout) gets 0.0 and a :class:`ScoringFailureWarning`."""
        one = self._one or self._one_path()
        if one is None or type(response) is not str or type(task_index) is not int:
            r = self._score_general(task_index, response)
            if one is None and r.metadata.get("status") in ("timeout", "error"):
                warnings.warn(ScoringFailureWarning(
                    f"the response to task {task_index} could not be scored ({r.metadata['status']}) and got 0.0; "
                    "Scorer.score reports why in metadata['error']"), stacklevel=2)
            return r.total
        c = self._call_one(one, task_index, response)
        if c is None:  # not encodable as UTF-8: the batch path handles it
            return self._run((task_index,), (response,), rich=False)._totals[0]
        if c.words[1] & _native.ITEM_ERROR:
            warnings.warn(ScoringFailureWarning(f"the response to task {task_index} could not be scored and got 0.0; "
                                                "Scorer.score reports why in metadata['error']"), stacklevel=2)
        return c.doubles[0]

    def _one_path(self) -> tuple[Any, int, list[str]] | None:
        # (the GIL-holding one-item call, the environment's handle, the signal names) when
        # one item can be scored through it: a Go-backed environment whose signals are all Go's.
        if not self._native or self.environment.backend != "native":
            return None
        self._one = (_native.score_one_fn(), self.environment.handle, self._names)
        return self._one

    def _call_one(self, one: tuple[Any, int, list[str]], task_index: int, response: str) -> _OneCall | None:
        """Score one response into this thread's slots (GIL held); None when it is not UTF-8-encodable."""
        if not _I64_MIN <= task_index <= _I64_MAX:  # ctypes would wrap it silently
            raise self._index_error((task_index,))
        fn, handle, names = one
        c = _one_call(len(names))
        rc = fn(handle, task_index, response, c.address)
        if rc != _native.OK:
            data = c.take()
            if rc == _native.ERR_HANDLE:  # the environment was closed and made again: use its new handle
                self._one = None
                fresh = self._one_path()
                if fresh is not None and fresh[1] != handle:
                    return self._call_one(fresh, task_index, response)
            if rc == _native.ERR_ENCODING:
                return None
            _native.raise_for(rc, data)
        return c

    def score_batch(self, task_indices: Sequence[int], responses: Sequence[str]) -> ScoringResults:
        """Score ``responses[i]`` against task ``task_indices[i]`` for every i (in one call into Go when
        the environment is Go-backed).

        An item whose scoring fails (its ``step`` raises, or scoring in Go
        fails) gets total 0.0 and ``metadata["error"]``, and is listed in
        the results' ``errors``; the others are unaffected.

        Raises:
            ValueError: the two sequences differ in length.
            TaskIndexError: a task index is out of range (names its position);
                for an environment scored in Python, what its ``reset`` raises.
            TypeError: an index is not an int, ``responses`` is a str or bytes,
                or a response is not a str.
        """
        return self._run(task_indices, responses, rich=True)

    def totals(self, task_indices: Sequence[int], responses: Sequence[str]) -> list[float]:
        """Only the total reward per response: the fast path reward functions use.

        A response that cannot be scored gets 0.0, and a
        :class:`ScoringFailureWarning` says how many failed and where
        (``score_batch`` gives each one's reason).
        """
        return self._run(task_indices, responses, rich=False)._totals

    def outcomes(self, task_indices: Sequence[int], responses: Sequence[str]) -> tuple[list[float], list[str]]:
        """The totals and every item's status (:data:`STATUSES`), without building results.

        The path of reward functions that report timeouts and failures in
        their framework's own way; unlike :meth:`totals` it gives no
        warning, the statuses say which items were not scored.
        """
        results = self._run(task_indices, responses, rich=False, statuses=True)
        return results._totals, results.statuses

    def outcome(self, task_index: int, response: str) -> tuple[float, str]:
        """One response's total and status: the single-item form of :meth:`outcomes`."""
        one = self._one or self._one_path()
        if one is None or type(response) is not str or type(task_index) is not int:
            totals, statuses = self.outcomes((task_index,), (response,))
            return totals[0], statuses[0]
        c = self._call_one(one, task_index, response)
        if c is None:  # not encodable as UTF-8: the batch path handles it
            totals, statuses = self.outcomes((task_index,), (response,))
            return totals[0], statuses[0]
        d = c.doubles
        names = one[2]
        status = item_statuses(bytes((c.words[1] & 0xFF,)), [d[6 + j] for j in range(len(names))], names, (d[0],))
        return d[0], status[0]

    # -- environments scored in Python: llenvs' reset + step -----------------
    def _score_python(self, task_index: int, response: str) -> ScoringResult:
        if self._python_timeout is not None:
            return self._from_outcome(self._steps_job().run([(task_index, response, True)], self._python_timeout)[0])
        token = _deadline.passing_on(self._timeout) if self._timeout is None else None
        try:
            env = self.environment
            state, _ = env.reset(options={"task_index": task_index})
            r = result_from_step(env.step(state, Action.from_text(response)))
        finally:
            if token is not None:
                _deadline.stop_passing_on(token)
        if "status" not in r.metadata:
            r.metadata["status"] = status_of(r)
        return r

    def _run_python(self, task_indices: Sequence[int], responses: Sequence[str]) -> ScoringResults:
        idx = list(task_indices)
        texts = list(responses)
        if len(idx) != len(texts):
            raise ValueError(f"task_indices and responses must have the same length, got {len(idx)} and {len(texts)}")
        if self._python_timeout is not None:
            if not idx:
                return ScoringResults.of([])
            outcomes = self._steps_job().run([(i, t, False) for i, t in zip(idx, texts, strict=True)],
                                             self._python_timeout)
            return ScoringResults.of([self._from_outcome(o) for o in outcomes])
        token = _deadline.passing_on(self._timeout) if self._timeout is None else None
        try:
            return ScoringResults.of([self._step_here(i, text) for i, text in zip(idx, texts, strict=True)])
        finally:
            if token is not None:
                _deadline.stop_passing_on(token)

    def _step_here(self, task_index: Any, text: Any) -> ScoringResult:
        # One item of a batch scored in this process, as llenvs scores it.
        env = self.environment
        state, _ = env.reset(options={"task_index": task_index})
        try:
            r = result_from_step(env.step(state, Action.from_text(text)))
        except Exception as e:  # noqa: BLE001 - one item's failure is that item's result
            r = self._failed(f"{type(e).__name__}: {e}", None)
        if "status" not in r.metadata:
            r.metadata["status"] = status_of(r)
        return r

    def _failed(self, reason: str, status: str | None) -> ScoringResult:
        """The result of an item whose scoring failed or ran past its timeout: total 0.0 and the reason."""
        metadata: dict[str, Any] = {"error": reason}
        if status is not None:
            metadata["status"] = status
        return ScoringResult(total=0.0, signals=dict.fromkeys(self._names, 0.0), extracted_answer=None,
                             metadata=metadata)

    def _from_outcome(self, outcome: _deadline.Outcome) -> ScoringResult:
        status, value = outcome
        return value if status == "ok" else self._failed(value, status)

    def _run(self, task_indices: Sequence[int], responses: Sequence[str], rich: bool,
             statuses: bool = False) -> ScoringResults:
        if isinstance(responses, (str, bytes, bytearray)):
            raise TypeError(f"responses must be a sequence of str, got a {type(responses).__name__}; "
                            "wrap a single response in a list")
        if not self._native:
            return self._run_python(task_indices, responses)
        texts = responses if type(responses) is tuple else tuple(responses)
        if not isinstance(task_indices, (list, tuple)):
            task_indices = list(task_indices)
        n = len(texts)
        if len(task_indices) != n:
            raise ValueError(f"task_indices and responses must have the same length, got {len(task_indices)} and {n}")
        names = self._names
        if n == 1 and isinstance(task_indices[0], bool):
            raise TypeError("task_indices[0] must be an int, got bool")
        try:
            idx = ffi.new("int64_t[]", task_indices)
        except (TypeError, OverflowError):
            raise self._index_error(task_indices) from None
        totals = ffi.new("double[]", n)
        values = ffi.new("double[]", n * len(names))
        flags = ffi.new("uint8_t[]", n)
        env = self.environment
        python_backend = env.backend == "python"
        data = self._call(idx, texts, totals, values, flags, rich or python_backend)
        columns = None
        python_failed = False
        if data:
            columns = _Columns(data, texts, names, list(task_indices), env.backend,
                               (lambda i: ground_truth(env.entry(i))) if python_backend else None)
            if python_backend:
                python_failed = self._python_correctness(columns, totals, values, flags)
        status = ffi.buffer(flags, n)[:]
        total_list, value_list = ffi.unpack(totals, n), ffi.unpack(values, n * len(names))
        if columns is not None:
            columns.statuses = item_statuses(status, value_list, names, total_list)
        results = ScoringResults(total_list, value_list, names, columns)
        if statuses:
            if columns is None:
                results._statuses = item_statuses(status, value_list, names, total_list)
            return results
        if not rich and (python_failed or b"\x01" in status.translate(_HAS_ERROR)):  # LLENVS_ITEM_ERROR set
            failed = [k for k in range(n) if flags[k] & _native.ITEM_ERROR]
            warnings.warn(ScoringFailureWarning(
                f"{len(failed)} of {n} responses could not be scored and got 0.0 (first at position {failed[0]}); "
                "Scorer.score_batch reports why in its errors"), stacklevel=3)
        return results

    def _python_correctness(self, columns: _Columns, totals: Any, values: Any, flags: Any) -> bool:
        # Tasks without a native port: Go extracted the answers, reasoning-gym scores them (in a worker with a
        # deadline per item unless the timeout is None). An item that ran past it or failed is flagged as the
        # library flags its own, with total 0.0 and the reason; True when there is one.
        k = len(self._names)
        j = self._names.index("correctness")
        weight = self.environment.signal_specs[j]["weight"]
        found = [(i, answer) for i, answer in enumerate(columns.answers(columns.texts)) if answer is not None]
        indices = columns.indices
        outcomes = self.environment.score_correctness([(indices[i], a) for i, a in found], self._fallback_timeout)
        failed: dict[int, str] = {}
        for (i, _), (status, value) in zip(found, outcomes, strict=True):
            if status == "ok":
                values[i * k + j] = value
                totals[i] += value * weight
            else:
                flags[i] |= _native.ITEM_ERROR | (_native.ITEM_TIMEOUT if status == "timeout" else 0)
                totals[i] = 0.0
                for s in range(k):
                    values[i * k + s] = 0.0
                failed[i] = value
        if failed:
            columns.errors().update(failed)
        return bool(failed)

    def _call(self, idx: Any, texts: tuple, totals: Any, values: Any, flags: Any, rich: bool) -> bytes:
        n = len(texts)
        handle = self.environment.handle
        L = _native.lib()
        out = ffi.new("char **")
        out_len = ffi.new("size_t *")
        rc = L.llenvs_score_pytuple(handle, idx, ffi.cast("void *", id(texts)), n, totals, values, flags, ffi.NULL,
                                    int(rich), out, out_len)
        if rc == _native.ERR_ENCODING:
            _native.take_buffer(out, out_len)
            rc = self._call_encoded(handle, texts, idx, totals, values, flags, rich, out, out_len)
        data = _native.take_buffer(out, out_len)
        if rc != _native.OK:
            _native.raise_for(rc, data)
        return data if rich and n else b""

    def _index_error(self, task_indices: Sequence[int]) -> Exception:
        for i, t in enumerate(task_indices):
            if isinstance(t, bool) or not hasattr(t, "__index__"):
                return TypeError(f"task_indices[{i}] must be an int, got {type(t).__name__}")
            v = t.__index__()
            if not -(2**63) <= v < 2**63:
                return _native.TaskIndexError(
                    f"task_indices[{i}]: task_index {v} out of bounds [0, {len(self.environment)})")
        return TypeError("task_indices must be a sequence of ints")

    @staticmethod
    def _call_encoded(handle: int, texts: tuple, idx: Any, totals: Any, values: Any, flags: Any,
                      rich: bool, out: Any, out_len: Any) -> int:
        # Slow path for strs CPython cannot encode as UTF-8 (lone surrogates):
        # they are passed with the surrogates kept as bytes, as "surrogatepass" encodes them.
        encoded = []
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise TypeError(f"responses[{i}] must be a str, got {type(t).__name__}")
            encoded.append(t.encode("utf-8", "surrogatepass"))
        keep = [ffi.from_buffer(b) for b in encoded]
        ptrs = ffi.new("char *[]", keep)
        lens = ffi.new("int64_t[]", [len(b) for b in encoded])
        return _native.lib().llenvs_score_texts(handle, idx, ptrs, lens, len(texts), totals, values, flags, ffi.NULL,
                                                int(rich), out, out_len)


def _rebuild_scorer(environment: Any, timeout: _deadline.Timeout = _deadline.DEFAULT) -> Scorer:
    scorer = Scorer.__new__(Scorer)
    scorer.environment = environment
    scorer._names_cache = None
    scorer._native_path = None
    scorer._one = None
    scorer._set_timeout(timeout)  # resolved here, in the process that uses it (its LLENVS_GO_PYTHON_TIMEOUT)
    return scorer


def ground_truth(entry: dict[str, Any]) -> str | None:
    """The ground truth of a reasoning-gym entry as a str; None when the task has none (``answer`` is None)."""
    answer = entry["answer"]
    return None if answer is None else str(answer)


def native_scorer(environment: NativeEnvironment) -> Scorer:
    """A Scorer of ``environment``'s Go-side signals only, whatever its class overrides.

    For reward functions that need the library's own scoring from inside a
    Python ``step`` (calling ``Scorer(environment)`` there could recurse).
    """
    scorer = _rebuild_scorer(environment)
    scorer._native_path = True
    return scorer


def result_from_step(step_result: Any) -> ScoringResult:
    """The ScoringResult of a ``StepResult``, as llenvs builds it.

    ``total`` is the weighted total of ``step_result.rewards``; ``signals``
    maps each name to its unweighted reward (None kept, the last of a name
    wins); ``metadata`` maps names to the metadata that is not None;
    ``extracted_answer`` is ``info["extracted_answer"]`` or, when that is
    None, the ``"extracted"`` metadata of the first signal that has one.
    """
    rewards = step_result.rewards
    signals = tuple(rewards)
    total = rewards.total if hasattr(rewards, "total") else as_bundle(signals).total
    extracted = (step_result.info or {}).get("extracted_answer")
    if extracted is None:
        for sig in signals:
            if sig.metadata is not None and "extracted" in sig.metadata:
                extracted = sig.metadata["extracted"]
                break
    return ScoringResult(total=float(total), signals={sig.name: sig.reward for sig in signals},
                         extracted_answer=extracted,
                         metadata={sig.name: sig.metadata for sig in signals if sig.metadata is not None})
