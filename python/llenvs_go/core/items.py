"""Dataset rows as Arrow columns, built by the Go core without a Python object per row.

Go generates a chunk of tasks in parallel and hands back a record batch
(``task_index``, ``prompt``, ``ground_truth``, ``messages``) through the Arrow
C Data Interface (:mod:`llenvs_go.core.columns`), with the failed tasks as a
second batch; pyarrow owns both without copying.
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from typing import Any

from llenvs_go import _native
from llenvs_go._native import ffi
from llenvs_go.core.columns import BatchSlot


def template_parts(template: str | None) -> list[str] | None:
    """The literal parts of a ``{question}`` template, the question going between each two.

    None when the template needs Python's formatting (a conversion or a format
    spec on the field), which the Go side does not do.
    """
    if template is None:
        return ["", ""]
    parts = [""]
    for literal, field, spec, conversion in string.Formatter().parse(template):
        parts[-1] += literal
        if field is None:
            continue
        if field != "question" or spec or conversion:
            return None
        parts.append("")
    return parts


def schema() -> Any:
    """The Arrow schema of dataset rows (llenvs' to_hf_dataset columns)."""
    import pyarrow as pa

    return pa.schema([("task_index", pa.int64()), ("prompt", pa.string()), ("ground_truth", pa.string()),
                      ("messages", message_type())])


def message_type() -> Any:
    """The Arrow type of the ``messages`` column."""
    import pyarrow as pa

    return pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))


def record_batch(handle: int, indices: Sequence[int], system: str | None,
                 parts: list[str]) -> tuple[Any, list[tuple[int, str]]]:
    """One record batch of dataset rows, and ``(position, message)`` for each task that failed.

    Failed tasks are left out of the batch; positions count in ``indices``.
    An index out of range raises TaskIndexError naming its position.
    """
    n = len(indices)
    try:
        c_idx = ffi.new("int64_t[]", indices if isinstance(indices, (list, tuple)) else list(indices))
    except OverflowError:
        bad = next(k for k, i in enumerate(indices) if not -(2**63) <= i < 2**63)
        raise _native.TaskIndexError(f"indices[{bad}]: task_index {indices[bad]} out of bounds") from None
    layout = json.dumps({"system": system, "template": parts}).encode("utf-8", "surrogatepass")
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rows, failed = BatchSlot(), BatchSlot()
    rc = _native.lib().llenvs_items_batch(handle, c_idx, n, layout, len(layout), rows.schema, rows.array,
                                          failed.schema, failed.array, out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, _native.take_buffer(out, out_len))
    batch, errs = rows.take(), failed.take()
    errors: list[tuple[int, str]] = []
    if errs.num_rows:
        errors = list(zip(errs.column(0).to_pylist(), errs.column(1).to_pylist(), strict=True))
    return batch, errors
