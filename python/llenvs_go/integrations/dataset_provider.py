"""Prompts and ground truths of an environment's tasks, for training dataloaders.

For a Go-backed environment the items of a batch are generated in Go in one
call. Any other environment with llenvs' ``Environment`` protocol is read as
llenvs reads it: ``reset(options={"task_index": i})`` per item.
"""

from __future__ import annotations

import hashlib
import json
import operator
import sys
import uuid
from array import array
from collections.abc import Iterator, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from llenvs_go._native import TaskIndexError
from llenvs_go.core import items as items_mod
from llenvs_go.core.dispatch import require_environment, resets_natively
from llenvs_go.core.lazy_mapping import LazyMapping
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.prompts import resolve_system_prompt
from llenvs_go.core.state import ObservationImages
from llenvs_go.core.tools import ToolDefinition

_UNSET: Any = object()
_NO_IMAGES = ObservationImages()


@dataclass(frozen=True)
class TaskItem:
    """One task as a training example.

    Attributes:
        task_index: the task's index in its environment.
        prompt: the task's question (``observation.prompt``).
        messages: chat messages for the model. Go-backed environments: the
            answer-format system prompt (unless switched off) and the user
            turn. Other environments: ``observation.messages``, after the
            provider's system prompt when one is given.
        ground_truth: the expected answer (``state.hidden.expected_answer``;
            None for environments without one).
        metadata: ``episode_id`` (a fresh uuid4 string per item) and the
            reset info. Go-backed environments: task index, dataset name,
            seed, size and backend, enough to rebuild the item (the source
            entry with its own metadata is ``environment.entries([task_index])``).
        images: images of the observation (none for text tasks).
        available_tools: tools offered to the model.

    The ``metadata`` of an item that :meth:`DatasetProvider.get_items` made
    for a Go-backed environment is a :class:`~llenvs_go.core.lazy_mapping.LazyMapping`:
    a view that builds the item's dict when first read (its episode id is
    drawn then) and then behaves as that dict; it compares equal to it and
    pickles as it, and ``dict(item.metadata)`` gives a plain dict (e.g. for
    ``json.dumps``).
    """

    task_index: int
    prompt: str
    messages: tuple[dict[str, Any], ...]
    ground_truth: str | None
    metadata: MutableMapping[str, Any]
    images: ObservationImages = _NO_IMAGES
    available_tools: tuple[ToolDefinition, ...] = field(default=())


class _BatchMetadata:
    """What the metadata of a Go-backed batch's items are built from, when first read: the metadata every
    item shares, and per task index the extra keys of its item, if any. The source of each item's
    ``LazyMapping``."""

    __slots__ = ("base", "sources", "columns")

    def __init__(self, base: dict[str, Any], sources: dict[int, dict[str, Any]] | None,
                 columns: dict[int, dict[str, Any]] | None):
        self.base, self.sources, self.columns = base, sources, columns

    def metadata_of(self, task_index: int) -> dict[str, Any]:
        """The metadata of the batch's item of task ``task_index``, with a fresh episode id."""
        metadata = {"episode_id": str(uuid.uuid4()), **self.base}
        metadata["task_index"] = task_index
        if self.sources is not None:
            metadata.update(self.sources[task_index])
        if self.columns is not None:
            for k, v in self.columns[task_index].items():
                metadata.setdefault(k, v)
        return metadata


