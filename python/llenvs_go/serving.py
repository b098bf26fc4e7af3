"""Serve rewards over HTTP: OpenRLHF's remote reward protocol, a batch endpoint, ``/verify``, health and metrics.

``serve(env)`` starts the Go server (package ``serving``) in this process and
returns at once; the server runs on Go threads, so Go-backed environments are
scored without the GIL. An environment written in Python (or a Go-backed one
with Python reward functions) is served too, through a callback that takes
the GIL for each batch: it serves no faster than it scores in this process.

Endpoints (``docs/serving.md`` has them with examples):

- ``POST /get_reward`` (also ``POST /``): OpenRLHF's ``--reward.remote_url``
  protocol, ``{"query", "prompts", "labels"}`` in, ``{"rewards", "scores",
  "extra_logs"}`` out;
- ``POST /score``: task indices (or ground truths, with optional veRL data
  sources) and responses in; totals, statuses, answers, errors and signals out;
- ``POST /verify``: NeMo-Gym's resources-server shape;
- ``GET /health``, ``GET /ready``, ``GET /metrics`` (Prometheus text).
"""

from __future__ import annotations

import json
import math
import signal
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from llenvs_go import _native

__all__ = ["DEFAULT_PORT", "Server", "serve"]

#: The port of ``llenvs-go serve`` and ``serve()`` when none is given.
DEFAULT_PORT = 5000

_LIMITS = ("concurrency", "queue", "max_body_bytes", "max_items", "request_timeout", "read_header_timeout",
           "read_timeout", "idle_timeout", "retry_after")

# Python environments served through the callback, by id; kept while their server runs.
_callbacks: dict[int, Any] = {}
_callbacks_lock = threading.Lock()
_next_callback = [1]


