"""Scoring responses against environment tasks, one at a time or in bulk.

``Scorer.score_batch`` crosses into Go once per batch: the responses' own
UTF-8 buffers are read in place, Go scores them in parallel, and the totals
come back in one float64 array. Rich per-item results are built only when an
item is read.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from llenvs_go import _native
from llenvs_go._native import ffi
from llenvs_go.core.environment import Environment


@dataclass(frozen=True)
class ScoringResult:
    """The score of one response.

    Attributes:
        total: weighted sum of the numeric signals.
        signals: signal name -> unweighted reward.
        extracted_answer: what the extractor found; None when it found
            nothing ("" is a valid extraction).
        metadata: signal name -> that signal's metadata; an item whose
            scoring failed has total 0.0 and ``metadata["error"]``.
    """

    total: float
    signals: dict[str, float]
    extracted_answer: str | None
    metadata: dict[str, Any]


class ScoringResults(Sequence[ScoringResult]):
    """The results of ``score_batch``, in input order.

    A read-only sequence: ``totals`` is ready at once; each ``ScoringResult``
    is built when it is first read.
    """

    __slots__ = ("_totals", "_values", "_flags", "_lines", "_names", "_cache")

    def __init__(self, totals: array, values: array, flags: bytearray, lines: list[bytes], names: list[str]):
        self._totals = totals
        self._values = values
        self._flags = flags
        self._lines = lines
        self._names = names
        self._cache: dict[int, ScoringResult] = {}

    @property
    def totals(self) -> list[float]:
        """Every item's total, as a list of floats."""
        return self._totals.tolist()

    def __len__(self) -> int:
        return len(self._totals)

    @overload
    def __getitem__(self, i: int) -> ScoringResult: ...

    @overload
    def __getitem__(self, i: slice) -> list[ScoringResult]: ...

    def __getitem__(self, i: int | slice) -> ScoringResult | list[ScoringResult]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"result index {i} out of range for {n} results")
        r = self._cache.get(i)
        if r is None:
            r = self._cache[i] = self._build(i)
        return r

    def __iter__(self) -> Iterator[ScoringResult]:
        for i in range(len(self)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"ScoringResults({len(self)} items, mean total {sum(self.totals) / max(len(self), 1):.4f})"

    def _build(self, i: int) -> ScoringResult:
        k = len(self._names)
        line = json.loads(self._lines[i])
        signals = {name: self._values[i * k + j] for j, name in enumerate(self._names)}
        answer = line["answer"]
        extraction = line["extraction"]
        metadata: dict[str, Any] = {}
        for name in self._names:
            if name == "correctness":
                if answer is None:
                    metadata[name] = {"extracted": None, "extraction": extraction}
                else:
                    metadata[name] = {"extracted": answer, "expected": line["expected"], "extraction": extraction}
            else:
                metadata[name] = {"extraction": extraction}
        if line["error"] is not None:
            metadata["error"] = line["error"]
        return ScoringResult(total=self._totals[i], signals=signals, extracted_answer=answer, metadata=metadata)


class Scorer:
    """Scores responses with a single-turn environment's own reward computation."""

    def __init__(self, environment: Environment):
        spec = environment.spec
        if spec.is_multi_turn:
            raise TypeError(
                f"Scorer only supports single-turn environments, but {spec.name!r} is multi-turn. "
                "Use the AgentLoop or rollout_func integration for multi-turn training."
            )
        if not spec.supports_task_index:
            raise TypeError(
                f"Scorer requires an environment that supports task indexing, but {spec.name!r} does not "
                "(supports_task_index=False)."
            )
        self.environment = environment

    @classmethod
    def from_config(cls, config: Any) -> Scorer:
        """Build the environment an ``EnvironmentConfig`` describes and wrap it."""
        return cls(config.build())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Scorer, (self.environment,))

    @property
    def signal_names(self) -> list[str]:
        """Names of the signals in every result, in order."""
        return [s["name"] for s in self.environment.signal_specs]

    def score(self, task_index: int, response: str) -> ScoringResult:
        """Score one response against task ``task_index``."""
        return self._run([task_index], (response,), rich=True)[0]

    def score_batch(self, task_indices: Sequence[int], responses: Sequence[str]) -> ScoringResults:
        """Score ``responses[i]`` against task ``task_indices[i]`` for every i, in one call into Go.

        Raises:
            ValueError: the two sequences differ in length.
            TaskIndexError: a task index is out of range (names its position).
            TypeError: an index is not an int or a response is not a str.
        """
        return self._run(task_indices, responses, rich=True)

    def totals(self, task_indices: Sequence[int], responses: Sequence[str]) -> list[float]:
        """Only the total reward per response: the fast path reward functions use."""
        return self._run(task_indices, responses, rich=False).totals

    def _run(self, task_indices: Sequence[int], responses: Sequence[str], rich: bool) -> ScoringResults:
        texts = responses if type(responses) is tuple else tuple(responses)
        try:
            idx = array("q", task_indices)
        except TypeError:
            bad = next((i for i, t in enumerate(task_indices) if isinstance(t, bool) or not hasattr(t, "__index__")))
            raise TypeError(
                f"task_indices[{bad}] must be an int, got {type(list(task_indices)[bad]).__name__}"
            ) from None
        except OverflowError as e:
            raise _native.TaskIndexError(f"task index out of range: {e}") from None
        n = len(texts)
        if len(idx) != n:
            raise ValueError(f"task_indices and responses must have the same length, got {len(idx)} and {n}")
        names = self.signal_names
        handle = self.environment.handle
        totals = array("d", bytes(8 * n))
        values = array("d", bytes(8 * n * len(names)))
        flags = bytearray(n)
        L = _native.lib()
        out = ffi.new("char **")
        out_len = ffi.new("size_t *")
        c_idx = ffi.from_buffer("int64_t[]", idx) if n else ffi.NULL
        c_tot = ffi.from_buffer("double[]", totals) if n else ffi.NULL
        c_val = ffi.from_buffer("double[]", values) if n else ffi.NULL
        c_flags = ffi.from_buffer("uint8_t[]", flags) if n else ffi.NULL
        rc = L.llenvs_score_pytuple(handle, c_idx, ffi.cast("void *", id(texts)), n, c_tot, c_val, c_flags,
                                    int(rich), out, out_len)
        if rc == _native.ERR_ENCODING:
            _native.take_buffer(out, out_len)
            rc = self._run_encoded(handle, texts, c_idx, n, c_tot, c_val, c_flags, rich, out, out_len)
        data = _native.take_buffer(out, out_len)
        if rc != _native.OK:
            _native.raise_for(rc, data)
        lines = data.split(b"\n") if rich and n else []
        return ScoringResults(totals, values, flags, lines, names)

    @staticmethod
    def _run_encoded(handle: int, texts: tuple, c_idx: Any, n: int, c_tot: Any, c_val: Any, c_flags: Any,
                     rich: bool, out: Any, out_len: Any) -> int:
        # Slow path for strs CPython cannot encode as UTF-8 (lone surrogates):
        # they are passed with the surrogates kept as bytes, as "surrogatepass" encodes them.
        encoded = []
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise TypeError(f"responses[{i}] must be a str, got {type(t).__name__}")
            encoded.append(t.encode("utf-8", "surrogatepass"))
        keep = [ffi.from_buffer(b) for b in encoded]
        ptrs = ffi.new("char *[]", keep)
        lens = array("q", map(len, encoded))
        return _native.lib().llenvs_score_texts(handle, c_idx, ptrs, ffi.from_buffer("int64_t[]", lens), n, c_tot,
                                                c_val, c_flags, int(rich), out, out_len)
