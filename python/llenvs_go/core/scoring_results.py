"""The results of scoring: ``ScoringResult`` for one response, ``ScoringResults`` for a batch, and every item's
status (``STATUSES``) from the library's flags or from a result built in Python.

A result of a Go-scored batch is made from the batch's columns when it is read
(its ``metadata`` when that is read); :mod:`llenvs_go.core.go_reply` reads them.
"""

from __future__ import annotations

import gc
import operator
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING, Any, overload

from llenvs_go import _native
from llenvs_go.core.reward import as_bundle

if TYPE_CHECKING:
    from llenvs_go.core.go_reply import _Columns

# These classes are public at llenvs_go.core.scoring, and pickles name them there.
_PUBLIC_MODULE = "llenvs_go.core.scoring"

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
_getitem = operator.getitem
_consume = deque(maxlen=0).extend  # runs a map for its effects


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


for _cls in (ScoringFailureWarning, ScoringResult, ScoringResults):
    _cls.__module__ = _PUBLIC_MODULE
del _cls
