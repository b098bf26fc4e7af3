"""Handing the prepared columns to the Go core: their Arrow buffers are passed, without copying, to
``llenvs_env_new_columns``, which builds the Go environment."""

from __future__ import annotations

import json
from typing import Any

from llenvs_go import _native
from llenvs_go._native import ffi
from llenvs_go.adapters.huggingface.columns import json_values, text_array
from llenvs_go.adapters.huggingface.tables import import_pyarrow


def hand_over(go_config: dict[str, Any], table: Any) -> tuple[int, dict[str, Any]]:
    """Build the Go environment from ``table``'s columns; returns the handle and its description."""
    pa = import_pyarrow()
    params = dict(go_config["params"])
    q, a = params["question_column"], params["answer_column"]
    arrays: list[tuple[str, Any]] = [(q, text_array(table.column(q), q, "question"))]
    code = params.get("scoring") == "code"
    if a != q:
        col = table.column(a)
        if code and (pa.types.is_list(col.type) or pa.types.is_large_list(col.type) or pa.types.is_struct(col.type)):
            col = pa.array([None if v is None else json.dumps(v) for v in col.to_pylist()], type=pa.large_string())
        arrays.append((a, text_array(col, a, "answer")))
    if code:
        # HumanEval's entry point and MBPP's setup code, which the tests need beside the answer cell.
        for name in ("entry_point", "test_setup_code"):
            if name in table.column_names and name not in (q, a) and name not in (params.get("metadata_columns") or ()):
                arrays.append((name, text_array(table.column(name), name, "metadata")))
    values: dict[str, Any] = {}
    for name in params.get("metadata_columns") or ():
        if name in (q, a):
            continue
        col = table.column(name)
        t = col.type
        if pa.types.is_string(t) or pa.types.is_large_string(t):
            arrays.append((name, text_array(col, name, "metadata")))
        else:
            values[name] = json_values(col)
    params["columns"] = [n for n, _ in arrays]
    if values:
        params["metadata_values"] = values
    config = {**go_config, "params": params}
    req = json.dumps(config).encode("utf-8", "surrogatepass")
    n = len(arrays)
    keep = []  # the buffers stay referenced until the call returns
    offsets = ffi.new("void *[]", max(n, 1))
    widths = ffi.new("int32_t[]", max(n, 1))
    starts = ffi.new("int64_t[]", max(n, 1))
    data = ffi.new("char *[]", max(n, 1))
    data_lens = ffi.new("int64_t[]", max(n, 1))
    validity = ffi.new("uint8_t *[]", max(n, 1))
    for k, (_, arr) in enumerate(arrays):
        bufs = arr.buffers()
        keep.append(bufs)
        valid, offs, body = bufs[0], bufs[1], bufs[2]
        widths[k] = 8 if pa.types.is_large_string(arr.type) else 4
        starts[k] = arr.offset
        offsets[k] = ffi.cast("void *", offs.address) if offs is not None and offs.size else ffi.NULL
        data[k] = ffi.cast("char *", body.address) if body is not None and body.size else ffi.NULL
        data_lens[k] = body.size if body is not None else 0
        validity[k] = ffi.cast("uint8_t *", valid.address) if valid is not None and arr.null_count else ffi.NULL
    rows = table.num_rows
    h = ffi.new("uint64_t *")
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = _native.lib().llenvs_env_new_columns(req, len(req), n, rows, offsets, widths, starts, data, data_lens,
                                              validity, h, out, out_len)
    reply = _native.take_buffer(out, out_len)
    del keep
    if rc != _native.OK:
        _native.raise_for(rc, reply)
    return int(h[0]), json.loads(reply)
