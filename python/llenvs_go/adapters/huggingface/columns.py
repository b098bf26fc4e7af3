"""Preparing the question, answer and metadata columns for the Go side: checked, selected, and made single
Arrow string arrays."""

from __future__ import annotations

import difflib
import json
from typing import Any

from llenvs_go.adapters.huggingface.tables import import_pyarrow


def text_array(column: Any, name: str, role: str) -> Any:
    """One column as a single Arrow string or large_string array (numbers written as text for answers)."""
    pa = import_pyarrow()
    t = column.type
    if pa.types.is_dictionary(t):
        column = column.cast(t.value_type)
        t = column.type
    is_view = getattr(pa.types, "is_string_view", None)
    if is_view is not None and is_view(t):
        column = column.cast(pa.large_string())
        t = column.type
    if role == "answer" and (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)):
        column = column.cast(pa.string())
        t = column.type
    if pa.types.is_null(t):
        raise ValueError(f"{role} column {name!r} has only missing (None) cells")
    if not (pa.types.is_string(t) or pa.types.is_large_string(t)):
        allowed = "text (str)" if role != "answer" else "text (str) or numbers"
        raise ValueError(f"{role} column {name!r} holds {t} values, not {allowed}; pick another column or convert "
                         "it first")
    chunks = column.chunks if hasattr(column, "chunks") else [column]
    if len(chunks) == 1:
        return chunks[0]
    if not chunks:
        return pa.array([], type=t)
    if pa.types.is_string(t) and sum(c.nbytes for c in chunks) >= 2**31 - 1:
        column = column.cast(pa.large_string())
    return column.combine_chunks()


def json_values(column: Any) -> list[Any]:
    """A column's values as JSON values (anything JSON lacks written as its str)."""
    return json.loads(json.dumps(column.to_pylist(), default=str))


def missing_column_message(role: str, name: str, available: list[str]) -> str:
    """llenvs' message for a column that is not there, with the nearest name."""
    close = difflib.get_close_matches(name, available, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{role} column {name!r} not found in dataset. Available columns: {available}{hint}"


def prepare_columns(table: Any, params: dict[str, Any]) -> Any:
    """Check the columns a configuration names against ``table``; the table of those columns alone.

    A missing column is a ValueError naming the columns that exist.
    """
    available = list(table.column_names)
    q, a = params["question_column"], params["answer_column"]
    for role, name in (("Question", q), ("Answer", a)):
        if name not in available:
            raise ValueError(missing_column_message(role, name, available))
    meta = list(params.get("metadata_columns") or ())
    for name in meta:
        if name not in available:
            raise ValueError(missing_column_message("Metadata", name, available))
    extra = [c for c in ("entry_point", "test_setup_code") if c in available] if params.get("scoring") == "code" else []
    keep = list(dict.fromkeys([q, a, *meta, *extra]))
    return table.select(keep)
