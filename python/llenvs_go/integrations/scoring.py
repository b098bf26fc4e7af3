"""Scoring responses against environment tasks, one at a time or in bulk.

For a Go-backed environment ``Scorer.score_batch`` crosses into Go once per
batch: the responses' own UTF-8 buffers are read in place, Go scores them in
parallel, and the totals come back in one float64 array. Rich per-item results
are built only when an item is read.

Any other environment with llenvs' ``Environment`` protocol (one written in
Python, a subclass that overrides ``step``, a Go-backed one with Python reward
functions) is scored as llenvs scores it: ``reset`` then ``step`` per response.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from llenvs_go import _native
from llenvs_go._native import ffi
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.reward import as_bundle
from llenvs_go.core.state import Action
from llenvs_go.integrations._environments import require_environment, scores_natively

_single = threading.local()


@dataclass(frozen=True)
class ScoringResult:
    """The score of one response.

    Attributes:
        total: weighted sum of the numeric signals.
        signals: signal name -> unweighted reward (None for a feedback-only signal).
        extracted_answer: what the extractor found; None when it found
            nothing ("" is a valid extraction).
        metadata: signal name -> that signal's metadata (signals without
            metadata are left out); an item of ``score_batch`` whose scoring
            failed has total 0.0 and ``metadata["error"]``.
    """

    total: float
    signals: dict[str, float | None]
    extracted_answer: str | None
    metadata: dict[str, Any]


class ScoringResults(Sequence[ScoringResult]):
    """The results of ``score_batch``, in input order.

    A read-only sequence. ``totals`` is ready at once; the rich part of the
    results (extracted answers, metadata) is fetched from Go in one call the
    first time any item is read, and each ``ScoringResult`` is built when it
    is read.
    """

    __slots__ = ("_totals", "_values", "_flags", "_lines", "_names", "_cache", "_refetch", "_backend", "_expected")

    def __init__(self, totals: list[float], values: list[float], flags: bytes, names: list[str],
                 lines: list[bytes] | None, refetch: Callable[[], list[bytes]] | None, backend: str,
                 expected: Callable[[int], str] | None = None):
        self._backend = backend
        self._expected = expected
        self._totals = totals
        self._values = values
        self._flags = flags
        self._names = names
        self._lines = lines
        self._refetch = refetch
        self._cache: dict[int, ScoringResult] = {}

    @classmethod
    def of(cls, results: Sequence[ScoringResult]) -> ScoringResults:
        """Results already built, as a ``ScoringResults``."""
        out = cls([float(r.total) for r in results], [], b"", [], None, None, "python")
        out._cache.update(enumerate(results))
        return out

    @property
    def totals(self) -> list[float]:
        """Every item's total (a new list of floats)."""
        return list(self._totals)

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
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ScoringResults({len(self)} items, mean total {sum(self._totals) / max(len(self), 1):.4f})"

    def _build(self, i: int) -> ScoringResult:
        if self._lines is None:
            assert self._refetch is not None
            self._lines = self._refetch()
            self._refetch = None
        k = len(self._names)
        line = _loads(self._lines[i])
        signals = {name: self._values[i * k + j] for j, name in enumerate(self._names)}
        expected = line["expected"]
        if expected is None and self._expected is not None:
            expected = self._expected(i)
        return _result(self._totals[i], signals, line, self._names, self._backend, expected)


_loads = json.loads
_new = object.__new__
_set = object.__setattr__


def _result(total: float, signals: dict[str, float], line: dict[str, Any], names: list[str], backend: str,
            expected: str | None) -> ScoringResult:
    """A ScoringResult from one rich line of the library (built without the frozen __init__, which is slow)."""
    answer = line["answer"]
    extraction = line["extraction"]
    metadata: dict[str, Any] = {}
    for name in names:
        if name == "correctness":
            if answer is None:
                metadata[name] = {"extracted": None, "extraction": extraction}
            else:
                metadata[name] = {"extracted": answer, "expected": expected, "extraction": extraction}
        else:
            metadata[name] = {"extraction": extraction}
    metadata["backend"] = backend
    if line["error"] is not None:
        metadata["error"] = line["error"]
    r = _new(ScoringResult)
    _set(r, "__dict__", {"total": total, "signals": signals, "extracted_answer": answer, "metadata": metadata})
    return r


