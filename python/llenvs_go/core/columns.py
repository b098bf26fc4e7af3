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

    def take(self) -> Any:
        """The record batch Go filled in, now owned by pyarrow (the structs are marked released)."""
        import pyarrow as pa

        return pa.RecordBatch._import_from_c(int(ffi.cast("uintptr_t", self.array)),
                                             int(ffi.cast("uintptr_t", self.schema)))


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
