"""Record batches across the C ABI: the one place that imports them.

Bulk results come back from the Go core as Arrow record batches through the
Arrow C Data Interface: Python allocates the ``ArrowSchema`` and
``ArrowArray`` structs (declared in ``_native.CDEF``), Go fills them, and
pyarrow takes ownership, calling their release callbacks when the batch is
collected. Nothing is copied.
"""

from __future__ import annotations

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


def strings(batch: Any, name: str) -> list[str | None]:
    """The utf8 column ``name`` of ``batch`` as a list (None for nulls).

    Texts holding lone surrogates cross the ABI as the bytes ``"surrogatepass"``
    writes, and what Go takes from them (an extracted answer) keeps those bytes:
    such a column is decoded the same way, so the surrogates come back.
    """
    import pyarrow as pa

    column = batch.column(name)
    try:
        return column.to_pylist()
    except UnicodeDecodeError:
        return [None if b is None else b.decode("utf-8", "surrogatepass")
                for b in column.view(pa.binary()).to_pylist()]


def present(batch: Any, name: str) -> dict[int, str]:
    """Row -> value of the rows where the nullable utf8 column ``name`` is not null."""
    column = batch.column(name)
    if column.null_count == len(column):
        return {}
    return {i: v for i, v in enumerate(column.to_pylist()) if v is not None}
