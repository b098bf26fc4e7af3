"""Deadlines for the Python code that scoring runs: worker processes that can really be stopped.

Go enforces every Go path's per-item budget itself. Python code that scoring
calls (reasoning-gym's own ``score_answer`` for tasks without a Go port,
environments and reward functions written in Python) cannot be stopped from
inside its process: a thread cannot be killed, and ``signal.alarm`` works
only in the main thread and not while C code runs (DESIGN.md §4). So such
code, when it has a timeout, runs in a worker process, and the caller kills
that process when an item runs past its deadline.

A :class:`SupervisedJob` is one job (a picklable callable, scored item by
item) and the worker processes that run it:

- a worker is a fresh interpreter (``sys.executable -c ...``, as
  ``multiprocessing``'s ``spawn`` starts one, never a fork: the Go runtime
  does not survive ``fork()``), in a session and process group of its own;
  it loads the job once and is reused for every batch; one worker per thread
  that uses the job at the same moment;
- a batch is one request and one reply per item, in input order; the caller
  gives each item ``timeout`` seconds from the moment the worker could start
  it (never less), kills the worker's process group when an item overruns,
  records that item as ``"timeout"``, starts a fresh worker and goes on with
  the rest; a worker that dies (a segfault, ``os._exit``, the OOM killer)
  makes that item ``"error"`` and is replaced the same way;
- workers end when their job is collected, at exit (``atexit`` and
  ``multiprocessing``'s exit hook, which also runs in pool and DataLoader
  workers) and, on Linux, when the process that started them dies
  (``PR_SET_PDEATHSIG``, set against one long-lived launcher thread).

``docs/robustness.md`` ("Deadlines for Python scoring") has the defaults, the
bounds and the costs.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextvars
import ctypes
import math
import os
import pickle
import queue
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple

try:  # cloudpickle carries classes and functions defined in __main__ or a function's body by value
    import cloudpickle as _job_pickler
except ImportError:  # pragma: no cover - cloudpickle ships with Ray and most trainers, but is optional
    _job_pickler = pickle  # type: ignore[assignment]

#: The environment variable that sets the timeout of every Python scoring path (read by :func:`timeout_setting`).
TIMEOUT_ENV = "LLENVS_GO_PYTHON_TIMEOUT"

#: Seconds per item for reasoning-gym's own ``score_answer`` on tasks without a Go port, unless set otherwise.
FALLBACK_TIMEOUT = 10.0

#: Seconds a worker may take to start and load its job (imports, building a dataset) before its first item.
START_TIMEOUT = 120.0

#: ``Scorer(timeout=DEFAULT)``: :data:`TIMEOUT_ENV` when it is set, else :data:`FALLBACK_TIMEOUT` for
#: reasoning-gym's ``score_answer`` and no worker (this process, no deadline) for other Python code.
DEFAULT: Literal["default"] = "default"

Timeout = float | None | Literal["default"]


class Outcome(NamedTuple):
    """How one item of a supervised batch ended.

    ``status`` is ``"ok"`` (``value`` is what the job returned), ``"timeout"``
    or ``"error"`` (``value`` is the reason, a str).
    """

    status: str
    value: Any


class Propagate(Exception):
    """Raised by a job to end the batch and raise ``error`` in the caller (an error of the call, not of the item)."""

    def __init__(self, error: BaseException):
        super().__init__(error)
        self.error = error


# -- the timeout setting --------------------------------------------------------

# The timeout a Scorer running Python code in this thread passes on to the Scorers made inside that code.
_inherited: contextvars.ContextVar[Timeout] = contextvars.ContextVar("llenvs_go_python_timeout", default=DEFAULT)


def check_timeout(timeout: Any, who: str = "timeout") -> Timeout:
    """``timeout`` if it is ``DEFAULT``, None or a positive finite number of seconds; a TypeError or ValueError else."""
    if timeout is None or timeout == DEFAULT and isinstance(timeout, str):
        return timeout
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"{who} must be a number of seconds, None or {DEFAULT!r}, got {type(timeout).__name__}")
    if not math.isfinite(timeout) or timeout <= 0:
        raise ValueError(f"{who} must be a positive number of seconds (or None for no worker process), got {timeout!r}")
    return float(timeout)


def timeout_setting() -> Timeout:
    """The timeout that :data:`TIMEOUT_ENV` sets: seconds, None (``none`` or ``off``) or DEFAULT (unset, empty)."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if not raw or raw.lower() == DEFAULT:
        return DEFAULT
    if raw.lower() in ("none", "off"):
        return None
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{TIMEOUT_ENV} must be a positive number of seconds, 'none' or 'default', got {raw!r}")
    return value


