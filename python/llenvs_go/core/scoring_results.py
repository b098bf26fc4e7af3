"""The results of scoring: ``ScoringResult`` for one response, ``ScoringResults`` for a batch, and every item's
status (``STATUSES``) from the library's flags or from a result built in Python.

A result of a Go-scored batch is made, through its constructor, from the batch's
columns when it is read; its ``metadata`` is a :class:`ResultMetadata`, a view
that builds the item's dict when first read (:mod:`llenvs_go.core.go_reply`
reads the columns).
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, overload

from llenvs_go import _native
from llenvs_go.core.lazy_mapping import LazyMapping
from llenvs_go.core.reward import as_bundle

# These classes are public at llenvs_go.core.scoring, and pickles name them there.
_PUBLIC_MODULE = "llenvs_go.core.scoring"

class ScoringFailureWarning(RuntimeWarning):
    """Some responses of a reward batch could not be scored; they got 0.0."""


@dataclass(frozen=True, slots=True)
class ScoringResult:
    """The score of one response.

    Attributes:
        total: weighted sum of the numeric signals.
        signals: signal name -> unweighted reward (None for a feedback-only signal).
        extracted_answer: what the extractor found; None when it found
            nothing ("" is a valid extraction).
        metadata: signal name -> that signal's metadata (signals without
            metadata are left out), plus ``"backend"`` for Go-backed
            environments and ``"status"`` (one of :data:`STATUSES`); an item
            of ``score_batch`` whose scoring failed has total 0.0 and
            ``metadata["error"]``. For a Go-scored result it is a
            :class:`ResultMetadata`, a mapping built when first read
            (``dict(result.metadata)`` for a plain dict, e.g. to serialise it).
    """

    total: float
    signals: dict[str, float | None]
    extracted_answer: str | None
    metadata: MutableMapping[str, Any]

    def __init__(self, total: float, signals: dict[str, float | None], extracted_answer: str | None,
                 metadata: MutableMapping[str, Any]):
        # The generated __init__ of a frozen dataclass sets each field through object.__setattr__;
        # setting the slots directly does the same in about 60% of the time (results are made per item).
        _set_total(self, total)
        _set_signals(self, signals)
        _set_answer(self, extracted_answer)
        _set_metadata(self, metadata)

    def __reduce__(self) -> tuple[Any, ...]:
        metadata = self.metadata
        if isinstance(metadata, ResultMetadata):
            metadata = dict(metadata)
        return (ScoringResult, (self.total, self.signals, self.extracted_answer, metadata))


_set_total = ScoringResult.total.__set__  # type: ignore[attr-defined]
_set_signals = ScoringResult.signals.__set__  # type: ignore[attr-defined]
_set_answer = ScoringResult.extracted_answer.__set__  # type: ignore[attr-defined]
_set_metadata = ScoringResult.metadata.__set__  # type: ignore[attr-defined]




class ResultMetadata(LazyMapping):
    """The metadata of a Go-scored result: a view of one item of its batch's columns.

    Nothing is built until it is read; the first read builds the item's
    dict (for a batch, the details of every item come from Go in one call)
    and the view then behaves as that dict. It compares equal to a dict of
    the same items and pickles as one.
    """

    __slots__ = ()


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

    A read-only sequence, a view of the columns that come back from Go in
    the batch's one call: ``totals`` at once, and each ``ScoringResult``
    made when it is read (its ``metadata`` when that is read). Iterating
    builds each result as it is reached and keeps none of them (a loop that
    reads and drops them holds one at a time), so two passes give equal,
    not identical, results, and a change made to an iterated result's
    ``metadata`` is not seen by a later pass; ``results[i]`` gives the same
    object each time (keep ``list(results)`` to hold them all).

    ``errors`` maps the position of each item whose scoring failed to the
    reason (such items have total 0.0 and ``metadata["error"]``), and
    ``statuses`` gives every item's outcome (one of :data:`STATUSES`, also
    in its ``metadata["status"]``): a timeout or a failure is never a
    plain wrong answer.
    """

    __slots__ = ("_totals", "_values", "_names", "_columns", "_items", "_some", "_errors", "_statuses")

    def __init__(self, totals: list[float], values: list[float], names: list[str], columns: Any):
        # columns: the batch's llenvs_go.core.go_reply.ScoredColumns (None for results built in Python).
        self._totals = totals
        self._values = values
        self._names = names
        self._columns = columns
        self._items: list[ScoringResult] | None = None  # every result, when built in Python (of())
        self._some: dict[int, ScoringResult] = {}  # results read one by one before that
        self._errors: dict[int, str] | None = None
        self._statuses: list[str] | None = None

    @property
    def statuses(self) -> list[str]:
        """Every item's outcome, in order: ``correct``, ``incorrect``, ``no_answer``, ``timeout`` or ``error``."""
        if self._statuses is None:
            if self._columns is not None:
                self._statuses = self._columns.statuses()
            else:
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
        if self._items is not None:
            return iter(self._items)
        return self._iter_built()

    def _iter_built(self) -> Iterator[ScoringResult]:
        # A view: each result is built as the iteration reaches it and kept only by the caller, so a loop that
        # reads and drops them holds one at a time (results read by index before are handed out again).
        columns = self._columns
        if columns is None or not self._totals:
            return
        n = len(self._totals)
        some = self._some
        built = map(ScoringResult, self._totals, self._signals(), columns.answers(),
                    map(ResultMetadata, repeat(columns, n), range(n)))
        if not some:
            yield from built
            return
        for i, r in enumerate(built):
            yield some.get(i, r)

    def _signals(self) -> list[dict[str, float | None]]:
        names, values = self._names, self._values
        k = len(names)
        if k == 1:
            name = names[0]
            return [{name: v} for v in values]
        return [dict(zip(names, values[i * k: (i + 1) * k], strict=True)) for i in range(len(self._totals))]

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
        return ScoringResult(self._totals[i], signals, columns.answers()[i], ResultMetadata(columns, i))


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


for _cls in (ScoringFailureWarning, ScoringResult, ScoringResults, ResultMetadata):
    _cls.__module__ = _PUBLIC_MODULE
del _cls
