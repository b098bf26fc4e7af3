"""The environment a question/answer dataset becomes (:class:`HuggingFaceEnvironment`) and the hidden part of
its states (:class:`HuggingFaceHidden`)."""

from __future__ import annotations

import os
import sys
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from llenvs_go import _native
from llenvs_go.adapters.huggingface.columns import prepare_columns
from llenvs_go.adapters.huggingface.handover import hand_over
from llenvs_go.adapters.huggingface.options import LOAD_DATASET_KEYWORDS
from llenvs_go.adapters.huggingface.sources import load_source
from llenvs_go.adapters.huggingface.tables import select_rows
from llenvs_go.core.native import NativeEnvironment


@dataclass(frozen=True)
class HuggingFaceHidden:
    """The hidden part of a question/answer state (what the model does not see).

    Attributes:
        entry: the row: question, answer cell as given and metadata columns, by column name.
        expected_answer: the ground truth read out of the answer cell.
        task_index: the row's index in the environment.
        dataset_name: the dataset's name (or file path).
        split: the split the rows come from.
        episode: the Go episode behind the state, if any (not compared, not shown).
    """

    entry: dict[str, Any]
    expected_answer: str
    task_index: int
    dataset_name: str
    split: str
    episode: Any = field(default=None, compare=False, repr=False)


class HuggingFaceEnvironment(NativeEnvironment):
    """Rows of a question/answer dataset as a single-turn environment (``adapter="huggingface"``).

    Built by ``environment_registry.get(name, adapter="huggingface", ...)``. A
    copy pickles by configuration when its rows come from a file or the hub
    (the new process loads them again); rows given in memory travel inside
    the pickle.
    """

    built_from_config = False  # its rows are handed over as columns

    def __init__(self, config: dict[str, Any], *, system_prompt: Any = None, prompt_template: str | None = None,
                 table: Any = None, in_memory: bool = False):
        super().__init__(config, system_prompt=system_prompt, prompt_template=prompt_template)
        self._table = table
        self._in_memory = in_memory

    #: Whether the environment can be rebuilt from its configuration alone (rows from a file or the hub).
    @property
    def rebuildable(self) -> bool:
        """False when the rows were given in memory (they are not named by the configuration)."""
        return not self._in_memory

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        if self._in_memory:
            state["table"] = self._table
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        table = state.get("table")
        self.__init__(state["config"], system_prompt=state["system_prompt"],  # type: ignore[misc]
                      prompt_template=state["prompt_template"], table=table, in_memory=table is not None)

    def with_code_timeout(self, timeout: float) -> HuggingFaceEnvironment:
        """This environment with each test run limited to ``timeout`` seconds (for ``scoring="code"``)."""
        config = {**self._config, "params": {**self._config["params"]}}
        code = config["params"].get("code")
        if code is None:
            raise ValueError(f"{self!r} does not run code (scoring={config['params'].get('scoring')!r})")
        if code.get("timeout") == float(timeout):
            return self
        config["params"]["code"] = {**code, "timeout": float(timeout), "cpu_time": 0.0}  # CPU follows the timeout
        table = self._table if self._in_memory else None
        return HuggingFaceEnvironment(config, system_prompt=self.system_prompt, prompt_template=self.prompt_template,
                                      table=table, in_memory=self._in_memory)

    def _native(self) -> tuple[int, dict[str, Any]]:
        if self._handle is not None:
            return self._handle, self._desc  # type: ignore[return-value]
        pid = os.getpid()
        with self._lock:
            if self._handle is None or self._pid != pid:
                table = self._table if self._table is not None else self._load()
                handle, desc = hand_over(self._native_config(), table)
                self._handle, self._pid, self._desc = handle, pid, desc
                self._finalizer = weakref.finalize(self, _native.env_close, handle, pid)
                if not self._in_memory:
                    self._table = None  # Go holds the rows; the file or hub is read again in a new process
        return self._handle, self._desc  # type: ignore[return-value]

    def _load(self) -> Any:
        """The selected rows of the file or hub dataset the configuration names."""
        c = self._config
        p = c["params"]
        table = load_source(c["name"], p, {k: p[k] for k in LOAD_DATASET_KEYWORDS if k in p})
        table = select_rows(table, c.get("size"), c.get("seed"))
        return prepare_columns(table, p)

    def _native_config(self) -> dict[str, Any]:
        c = super()._native_config()
        p = c["params"]
        go = {k: p[k] for k in ("split", "question_column", "answer_column", "ground_truth_extractor", "scoring")}
        go["split"] = go["split"] or ""
        if p.get("metadata_columns"):
            go["metadata_columns"] = list(p["metadata_columns"])
        if p.get("code") is not None:
            # Without an interpreter of its own, code runs under this process's: the configuration (and so
            # the rows' environment reference) does not name a path of one machine.
            go["code"] = {"interpreter": sys.executable, **p["code"]}
        out = {k: v for k, v in c.items() if k not in ("params", "size", "seed")}
        out["name"] = p.get("dataset_name") or c["name"]
        out["params"] = go
        return out

    def _make_hidden(self, task_index: int, expected_answer: str | None, entry: Any,
                     episode: Any) -> HuggingFaceHidden:
        p = self._config["params"]
        return HuggingFaceHidden(entry=entry, expected_answer=expected_answer or "", task_index=task_index,
                                 dataset_name=self.spec.name, split=p.get("split") or "", episode=episode)

    def item_metadata(self, task_index: int) -> dict[str, Any]:
        """The metadata of a dataset item: where it comes from (its per-row metadata columns come from
        :meth:`items_metadata`)."""
        c = self._config
        return {"task_index": task_index, "dataset_name": self.spec.name, "split": c["params"].get("split") or "",
                "seed": c.get("seed"), "size": len(self), "backend": self.backend}

    def items_metadata(self, indices: Sequence[int]) -> list[dict[str, Any]] | None:
        """The metadata columns of some rows (None when the environment carries none)."""
        if not self._config["params"].get("metadata_columns"):
            return None
        return _native.env_call(self.handle, "metadata", {"indices": [int(i) for i in indices]})

    def entries(self, indices: list[int]) -> list[dict[str, Any]]:
        """The rows themselves: question, answer cell as given and metadata columns, by column name."""
        idx = [self.check_index(i) for i in indices]
        return _native.env_call(self.handle, "entries", {"indices": idx})

    def __repr__(self) -> str:
        c = self._config
        return (f"HuggingFaceEnvironment(name={self.spec.name!r}, split={c['params'].get('split')!r}, "
                f"size={len(self)}, scoring={c['params']['scoring']!r})")