def resolve_timeout(timeout: Timeout, fallback: bool) -> float | None:
    """The seconds per item ``timeout`` gives: for reasoning-gym's ``score_answer`` (``fallback``) or other Python code.

    DEFAULT is, in order: what a Scorer running this code in this thread
    was given, :data:`TIMEOUT_ENV`, then :data:`FALLBACK_TIMEOUT` for the
    fallback and None for the rest.
    """
    if timeout == DEFAULT:
        timeout = _inherited.get()
    if timeout == DEFAULT:
        timeout = timeout_setting()
    if timeout == DEFAULT:
        return FALLBACK_TIMEOUT if fallback else None
    return timeout  # type: ignore[return-value]


def passing_on(timeout: Timeout) -> contextvars.Token[Timeout]:
    """Make ``timeout`` what Scorers made in this thread take for DEFAULT, until :func:`stop_passing_on`."""
    return _inherited.set(timeout)


def stop_passing_on(token: contextvars.Token[Timeout]) -> None:
    """Undo :func:`passing_on`."""
    _inherited.reset(token)


_in_worker = False


def in_worker() -> bool:
    """Whether this process is a scoring worker (where the caller's deadline already holds: no nested workers)."""
    return _in_worker


# -- frames ------------------------------------------------------------------
# A frame is a kind byte, a 64-bit length and the payload.
_HEAD = struct.Struct("<BQ")
_FLOAT = struct.Struct("<BQd")
_START, _RUN = b"S"[0], b"R"[0]  # to the worker: (sys.path, job), a batch of items
_READY, _LOAD_FAILED, _BEGIN = b"K"[0], b"L"[0], b"B"[0]  # from the worker
_VALUE_FLOAT, _VALUE, _ERROR, _RAISE = b"F"[0], b"P"[0], b"E"[0], b"X"[0]  # from the worker, one per item
_GATHER = 0.0002  # seconds the caller lets replies gather after a wake-up
_TIMED_OUT, _ENDED = object(), object()  # no frame: the deadline passed, the worker's pipe closed


