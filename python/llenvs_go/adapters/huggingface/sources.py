"""What ``name`` stands for (a local file, a hub dataset, or rows in memory), and loading its rows as a table."""

from __future__ import annotations

import os
from typing import Any

from llenvs_go.adapters.huggingface import hub
from llenvs_go.adapters.huggingface.tables import FILE_SUFFIXES, dataset_table, has_file_suffix, read_file, rows_table


def is_local_file(source: Any) -> bool:
    """Whether ``source`` names a local file: one that exists, or a name with a file suffix."""
    return isinstance(source, str) and (os.path.isfile(source) or has_file_suffix(source))


def resolve_source(name: Any) -> tuple[Any, str, bool]:
    """``(source, display name, in memory)``: a path made absolute, a hub name, or a pyarrow Table of rows."""
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if isinstance(name, str):
        if not name:
            raise TypeError("name must be a non-empty str (a hub dataset or a file), a datasets.Dataset or a list "
                            "of dicts")
        if os.path.isfile(name) or has_file_suffix(name):
            path = os.path.abspath(os.path.expanduser(name))
            if not os.path.isfile(path):
                raise FileNotFoundError(f"no such file: {name!r}")
            if not has_file_suffix(path):
                raise ValueError(f"{name}: unsupported file type; the huggingface adapter reads "
                                 f"{', '.join(FILE_SUFFIXES)} files")
            return path, path, False
        return name, name, False
    if isinstance(name, (list, tuple)):
        return rows_table(name), "rows", True
    module = type(name).__module__ or ""
    if module.startswith("datasets"):
        import datasets

        if isinstance(name, datasets.Dataset):
            info = getattr(name, "info", None)
            display = (getattr(info, "dataset_name", None) or getattr(info, "builder_name", None) or "dataset")
            return dataset_table(name), str(display), True
        if isinstance(name, datasets.DatasetDict):
            splits = sorted(name)
            raise TypeError(f"got a DatasetDict with splits {splits}; pass one split, e.g. ds[{splits[0]!r}]")
        raise TypeError(f"a {type(name).__name__} cannot be served (it has no length); pass a datasets.Dataset")
    if type(name).__name__ == "Table" and (type(name).__module__ or "").startswith("pyarrow"):
        return name, "table", True
    raise TypeError(f"name must be a hub dataset name, a file path, a datasets.Dataset or a list of dicts, "
                    f"got {type(name).__name__}")


def load_source(name: str, params: dict[str, Any], load_kwargs: dict[str, Any]) -> Any:
    """The rows a file path or hub name stands for, as a pyarrow Table."""
    if os.path.isfile(name):
        if not has_file_suffix(name):
            raise ValueError(f"{name}: unsupported file type; the huggingface adapter reads "
                             f"{', '.join(FILE_SUFFIXES)} files")
        return read_file(name)
    if has_file_suffix(name):
        raise FileNotFoundError(f"no such file: {name!r}")
    return hub.load_hub_dataset(name, params.get("split") or "train", params.get("subset"), load_kwargs,
                                bool(params.get("trust_remote_code")))
