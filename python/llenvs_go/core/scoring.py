"""Scoring responses against environment tasks, one at a time or in bulk.

For a Go-backed environment ``Scorer.score_batch`` crosses into Go once per
batch: the responses' own UTF-8 buffers are read in place, Go scores them in
parallel, and the totals come back in one float64 array. Rich per-item results
are built only when an item is read.

Any other environment with llenvs' ``Environment`` protocol (one written in
Python, a subclass that overrides ``step``, a Go-backed one with Python reward
functions) is scored as llenvs scores it: ``reset`` then ``step`` per response.

Python code that scoring runs can be given a deadline per item: it then runs
in a worker process that is killed when an item runs past it (``Scorer``'s
``timeout``; ``llenvs_go._deadline``). reasoning-gym's own ``score_answer``
for tasks without a Go port has one by default.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from llenvs_go import _deadline, _native
from llenvs_go._native import ffi
from llenvs_go.core.columns import BatchSlot
from llenvs_go.core.dispatch import require_environment, scores_natively
from llenvs_go.core.go_reply import ScoredColumns, _one_call, _OneCall
from llenvs_go.core.native import NativeEnvironment
from llenvs_go.core.scoring_results import (
    _HAS_ERROR,
    STATUSES,
    ResultMetadata,
    ScoringFailureWarning,
    ScoringResult,
    ScoringResults,
    item_statuses,
    result_from_step,
    status_of,
)
from llenvs_go.core.state import Action

_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1
_ITEM_FOUND, _ITEM_ERROR, _ITEM_SPAN, _OK = _native.ITEM_FOUND, _native.ITEM_ERROR, _native.ITEM_SPAN, _native.OK


class _PythonSteps:
    """llenvs' ``reset`` + ``step`` of an environment scored in Python, one item at a time: a worker's job.

    An item is ``(task_index, response, strict)``. What ``reset`` raises is
    raised to the caller, as in process; what ``step`` raises is the item's
    error, or raised too when ``strict`` (``Scorer.score``).
    """

    def __init__(self, environment: Any):
        self.environment = environment

    def __call__(self, item: tuple[Any, Any, bool]) -> ScoringResult:
        task_index, text, strict = item
        env = self.environment
        try:
            state, _ = env.reset(options={"task_index": task_index})
        except Exception as e:  # noqa: BLE001 - raised in the caller
            raise _deadline.Propagate(e) from None
        try:
            r = result_from_step(env.step(state, Action.from_text(text)))
        except Exception as e:
            if strict:
                raise _deadline.Propagate(e) from None
            raise
        if "status" not in r.metadata:
            r.metadata["status"] = status_of(r)
        return r


class Scorer:
    """Scores responses with a single-turn environment's own reward computation.

    Args:
        environment: any single-turn environment with llenvs' ``Environment``
            protocol (``spec``, ``reset``, ``step``) that supports task
            indices. A Go-backed environment from ``environment_registry``
            is scored in Go, in bulk; any other is scored as llenvs scores
            it, ``reset(options={"task_index": i})`` then ``step``.
        timeout: seconds per item that the Python code of scoring may run:
            an environment written in Python (its ``reset`` and ``step``),
            Python reward functions of a Go-backed one, and reasoning-gym's
            own ``score_answer`` for tasks without a Go port. With a number
            that code runs in a worker process that is killed when an item
            runs past it; the item is then ``"timeout"`` (total 0.0, the
            reason in ``metadata["error"]``), one that kills the worker
            ``"error"``, and the rest are scored. The environment is pickled
            (with cloudpickle when installed) once, here, and the worker
            scores that copy. None scores in this process, without a
            deadline, as llenvs does. ``"default"``: the
            ``LLENVS_GO_PYTHON_TIMEOUT`` environment variable when set
            (seconds, or ``none``), else 10 s for reasoning-gym's
            ``score_answer`` and None for the rest. Go's own signals have
            their own budgets and never need a worker.

    Raises:
        TypeError: the environment is multi-turn or has no task indices, or a
            timeout is set and the environment (scored in Python) cannot be
            pickled; that message names the part that does not pickle.
    """

    def __init__(self, environment: Any, timeout: _deadline.Timeout = _deadline.DEFAULT):
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
        self._one: tuple[Any, int, list[str]] | None = None
        self._set_timeout(_deadline.check_timeout(timeout))
        if self._python_timeout is not None and not self._native:
            self._steps_job()  # an environment that cannot be pickled is a TypeError now, not at the first batch

    def _set_timeout(self, timeout: _deadline.Timeout) -> None:
        self._timeout = timeout
        self._python_timeout = _deadline.resolve_timeout(timeout, fallback=False)
        self._fallback_timeout = _deadline.resolve_timeout(timeout, fallback=True)
        if _deadline.in_worker():  # the caller's deadline already holds for everything run here
            self._python_timeout = self._fallback_timeout = None
        self._steps: _deadline.SupervisedJob | None = None

    @property
    def timeout(self) -> float | None:
        """Seconds per item the Python code of this Scorer may run before its worker is stopped (None: in this
        process, without a deadline; also for an environment scored entirely in Go)."""
        if not self._native:
            return self._python_timeout
        return self._fallback_timeout if self.environment.backend == "python" else None

    def _steps_job(self) -> _deadline.SupervisedJob:
        # The worker job of an environment scored in Python (made once: the copy the workers score).
        job = self._steps
        if job is None:
            env = self.environment
            name = getattr(getattr(env, "spec", None), "name", None)
            what = f"the environment {name!r} ({type(env).__name__})" if name else f"the {type(env).__name__}"
            job = self._steps = _deadline.SupervisedJob(_PythonSteps(env), what, blame=(env, "environment"))
        return job

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
        return (_rebuild_scorer, (self.environment, self._timeout))

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
        one = self._one or self._one_path()
        if one is None or type(response) is not str or type(task_index) is not int:
            return self._score_general(task_index, response)
        fn, handle, names = one
        c = _one_call(len(names))
        if not _I64_MIN <= task_index <= _I64_MAX or fn(handle, task_index, response, c.address) != _OK:
            # The rare cases, as _call_one handles them: an index out of range, a closed handle, an error
            # (this call's error buffer freed first; _call_one calls again).
            c.take()
            c = self._call_one(one, task_index, response)
            if c is None:  # not encodable as UTF-8: the batch path handles it
                return self._run((task_index,), (response,), rich=True)[0]
            names = (self._one or one)[2]
        words = c.words
        f = words[1]
        if f & _ITEM_ERROR:  # its metadata holds the error: the batch path gives it
            return self._run((task_index,), (response,), rich=True)[0]
        if f & _ITEM_FOUND:
            if not f & _ITEM_SPAN:  # a cleaner changed the answer: it comes as bytes
                return self._run((task_index,), (response,), rich=True)[0]
            a, b = words[2], words[3]
            answer = response[a:b] if response.isascii() else \
                response.encode("utf-8", "surrogatepass")[a:b].decode("utf-8", "surrogatepass")
        else:
            answer = None
        d = c.doubles
        if len(names) == 1:
            values = [d[6]]
            signals = {names[0]: values[0]}
        else:
            values = d[6: 6 + len(names)]
            signals = dict(zip(names, values, strict=True))
        total = d[0]
        return ScoringResult(total, signals, answer, ResultMetadata(self, (task_index, response, answer, f, values,
                                                                           total)))

    def metadata_of(self, item: tuple[int, str, str | None, int, list[float], float]) -> dict[str, Any]:
        """The metadata of a result of :meth:`score` (its ``ResultMetadata`` reads it): the item's details from
        Go, nothing scored again."""
        task_index, response, answer, flags, values, total = item
        columns = ScoredColumns(None, (response,), self._names, (task_index,), self.environment)
        columns._answers, columns._errors = [answer], {}
        columns.flags, columns.values, columns.totals = bytes((flags & 0xFF,)), values, [total]
        return columns.metadata_of(0)

    def _score_general(self, task_index: int, response: str) -> ScoringResult:
        if not self._native:
            return self._score_python(task_index, response)
        if isinstance(response, (bytes, bytearray)):
            raise TypeError(f"response must be a str, got {type(response).__name__}")
        return self._run((task_index,), (response,), rich=True)[0]

    def total(self, task_index: int, response: str) -> float:
        """The total reward of one response: the cheapest single-item path (a reward function
        called once per sample). A response that cannot be scored (or that ran past its
        timeout) gets 0.0 and a :class:`ScoringFailureWarning`."""
        one = self._one or self._one_path()
        if one is None or type(response) is not str or type(task_index) is not int:
            r = self._score_general(task_index, response)
            if one is None and r.metadata.get("status") in ("timeout", "error"):
                warnings.warn(ScoringFailureWarning(
                    f"the response to task {task_index} could not be scored ({r.metadata['status']}) and got 0.0; "
                    "Scorer.score reports why in metadata['error']"), stacklevel=2)
            return r.total
        c = self._call_one(one, task_index, response)
        if c is None:  # not encodable as UTF-8: the batch path handles it
            return self._run((task_index,), (response,), rich=False)._totals[0]
        if c.words[1] & _native.ITEM_ERROR:
            warnings.warn(ScoringFailureWarning(f"the response to task {task_index} could not be scored and got 0.0; "
                                                "Scorer.score reports why in metadata['error']"), stacklevel=2)
        return c.doubles[0]

    def _one_path(self) -> tuple[Any, int, list[str]] | None:
        # (the GIL-holding one-item call, the environment's handle, the signal names) when
        # one item can be scored through it: a Go-backed environment whose signals are all Go's.
        if not self._native or self.environment.backend != "native":
            return None
        self._one = (_native.score_one_fn(), self.environment.handle, self._names)
        return self._one

    def _call_one(self, one: tuple[Any, int, list[str]], task_index: int, response: str) -> _OneCall | None:
        """Score one response into this thread's slots (GIL held); None when it is not UTF-8-encodable."""
        if not _I64_MIN <= task_index <= _I64_MAX:  # ctypes would wrap it silently
            raise self._index_error((task_index,))
        fn, handle, names = one
        c = _one_call(len(names))
        rc = fn(handle, task_index, response, c.address)
        if rc != _native.OK:
            data = c.take()
            if rc == _native.ERR_HANDLE:  # the environment was closed and made again: use its new handle
                self._one = None
                fresh = self._one_path()
                if fresh is not None and fresh[1] != handle:
                    return self._call_one(fresh, task_index, response)
            if rc == _native.ERR_ENCODING:
                return None
            _native.raise_for(rc, data)
        return c

    def score_batch(self, task_indices: Sequence[int], responses: Sequence[str]) -> ScoringResults:
        """Score ``responses[i]`` against task ``task_indices[i]`` for every i (in one call into Go when
        the environment is Go-backed).

        An item whose scoring fails (its ``step`` raises, or scoring in Go
        fails) gets total 0.0 and ``metadata["error"]``, and is listed in
        the results' ``errors``; the others are unaffected.

        Raises:
            ValueError: the two sequences differ in length.
            TaskIndexError: a task index is out of range (names its position);
                for an environment scored in Python, what its ``reset`` raises.
            TypeError: an index is not an int, ``responses`` is a str or bytes,
                or a response is not a str.
        """
        return self._run(task_indices, responses, rich=True)

    def totals(self, task_indices: Sequence[int], responses: Sequence[str]) -> list[float]:
        """Only the total reward per response: the fast path reward functions use.

        A response that cannot be scored gets 0.0, and a
        :class:`ScoringFailureWarning` says how many failed and where
        (``score_batch`` gives each one's reason).
        """
        return self._run(task_indices, responses, rich=False)._totals

    def outcomes(self, task_indices: Sequence[int], responses: Sequence[str]) -> tuple[list[float], list[str]]:
        """The totals and every item's status (:data:`STATUSES`), without building results.

        The path of reward functions that report timeouts and failures in
        their framework's own way; unlike :meth:`totals` it gives no
        warning, the statuses say which items were not scored.
        """
        results = self._run(task_indices, responses, rich=False, statuses=True)
        return results._totals, results.statuses

    def outcome(self, task_index: int, response: str) -> tuple[float, str]:
        """One response's total and status: the single-item form of :meth:`outcomes`."""
        one = self._one or self._one_path()
        if one is None or type(response) is not str or type(task_index) is not int:
            totals, statuses = self.outcomes((task_index,), (response,))
            return totals[0], statuses[0]
        c = self._call_one(one, task_index, response)
        if c is None:  # not encodable as UTF-8: the batch path handles it
            totals, statuses = self.outcomes((task_index,), (response,))
            return totals[0], statuses[0]
        d = c.doubles
        names = one[2]
        status = item_statuses(bytes((c.words[1] & 0xFF,)), [d[6 + j] for j in range(len(names))], names, (d[0],))
        return d[0], status[0]

    # -- environments scored in Python: llenvs' reset + step -----------------
    def _score_python(self, task_index: int, response: str) -> ScoringResult:
        if self._python_timeout is not None:
            return self._from_outcome(self._steps_job().run([(task_index, response, True)], self._python_timeout)[0])
        token = _deadline.passing_on(self._timeout) if self._timeout is None else None
        try:
            env = self.environment
            state, _ = env.reset(options={"task_index": task_index})
            r = result_from_step(env.step(state, Action.from_text(response)))
        finally:
            if token is not None:
                _deadline.stop_passing_on(token)
        if "status" not in r.metadata:
            r.metadata["status"] = status_of(r)
        return r

    def _run_python(self, task_indices: Sequence[int], responses: Sequence[str]) -> ScoringResults:
        idx = list(task_indices)
        texts = list(responses)
        if len(idx) != len(texts):
            raise ValueError(f"task_indices and responses must have the same length, got {len(idx)} and {len(texts)}")
        if self._python_timeout is not None:
            if not idx:
                return ScoringResults.of([])
            outcomes = self._steps_job().run([(i, t, False) for i, t in zip(idx, texts, strict=True)],
                                             self._python_timeout)
            return ScoringResults.of([self._from_outcome(o) for o in outcomes])
        token = _deadline.passing_on(self._timeout) if self._timeout is None else None
        try:
            return ScoringResults.of([self._step_here(i, text) for i, text in zip(idx, texts, strict=True)])
        finally:
            if token is not None:
                _deadline.stop_passing_on(token)

    def _step_here(self, task_index: Any, text: Any) -> ScoringResult:
        # One item of a batch scored in this process, as llenvs scores it.
        env = self.environment
        state, _ = env.reset(options={"task_index": task_index})
        try:
            r = result_from_step(env.step(state, Action.from_text(text)))
        except Exception as e:  # noqa: BLE001 - one item's failure is that item's result
            r = self._failed(f"{type(e).__name__}: {e}", None)
        if "status" not in r.metadata:
            r.metadata["status"] = status_of(r)
        return r

    def _failed(self, reason: str, status: str | None) -> ScoringResult:
        """The result of an item whose scoring failed or ran past its timeout: total 0.0 and the reason."""
        metadata: dict[str, Any] = {"error": reason}
        if status is not None:
            metadata["status"] = status
        return ScoringResult(total=0.0, signals=dict.fromkeys(self._names, 0.0), extracted_answer=None,
                             metadata=metadata)

    def _from_outcome(self, outcome: _deadline.Outcome) -> ScoringResult:
        status, value = outcome
        return value if status == "ok" else self._failed(value, status)

    def _run(self, task_indices: Sequence[int], responses: Sequence[str], rich: bool,
             statuses: bool = False) -> ScoringResults:
        if isinstance(responses, (str, bytes, bytearray)):
            raise TypeError(f"responses must be a sequence of str, got a {type(responses).__name__}; "
                            "wrap a single response in a list")
        if not self._native:
            return self._run_python(task_indices, responses)
        texts = responses if type(responses) is tuple else tuple(responses)
        if not isinstance(task_indices, (list, tuple)):
            task_indices = list(task_indices)
        n = len(texts)
        if len(task_indices) != n:
            raise ValueError(f"task_indices and responses must have the same length, got {len(task_indices)} and {n}")
        names = self._names
        if n == 1 and isinstance(task_indices[0], bool):
            raise TypeError("task_indices[0] must be an int, got bool")
        try:
            idx = ffi.new("int64_t[]", task_indices)
        except (TypeError, OverflowError):
            raise self._index_error(task_indices) from None
        totals = ffi.new("double[]", n)
        values = ffi.new("double[]", n * len(names))
        flags = ffi.new("uint8_t[]", n)
        env = self.environment
        python_backend = env.backend == "python"
        batch = self._call(idx, texts, totals, values, flags, rich or python_backend)
        columns = None
        python_failed = False
        if batch is not None:
            columns = ScoredColumns(batch, texts, names, list(task_indices), env,
                                    (lambda i: ground_truth(env.entry(i))) if python_backend else None)
            if python_backend:
                python_failed = self._python_correctness(columns, totals, values, flags)
        status = ffi.buffer(flags, n)[:]
        total_list, value_list = ffi.unpack(totals, n), ffi.unpack(values, n * len(names))
        if columns is not None:
            columns.flags, columns.values, columns.totals = status, value_list, total_list
        results = ScoringResults(total_list, value_list, names, columns)
        if statuses:
            if columns is None:
                results._statuses = item_statuses(status, value_list, names, total_list)
            return results
        if not rich and (python_failed or b"\x01" in status.translate(_HAS_ERROR)):  # LLENVS_ITEM_ERROR set
            failed = [k for k in range(n) if flags[k] & _native.ITEM_ERROR]
            warnings.warn(ScoringFailureWarning(
                f"{len(failed)} of {n} responses could not be scored and got 0.0 (first at position {failed[0]}); "
                "Scorer.score_batch reports why in its errors"), stacklevel=3)
        return results

    def _python_correctness(self, columns: ScoredColumns, totals: Any, values: Any, flags: Any) -> bool:
        # Tasks without a native port: Go extracted the answers, reasoning-gym scores them (in a worker with a
        # deadline per item unless the timeout is None). An item that ran past it or failed is flagged as the
        # library flags its own, with total 0.0 and the reason; True when there is one.
        k = len(self._names)
        j = self._names.index("correctness")
        weight = self.environment.signal_specs[j]["weight"]
        found = [(i, answer) for i, answer in enumerate(columns.answers()) if answer is not None]
        indices = columns.indices
        outcomes = self.environment.score_correctness([(indices[i], a) for i, a in found], self._fallback_timeout)
        failed: dict[int, str] = {}
        for (i, _), (status, value) in zip(found, outcomes, strict=True):
            if status == "ok":
                values[i * k + j] = value
                totals[i] += value * weight
            else:
                flags[i] |= _native.ITEM_ERROR | (_native.ITEM_TIMEOUT if status == "timeout" else 0)
                totals[i] = 0.0
                for s in range(k):
                    values[i * k + s] = 0.0
                failed[i] = value
        if failed:
            columns.errors().update(failed)
        return bool(failed)

    def _call(self, idx: Any, texts: tuple, totals: Any, values: Any, flags: Any, rich: bool) -> Any:
        # The floats land in the caller's arrays; with rich, the answers and errors come back as a
        # record batch (None without it, or for an empty batch).
        n = len(texts)
        handle = self.environment.handle
        L = _native.lib()
        out = ffi.new("char **")
        out_len = ffi.new("size_t *")
        columns = _native.SCORE_ANSWERS if rich and n else 0
        slot = BatchSlot() if columns else None
        schema, array = (slot.schema, slot.array) if slot is not None else (ffi.NULL, ffi.NULL)
        rc = L.llenvs_score_pytuple(handle, idx, ffi.cast("void *", id(texts)), n, columns, totals, values, flags,
                                    schema, array, out, out_len)
        if rc == _native.ERR_ENCODING:
            _native.take_buffer(out, out_len)
            rc = self._call_encoded(handle, texts, idx, columns, totals, values, flags, schema, array, out, out_len)
        data = _native.take_buffer(out, out_len)
        if rc != _native.OK:
            _native.raise_for(rc, data)
        return slot.take() if slot is not None else None

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
    def _call_encoded(handle: int, texts: tuple, idx: Any, columns: int, totals: Any, values: Any, flags: Any,
                      schema: Any, array: Any, out: Any, out_len: Any) -> int:
        # Slow path for strs CPython cannot encode as UTF-8 (lone surrogates):
        # they are passed with the surrogates kept as bytes, as "surrogatepass" encodes them.
        arrays = _native.TextArrays(texts, "responses")
        return _native.lib().llenvs_score_texts(handle, idx, arrays.ptrs, arrays.lens, len(texts), columns, totals,
                                                values, flags, schema, array, out, out_len)


