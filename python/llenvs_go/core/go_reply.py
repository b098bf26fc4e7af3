"""Reading the Go library's reply to a scoring call: the rich buffer of a batch (its sections, in the order of
``capi/scored.go``, decoded column by column when read) and one thread's result slots for a one-item call
(``llenvs_score_one``)."""

from __future__ import annotations

import ctypes
import json
import operator
import struct
import threading
from collections.abc import Callable, Sequence
from typing import Any

from llenvs_go import _native
from llenvs_go._native import ffi

_single = threading.local()  # per-thread result slots of score() and total(), by signal count

_loads = json.loads
_getitem = operator.getitem

# Sections of the rich scoring buffer, in the order of capi/scored.go.
(_ANSWER_KIND, _ANSWER_START, _ANSWER_END, _ANSWER_DATA, _META_OFFSETS, _META_DATA, _EXPECTED_INDEX,
 _EXPECTED_OFFSETS, _EXPECTED_DATA, _ERROR_ITEM, _ERROR_OFFSETS, _ERROR_DATA, _SECTIONS) = range(13)
_ANSWER_SPAN, _ANSWER_OWN = 1, 2


_HEAD = struct.Struct(f"<{1 + 2 * _SECTIONS}q")
_SPAN = struct.Struct("<q")

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