class Scorer:
    """Scores responses with a single-turn environment's own reward computation.

    Args:
        environment: any single-turn environment with llenvs' ``Environment``
            protocol (``spec``, ``reset``, ``step``) that supports task
            indices. A Go-backed environment from ``environment_registry``
            is scored in Go, in bulk; any other is scored as llenvs scores
            it, ``reset(options={"task_index": i})`` then ``step``.
    """

    def __init__(self, environment: Any):
        spec = require_environment(environment, "Scorer", need_len=False)
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
        self._names_cache: list[str] | None = None
        self._native_path: bool | None = None

    @property
    def _native(self) -> bool:
        # Decided on first use, so that unpickling never touches the library.
        if self._native_path is None:
            self._native_path = scores_natively(self.environment)
        return self._native_path

    @property
    def _names(self) -> list[str]:
        if self._names_cache is None:
            env = self.environment
            if self._native:
                self._names_cache = [s["name"] for s in env.signal_specs]
            else:
                self._names_cache = [rf.name for rf in getattr(env, "reward_functions", ())]
        return self._names_cache

    @classmethod
    def from_config(cls, config: Any) -> Scorer:
        """Build the environment an ``EnvironmentConfig`` describes and wrap it."""
        return cls(config.build())

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt without touching the library: a worker that cannot use it
        # (a forked child) then fails on first use, where the error reaches
        # the caller, rather than while unpickling.
        return (_rebuild_scorer, (self.environment,))

    @property
    def signal_names(self) -> list[str]:
        """Names of the signals in every result, in order (those of ``environment.reward_functions``
        for an environment scored in Python)."""
        return list(self._names)

    def score(self, task_index: int, response: str) -> ScoringResult:
        """Score one response against task ``task_index``.

        For an environment scored in Python, what its ``reset`` or ``step``
        raises propagates (an out-of-range index, a bug in a reward function).
        """
        if not self._native:
            return self._score_python(task_index, response)
        if self.environment.backend != "native":
            return self._run((task_index,), (response,), rich=True)[0]
        # One item: this thread's preallocated buffers and no batch object.
        b = getattr(_single, "buffers", None)
        if b is None or b[0] is not self:
            b = _single.buffers = (self, ffi.new("int64_t[1]"), ffi.new("double[1]"),
                                   ffi.new("double[]", len(self._names)), ffi.new("uint8_t[1]"), ffi.new("char **"),
                                   ffi.new("size_t *"))
        _, idx, total, values, flags, out, out_len = b
        if isinstance(task_index, bool):
            raise TypeError("task_index must be an int, got bool")
        try:
            idx[0] = task_index
        except (TypeError, OverflowError):
            raise self._index_error((task_index,)) from None
        texts = (response,)
        rc = _native.lib().llenvs_score_pytuple(self.environment.handle, idx, ffi.cast("void *", id(texts)), 1,
                                                total, values, flags, 1, out, out_len)
        if rc != _native.OK:
            if rc == _native.ERR_ENCODING:
                _native.take_buffer(out, out_len)
                return self._run((task_index,), texts, rich=True)[0]
            _native.raise_for(rc, _native.take_buffer(out, out_len))
        line = _loads(_native.take_buffer(out, out_len))
        names = self._names
        signals = {name: values[j] for j, name in enumerate(names)} if len(names) > 1 else {names[0]: values[0]}
        return _result(total[0], signals, line, names, "native", line["expected"])

    def score_batch(self, task_indices: Sequence[int], responses: Sequence[str]) -> ScoringResults:
        """Score ``responses[i]`` against task ``task_indices[i]`` for every i (in one call into Go when
        the environment is Go-backed).

        An item whose scoring fails (its ``step`` raises, or scoring in Go
        fails) gets total 0.0 and ``metadata["error"]``; the others are
        unaffected.

        Raises:
            ValueError: the two sequences differ in length.
            TaskIndexError: a task index is out of range (names its position);
                for an environment scored in Python, what its ``reset`` raises.
            TypeError: an index is not an int or a response is not a str.
        """
        return self._run(task_indices, responses, rich=False)

    def totals(self, task_indices: Sequence[int], responses: Sequence[str]) -> list[float]:
        """Only the total reward per response: the fast path reward functions use."""
        return self._run(task_indices, responses, rich=False)._totals

    # -- environments scored in Python: llenvs' reset + step -----------------
    def _score_python(self, task_index: int, response: str) -> ScoringResult:
        env = self.environment
        state, _ = env.reset(options={"task_index": task_index})
        return result_from_step(env.step(state, Action.from_text(response)))

    def _run_python(self, task_indices: Sequence[int], responses: Sequence[str]) -> ScoringResults:
        idx = list(task_indices)
        texts = list(responses)
        if len(idx) != len(texts):
            raise ValueError(f"task_indices and responses must have the same length, got {len(idx)} and {len(texts)}")
        env = self.environment
        results = []
        for i, text in zip(idx, texts, strict=True):
            state, _ = env.reset(options={"task_index": i})
            try:
                r = result_from_step(env.step(state, Action.from_text(text)))
            except Exception as e:  # noqa: BLE001 - one item's failure is that item's result
                r = ScoringResult(total=0.0, signals=dict.fromkeys(self._names, 0.0), extracted_answer=None,
                                  metadata={"error": f"{type(e).__name__}: {e}"})
            results.append(r)
        return ScoringResults.of(results)

    def _run(self, task_indices: Sequence[int], responses: Sequence[str], rich: bool) -> ScoringResults:
        if not self._native:
            return self._run_python(task_indices, responses)
        texts = responses if type(responses) is tuple else tuple(responses)
        if not isinstance(task_indices, (list, tuple)):
            task_indices = list(task_indices)
        n = len(texts)
        if len(task_indices) != n:
            raise ValueError(f"task_indices and responses must have the same length, got {len(task_indices)} and {n}")
        try:
            idx = ffi.new("int64_t[]", task_indices)
        except (TypeError, OverflowError):
            raise self._index_error(task_indices) from None
        names = self._names
        totals = ffi.new("double[]", n)
        values = ffi.new("double[]", n * len(names))
        flags = ffi.new("uint8_t[]", n)
        env = self.environment
        python_backend = env.backend == "python"
        lines = self._call(idx, texts, totals, values, flags, rich or python_backend)
        if python_backend:
            self._python_correctness(idx, lines, totals, values)

        def refetch() -> list[bytes]:
            return self._call(idx, texts, ffi.new("double[]", n), ffi.new("double[]", n * len(names)),
                              ffi.new("uint8_t[]", n), True)

        return ScoringResults(ffi.unpack(totals, n), ffi.unpack(values, n * len(names)), ffi.unpack(flags, n),
                              names, lines if rich or python_backend else None,
                              None if rich or python_backend else refetch, env.backend,
                              (lambda i: str(env.entry(idx[i])["answer"])) if python_backend else None)

    def _python_correctness(self, idx: Any, lines: list[bytes], totals: Any, values: Any) -> None:
        # Tasks without a native port: Go extracted the answers, reasoning-gym scores them.
        k = len(self._names)
        j = self._names.index("correctness")
        weight = self.environment.signal_specs[j]["weight"]
        for i, raw in enumerate(lines):
            answer = json.loads(raw)["answer"]
            if answer is not None:
                c = self.environment.correctness(idx[i], answer)
                values[i * k + j] = c
                totals[i] += c * weight

    def _call(self, idx: Any, texts: tuple, totals: Any, values: Any, flags: Any, rich: bool) -> list[bytes]:
        n = len(texts)
        handle = self.environment.handle
        L = _native.lib()
        out = ffi.new("char **")
        out_len = ffi.new("size_t *")
        rc = L.llenvs_score_pytuple(handle, idx, ffi.cast("void *", id(texts)), n, totals, values, flags, int(rich),
                                    out, out_len)
        if rc == _native.ERR_ENCODING:
            _native.take_buffer(out, out_len)
            rc = self._call_encoded(handle, texts, idx, totals, values, flags, rich, out, out_len)
        data = _native.take_buffer(out, out_len)
        if rc != _native.OK:
            _native.raise_for(rc, data)
        return data.split(b"\n") if rich and n else []

    def _index_error(self, task_indices: Sequence[int]) -> Exception:
        for i, t in enumerate(task_indices):
            if isinstance(t, bool) or not hasattr(t, "__index__"):
                return TypeError(f"task_indices[{i}] must be an int, got {type(t).__name__}")
            v = t.__index__()
            if not -(2**63) <= v < 2**63:
                return _native.TaskIndexError(
                    f"task_indices[{i}]: task_index {v} out of bounds [0, {len(self.environment)})")
        return TypeError("task_indices must be a sequence of ints")

    @staticmethod
    def _call_encoded(handle: int, texts: tuple, idx: Any, totals: Any, values: Any, flags: Any,
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
        lens = ffi.new("int64_t[]", [len(b) for b in encoded])
        return _native.lib().llenvs_score_texts(handle, idx, ptrs, lens, len(texts), totals, values, flags,
                                                int(rich), out, out_len)


def _rebuild_scorer(environment: Any) -> Scorer:
    scorer = Scorer.__new__(Scorer)
    scorer.environment = environment
    scorer._names_cache = None
    scorer._native_path = None
    return scorer


def native_scorer(environment: NativeEnvironment) -> Scorer:
    """A Scorer of ``environment``'s Go-side signals only, whatever its class overrides.

    For reward functions that need the library's own scoring from inside a
    Python ``step`` (calling ``Scorer(environment)`` there could recurse).
    """
    scorer = _rebuild_scorer(environment)
    scorer._native_path = True
    return scorer


def result_from_step(step_result: Any) -> ScoringResult:
    """The ScoringResult of a ``StepResult``, as llenvs builds it.

    ``total`` is the weighted total of ``step_result.rewards``; ``signals``
    maps each name to its unweighted reward (None kept, the last of a name
    wins); ``metadata`` maps names to the metadata that is not None;
    ``extracted_answer`` is ``info["extracted_answer"]`` or, when that is
    None, the ``"extracted"`` metadata of the first signal that has one.
    """
    rewards = step_result.rewards
    signals = tuple(rewards)
    total = rewards.total if hasattr(rewards, "total") else as_bundle(signals).total
    extracted = (step_result.info or {}).get("extracted_answer")
    if extracted is None:
        for sig in signals:
            if sig.metadata is not None and "extracted" in sig.metadata:
                extracted = sig.metadata["extracted"]
                break
    return ScoringResult(total=float(total), signals={sig.name: sig.reward for sig in signals},
                         extracted_answer=extracted,
                         metadata={sig.name: sig.metadata for sig in signals if sig.metadata is not None})