def _describe(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


def _write_all(fd: int, data: bytes | memoryview, deadline: float | None) -> bool:
    """Write every byte (the fd may be non-blocking); False when the deadline passes first."""
    view = memoryview(data)
    poller = None
    while view:
        try:
            view = view[os.write(fd, view):]
        except BlockingIOError:
            if poller is None:
                poller = select.poll()
                poller.register(fd, select.POLLOUT)
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return False
            poller.poll(None if wait is None else max(1, math.ceil(wait * 1000)))
    return True


# -- the worker process --------------------------------------------------------


def _die_with_parent(parent_pid: int) -> None:
    # Linux: SIGKILL when the thread that started this process ends (the launcher thread lives as long as
    # its process). Elsewhere the closed request pipe ends an idle worker.
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
        prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent_pid:  # the parent ended before the signal was set
        os._exit(0)


def _send(fd: int, kind: int, payload: bytes = b"") -> None:
    _write_all(fd, _HEAD.pack(kind, len(payload)) + payload, None)


def serve(parent_pid: int, requests: int, replies: int) -> None:
    """The worker process's loop: load the job, then run batches until the parent closes the pipe."""
    global _in_worker
    _in_worker = True
    _die_with_parent(parent_pid)
    reader = os.fdopen(requests, "rb", buffering=1 << 16)
    job = None
    while True:
        head = reader.read(_HEAD.size)
        if len(head) < _HEAD.size:
            os._exit(0)  # the parent closed the pipe (or ended)
        kind, n = _HEAD.unpack(head)
        body = reader.read(n)
        if len(body) < n:
            os._exit(0)
        if kind == _START:
            try:
                path, payload = pickle.loads(body)
                sys.path[:] = path
                job = pickle.loads(payload)
                prepare = getattr(job, "prepare", None)
                if prepare is not None:
                    prepare()
            except BaseException as e:  # noqa: BLE001 - reported to the caller, which raises it
                _send(replies, _LOAD_FAILED, _describe(e).encode("utf-8", "replace"))
                os._exit(0)
            _send(replies, _READY)
        elif kind == _RUN:
            _run_batch(job, pickle.loads(body), replies)


def _run_batch(job: Any, items: list[Any], replies: int) -> None:
    _send(replies, _BEGIN)
    write = os.write
    for item in items:
        try:
            value = job(item)
        except Propagate as p:
            try:
                payload = pickle.dumps(p.error, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # noqa: BLE001 - an exception that does not pickle travels as its text
                payload = pickle.dumps(RuntimeError(_describe(p.error)))
            _send(replies, _RAISE, payload)
            return
        except BaseException as e:  # noqa: BLE001 - one item's failure is that item's outcome
            _send(replies, _ERROR, _describe(e).encode("utf-8", "replace"))
            continue
        if type(value) is float:
            write(replies, _FLOAT.pack(_VALUE_FLOAT, 8, value))  # 17 bytes: one atomic pipe write
            continue
        try:
            payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # noqa: BLE001
            _send(replies, _ERROR, f"its result could not be sent back from the worker process: {_describe(e)}"
                  .encode("utf-8", "replace"))
            continue
        _send(replies, _VALUE, payload)


class _StartFailed(Exception):
    """A worker did not get ready (it could not start, or died or hung before its first item)."""


class _Worker:
    """One worker process, seen from the process that started it."""

    __slots__ = ("proc", "pid", "owner", "requests", "replies", "buffer", "pos", "poller", "__weakref__")

    def __init__(self, proc: subprocess.Popen, requests: int, replies: int):
        self.proc = proc
        self.pid = proc.pid
        self.owner = os.getpid()
        self.requests = requests
        self.replies = replies
        self.buffer = bytearray()
        self.pos = 0
        self.poller = select.poll()
        self.poller.register(replies, select.POLLIN)

    def usable(self) -> bool:
        """Started by this process and still running."""
        return self.owner == os.getpid() and self.proc.returncode is None and self.proc.poll() is None

    def send(self, kind: int, payload: bytes, deadline: float) -> bool:
        try:
            return _write_all(self.requests, _HEAD.pack(kind, len(payload)), deadline) and \
                _write_all(self.requests, payload, deadline)
        except OSError:  # BrokenPipeError: the worker is gone
            return False

    def frame(self, deadline: float, gather: bool = False) -> Any:
        """The next frame (kind, payload offset, payload length), or _TIMED_OUT or _ENDED.

        With ``gather``, a wake-up waits a moment for more replies to arrive
        (more items follow: one read then takes many).
        """
        buf = self.buffer
        while True:
            pos = self.pos
            if len(buf) - pos >= _HEAD.size:
                kind, n = _HEAD.unpack_from(buf, pos)
                end = pos + _HEAD.size + n
                if len(buf) >= end:
                    self.pos = end
                    return kind, pos + _HEAD.size, n
            wait = deadline - time.monotonic()
            if wait <= 0:
                return _TIMED_OUT
            if not self.poller.poll(max(1, math.ceil(wait * 1000))):
                continue
            if gather:  # an item's deadline starts when its predecessor's reply is read: never shortened
                time.sleep(_GATHER)
            try:
                chunk = os.read(self.replies, 1 << 20)
            except BlockingIOError:
                continue
            except OSError:
                return _ENDED
            if not chunk:
                return _ENDED
            if pos > (1 << 20):  # drop what has been read
                del buf[:pos]
                self.pos = 0
            buf += chunk

    def payload(self, offset: int, n: int) -> bytes:
        return bytes(self.buffer[offset: offset + n])

    def how_it_ended(self) -> str:
        """Why the worker's pipe closed: its exit status (it is killed when it does not exit at once)."""
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.returncode
        if code is not None and code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"

    def kill(self) -> None:
        """Kill the worker's process group (its own children too) and reap it; only closes the pipes in a fork."""
        if self.owner == os.getpid() and self.proc.returncode is None:
            try:
                os.killpg(self.pid, signal.SIGKILL)  # the worker leads its own group (start_new_session)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.kill()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5.0)
            except subprocess.TimeoutExpired:  # pragma: no cover - a process stuck in the kernel
                pass
        with _LIVE_LOCK:
            _LIVE.pop(self.pid, None)
        for fd in (self.requests, self.replies):
            try:
                os.close(fd)
            except OSError:
                pass
        self.requests = self.replies = -1


# Every worker this process started and has not reaped, by pid (for exit and for the tests).
_LIVE: dict[int, _Worker] = {}
_LIVE_LOCK = threading.Lock()


def worker_pids() -> list[int]:
    """The process ids of the live scoring workers this process started."""
    with _LIVE_LOCK:
        return [pid for pid, w in _LIVE.items() if w.owner == os.getpid()]


def close_all_workers() -> None:
    """Kill every worker this process started (at exit; safe to call at any time, then workers start again)."""
    with _LIVE_LOCK:
        workers = list(_LIVE.values())
    for w in workers:
        w.kill()


def _package_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _interpreter() -> list[str]:
    import multiprocessing.spawn

    flags = getattr(subprocess, "_args_from_interpreter_flags", list)()  # -I, -X ..., as multiprocessing passes them
    return [multiprocessing.spawn.get_executable(), *flags]


def _popen() -> _Worker:
    """Start a worker process (on the launcher thread, so that its parent-death signal outlives the caller)."""
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    code = (f"import sys; sys.path.insert(0, {_package_root()!r}); from llenvs_go._deadline import serve; "
            f"serve({os.getpid()}, {req_r}, {rep_w})")
    env = dict(os.environ)
    env.setdefault("LLENVS_GO_THREADS", "1")  # a worker scores one item at a time
    try:
        proc = subprocess.Popen([*_interpreter(), "-c", code], pass_fds=(req_r, rep_w), stdin=subprocess.DEVNULL,
                                start_new_session=True, env=env)
    except BaseException:
        for fd in (req_r, req_w, rep_r, rep_w):
            os.close(fd)
        raise
    os.close(req_r)
    os.close(rep_w)
    os.set_blocking(req_w, False)
    os.set_blocking(rep_r, False)
    w = _Worker(proc, req_w, rep_r)
    with _LIVE_LOCK:
        _LIVE[w.pid] = w
    return w


class _Launcher:
    """The one thread of this process that starts workers (PR_SET_PDEATHSIG follows the thread that forks)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.requests: queue.SimpleQueue[concurrent.futures.Future] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None

    def start(self) -> _Worker:
        if sys.is_finalizing():  # no new threads at shutdown
            return _popen()
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._loop, name="llenvs-go-worker-launcher", daemon=True)
                self.thread.start()
        fut: concurrent.futures.Future = concurrent.futures.Future()
        self.requests.put(fut)
        try:
            return fut.result(timeout=START_TIMEOUT)
        except concurrent.futures.TimeoutError:
            raise _StartFailed(f"no worker process started within {START_TIMEOUT:g} s") from None

    def _loop(self) -> None:
        while True:
            fut = self.requests.get()
            if fut.set_running_or_notify_cancel():
                try:
                    fut.set_result(_popen())
                except BaseException as e:  # noqa: BLE001 - handed to the caller
                    fut.set_exception(e)


_launcher = _Launcher()


def _after_fork_in_child() -> None:
    # The parent's workers are not this process's: forget them without killing them.
    global _launcher, _LIVE_LOCK
    _launcher = _Launcher()
    _LIVE_LOCK = threading.Lock()
    for w in list(_LIVE.values()):
        for fd in (w.requests, w.replies):
            try:
                os.close(fd)
            except OSError:
                pass
    _LIVE.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
atexit.register(close_all_workers)
try:  # also in multiprocessing's children (pool and DataLoader workers), which end without running atexit
    import multiprocessing.util

    multiprocessing.util.Finalize(None, close_all_workers, exitpriority=100)
except ImportError:  # pragma: no cover
    pass


# -- the job, seen from the caller ----------------------------------------------


def _unpicklable_part(obj: Any, dumps: Callable[[Any], bytes], path: str, depth: int = 0) -> str | None:
    """The path of the innermost attribute or element of ``obj`` that does not pickle (None when none is found)."""
    if depth > 6:
        return None
    if isinstance(obj, dict):
        parts = [(f"{path}[{k!r}]", v) for k, v in obj.items()]
    elif isinstance(obj, (list, tuple, set, frozenset)):
        parts = [(f"{path}[{i}]", v) for i, v in enumerate(obj)]
    else:
        state = getattr(obj, "__dict__", None)
        parts = [(f"{path}.{k}", v) for k, v in state.items()] if isinstance(state, dict) else []
        for cls in type(obj).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if isinstance(name, str) and hasattr(obj, name) and name != "__weakref__":
                    parts.append((f"{path}.{name}", getattr(obj, name)))
    for where, value in parts:
        try:
            dumps(value)
        except Exception:  # noqa: BLE001 - looking for what fails
            return _unpicklable_part(value, dumps, where, depth + 1) or f"{where} ({type(value).__name__})"
    return None


def _close_idle(idle: list[_Worker], lock: threading.Lock) -> None:
    with lock:
        workers = list(idle)
        idle.clear()
    for w in workers:
        w.kill()


class SupervisedJob:
    """A job run item by item in worker processes, each item with a deadline.

    Args:
        job: a picklable callable of one item; its ``prepare()``, when it has
            one, runs once in each worker before the first item. It may
            raise :class:`Propagate` to end a batch with an exception.
        what: what the job runs, for messages ("reasoning-gym's score_answer
            for 'knights_knaves'", "the environment 'qmock'").
        blame: ``(object, name)``: where to look for the part that does not
            pickle, and what to call it ("environment"); the job by default.

    Raises:
        TypeError: ``job`` cannot be pickled (cloudpickle when installed, else
            pickle); the message names the part that fails.
    """

    def __init__(self, job: Any, what: str, blame: tuple[Any, str] | None = None):
        self.what = what
        try:
            self._payload = _job_pickler.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # noqa: BLE001 - pickle raises TypeError, PicklingError, AttributeError, ...
            obj, name = blame if blame is not None else (job, "the job")
            part = _unpicklable_part(obj, _job_pickler.dumps, name) or name
            raise TypeError(
                f"with a timeout, {what} runs in a worker process that can be stopped, so it must be picklable, but "
                f"{part} could not be pickled ({_describe(e)}). Make it picklable (for instance a __getstate__ "
                "that leaves that part out), or pass timeout=None to score in this process, without a timeout"
            ) from e
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._finalizer = weakref.finalize(self, _close_idle, self._idle, self._lock)

    def close(self) -> None:
        """Kill this job's idle workers now (it starts new ones if used again)."""
        _close_idle(self._idle, self._lock)

    def worker_pids(self) -> list[int]:
        """The process ids of this job's idle workers."""
        with self._lock:
            return [w.pid for w in self._idle]

    def run(self, items: Sequence[Any], timeout: float) -> list[Outcome]:
        """Every item's outcome, in order; each item may run ``timeout`` seconds.

        Raises:
            RuntimeError: no worker could start or load the job.
            Exception: what the job raised with :class:`Propagate`.
        """
        out: list[Outcome] = []
        n = len(items)
        while len(out) < n:
            w = self._take()
            fresh = w is None
            if w is None:
                w = self._start()
            try:
                healthy = self._run_on(w, items[len(out):] if out else items, timeout, out)
            except _StartFailed as e:
                w.kill()
                if fresh:
                    raise RuntimeError(f"{self.what}: its worker process failed before scoring: {e}") from None
                continue  # an idle worker that had died: start a fresh one
            except Propagate as p:
                self._give(w)
                raise p.error from None
            except BaseException:
                w.kill()  # its state is unknown (an interrupt in the middle of a batch)
                raise
            if healthy:
                self._give(w)
            else:
                w.kill()
        return out

    def _take(self) -> _Worker | None:
        while True:
            with self._lock:
                if not self._idle:
                    return None
                w = self._idle.pop()
            if w.usable():
                return w
            w.kill()

    def _give(self, w: _Worker) -> None:
        if w.usable():
            with self._lock:
                self._idle.append(w)
        else:
            w.kill()

    def _start(self) -> _Worker:
        try:
            w = _launcher.start()
        except _StartFailed as e:
            raise RuntimeError(f"{self.what}: {e}") from None
        deadline = time.monotonic() + START_TIMEOUT
        start = pickle.dumps((list(sys.path), self._payload), protocol=pickle.HIGHEST_PROTOCOL)
        w.send(_START, start, deadline)  # when it fails, the frame below says why
        f = w.frame(deadline)
        if f is _TIMED_OUT or f is _ENDED or f[0] != _READY:
            if f is _ENDED:
                reason = f"its worker process ended before it was ready ({w.how_it_ended()})"
            elif f is _TIMED_OUT:
                reason = f"its worker process was not ready within {START_TIMEOUT:g} s"
            else:
                reason = w.payload(f[1], f[2]).decode("utf-8", "replace") if f[0] == _LOAD_FAILED else "bad reply"
            w.kill()
            raise RuntimeError(f"{self.what} could not be set up in a worker process: {reason}. Pass timeout=None to "
                               "score in this process without a timeout")
        return w

    def _run_on(self, w: _Worker, items: Sequence[Any], timeout: float, out: list[Outcome]) -> bool:
        """Run ``items`` on ``w``, appending outcomes; False when ``w`` was lost (with the item that did it)."""
        deadline = time.monotonic() + START_TIMEOUT
        if not w.send(_RUN, pickle.dumps(list(items), protocol=pickle.HIGHEST_PROTOCOL), deadline):
            raise _StartFailed("the worker process did not take the batch")
        f = w.frame(deadline)
        if f is _TIMED_OUT or f is _ENDED or f[0] != _BEGIN:
            raise _StartFailed("the worker process did not begin the batch")
        unpack_float = _FLOAT.unpack_from
        buf = w.buffer
        monotonic = time.monotonic
        append = out.append
        last = len(items) - 1
        for k in range(len(items)):
            f = w.frame(monotonic() + timeout, k < last)
            if f is _TIMED_OUT:
                append(Outcome("timeout", f"timeout: {self.what} ran past {timeout:g} s on this item; the worker "
                                          "process running it was stopped"))
                return False
            if f is _ENDED:
                append(Outcome("error", f"{self.what} ended the worker process running this item "
                                        f"({w.how_it_ended()})"))
                return False
            kind, offset, n = f
            if kind == _VALUE_FLOAT:
                append(Outcome("ok", unpack_float(buf, offset - _HEAD.size)[2]))
            elif kind == _VALUE:
                append(Outcome("ok", pickle.loads(w.payload(offset, n))))
            elif kind == _ERROR:
                append(Outcome("error", w.payload(offset, n).decode("utf-8", "replace")))
            elif kind == _RAISE:
                raise Propagate(pickle.loads(w.payload(offset, n)))
            else:  # pragma: no cover - a protocol error
                append(Outcome("error", f"unexpected reply {kind!r} from the worker process"))
                return False
        return True