class DatasetProvider:
    """Iterates over an environment's tasks as :class:`TaskItem` records.

    Args:
        environment: any environment with llenvs' ``Environment`` protocol
            (``spec``, ``reset``, ``step``) that supports task indices and
            ``len()``; multi-turn environments are accepted.
        system_prompt: the system message of every item: a prompt name
            (``"default"`` is reasoning-gym's answer-format prompt), the text
            itself, a list of fragments, or None for no system message. By
            default, the environment's own (``environment.system_prompt``;
            none for environments without that attribute). For environments
            read through ``reset``, a system prompt given here becomes the
            first message, replacing the environment's own system message.
    """

    def __init__(self, environment: Any, system_prompt: Any = _UNSET):
        spec = require_environment(environment, "DatasetProvider", need_len=True)
        if not spec.supports_task_index:
            raise TypeError(
                f"DatasetProvider requires an environment that supports task indexing, but {spec.name!r} does not "
                "(supports_task_index=False)."
            )
        if not spec.supports_len:
            raise TypeError(
                f"DatasetProvider requires an environment that supports len(), but {spec.name!r} does not "
                "(supports_len=False)."
            )
        self.environment = environment
        self.system_prompt = getattr(environment, "system_prompt", None) if system_prompt is _UNSET else system_prompt
        self._system_text = resolve_system_prompt(self.system_prompt)
        self._native = resets_natively(environment)
        #: Tasks left out by the last get_items/to_hf_dataset with on_error="skip": (task_index, reason).
        self.skipped: list[tuple[int, str]] = []

    @classmethod
    def from_config(cls, config: Any) -> DatasetProvider:
        """Build the environment an ``EnvironmentConfig`` describes and wrap it."""
        return cls(config.build())

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt without touching the library (see Scorer.__reduce__).
        return (_rebuild_provider, (self.environment, self.system_prompt))

    def __len__(self) -> int:
        return len(self.environment)

    def __getitem__(self, task_index: int) -> TaskItem:
        if not self._native:
            return self._python_item(task_index)
        return self.get_items([self.environment.check_index(task_index)])[0]

    def __iter__(self) -> Iterator[TaskItem]:
        n = len(self)
        chunk = 1024
        for lo in range(0, n, chunk):
            yield from self.get_items(range(lo, min(lo + chunk, n)))

    def get_items(self, indices: Sequence[int] | None = None, *, on_error: str = "raise") -> list[TaskItem]:
        """The items at ``indices`` (all of them when None); one call into Go for a Go-backed environment.

        ``on_error``: a task whose generation fails raises a ValueError naming
        it (``"raise"``, the default), or is left out and listed in
        ``provider.skipped`` with the reason (``"skip"``).
        """
        _check_on_error(on_error)
        env = self.environment
        idx = self._indices(indices)
        self.skipped: list[tuple[int, str]] = []
        if not self._native:
            if on_error == "raise":
                return [self._python_item(i) for i in idx]
            return self._python_items_skipping(idx)
        if not idx:
            return []
        if env.backend == "native":
            batch, errors = items_mod.record_batch(env.handle, idx, None, ["", ""])
            self._failed(idx, errors, on_error)
            if errors:
                idx = batch.column(0).to_pylist()
            prompts, truths = batch.column(1).to_pylist(), batch.column(2).to_pylist()
        else:
            prompts, truths = env.task_texts(idx)
        return self._build(idx, prompts, truths)

    def _build(self, idx: Sequence[int], prompts: list[str], truths: list[str | None]) -> list[TaskItem]:
        env = self.environment
        template = env.prompt_template
        system = self._system_text
        # A composite's items say which task they come from, as reasoning-gym's do.
        sources = ({i: {k: e["metadata"][k] for k in ("source_dataset", "source_index") if k in e["metadata"]}
                    for i, e in zip(idx, env.entries(list(idx)), strict=True)}
                   if env.config["name"] == "composite" else None)
        # Per-row metadata columns (the huggingface adapter's metadata_columns), without replacing the item's own keys.
        rows = env.items_metadata(list(idx)) if callable(getattr(env, "items_metadata", None)) else None
        columns = None if rows is None else dict(zip(idx, rows, strict=True))
        # An item's metadata is a view, built when first read (TaskItem.metadata).
        batch = _BatchMetadata(env.item_metadata(0), sources, columns)
        items = []
        for i, prompt, truth in zip(idx, prompts, truths, strict=True):
            user = template.format(question=prompt) if template else prompt
            if system is None:
                messages: tuple[dict[str, Any], ...] = ({"role": "user", "content": user},)
            else:
                messages = ({"role": "system", "content": system}, {"role": "user", "content": user})
            items.append(TaskItem(i, prompt, messages, truth, LazyMapping(batch, i)))
        return items

    def _python_items_skipping(self, idx: Sequence[int]) -> list[TaskItem]:
        """The items of an environment read through ``reset``, leaving out (and listing in ``skipped``) each task
        whose reset raised. An index out of range is still an error (TaskIndexError), as on the Go path."""
        n = len(self.environment)
        items = []
        for k, i in enumerate(idx):
            i = operator.index(i)
            if not 0 <= i < n:
                raise TaskIndexError(f"indices[{k}]: task_index {i} out of bounds [0, {n})")
            try:
                items.append(self._python_item(i))
            except Exception as e:  # the environment's own failure, whatever its type: skip it, as Go's are
                self.skipped.append((i, str(e) or type(e).__name__))
        return items

    def _python_item(self, task_index: int) -> TaskItem:
        """The item of an environment read as llenvs reads it: one ``reset``."""
        env = self.environment
        state, info = env.reset(options={"task_index": task_index})
        obs = state.observation
        messages = tuple(getattr(obs, "messages", ()))
        system = self._system_text
        if system is not None and messages and messages[0].get("role") == "system":
            messages = messages[1:]
        if not messages and (system is not None or isinstance(env, NativeEnvironment)):
            # As the Go path builds them: the user turn is the (templated) prompt.
            template = getattr(env, "prompt_template", None)
            messages = ({"role": "user", "content": template.format(question=obs.prompt) if template
                         else obs.prompt},)
        if system is not None:
            messages = ({"role": "system", "content": system}, *messages)
        get_images = getattr(obs, "get_images", None)
        episode_id = getattr(getattr(state, "metadata", None), "episode_id", None) or str(uuid.uuid4())
        return TaskItem(
            task_index=task_index,
            prompt=obs.prompt,
            messages=messages,
            ground_truth=getattr(state.hidden, "expected_answer", None),
            metadata={"episode_id": episode_id, **(info or {})},
            images=get_images() if callable(get_images) else _NO_IMAGES,
            available_tools=tuple(getattr(obs, "available_tools", ())),
        )

    def to_hf_dataset(self, indices: Sequence[int] | None = None, *, on_error: str = "raise",
                      progress: bool | None = None, chunk_size: int = 65536) -> Any:
        """A HuggingFace ``datasets.Dataset`` with columns task_index, prompt, ground_truth, messages.

        For a Go-backed environment the rows are generated in Go in chunks of
        ``chunk_size`` and arrive as Arrow columns (no Python object per row),
        so memory stays near the size of the final table. A column ``images``
        (per row, a list of ``{"data", "media_type"}``, task images first) is
        added when some item of an environment read through ``reset`` has
        images.

        Args:
            indices: the tasks (all of them when None).
            on_error: a task whose generation fails: ``"raise"`` (a
                ValueError naming it, the default) or ``"skip"`` (it is left
                out and listed in ``provider.skipped`` with the reason).
            progress: show a progress bar (tqdm, when installed); by default
                only on a terminal and for more than one chunk.
            chunk_size: tasks generated per call into Go.
        """
        try:
            import datasets
            import pyarrow as pa
        except ImportError as e:
            raise ImportError("to_hf_dataset needs the datasets package: pip install datasets") from e
        _check_on_error(on_error)
        env = self.environment
        idx = self._indices(indices)
        parts = items_mod.template_parts(getattr(env, "prompt_template", None))
        if not (self._native and env.backend == "native" and parts is not None):
            return datasets.Dataset.from_dict(self._columns(self.get_items(idx, on_error=on_error)))
        if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
            raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
        self.skipped = []
        batches = []
        with _progress(len(idx), progress, chunk_size) as bar:
            for lo in range(0, len(idx), chunk_size):
                chunk = idx[lo: lo + chunk_size]
                batch, errors = items_mod.record_batch(env.handle, chunk, self._system_text, parts)
                self._failed(chunk, errors, on_error)
                batches.append(batch)
                bar.update(len(chunk))
        # The fingerprint names what the rows are made from; without one, datasets
        # would hash the whole table to make one.
        return datasets.Dataset(pa.Table.from_batches(batches, schema=items_mod.schema()),
                                fingerprint=self._fingerprint(idx))

    def _fingerprint(self, idx: Sequence[int]) -> str:
        env = self.environment
        what = json.dumps([env.config, self._system_text, getattr(env, "prompt_template", None)], sort_keys=True,
                          default=repr)
        h = hashlib.sha256(what.encode("utf-8", "surrogatepass"))
        if isinstance(idx, range):
            h.update(f"range({idx.start}, {idx.stop}, {idx.step})".encode())
        else:
            h.update(array("q", idx).tobytes())
        return h.hexdigest()[:32]

    def _indices(self, indices: Sequence[int] | None) -> Sequence[int]:
        if indices is None:
            return range(len(self.environment))
        idx = indices if isinstance(indices, (list, tuple, range)) else list(indices)
        if not isinstance(idx, range):
            for k, i in enumerate(idx):
                if isinstance(i, bool) or not hasattr(i, "__index__"):
                    raise TypeError(f"indices[{k}]: task_index must be an int, got {type(i).__name__}")
        return idx

    def _failed(self, chunk: Sequence[int], errors: list[tuple[int, str]], on_error: str) -> None:
        if not errors:
            return
        if on_error == "raise":
            pos, message = errors[0]
            raise ValueError(f"task {chunk[pos]} could not be generated: {message}; pass on_error='skip' to leave "
                             "such tasks out (they are listed in provider.skipped)")
        self.skipped.extend((chunk[pos], message) for pos, message in errors)

    @staticmethod
    def _columns(items: list[TaskItem]) -> dict[str, list[Any]]:
        columns: dict[str, list[Any]] = {
            "task_index": [it.task_index for it in items],
            "prompt": [it.prompt for it in items],
            "ground_truth": [it.ground_truth for it in items],
            "messages": [[dict(m) for m in it.messages] for it in items],
        }
        if any(it.images for it in items):
            columns["images"] = [[{"data": im.data, "media_type": im.media_type}
                                  for im in getattr(it.images, "all", it.images)] for it in items]
        return columns


def _check_on_error(on_error: str) -> None:
    if on_error not in ("raise", "skip"):
        raise ValueError(f"on_error must be 'raise' or 'skip', got {on_error!r}")


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def _progress(total: int, progress: bool | None, chunk_size: int) -> Any:
    """A tqdm bar when asked for, or by default on a terminal for work of more than one chunk."""
    if progress is None:
        progress = total > chunk_size and sys.stderr.isatty()
    if not progress:
        return _NoBar()
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _NoBar()
    return tqdm(total=total, unit="task", desc="to_hf_dataset")


__all__ = ["DatasetProvider", "TaskItem"]


def _rebuild_provider(environment: Any, system_prompt: Any) -> DatasetProvider:
    provider = DatasetProvider.__new__(DatasetProvider)
    provider.environment = environment
    provider.system_prompt = system_prompt
    provider._system_text = resolve_system_prompt(system_prompt)
    provider._native = resets_natively(environment)
    provider.skipped = []
    return provider
