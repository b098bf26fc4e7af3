"""Prompts and ground truths of an environment's tasks, for training dataloaders.

For a Go-backed environment the items of a batch are generated in Go in one
call. Any other environment with llenvs' ``Environment`` protocol is read as
llenvs reads it: ``reset(options={"task_index": i})`` per item.
"""

from __future__ import annotations

import gc
import os
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.prompts import resolve_system_prompt
from llenvs_go.core.state import ObservationImages
from llenvs_go.core.tools import ToolDefinition
from llenvs_go.integrations._environments import require_environment, resets_natively

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
    """

    task_index: int
    prompt: str
    messages: tuple[dict[str, Any], ...]
    ground_truth: str | None
    metadata: dict[str, Any]
    images: ObservationImages = _NO_IMAGES
    available_tools: tuple[ToolDefinition, ...] = field(default=())


_T6 = bytes(0x40 | (b & 0x0F) for b in range(256))  # uuid byte 6: version 4
_T8 = bytes(0x80 | (b & 0x3F) for b in range(256))  # uuid byte 8: RFC 4122 variant
_HEX_AT = [p for p in range(36) if p not in (8, 13, 18, 23)]  # where the 32 hex digits go in "8-4-4-4-12"


def episode_ids(n: int) -> list[str]:
    """``n`` random uuid4 strings, as ``str(uuid.uuid4())`` gives (built in bulk: ~0.3 µs each)."""
    if n < 16:
        return [str(uuid.uuid4()) for _ in range(n)]
    raw = bytearray(os.urandom(16 * n))
    raw[6::16] = raw[6::16].translate(_T6)
    raw[8::16] = raw[8::16].translate(_T8)
    hexed = raw.hex().encode("ascii")
    out = bytearray(b"-" * (37 * n))
    for j, p in enumerate(_HEX_AT):
        out[p::37] = hexed[j::32]
    out[36::37] = b"\n" * n
    return out[:-1].decode("ascii").split("\n")


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

    def get_items(self, indices: Sequence[int] | None = None) -> list[TaskItem]:
        """The items at ``indices`` (all of them when None); one call into Go for a Go-backed environment."""
        env = self.environment
        if indices is None:
            idx: Sequence[int] = range(len(env))
        else:
            idx = indices if isinstance(indices, (list, tuple, range)) else list(indices)
        if not self._native:
            return [self._python_item(i) for i in idx]
        if not isinstance(idx, range):
            for k, i in enumerate(idx):
                if isinstance(i, bool) or not hasattr(i, "__index__"):
                    raise TypeError(f"indices[{k}]: task_index must be an int, got {type(i).__name__}")
        if not idx:
            return []
        prompts, truths = env.task_texts(idx)
        # The items are acyclic, so the cyclic collector has nothing to find
        # in them; pausing it while tens of thousands are built saves it from
        # re-walking every live object of the process several times.
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            items = self._build(idx, prompts, truths)
        finally:
            if paused:
                gc.enable()
        return items

    def _build(self, idx: Sequence[int], prompts: list[str], truths: list[str | None]) -> list[TaskItem]:
        env = self.environment
        template = env.prompt_template
        system = self._system_text
        base = {"episode_id": "", **env.item_metadata(0)}
        ids = episode_ids(len(idx))
        new = object.__new__
        set_dict = object.__setattr__
        items = []
        for i, prompt, truth, episode_id in zip(idx, prompts, truths, ids, strict=True):
            user = template.format(question=prompt) if template else prompt
            if system is None:
                messages: tuple[dict[str, Any], ...] = ({"role": "user", "content": user},)
            else:
                messages = ({"role": "system", "content": system}, {"role": "user", "content": user})
            metadata = base.copy()
            metadata["episode_id"] = episode_id
            metadata["task_index"] = i
            # A frozen dataclass built without its __init__ (whose frozen
            # __setattr__ per field dominates the cost of large batches).
            item = new(TaskItem)
            set_dict(item, "__dict__", {"task_index": i, "prompt": prompt, "messages": messages, "ground_truth": truth,
                                        "metadata": metadata, "images": _NO_IMAGES, "available_tools": ()})
            items.append(item)
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

    def to_hf_dataset(self, indices: Sequence[int] | None = None) -> Any:
        """A HuggingFace ``datasets.Dataset`` with columns task_index, prompt, ground_truth, messages.

        A column ``images`` (per row, a list of ``{"data", "media_type"}``,
        task images first) is added when some item has images.
        """
        try:
            import datasets
        except ImportError as e:
            raise ImportError("to_hf_dataset needs the datasets package: pip install datasets") from e
        items = self.get_items(indices)
        columns: dict[str, list[Any]] = {
            "task_index": [it.task_index for it in items],
            "prompt": [it.prompt for it in items],
            "ground_truth": [it.ground_truth for it in items],
            "messages": [[dict(m) for m in it.messages] for it in items],
        }
        if any(it.images for it in items):
            columns["images"] = [[{"data": im.data, "media_type": im.media_type}
                                  for im in getattr(it.images, "all", it.images)] for it in items]
        return datasets.Dataset.from_dict(columns)


__all__ = ["DatasetProvider", "TaskItem", "episode_ids"]


def _rebuild_provider(environment: Any, system_prompt: Any) -> DatasetProvider:
    provider = DatasetProvider.__new__(DatasetProvider)
    provider.environment = environment
    provider.system_prompt = system_prompt
    provider._system_text = resolve_system_prompt(system_prompt)
    provider._native = resets_natively(environment)
    return provider
