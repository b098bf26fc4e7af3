"""Rows as pyarrow tables: local files, lists of dicts and ``datasets.Dataset`` objects read into Arrow,
and the rows an environment keeps (``size``/``seed``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

#: File suffixes read as local files, and how.
FILE_SUFFIXES = (".jsonl", ".json", ".parquet", ".csv")


def import_pyarrow() -> Any:
    """The ``pyarrow`` module (an ImportError saying how to install it when it is missing)."""
    try:
        import pyarrow as pa
    except ImportError as e:  # pragma: no cover - datasets depends on pyarrow
        raise ImportError("the huggingface adapter needs pyarrow: pip install datasets (it brings pyarrow)") from e
    return pa


def has_file_suffix(name: str) -> bool:
    """Whether ``name`` ends in one of :data:`FILE_SUFFIXES` (any case)."""
    return name.lower().endswith(FILE_SUFFIXES)


def read_file(path: str) -> Any:
    """A local ``.jsonl`` / ``.json`` / ``.parquet`` / ``.csv`` file as a pyarrow Table.

    ``.json`` holds a list of objects, an object with one list of objects
    (e.g. ``{"data": [...]}``), or one object per line.
    """
    pa = import_pyarrow()
    lower = path.lower()
    try:
        if lower.endswith(".parquet"):
            import pyarrow.parquet as pq

            return pq.read_table(path)
        if lower.endswith(".csv"):
            import pyarrow.csv as pcsv

            return pcsv.read_csv(path)
        if lower.endswith(".json"):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            try:
                data = json.loads(text)
            except ValueError:
                data = None  # one object per line
            if isinstance(data, dict):
                lists = [v for v in data.values() if isinstance(v, list)]
                if len(lists) != 1:
                    raise ValueError(f"{path}: a .json file holds a list of rows or an object with one list of rows; "
                                     f"this object has keys {sorted(data)}")
                data = lists[0]
            if isinstance(data, list):
                return rows_table(data, path)
        import pyarrow.json as pjson

        return pjson.read_json(path)
    except (pa.ArrowInvalid, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {path}: {e}") from None


def rows_table(rows: Sequence[Any], what: str = "rows") -> Any:
    """A list of dicts as a pyarrow Table (a clear ValueError for rows that are not dicts or mix types)."""
    pa = import_pyarrow()
    for k, r in enumerate(rows):
        if not isinstance(r, dict):
            raise TypeError(f"{what}[{k}] is a {type(r).__name__}; each row must be a dict of column -> value")
    try:
        return pa.Table.from_pylist(list(rows))
    except UnicodeEncodeError:  # a lone surrogate: not UTF-8, so not in an Arrow string
        raise ValueError(_surrogate_message(rows, what)) from None
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError) as e:  # Overflow: an int past 64 bits
        raise ValueError(f"{what}: the rows cannot form a table ({e}); each column must hold values of one type "
                         "(all str for the question and answer columns)") from None


def _unencodable(value: Any) -> tuple[str, int] | None:
    """The first str in ``value`` (nested in lists and dicts too) that is not valid UTF-8, and where its first
    lone surrogate is."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            return value, e.start
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            found = _unencodable(k) or _unencodable(v)
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for v in value:
            found = _unencodable(v)
            if found:
                return found
    return None


def _surrogate_message(rows: Sequence[Any], what: str) -> str:
    """The ValueError message for rows that hold a lone surrogate: which row and column, and where in the text."""
    fix = ("a lone surrogate is not valid UTF-8 and cannot be stored in an Arrow table; fix the text, e.g. "
           "text.encode('utf-8', 'replace').decode('utf-8')")
    for k, r in enumerate(rows):
        for col, v in r.items():
            if _unencodable(col):
                return f"{what}[{k}]: the column name {col!r} holds a lone surrogate; {fix}"
            found = _unencodable(v)
            if found:
                text, pos = found
                return (f"{what}[{k}][{col!r}] holds a lone surrogate ({text[pos]!r} at position {pos} of "
                        f"{_short(text)}); {fix}")
    return f"{what}: the rows hold text that is not valid UTF-8; {fix}"


def _short(text: str) -> str:
    return repr(text) if len(text) <= 40 else f"{text[:37]!r}... ({len(text)} characters)"


def dataset_table(ds: Any) -> Any:
    """The rows of a ``datasets.Dataset`` (respecting its selection and order) as a pyarrow Table."""
    n = len(ds)
    table = ds.with_format("arrow")[0:n] if n else ds.data.table.slice(0, 0)
    return table


def select_rows(table: Any, size: int | None, seed: int | None) -> Any:
    """The rows llenvs selects: with ``size``, shuffled by ``seed`` first when one is given (as
    ``Dataset.shuffle(seed=seed)`` orders them), then the first ``min(size, len)``; all rows otherwise."""
    if size is None:
        return table
    n = table.num_rows
    if seed is None:
        return table.slice(0, min(size, n))
    import numpy as np

    order = np.random.default_rng(seed).permutation(n)[: min(size, n)]
    return table.take(order)
