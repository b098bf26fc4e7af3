"""Dataset rows as Arrow columns, built by the Go core without a Python object per row.

Go generates a chunk of tasks in parallel and packs the columns of a record
batch (``task_index``, ``prompt``, ``ground_truth``, ``messages``) into one
buffer; pyarrow wraps its sections without copying, and the buffer is freed
when the last array that uses it is collected.
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from typing import Any

from llenvs_go import _native
from llenvs_go._native import ffi

# Sections of the buffer, in the order of capi/arrow.go.
(_TASK_INDEX, _PROMPT_OFFSETS, _PROMPT_DATA, _TRUTH_VALIDITY, _TRUTH_OFFSETS, _TRUTH_DATA, _MESSAGE_OFFSETS,
 _ROLE_OFFSETS, _ROLE_DATA, _CONTENT_OFFSETS, _CONTENT_DATA, _ERROR_INDEX, _ERROR_OFFSETS, _ERROR_DATA,
 _SECTIONS) = range(15)


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
    import pyarrow as pa

    n = len(indices)
    try:
        c_idx = ffi.new("int64_t[]", indices if isinstance(indices, (list, tuple)) else list(indices))
    except OverflowError:
        bad = next(k for k, i in enumerate(indices) if not -(2**63) <= i < 2**63)
        raise _native.TaskIndexError(f"indices[{bad}]: task_index {indices[bad]} out of bounds") from None
    layout = json.dumps({"system": system, "template": parts}).encode("utf-8", "surrogatepass")
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = _native.lib().llenvs_items_arrow(handle, c_idx, n, layout, len(layout), out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, _native.take_buffer(out, out_len))
    size = out_len[0]
    owner = ffi.gc(out[0], _native.lib().llenvs_free, size)
    buf = pa.foreign_buffer(int(ffi.cast("uintptr_t", owner)), size, base=owner)
    head = memoryview(buf)[: 8 + 16 * _SECTIONS].cast("q")
    rows = head[0]
    nerr = head[2 + 2 * _ERROR_INDEX] // 8

    def section(k: int) -> Any:
        return buf.slice(head[1 + 2 * k], head[2 + 2 * k])

    def strings(count: int, offsets: int, data: int, validity: Any = None) -> Any:
        return pa.Array.from_buffers(pa.string(), count, [validity, section(offsets), section(data)],
                                     null_count=-1 if validity is not None else 0)

    nmsg = (head[2 + 2 * _ROLE_OFFSETS] // 4) - 1 if rows else 0
    structs = pa.StructArray.from_arrays(
        [strings(nmsg, _ROLE_OFFSETS, _ROLE_DATA), strings(nmsg, _CONTENT_OFFSETS, _CONTENT_DATA)],
        names=["role", "content"])
    messages = pa.Array.from_buffers(message_type(), rows, [None, section(_MESSAGE_OFFSETS)], children=[structs])
    # Column order and names are those of llenvs' to_hf_dataset.
    batch = pa.RecordBatch.from_arrays(
        [pa.Array.from_buffers(pa.int64(), rows, [None, section(_TASK_INDEX)]),
         strings(rows, _PROMPT_OFFSETS, _PROMPT_DATA),
         strings(rows, _TRUTH_OFFSETS, _TRUTH_DATA, section(_TRUTH_VALIDITY)),
         messages],
        names=["task_index", "prompt", "ground_truth", "messages"])
    errors: list[tuple[int, str]] = []
    if nerr:
        where = memoryview(section(_ERROR_INDEX)).cast("q").tolist()
        texts = strings(nerr, _ERROR_OFFSETS, _ERROR_DATA).to_pylist()
        errors = list(zip(where, texts, strict=True))
    return batch, errors
