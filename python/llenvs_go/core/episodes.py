"""Many episodes of one Go-served environment, stepped together: one call into Go per batch step.

``env.reset``/``env.step`` cross into Go once per episode and build llenvs'
State objects each time. A trainer that runs thousands of episodes at once
(e.g. GRPO rollouts against an ``iterative`` environment) can instead keep
them in an :class:`EpisodeBatch`: texts go in as one array, Go steps the
episodes in parallel, and rewards, flags and next prompts come back as columns.
"""

from __future__ import annotations

import functools
import operator
import os
import weakref
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Any

from llenvs_go import _native
from llenvs_go._native import ffi
from llenvs_go.core.columns import BatchSlot, texts_of
from llenvs_go.core.native import NativeEnvironment


@dataclass(frozen=True)
class BatchStep:
    """The outcome of one :meth:`EpisodeBatch.step`, one entry per episode stepped.

    Attributes:
        indices: positions in the batch of the episodes stepped.
        totals: each step's weighted reward (``rewards.total``).
        prompts: each episode's next prompt (the error message where ``errors`` is True).
        flags: each step's ``LLENVS_EPISODE_*`` bits (1 terminated, 2 truncated, 4 error);
            ``terminated``, ``truncated`` and ``errors`` read them as lists of bools.
    """

    indices: list[int]
    totals: list[float]
    prompts: list[str]
    flags: bytes

    @property
    def terminated(self) -> list[bool]:
        """Whether each episode reached its end with this step."""
        return [bool(f & _native.EPISODE_TERMINATED) for f in self.flags]

    @property
    def truncated(self) -> list[bool]:
        """Whether each episode ran out of turns with this step."""
        return [bool(f & _native.EPISODE_TRUNCATED) for f in self.flags]

    @property
    def errors(self) -> list[bool]:
        """Whether each step failed (the episode is then unchanged)."""
        return [bool(f & _native.EPISODE_ERROR) for f in self.flags]


def _close_live(handles: Any, done: bytearray, pid: int) -> None:
    for i, d in enumerate(done):
        if not d:
            _native.episode_close(int(handles[i]), pid)


