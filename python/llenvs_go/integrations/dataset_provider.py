"""Prompts and ground truths of an environment's tasks, for training dataloaders."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.prompts import resolve_system_prompt

_UNSET: Any = object()


@dataclass(frozen=True)
class TaskItem:
    """One task as a training example.

    Attributes:
        task_index: the task's index in its environment.
        prompt: the task's question.
        messages: chat messages for the model: the answer-format system
            prompt (unless switched off) and the user turn.
        ground_truth: the expected answer (None for environments without one).
        metadata: task index, dataset name, seed, size and backend: enough
            to rebuild the item (the source entry with its own metadata is
            ``environment.entries([task_index])``).
        images: images of the observation (none for text tasks).
        available_tools: tools offered to the model (none for these tasks).
    """

    task_index: int
    prompt: str
    messages: tuple[dict[str, Any], ...]
    ground_truth: str | None
    metadata: dict[str, Any]
    images: tuple[Any, ...] = ()
    available_tools: tuple[Any, ...] = field(default=())


class DatasetProvider:
    """Iterates over an environment's tasks as :class:`TaskItem` records.

    Args:
        environment: the environment whose tasks to serve.
        system_prompt: overrides the environment's system prompt: a prompt
            name (``"default"`` is reasoning-gym's answer-format prompt), the
            text itself, a list of fragments, or None for no system message.
    """

    def __init__(self, environment: NativeEnvironment, system_prompt: Any = _UNSET):
        if not isinstance(environment, NativeEnvironment):
            raise TypeError(
                "DatasetProvider needs an environment from environment_registry.get(...), "
                f"got {type(environment).__name__}"
            )
        spec = environment.spec
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
        self.system_prompt = environment.system_prompt if system_prompt is _UNSET else system_prompt
        self._system_text = resolve_system_prompt(self.system_prompt)

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
        return self.get_items([self.environment.check_index(task_index)])[0]

    def __iter__(self) -> Iterator[TaskItem]:
        n = len(self)
        chunk = 1024
        for lo in range(0, n, chunk):
            yield from self.get_items(range(lo, min(lo + chunk, n)))

    def get_items(self, indices: Sequence[int] | None = None) -> list[TaskItem]:
        """The items at ``indices`` (all of them when None), in one call into Go."""
        env = self.environment
        if indices is None:
            idx: Sequence[int] = range(len(env))
        else:
            idx = indices if isinstance(indices, (list, tuple, range)) else list(indices)
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
        base = env.item_metadata(0)
        new = object.__new__
        set_dict = object.__setattr__
        items = []
        for i, prompt, truth in zip(idx, prompts, truths, strict=True):
            user = template.format(question=prompt) if template else prompt
            if system is None:
                messages: tuple[dict[str, Any], ...] = ({"role": "user", "content": user},)
            else:
                messages = ({"role": "system", "content": system}, {"role": "user", "content": user})
            metadata = base.copy()
            metadata["task_index"] = i
            # A frozen dataclass built without its __init__ (whose frozen
            # __setattr__ per field dominates the cost of large batches).
            item = new(TaskItem)
            set_dict(item, "__dict__", {"task_index": i, "prompt": prompt, "messages": messages, "ground_truth": truth,
                                        "metadata": metadata, "images": (), "available_tools": ()})
            items.append(item)
        return items

    def to_hf_dataset(self, indices: Sequence[int] | None = None) -> Any:
        """A HuggingFace ``datasets.Dataset`` with columns task_index, prompt, ground_truth, messages."""
        try:
            import datasets
        except ImportError as e:
            raise ImportError("to_hf_dataset needs the datasets package: pip install datasets") from e
        items = self.get_items(indices)
        return datasets.Dataset.from_dict(
            {
                "task_index": [it.task_index for it in items],
                "prompt": [it.prompt for it in items],
                "ground_truth": [it.ground_truth for it in items],
                "messages": [[dict(m) for m in it.messages] for it in items],
            }
        )


__all__ = ["DatasetProvider", "TaskItem"]


def _rebuild_provider(environment: NativeEnvironment, system_prompt: Any) -> DatasetProvider:
    provider = DatasetProvider.__new__(DatasetProvider)
    provider.environment = environment
    provider.system_prompt = system_prompt
    provider._system_text = resolve_system_prompt(system_prompt)
    return provider
