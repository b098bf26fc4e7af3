"""The Go-backed environment: configuration in Python, the object itself in the Go core.

A :class:`NativeEnvironment` holds only its configuration; the Go object behind
it is created lazily in the process that uses it, so environments pickle by
configuration and work after being shipped to Ray actors or spawned workers.
"""

from __future__ import annotations

import os
import threading
import uuid
import weakref
from array import array
from collections.abc import Sequence
from typing import Any

from llenvs_go import _native
from llenvs_go._native import ffi
from llenvs_go.core.environment import (
    Action,
    EnvironmentSpec,
    Observation,
    Signal,
    State,
    StateMetadata,
    StepResult,
    TaskHidden,
)


class NativeEnvironment:
    """A single-turn environment served by the Go core.

    Build it with ``environment_registry.get(...)`` or from an
    ``EnvironmentConfig``; this class is not meant to be constructed by hand.
    """

    def __init__(self, config: dict[str, Any], *, system_prompt: Any = "default", prompt_template: str | None = None):
        self._config = dict(config)
        self.system_prompt = system_prompt
        self.prompt_template = prompt_template
        self._lock = threading.Lock()
        self._handle: int | None = None
        self._pid: int | None = None
        self._desc: dict[str, Any] | None = None
        self._finalizer: Any = None

    # -- native handle, per process -------------------------------------
    def _native(self) -> tuple[int, dict[str, Any]]:
        # A handle made before a fork is never used in the child: the library
        # refuses every call there (see _native.lib), so no pid check is needed.
        if self._handle is not None:
            return self._handle, self._desc  # type: ignore[return-value]
        pid = os.getpid()
        with self._lock:
            if self._handle is None or self._pid != pid:
                handle, desc = _native.env_new(self._native_config())
                self._handle, self._pid, self._desc = handle, pid, desc
                self._finalizer = weakref.finalize(self, _native.env_close, handle, pid)
        return self._handle, self._desc  # type: ignore[return-value]

    def _native_config(self) -> dict[str, Any]:
        """The configuration the Go side of this environment is built from."""
        return self._config

    @property
    def handle(self) -> int:
        """The Go handle of this environment in the current process."""
        return self._native()[0]

    def close(self) -> None:
        """Release the Go object now (it is also released when this object is collected)."""
        with self._lock:
            if self._finalizer is not None:
                self._finalizer()
            self._handle = None
            self._finalizer = None

    def __enter__(self) -> NativeEnvironment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self._config, "system_prompt": self.system_prompt, "prompt_template": self.prompt_template}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["config"], system_prompt=state["system_prompt"],  # type: ignore[misc]
                      prompt_template=state["prompt_template"])

    def __repr__(self) -> str:
        c = self._config
        return f"Environment(name={c['name']!r}, adapter={c['adapter']!r}, size={c.get('size')}, seed={c.get('seed')})"

    # -- description -------------------------------------------------------
    @property
    def config(self) -> dict[str, Any]:
        """The configuration this environment is rebuilt from (a copy)."""
        return dict(self._config)

    @property
    def spec(self) -> EnvironmentSpec:
        """The environment's spec; ``spec.name`` is the task name."""
        s = self._native()[1]["spec"]
        return EnvironmentSpec(
            name=s["name"], adapter=s["adapter"], max_steps=s["max_steps"], is_multi_turn=s["is_multi_turn"],
            supports_task_index=s["supports_task_index"], supports_len=s["supports_len"],
            supports_seed=s["supports_seed"], pure_step=s["pure_step"], metadata=dict(s["metadata"] or {}),
        )

    @property
    def signal_specs(self) -> list[dict[str, Any]]:
        """The reward signals, in order: ``[{"name", "reward_type", "weight"}, ...]``."""
        return list(self._native()[1]["signals"])

    def __len__(self) -> int:
        return int(self._native()[1]["len"])

    # -- lifecycle -----------------------------------------------------------
    def check_index(self, task_index: Any) -> int:
        """Return ``task_index`` as an int, or raise TaskIndexError / TypeError."""
        if isinstance(task_index, bool) or not hasattr(task_index, "__index__"):
            raise TypeError(f"task_index must be an int, got {type(task_index).__name__}")
        i = task_index.__index__()
        n = len(self)
        if i < 0 or i >= n:
            raise _native.TaskIndexError(f"task_index {i} out of bounds [0, {n})")
        return i

    #: Which implementation serves the tasks: "native" (Go) or "python".
    backend = "native"

    def tasks(self, indices: list[int]) -> list[dict[str, Any]]:
        """``{"task_index", "prompt", "ground_truth", "metadata"}`` of already checked indices."""
        return _native.env_call(self.handle, "items", {"indices": indices})

    def task_texts(self, indices: Sequence[int]) -> tuple[list[str], list[str | None]]:
        """Prompts and ground truths of tasks, in one call (generated in parallel in Go).

        Raises TaskIndexError naming the position of an out-of-range index.
        """
        n = len(indices)
        if n == 0:
            return [], []
        try:
            c_idx = ffi.new("int64_t[]", indices if isinstance(indices, (list, tuple)) else list(indices))
        except OverflowError:
            bad = next(k for k, i in enumerate(indices) if not -(2**63) <= i < 2**63)
            raise _native.TaskIndexError(
                f"indices[{bad}]: task_index {indices[bad]} out of bounds [0, {len(self)})") from None
        out = ffi.new("char **")
        out_len = ffi.new("size_t *")
        rc = _native.lib().llenvs_items(self.handle, c_idx, n, out, out_len)
        data = _native.take_buffer(out, out_len)
        if rc != _native.OK:
            _native.raise_for(rc, data)
        return unpack_items(data)

    def item_metadata(self, task_index: int) -> dict[str, Any]:
        """The metadata of a dataset item: where it comes from, enough to rebuild it."""
        c = self._config
        return {"task_index": task_index, "dataset_name": c["name"], "seed": c.get("seed"),
                "size": len(self), "backend": self.backend}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[State, dict[str, Any]]:
        """Start the episode of ``options["task_index"]``; ``seed`` is ignored (items are fixed by index)."""
        options = options or {}
        if "task_index" not in options:
            raise ValueError("options must contain 'task_index'")
        i = self.check_index(options["task_index"])
        task = self.tasks([i])[0]
        name = self._config["name"]
        info = {"task_index": i, "dataset_name": name, "question": task["prompt"]}
        state = State(
            observation=Observation(prompt=task["prompt"]),
            hidden=TaskHidden(task_index=i, expected_answer=task["ground_truth"], dataset_name=name),
            metadata=StateMetadata(step=0, episode_id=options.get("episode_id") or str(uuid.uuid4()),
                                   info={"task_index": i}),
        )
        return state, info

    def _step(self, task_index: int, text: str | None) -> dict[str, Any]:
        return _native.env_call(self.handle, "step", {"task_index": task_index, "text": text})

    def step(self, state: State, action: Action) -> StepResult:
        """Score ``action`` against the task of ``state``; single-turn, so always terminal."""
        i = state.hidden.task_index
        r = self._step(i, action.text)
        signals = tuple(
            Signal(name=s["name"], reward_type=s["reward_type"], reward=s["reward"], weight=s["weight"],
                   metadata=s.get("metadata"))
            for s in r["signals"]
        )
        md = state.metadata
        next_state = State(
            observation=state.observation, hidden=state.hidden,
            metadata=StateMetadata(step=md.step + 1, episode_id=md.episode_id, is_terminal=True,
                                   info={**md.info, "response": action.text}),
        )
        extracted = r["extracted_action"]
        return StepResult(next_state=next_state, rewards=signals, terminated=True, truncated=False,
                          extracted_action=extracted, resolved_action=extracted, info=r["info"])

    def entries(self, indices: list[int]) -> list[dict[str, Any]]:
        """The raw reasoning-gym entries ``{"question", "answer", "metadata"}`` of some tasks."""
        idx = [self.check_index(i) for i in indices]
        return _native.env_call(self.handle, "entries", {"indices": idx})

    def score_answers(self, task_index: int, answers: list[str | None]) -> list[float]:
        """The task's own ``score_answer`` for each answer, with no extraction (None is Python's None)."""
        i = self.check_index(task_index)
        return _native.env_call(self.handle, "score_answers", {"task_index": i, "answers": list(answers)})


def unpack_items(data: bytes) -> tuple[list[str], list[str | None]]:
    """Decode the buffer of ``llenvs_items`` (layout in capi/items.go)."""
    n = int.from_bytes(data[:8], "little")
    offsets = array("q")
    offsets.frombytes(data[8 : 8 + 16 * (n + 1)])
    p_off, t_off = offsets[: n + 1], offsets[n + 1 :]
    flags_at = 8 + 16 * (n + 1)
    has = data[flags_at : flags_at + n]
    sizes_at = flags_at + 8 * ((n + 7) // 8)
    p_bytes = int.from_bytes(data[sizes_at : sizes_at + 8], "little")
    text_at = sizes_at + 16
    prompts_text = data[text_at : text_at + p_bytes].decode("utf-8", "replace")
    truths_text = data[text_at + p_bytes :].decode("utf-8", "replace")
    prompts = [prompts_text[p_off[k] : p_off[k + 1]] for k in range(n)]
    truths = [truths_text[t_off[k] : t_off[k + 1]] if has[k] else None for k in range(n)]
    return prompts, truths