class EpisodeBatch:
    """Episodes of ``environment``, one per task index, stepped together.

    Args:
        environment: an environment served by Go: one from
            ``environment_registry`` (``iterative`` ones included, when their
            inner environment is served by Go).
        task_indices: the task of each episode (repeats allowed).

    ``prompts`` and ``expected_answers`` are the episodes' first prompts and
    ground truths; ``done[i]`` says whether episode i has ended. An episode
    is released in Go as soon as it ends; the others on :meth:`close` or when
    the batch is collected. A batch belongs to the process that made it.
    """

    def __init__(self, environment: Any, task_indices: Sequence[int]):
        env = getattr(environment, "native_environment", environment)
        if not isinstance(env, NativeEnvironment) or env.backend != "native":
            raise TypeError("EpisodeBatch needs an environment served by Go (from environment_registry); "
                            f"got {type(environment).__name__}; step other environments with env.step")
        idx = [env.check_index(i) for i in task_indices]
        n = len(idx)
        handles = ffi.new("uint64_t[]", max(n, 1))
        out = ffi.new("char **")
        out_len = ffi.new("size_t *")
        slot = BatchSlot()
        rc = _native.lib().llenvs_env_reset_many(env.handle, ffi.new("int64_t[]", idx), n, handles, slot.schema,
                                                 slot.array, out, out_len)
        if rc != _native.OK:
            _native.raise_for(rc, _native.take_buffer(out, out_len))
        starts = slot.take(_starts_schema())  # taken at once: pyarrow then releases the batch whatever happens next
        self.environment = environment
        self.task_indices = idx
        self._n = n
        self._handles = handles
        self._steps = ffi.new("int64_t[]", max(n, 1))
        self._done = bytearray(n)
        self._finalizer = weakref.finalize(self, _close_live, handles, self._done, os.getpid())
        self.prompts: list[str] = texts_of(starts.column(0))
        self.expected_answers: list[str | None] = texts_of(starts.column(1))

    def __len__(self) -> int:
        return self._n

    @property
    def done(self) -> list[bool]:
        """Whether each episode has ended (terminated or truncated)."""
        return [bool(d) for d in self._done]

    def live(self) -> list[int]:
        """Positions of the episodes that have not ended."""
        return list(compress(range(self._n), map(operator.not_, self._done)))

    def step(self, texts: Sequence[str], indices: Sequence[int] | None = None) -> BatchStep:
        """Step episodes ``indices`` (by default :meth:`live`) with ``texts``, one text each, in one call into Go.

        Raises ValueError for a length mismatch, an episode given twice or one
        that has ended; a step that fails in Go (e.g. text=None is not
        possible here, but a stale batch is) is reported per item in ``errors``.
        """
        if not self._finalizer.alive:
            raise RuntimeError("this EpisodeBatch was closed")
        done = self._done
        if indices is None:
            arr = array("q", compress(range(self._n), map(operator.not_, done)))
        else:
            try:
                arr = array("q", indices)  # ints (anything with __index__) only, read in C
            except TypeError:
                arr = array("q", [operator.index(i) for i in indices])  # raises the TypeError that names it
            except OverflowError:
                arr = array("q")
                self._refuse(indices)
        n = len(arr)
        if len(texts) != n:
            raise ValueError(f"step needs one text per episode stepped: {n} episodes, {len(texts)} texts")
        if n and (min(arr) < 0 or max(arr) >= self._n or any(map(done.__getitem__, arr))):
            self._refuse(arr)
        tup = texts if isinstance(texts, tuple) else tuple(texts)
        c_which = ffi.from_buffer("int64_t[]", arr) if n else ffi.NULL
        totals = ffi.new("double[]", max(n, 1))
        flags = ffi.new("uint8_t[]", max(n, 1))
        out = ffi.new("char **")
        out_len = ffi.new("size_t *")
        slot = BatchSlot()
        L = _native.lib()
        rc = L.llenvs_episodes_step_pytuple(self._handles, self._steps, c_which, self._n, ffi.cast("void *", id(tup)),
                                            n, totals, flags, 1, slot.schema, slot.array, out, out_len)
        if rc == _native.ERR_ENCODING:  # lone surrogates: pass them as "surrogatepass" encodes them
            _native.take_buffer(out, out_len)
            arrays = _native.TextArrays(tup)
            rc = L.llenvs_episodes_step_texts(self._handles, self._steps, c_which, self._n, arrays.ptrs, arrays.lens,
                                              n, totals, flags, 1, slot.schema, slot.array, out, out_len)
        if rc != _native.OK:
            _native.raise_for(rc, _native.take_buffer(out, out_len))
        rows = slot.take(_step_schema())
        prompts = texts_of(rows.column(0))
        fl = bytes(ffi.buffer(flags, n))
        if fl.translate(None, _SUCCEEDED):  # some steps failed: their error message stands in for the prompt
            for k, message in enumerate(texts_of(rows.column(1))):
                if message is not None:
                    prompts[k] = message
        for i in compress(arr, fl.translate(_ENDED)):  # the episodes that ended (not the failed steps)
            done[i] = 1
        return BatchStep(indices=arr.tolist(), totals=ffi.unpack(totals, n), prompts=prompts, flags=fl)

    def _refuse(self, which: Sequence[int]) -> None:
        """Raise the ValueError for the first of ``which`` that is not a live episode of the batch."""
        for i in which:
            if not 0 <= i < self._n or self._done[i]:
                raise ValueError(f"episode {i} of the batch is not live (ended, or not in [0, {self._n}))")

    def close(self) -> None:
        """Release every live episode now; the batch cannot be stepped afterwards."""
        self._finalizer()


__all__ = ["BatchStep", "EpisodeBatch"]


@functools.cache
def _starts_schema() -> Any:
    """The schema of llenvs_env_reset_many's batch (capi/episodes_batch.go startsBatch)."""
    import pyarrow as pa

    return pa.schema([("prompt", pa.string()), ("ground_truth", pa.string())])


@functools.cache
def _step_schema() -> Any:
    """The schema of llenvs_episodes_step_texts' batch (capi/episodes_batch.go stepBatch)."""
    import pyarrow as pa

    return pa.schema([("prompt", pa.string()), ("error", pa.string())])


# The flags bytes of a step that did not fail (deleted from a step's flags to see whether any failed).
_SUCCEEDED = bytes(f for f in range(256) if not f & _native.EPISODE_ERROR)

# Flags byte -> 1 when the step ended its episode (terminated or truncated, not an error), else 0.
_ENDED = bytes(1 if f & (_native.EPISODE_TERMINATED | _native.EPISODE_TRUNCATED) and not f & _native.EPISODE_ERROR
               else 0 for f in range(256))