def _rebuild_scorer(environment: Any, timeout: _deadline.Timeout = _deadline.DEFAULT) -> Scorer:
    scorer = Scorer.__new__(Scorer)
    scorer.environment = environment
    scorer._names_cache = None
    scorer._native_path = None
    scorer._one = None
    scorer._set_timeout(timeout)  # resolved here, in the process that uses it (its LLENVS_GO_PYTHON_TIMEOUT)
    return scorer


def ground_truth(entry: dict[str, Any]) -> str | None:
    """The ground truth of a reasoning-gym entry as a str; None when the task has none (``answer`` is None)."""
    answer = entry["answer"]
    return None if answer is None else str(answer)


def native_scorer(environment: NativeEnvironment) -> Scorer:
    """A Scorer of ``environment``'s Go-side signals only, whatever its class overrides.

    For reward functions that need the library's own scoring from inside a
    Python ``step`` (calling ``Scorer(environment)`` there could recurse).
    """
    scorer = _rebuild_scorer(environment)
    scorer._native_path = True
    return scorer


__all__ = [
    "STATUSES",
    "Scorer",
    "ScoringFailureWarning",
    "ScoringResult",
    "ScoringResults",
    "ground_truth",
    "item_statuses",
    "native_scorer",
    "result_from_step",
    "status_of",
]
