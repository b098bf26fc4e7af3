"""Record batches across the C ABI: the one place that imports them.

Bulk results come back from the Go core as Arrow record batches through the
Arrow C Data Interface: Python allocates the ``ArrowSchema`` and
``ArrowArray`` structs (declared in ``_native.CDEF``), Go fills them, and
pyarrow takes ownership, calling their release callbacks when the batch is
collected. Nothing is copied.
"""

from __future__ import annotations

import codecs
from typing import Any

from llenvs_go._native import ffi


class BatchSlot:
    """A caller-allocated ArrowSchema/ArrowArray pair for one record batch out of a C call."""

    __slots__ = ("schema", "array")

    def __init__(self) -> None:
        # Zeroed: release is NULL until Go fills them, so an unfilled pair is not released.
        self.schema = ffi.new("struct ArrowSchema *")
        self.array = ffi.new("struct ArrowArray *")

    def take(self, schema: Any = None) -> Any:
        """The record batch Go filled in, now owned by pyarrow (the structs are marked released).

        With ``schema`` (a ``pyarrow.Schema`` the caller knows Go's to be),
        Go's schema is released unread: parsing it is most of the cost of a
        call that returns a few rows.
        """
        import pyarrow as pa

        array = int(ffi.cast("uintptr_t", self.array))
        if schema is None:
            return pa.RecordBatch._import_from_c(array, int(ffi.cast("uintptr_t", self.schema)))
        try:
            return pa.RecordBatch._import_from_c(array, schema)
        finally:
            self.schema.release(self.schema)  # Go's schema, unread either way


def _surrogatepass_or_replace(err: UnicodeError) -> tuple[str, int]:
    # A lone surrogate as "surrogatepass" wrote it stays itself; any other invalid byte is one U+FFFD, as the
    # Go core's JSON writer replaces it.
    try:
        return codecs.lookup_error("surrogatepass")(err)
    except UnicodeError:
        return "\ufffd", err.start + 1  # type: ignore[attr-defined]


codecs.register_error("llenvs-surrogatepass-replace", _surrogatepass_or_replace)


def texts_of(column: Any) -> list[str | None]:
    """The values of a utf8 column as str (None for nulls).

    Go writes the bytes of its texts unchanged: texts that crossed in as "surrogatepass" UTF-8 may hold lone
    surrogates in that form, which are decoded back to themselves (pyarrow's own conversion refuses them).
    """
    try:
        return column.to_pylist()
    except UnicodeDecodeError:
        import pyarrow as pa

        return [None if b is None else b.decode("utf-8", "llenvs-surrogatepass-replace")
                for b in column.view(pa.binary()).to_pylist()]


def release(slot: BatchSlot) -> None:
    """Release a batch read in place (see :func:`read_texts`) instead of taken by pyarrow."""
    if slot.array.release != ffi.NULL:
        slot.array.release(slot.array)
    if slot.schema.release != ffi.NULL:
        slot.schema.release(slot.schema)


_INT32_P = ffi.typeof("int32_t *")
_CHAR_P = ffi.typeof("char *")
_UINT8_P = ffi.typeof("uint8_t *")


def read_offsets(array: Any) -> list[int]:
    """The ``length + 1`` int32 offsets of a list or utf8 ``struct ArrowArray``, read in place."""
    return ffi.unpack(ffi.cast(_INT32_P, array.buffers[1]) + array.offset, array.length + 1)


def read_texts(array: Any) -> list[str | None]:
    """The values of a utf8 ``struct ArrowArray`` as str (None for nulls), read in place without pyarrow.

    For small batches, where importing into pyarrow costs more than the reading; lone surrogates decode
    as in :func:`texts_of`. The array stays owned by its batch: release that with :func:`release`.
    """
    n, nulls, first, buffers = array.length, array.null_count, array.offset, array.buffers
    if n == 0 or nulls == n:
        return [None] * n
    offs = ffi.unpack(ffi.cast(_INT32_P, buffers[1]) + first, n + 1)
    base = offs[0]
    data = ffi.unpack(ffi.cast(_CHAR_P, buffers[2]) + base, offs[n] - base)
    if base:
        offs = [o - base for o in offs]
    out: list[str | None] = [data[offs[i]:offs[i + 1]].decode("utf-8", "llenvs-surrogatepass-replace")
                             for i in range(n)]
    if nulls:
        bits = ffi.cast(_UINT8_P, buffers[0])
        for i in range(n):
            j = first + i
            if not bits[j >> 3] >> (j & 7) & 1:
                out[i] = None
    return out


def call_on_texts(entry_point: str, spec: bytes, texts: Any, needs: str) -> BatchSlot:
    """Call ``entry_point`` (``llenvs_extract_texts``, ``llenvs_clean_texts``, ``llenvs_parse_tool_calls``)
    with ``spec`` (JSON) on ``texts``, which cross as ``"surrogatepass"`` bytes: the batch it filled.

    A text that is not a str is a TypeError naming the caller (``needs``: ``"extract"``, ``"a cleaner"``).
    """
    from llenvs_go import _native

    try:
        arrays = _native.TextArrays(texts)
    except TypeError as e:
        raise TypeError(f"{needs} needs a str: {e}") from None
    n = len(arrays.lens)
    slot = BatchSlot()
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = getattr(_native.lib(), entry_point)(spec, len(spec), arrays.ptrs, arrays.lens, n, slot.schema,
                                              slot.array, out, out_len)
    data = _native.take_buffer(out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, data)
    return slot


def call_texts(entry_point: str, spec: bytes, texts: Any, needs: str) -> list[list[str | None]]:
    """:func:`call_on_texts`, and the batch's utf8 columns, read in place."""
    slot = call_on_texts(entry_point, spec, texts, needs)
    try:
        return [read_texts(slot.array.children[i]) for i in range(slot.array.n_children)]
    finally:
        release(slot)


def strings(batch: Any, name: str) -> list[str | None]:
    """The utf8 column ``name`` of ``batch`` as a list (None for nulls; lone surrogates as in :func:`texts_of`)."""
    return texts_of(batch.column(name))


def present(batch: Any, name: str) -> dict[int, str]:
    """Row -> value of the rows where the nullable utf8 column ``name`` is not null."""
    column = batch.column(name)
    if column.null_count == len(column):
        return {}
    return {i: v for i, v in enumerate(texts_of(column)) if v is not None}
