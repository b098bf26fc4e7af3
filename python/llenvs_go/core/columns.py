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
        batch = pa.RecordBatch._import_from_c(array, schema)
        self.schema.release(self.schema)
        return batch
