"""Reading the Go library's reply to a scoring call: a batch's record batch of answers and errors, the
details its metadata is made of (fetched from Go when first read), and one thread's result slots for a
one-item call (``llenvs_score_one``)."""

from __future__ import annotations

import ctypes
import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from llenvs_go import _native
from llenvs_go._native import ffi
from llenvs_go.core import columns as _columns
from llenvs_go.core.scoring_results import item_statuses

_single = threading.local()  # per-thread result slots of score() and total(), by signal count


class ScoredColumns:
    """What a Go-scored batch returned besides its floats, and what its results' metadata is made of.

    ``batch`` is the call's record batch (answer, error); the details
    (each item's extraction description and ground truth) come from
    ``llenvs_describe_texts`` the first time any item's metadata is read.
    """

    __slots__ = ("batch", "texts", "names", "indices", "environment", "fallback_expected", "flags", "values",
                 "totals", "_answers", "_errors", "_statuses", "_details")

    def __init__(self, batch: Any, texts: Sequence[str], names: list[str], indices: Sequence[int], environment: Any,
                 fallback_expected: Callable[[int], str | None] | None = None):
        self.batch = batch
        self.texts = texts
        self.names = names
        self.indices = indices
        self.environment = environment
        self.fallback_expected = fallback_expected
        self.flags = b""  # every item's LLENVS_ITEM_* flags, once the signals are final
        self.values: list[float] = []
        self.totals: list[float] = []
        self._answers: list[str | None] | None = None
        self._errors: dict[int, str] | None = None
        self._statuses: list[str] | None = None
        self._details: tuple[list[Any], list[str | None]] | None = None

    def answers(self) -> list[str | None]:
        """Every item's extracted answer (None where nothing was extracted)."""
        if self._answers is None:
            self._answers = _columns.strings(self.batch, "answer")
        return self._answers

    def errors(self) -> dict[int, str]:
        """Position -> why scoring that item failed."""
        if self._errors is None:
            self._errors = _columns.present(self.batch, "error")
        return self._errors

    def statuses(self) -> list[str]:
        """Every item's outcome (STATUSES), from its flags and signals."""
        if self._statuses is None:
            self._statuses = item_statuses(self.flags, self.values, self.names, self.totals)
        return self._statuses

    def metadata_of(self, i: int) -> dict[str, Any]:
        """Item i's metadata: per signal, and the backend; the error when it failed, and its status."""
        extractions, expected = self._described()
        extraction = extractions[i]
        answer = self.answers()[i]
        metadata: dict[str, Any] = {}
        for name in self.names:
            if name != "correctness":
                metadata[name] = {"extraction": extraction}
            elif answer is None:
                metadata[name] = {"extracted": None, "extraction": extraction}
            else:
                truth = expected[i]
                if truth is None and self.fallback_expected is not None:
                    truth = self.fallback_expected(self.indices[i])
                metadata[name] = {"extracted": answer, "expected": truth, "extraction": extraction}
        metadata["backend"] = self.environment.backend
        error = self.errors().get(i)
        if error is not None:
            metadata["error"] = error
        metadata["status"] = self.statuses()[i]
        return metadata

    def _described(self) -> tuple[list[Any], list[str | None]]:
        if self._details is None:
            batch = describe(self.environment.handle, self.indices, self.texts)
            descriptions = _columns.strings(batch, "extraction")
            # One JSON document for the whole batch: one parse, not one per item.
            extractions = json.loads("[" + ",".join([d if d is not None else "null" for d in descriptions]) + "]")
            self._details = (extractions, _columns.strings(batch, "expected"))
        return self._details


def describe(handle: int, indices: Sequence[int], texts: Sequence[str]) -> Any:
    """``llenvs_describe_texts``: the record batch (extraction, expected) of texts against tasks indices."""
    arrays = _native.TextArrays(texts)
    idx = ffi.new("int64_t[]", list(indices))
    slot = _columns.BatchSlot()
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = _native.lib().llenvs_describe_texts(handle, idx, arrays.ptrs, arrays.lens, len(texts), slot.schema,
                                             slot.array, out, out_len)
    data = _native.take_buffer(out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, data)
    return slot.take()


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