def _reply(out: Any, out_len: Any, value: Any) -> None:
    data = json.dumps(value, allow_nan=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    p = _native.lib().llenvs_alloc(len(data))
    if p == _native.ffi.NULL:
        raise MemoryError("llenvs_alloc failed")
    _native.ffi.memmove(p, data, len(data))
    out[0] = _native.ffi.cast("char *", p)
    out_len[0] = len(data)


def _score_python(request: dict[str, Any]) -> dict[str, Any]:
    with _callbacks_lock:
        bound = _callbacks.get(request["callback"])
    if bound is None:
        raise RuntimeError(f"environment callback {request['callback']} is not served any more")
    indices = request["task_indices"]
    if request["op"] == "truths":
        return {"truths": bound.truths(indices)}
    results = bound.scorer.score_batch(indices, request["responses"])
    names = bound.scorer.signal_names
    errors = results.errors
    totals, values, answers = [], [], []
    for r in results:
        totals.append(r.total if math.isfinite(r.total) else 0.0)
        answers.append(r.extracted_answer)
        values.append([v if isinstance(v, (int, float)) and math.isfinite(v) else 0.0
                       for v in (r.signals.get(n) for n in names)])
    return {"totals": totals, "statuses": results.statuses, "answers": answers, "values": values,
            "errors": [errors.get(k) for k in range(len(totals))]}


def _callback(req: Any, req_len: int, out: Any, out_len: Any) -> int:
    # Called from the server's Go threads; cffi holds the GIL while it runs.
    try:
        request = json.loads(_native.ffi.unpack(req, req_len))
        _reply(out, out_len, _score_python(request))
        return 0
    except BaseException as e:  # noqa: BLE001  (every failure goes back to Go as the batch's error)
        try:
            _reply(out, out_len, f"{type(e).__name__}: {e}")
        except BaseException:  # noqa: BLE001
            pass
        return 1


_c_callback = _native.ffi.callback("llenvs_score_fn", _callback, error=1)


class Server:
    """A running reward server (made by :func:`serve`).

    Attributes:
        address: ``host:port`` it listens on (the port chosen when 0 was asked).
        url: ``http://host:port``; OpenRLHF's ``--reward.remote_url`` is ``url + "/get_reward"``.
        limits: the limits it enforces, defaults filled in (seconds for times).
        environments: the names of the served environments (the ``environment`` of ``/score``).
    """

    def __init__(self, handle: int, description: dict[str, Any], environments: list[str], callbacks: list[int]):
        self._handle: int | None = handle
        self.address: str = description["address"]
        self.limits: dict[str, Any] = description["limits"]
        self.environments = environments
        self._callbacks = callbacks
        self._lock = threading.Lock()
        self._stopped = threading.Event()

    @property
    def url(self) -> str:
        """The base URL, e.g. ``http://127.0.0.1:5000``."""
        host, _, port = self.address.rpartition(":")
        return f"http://{host}:{port}"

    @property
    def running(self) -> bool:
        """True until :meth:`stop` has returned."""
        return self._handle is not None

    def stop(self, timeout: float = 30.0) -> bool:
        """Stop accepting requests, answer every accepted one, and close the server.

        Waits up to ``timeout`` seconds for accepted requests to be answered;
        past that, the connections of unfinished ones are closed. Returns True
        when every accepted request was answered. Stopping twice is a no-op
        (True).
        """
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 <= timeout <= 1e6:
            raise ValueError(f"timeout must be a number of seconds from 0 to 1e6, got {timeout!r}")
        with self._lock:
            handle, self._handle = self._handle, None
        if handle is None:
            return True
        out = _native.ffi.new("char **")
        out_len = _native.ffi.new("size_t *")
        rc = _native.lib().llenvs_serve_stop(handle, float(timeout), out, out_len)  # releases the GIL while it waits
        data = _native.take_buffer(out, out_len)
        with _callbacks_lock:
            for k in self._callbacks:
                _callbacks.pop(k, None)
        self._stopped.set()
        if rc != _native.OK:
            _native.raise_for(rc, data)
        return bool(json.loads(data)["drained"])

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the server is stopped (by :meth:`stop` in another thread); True once it is."""
        return self._stopped.wait(timeout)

    def serve_forever(self, stop_timeout: float = 30.0) -> bool:
        """Block until SIGTERM or SIGINT, then stop gracefully (see :meth:`stop`); call from the main thread.

        Returns what :meth:`stop` returns.
        """
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError("serve_forever() installs signal handlers and must run in the main thread; "
                               "call stop() from your own code instead")
        got = threading.Event()
        previous = {s: signal.signal(s, lambda *_: got.set()) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            while not got.wait(0.5) and self.running:
                pass
        finally:
            for s, h in previous.items():
                signal.signal(s, h)
        return self.stop(stop_timeout)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<llenvs_go.Server {self.url} {state} environments={self.environments}>"

    def __del__(self) -> None:
        try:
            if self._handle is not None:
                self.stop(1.0)
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass


def _named(environments: Any) -> list[tuple[str, Any]]:
    if environments is None:
        return []
    if isinstance(environments, Mapping):
        pairs = list(environments.items())
        for name, _ in pairs:
            if not isinstance(name, str) or not name:
                raise TypeError(f"environment names must be non-empty str, got {name!r}")
        return pairs
    items = [environments] if hasattr(environments, "spec") or not isinstance(environments, Iterable) \
        else list(environments)
    pairs = []
    for env in items:
        name = getattr(getattr(env, "spec", None), "name", None)
        if not isinstance(name, str):
            raise TypeError(f"serve() needs environments (from environment_registry.get(...)), "
                            f"got {type(env).__name__}")
        pairs.append((name, env))
    names = [n for n, _ in pairs]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"two served environments are both named {dup[0]!r}; pass a mapping "
                         "{name: environment} to name each")
    return pairs


def serve(environments: Any = None, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT, labels: str = "math",
          token: str | None = None, concurrency: int | None = None, queue: int = 1024,
          max_body_bytes: int = 64 << 20, max_items: int = 65536, request_timeout: float = 120.0,
          read_header_timeout: float = 10.0, read_timeout: float = 60.0, idle_timeout: float = 120.0,
          retry_after: float = 1.0) -> Server:
    """Start a reward server for ``environments`` in this process and return it (already listening).

    Args:
        environments: a single-turn environment, a list of them (each named
            by its spec name), a mapping ``{name: environment}``, or None to
            serve only ground-truth labels (math verification or exact match,
            and veRL's data-source routing on ``/score``).
        host: the interface to bind; loopback by default. Bind another one
            only behind a TLS proxy or a network policy (``docs/serving.md``).
        port: the TCP port; 0 picks a free one (see ``Server.address``).
        labels: how ground-truth labels of ``/get_reward`` and ``/score``
            are scored: ``"math"`` (the last ``\\boxed{}`` verified against the
            label) or ``"exact"`` (that box's text equal to the label, both stripped).
        token: a bearer token every endpoint but ``/health`` requires
            (``Authorization: Bearer <token>``), compared in constant time.
        concurrency: requests scored at once (default: the Go threads, GOMAXPROCS).
        queue: further requests that may wait; beyond it requests get 429 and ``Retry-After``.
        max_body_bytes, max_items: limits of one request (413 beyond them).
        request_timeout: seconds from admission to answer; items not scored
            by then are answered with status ``"timeout"`` (reward 0.0, score -1).
        read_header_timeout, read_timeout, idle_timeout: seconds a client
            may take to send its headers, its whole request, and how long an
            idle keep-alive connection is kept.
        retry_after: seconds refused requests are told to wait.

    Raises:
        TypeError: an environment is not one, or is multi-turn.
        ValueError: a bad limit, label rule or port, or the address is taken.
    """
    from llenvs_go.core.dispatch import scores_natively
    from llenvs_go.integrations._references import BoundEnvironment, environment_reference

    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise ValueError(f"port must be an int from 0 (any free port) to 65535, got {port!r}")
    if labels not in ("math", "exact"):
        raise ValueError(f"labels must be 'math' or 'exact', got {labels!r}")
    if token is not None and (not isinstance(token, str) or not token.strip()):
        raise ValueError("token must be a non-empty str (or None for no token)")
    values = dict(concurrency=concurrency or 0, queue=queue, max_body_bytes=max_body_bytes, max_items=max_items,
                  request_timeout=request_timeout, read_header_timeout=read_header_timeout,
                  read_timeout=read_timeout, idle_timeout=idle_timeout, retry_after=retry_after)
    for name, v in values.items():
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v < 0:
            raise ValueError(f"{name} must be a positive number, got {v!r}")
        if name in ("concurrency", "queue", "max_body_bytes", "max_items") and not isinstance(v, int):
            raise ValueError(f"{name} must be an int, got {v!r}")
    served: list[dict[str, Any]] = []
    names: list[str] = []
    callbacks: list[int] = []
    for name, env in _named(environments):
        spec = getattr(env, "spec", None)
        if getattr(spec, "is_multi_turn", False):
            raise TypeError(f"environment {name!r} is multi-turn; serve() scores single-turn environments")
        entry: dict[str, Any] = {"name": name, "reference": environment_reference(env)}
        if scores_natively(env) and getattr(env, "backend", "native") == "native":
            entry["environment"] = env.handle
        else:
            bound = BoundEnvironment(env, entry["reference"])
            with _callbacks_lock:
                k = _next_callback[0]
                _next_callback[0] += 1
                _callbacks[k] = bound
            callbacks.append(k)
            entry.update(callback=k, signals=list(bound.scorer.signal_names), size=len(env))
        served.append(entry)
        names.append(name)
    request = {"environments": served, "labels": labels, "host": host, "port": port,
               "limits": values}
    if token is not None:
        request["token"] = token
    req = _native.dumps(request, "serve configuration")
    handle = _native.ffi.new("uint64_t *")
    out = _native.ffi.new("char **")
    out_len = _native.ffi.new("size_t *")
    rc = _native.lib().llenvs_serve_start(req, len(req), _c_callback, handle, out, out_len)
    data = _native.take_buffer(out, out_len)
    if rc != _native.OK:
        with _callbacks_lock:
            for k in callbacks:
                _callbacks.pop(k, None)
        _native.raise_for(rc, data)
    return Server(int(handle[0]), json.loads(data), names, callbacks)
