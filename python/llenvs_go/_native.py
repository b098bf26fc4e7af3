"""Loading of the Go core (``libllenvs.so``) through cffi in ABI mode.

The library is opened lazily, once per process, on first use. Before it is
opened, ``faulthandler`` is enabled so that a later ``faulthandler.enable()``
(pytest, Ray) cannot displace the Go runtime's signal handlers. A process
forked after loading cannot use the library: every call then fails fast with
a :class:`RuntimeError` that says to use the spawn or forkserver start method.
"""

from __future__ import annotations

import ctypes
import faulthandler
import importlib.resources
import json
import math
import os
import sys
import threading
from typing import Any

from cffi import FFI

ABI_VERSION = 12

# The declarations of capi/llenvs.h (tests check that the two agree).
CDEF = """
#define LLENVS_ABI_VERSION 12

#define LLENVS_OK 0
#define LLENVS_ERR_INVALID -1
#define LLENVS_ERR_HANDLE -2
#define LLENVS_ERR_INDEX -3
#define LLENVS_ERR_PANIC -4
#define LLENVS_ERR_FORKED -5
#define LLENVS_ERR_NOT_FOUND -6
#define LLENVS_ERR_ENCODING -7
#define LLENVS_ERR_STALE -8

#define ARROW_FLAG_NULLABLE 2
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};
struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

#define LLENVS_KIND_ALL 0
#define LLENVS_KIND_ENVIRONMENT 1
#define LLENVS_KIND_EPISODE 2
#define LLENVS_KIND_TOKENIZER 3
#define LLENVS_KIND_STEP_DETAILS 4
#define LLENVS_KIND_SERVER 5

#define LLENVS_ITEM_FOUND 1
#define LLENVS_ITEM_ERROR 2
#define LLENVS_ITEM_SPAN 4
#define LLENVS_ITEM_TIMEOUT 8

#define LLENVS_EPISODE_TERMINATED 1
#define LLENVS_EPISODE_TRUNCATED 2
#define LLENVS_EPISODE_ERROR 4

int32_t llenvs_abi_version(void);
void llenvs_free(void *p);
int32_t llenvs_set_max_procs(int32_t n);
int64_t llenvs_live_handles(int32_t kind);
int32_t llenvs_call(const char *method, const char *req, size_t req_len, char **out, size_t *out_len);
int32_t llenvs_env_new(const char *cfg, size_t cfg_len, uint64_t *handle, char **out, size_t *out_len);
int32_t llenvs_env_call(uint64_t handle, const char *method, const char *req, size_t req_len, char **out, size_t *out_len);
int32_t llenvs_env_close(uint64_t handle);
int32_t llenvs_env_reset(uint64_t handle, const char *req, size_t req_len, uint64_t *episode, char **out, size_t *out_len);
int32_t llenvs_episode_close(uint64_t episode);
int32_t llenvs_env_reset_many(uint64_t handle, const int64_t *indices, size_t n, uint64_t *episodes, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_episodes_step_texts(const uint64_t *episodes, int64_t *steps, const int64_t *which, size_t batch, const char *const *texts, const int64_t *lens, size_t n, double *totals, uint8_t *flags, int32_t close_done, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_episodes_step_pytuple(const uint64_t *episodes, int64_t *steps, const int64_t *which, size_t batch, void *texts, size_t n, double *totals, uint8_t *flags, int32_t close_done, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_items_batch(uint64_t handle, const int64_t *indices, size_t n, const char *layout, size_t layout_len, struct ArrowSchema *schema, struct ArrowArray *array, struct ArrowSchema *err_schema, struct ArrowArray *err_array, char **out, size_t *out_len);
#define LLENVS_SCORE_ANSWERS 1
int32_t llenvs_score_texts(uint64_t handle, const int64_t *indices, const char *const *texts, const int64_t *lens, size_t n, int32_t columns, double *totals, double *values, uint8_t *flags, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_describe_texts(uint64_t handle, const int64_t *indices, const char *const *texts, const int64_t *lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_extract_texts(const char *spec, size_t spec_len, const char *const *texts, const int64_t *lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_clean_texts(const char *spec, size_t spec_len, const char *const *texts, const int64_t *lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_parse_tool_calls(const char *spec, size_t spec_len, const char *const *texts, const int64_t *lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_code_run(const char *spec, size_t spec_len, const char *const *sources, const int64_t *source_lens, const char *const *stdins, const int64_t *stdin_lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_code_check(const char *spec, size_t spec_len, const char *const *codes, const int64_t *code_lens, const char *const *tests, const int64_t *test_lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_set_python_api(void *gil_ensure, void *gil_release, void *as_utf8, void *err_clear, void *tuple_item);
int32_t llenvs_score_pytuple(uint64_t handle, const int64_t *indices, void *texts, size_t n, int32_t columns, double *totals, double *values, uint8_t *flags, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_score_one(uint64_t handle, int64_t index, void *text, void *result);
int32_t llenvs_mask_batch(const int32_t *tokens, const int64_t *token_offsets, size_t n_fragments, const int32_t *segments, const int64_t *segment_offsets, const double *rewards, const int64_t *reward_offsets, size_t n, int64_t max_length, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_tokenizer_new(const char *json, size_t json_len, uint64_t *handle, char **out, size_t *out_len);
int32_t llenvs_tokenizer_close(uint64_t handle);
int32_t llenvs_mask_pytexts(uint64_t tokenizer, void *texts, size_t n_texts, const int32_t *carried, const int64_t *carried_offsets, size_t n_carried, const int32_t *segments, const int64_t *segment_offsets, const double *rewards, const int64_t *reward_offsets, size_t n, int64_t max_length, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_env_new_columns(const char *cfg, size_t cfg_len, size_t n_columns, int64_t rows, const void *const *offsets, const int32_t *offset_widths, const int64_t *starts, const char *const *data, const int64_t *data_lens, const uint8_t *const *validity, uint64_t *handle, char **out, size_t *out_len);
#define LLENVS_MATH_TEXT 0
#define LLENVS_MATH_VALUES 1
int32_t llenvs_math_parse(const char *buf, const int64_t *offsets, size_t n, const char *cfg, size_t cfg_len, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_math_verify_batch(const uint8_t *gold_kinds, const char *golds, const int64_t *gold_offsets, const int64_t *gold_items, const uint8_t *pred_kinds, const char *preds, const int64_t *pred_offsets, const int64_t *pred_items, size_t n, const char *opts, size_t opts_len, double *scores, uint8_t *verdicts, struct ArrowSchema *reasons_schema, struct ArrowArray *reasons_array, char **out, size_t *out_len);
int32_t llenvs_math_verify(uint8_t gold_kind, uint8_t pred_kind, const char *buf, const int64_t *offsets, size_t gold_count, size_t pred_count, const char *opts, size_t opts_len, uint8_t *verdict, char **out, size_t *out_len);
int32_t llenvs_recipe_score_batch(const char *sources, const int64_t *source_offsets, const char *solutions, const int64_t *solution_offsets, const char *truths, const int64_t *truth_offsets, size_t n, double *scores, uint8_t *statuses, uint8_t *flags, struct ArrowSchema *details_schema, struct ArrowArray *details_array, char **out, size_t *out_len);
typedef struct {
    double score;
    uint8_t status, flags;
    char *pred;        /* the caller's buffer of pred_cap bytes, for the pred of a dict family */
    size_t pred_cap;
    size_t pred_len;   /* the pred's length; when over pred_cap, nothing was copied: call again */
    char *out;         /* the error buffer, on error */
    size_t out_len;
} llenvs_recipe_result;
int32_t llenvs_recipe_score(const char *source, size_t source_len, const char *solution, size_t solution_len, const char *truth, size_t truth_len, llenvs_recipe_result *result);
#define LLENVS_STEP_TERMINATED 1
#define LLENVS_STEP_TRUNCATED 2
#define LLENVS_STEP_OBSERVATION 4
#define LLENVS_STEP_SAME_TASK 8
#define LLENVS_STEP_SAME_STATE 16
#define LLENVS_STEP_SAME_TOOLS 32
int32_t llenvs_episode_step(uint64_t episode, int64_t step, uint64_t caller_version, const char *text, int64_t text_len, const char *tool_calls, size_t tool_calls_len, char **out, size_t *out_len);
int32_t llenvs_step_details(uint64_t details, char **out, size_t *out_len);
int32_t llenvs_step_details_close(const uint64_t *details, size_t n);
typedef int32_t (*llenvs_score_fn)(const char *req, size_t req_len, char **out, size_t *out_len);
void *llenvs_alloc(size_t n);
int32_t llenvs_serve_start(const char *cfg, size_t cfg_len, llenvs_score_fn score_fn, uint64_t *server, char **out, size_t *out_len);
int32_t llenvs_serve_stop(uint64_t server, double timeout_seconds, char **out, size_t *out_len);
"""

OK = 0
ERR_INVALID = -1
ERR_HANDLE = -2
ERR_INDEX = -3
ERR_PANIC = -4
ERR_FORKED = -5
ERR_NOT_FOUND = -6
ERR_ENCODING = -7
ERR_STALE = -8

KIND_ALL = 0
KIND_ENVIRONMENT = 1
KIND_EPISODE = 2
KIND_TOKENIZER = 3
KIND_STEP_DETAILS = 4

ITEM_FOUND = 1
ITEM_ERROR = 2
ITEM_SPAN = 4
SCORE_ANSWERS = 1
ITEM_TIMEOUT = 8

EPISODE_TERMINATED = 1
EPISODE_TRUNCATED = 2
EPISODE_ERROR = 4

FORK_MESSAGE = (
    "llenvs-go cannot be used in a process forked after the library was loaded (the Go runtime does not "
    "survive fork). Use the 'spawn' or 'forkserver' start method, e.g. "
    "multiprocessing.get_context('spawn') or DataLoader(..., multiprocessing_context='spawn')."
)


class TaskIndexError(IndexError, ValueError):
    """A task index outside ``[0, len(env))``; both an IndexError and a ValueError."""


class UnknownNameError(KeyError, ValueError):
    """An unknown environment, adapter or extractor name; the message lists what exists."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InternalError(RuntimeError):
    """A bug in the Go core, recovered without harming the process."""


ffi = FFI()
ffi.cdef(CDEF)
_CHARPP = ffi.typeof("char **")
_SIZEP = ffi.typeof("size_t *")
_U64P = ffi.typeof("uint64_t *")

_lock = threading.Lock()
_lib: Any = None
_loaded_pid: int | None = None


def library_path() -> str:
    """Path of the shared library: ``$LLENVS_GO_LIB`` if set, else the one installed with the package."""
    env = os.environ.get("LLENVS_GO_LIB")
    if env:
        return env
    p = importlib.resources.files(__package__).joinpath("libllenvs.so")
    if not p.is_file():
        raise ImportError(
            "libllenvs.so was not found next to the llenvs_go package; reinstall with "
            "`pip install ./python` (needs Go) or point LLENVS_GO_LIB at a built library"
        )
    return str(p)


def _child_after_fork() -> None:
    # Marks this process as a fork child of a process that had loaded Go.
    global _forked
    if _lib is not None:
        _forked = True


_forked = False
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_child_after_fork)


def lib() -> Any:
    """The loaded library, opened on first use."""
    if _forked:
        raise RuntimeError(FORK_MESSAGE)
    if _lib is not None:
        return _lib
    return _load()


_score_one: Any = None


def score_one_fn() -> Any:
    """``llenvs_score_one`` called with the GIL held: (handle, index, str, result slots address).

    cffi releases the GIL around every call; for a call that lasts about a
    microsecond, releasing it and taking it back costs more than the call,
    and under a thread pool every release invites a switch to another
    thread. ctypes' PyDLL keeps the GIL.
    """
    global _score_one
    lib()
    if _score_one is None:
        f = ctypes.PyDLL(library_path()).llenvs_score_one
        f.argtypes = [ctypes.c_uint64, ctypes.c_int64, ctypes.py_object, ctypes.c_void_p]
        f.restype = ctypes.c_int32
        _score_one = f
    return _score_one


def _load() -> Any:
    global _lib, _loaded_pid
    with _lock:
        if _lib is not None:
            return _lib
        if sys.implementation.name != "cpython":
            raise ImportError(f"llenvs-go runs on CPython only (the library calls the CPython C API), "
                              f"not on {sys.implementation.name}")
        if not faulthandler.is_enabled():
            faulthandler.enable()
        path = library_path()
        try:
            handle = ffi.dlopen(path)
        except OSError as e:
            source = "LLENVS_GO_LIB" if os.environ.get("LLENVS_GO_LIB") else "the installed package"
            raise ImportError(f"cannot load the llenvs-go library {path} (from {source}): {e}; "
                              "rebuild it with `pip install ./python` or fix LLENVS_GO_LIB") from e
        version = handle.llenvs_abi_version()
        if version != ABI_VERSION:
            raise ImportError(
                f"libllenvs.so speaks ABI version {version} but this llenvs_go package needs {ABI_VERSION}; "
                "rebuild and reinstall the package so that the two match"
            )
        api = ctypes.pythonapi
        addr = [
            ctypes.cast(getattr(api, name), ctypes.c_void_p).value
            for name in ("PyGILState_Ensure", "PyGILState_Release", "PyUnicode_AsUTF8AndSize", "PyErr_Clear",
                         "PyTuple_GetItem")
        ]
        handle.llenvs_set_python_api(*[ffi.cast("void *", a) for a in addr])
        threads = os.environ.get("LLENVS_GO_THREADS")
        if threads:
            limit = max_threads()
            text = threads.strip()
            if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= limit:
                raise ValueError(f"LLENVS_GO_THREADS must be an integer from 1 to {limit} (max(64, 4 * the "
                                 f"{_cpus()} CPUs this process may use)), got {threads!r}")
            if handle.llenvs_set_max_procs(int(text)) < 0:
                raise ValueError(f"LLENVS_GO_THREADS={threads!r} was refused by the library (more than it allows)")
        _loaded_pid = os.getpid()
        _lib = handle
        return handle


class TextArrays:
    """Texts as the C arrays of pointers and lengths the ``*_texts`` entry points take.

    Each str is encoded as ``"surrogatepass"`` writes it, so lone surrogates cross
    as their bytes; the object keeps the buffers alive while it is. ``what`` names
    an item in the TypeError of one that is not a str.
    """

    __slots__ = ("ptrs", "lens", "_keep")

    def __init__(self, texts: Any, what: str = "texts"):
        encoded = []
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise TypeError(f"{what}[{i}] must be a str, got {type(t).__name__}")
            encoded.append(t.encode("utf-8", "surrogatepass"))
        self._keep = [ffi.from_buffer(b) for b in encoded]
        self.ptrs = ffi.new("char *[]", self._keep)
        self.lens = ffi.new("int64_t[]", [len(b) for b in encoded])


_REPLY_DECODER = json.JSONDecoder()


def loads_reply(data: bytes) -> Any:
    """A JSON reply of the library, decoded.

    The library writes UTF-8 JSON with nothing around the value, so this is
    ``json.loads`` without its encoding detection and whitespace scans (about
    half its cost for a step's reply); anything else still goes through
    ``json.loads``.
    """
    text = data.decode("utf-8", "surrogatepass")
    try:
        value, end = _REPLY_DECODER.raw_decode(text)
    except ValueError:
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


def take_buffer(out: Any, out_len: Any) -> bytes:
    """Copy a library-allocated result buffer into bytes and free it."""
    p = out[0]
    if p == ffi.NULL:
        return b""
    try:
        return ffi.unpack(p, out_len[0])
    finally:
        _lib.llenvs_free(p)


def raise_for(rc: int, message: bytes | str) -> None:
    """Raise the Python exception for status ``rc`` from the library's error buffer.

    The buffer is the JSON object of ``llenvs.h``; ``str(exc)`` is its message, and the
    exception carries ``kind``, ``key``, ``suggestion`` and ``valid`` (each None when
    the library did not report it). A buffer that is not such an object is the message.
    """
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    fields: dict[str, Any] = {}
    try:
        parsed = json.loads(message)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and isinstance(parsed.get("message"), str):
        fields = parsed
        message = parsed["message"]
    exc: Exception
    if rc == ERR_INDEX:
        exc = TaskIndexError(message)
    elif rc == ERR_NOT_FOUND:
        exc = UnknownNameError(message)
    elif rc == ERR_PANIC:
        exc = InternalError(message)
    elif rc == ERR_FORKED:
        exc = RuntimeError(message or FORK_MESSAGE)
    elif rc == ERR_STALE:
        exc = NotImplementedError(message)
    else:
        exc = ValueError(message)
    for attr in ("kind", "key", "suggestion", "valid"):
        setattr(exc, attr, fields.get(attr))
    raise exc


def non_finite_path(value: Any, path: str = "", depth: int = 0) -> tuple[str, float] | None:
    """Where in ``value`` the first NaN or infinite float is (``extra_rewards[0].weight``) and that float."""
    if isinstance(value, float):
        return None if math.isfinite(value) else (path or "the value", value)
    if depth > 64:
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            found = non_finite_path(v, f"{path}.{k}" if path else str(k), depth + 1)
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for k, v in enumerate(value):
            found = non_finite_path(v, f"{path}[{k}]", depth + 1)
            if found:
                return found
    return None


def dumps(value: Any, what: str = "request") -> bytes:
    """``value`` as the JSON the library reads. NaN or infinity, a structure nested too deeply and a value
    JSON cannot hold are a ValueError or TypeError that says so, before anything reaches the library."""
    try:
        return json.dumps(value, allow_nan=False).encode()
    except RecursionError:
        raise ValueError(f"the {what} is nested too deeply to pass to llenvs-go") from None
    except ValueError:
        found = non_finite_path(value)
        at = f" at {found[0]} ({found[1]!r})" if found else ""
        raise ValueError(f"the {what} holds NaN or infinity{at}, which llenvs-go cannot take: give a finite "
                         "number") from None
    except TypeError as e:
        raise TypeError(f"the {what} holds a value that is not JSON (str, int, float, bool, None, list or dict): "
                        f"{e}") from None


def call(method: str, request: dict[str, Any] | None = None) -> Any:
    """A process-wide call (``info``, ``list_environments``, ``tool_call_formats``, ...)."""
    L = lib()
    req = dumps(request or {})
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = L.llenvs_call(method.encode(), req, len(req), out, out_len)
    data = take_buffer(out, out_len)
    if rc != OK:
        raise_for(rc, data)
    return json.loads(data) if data else None


def call_raw(method: str, request: bytes) -> bytes:
    """A process-wide call whose request is already encoded as JSON; returns the JSON reply undecoded."""
    L = lib()
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = L.llenvs_call(method.encode(), request, len(request), out, out_len)
    data = take_buffer(out, out_len)
    if rc != OK:
        raise_for(rc, data)
    return data


def env_new(config: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Create a Go environment; returns its handle and its description."""
    L = lib()
    req = dumps(config, "environment configuration")
    h = ffi.new("uint64_t *")
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = L.llenvs_env_new(req, len(req), h, out, out_len)
    data = take_buffer(out, out_len)
    if rc != OK:
        raise_for(rc, data)
    return int(h[0]), json.loads(data)


def env_call(handle: int, method: str, request: dict[str, Any] | None = None) -> Any:
    """A JSON method call on an environment handle."""
    L = lib()
    req = dumps(request or {})
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = L.llenvs_env_call(handle, method.encode(), req, len(req), out, out_len)
    data = take_buffer(out, out_len)
    if rc != OK:
        raise_for(rc, data)
    return json.loads(data)


def env_close(handle: int, pid: int) -> None:
    """Release a handle; a no-op in a process other than the one that made it."""
    if _lib is None or _forked or os.getpid() != pid:
        return
    _lib.llenvs_env_close(handle)


def env_reset(handle: int, request: dict[str, Any] | bytes) -> tuple[int, dict[str, Any]]:
    """Start an episode of an environment; returns the episode handle and ``{observation, hidden, info}``.

    ``request`` is the JSON request, as a mapping or already encoded.
    """
    L = lib()
    req = request if isinstance(request, bytes) else dumps(request, "reset request")
    ep = ffi.new(_U64P)
    out = ffi.new(_CHARPP)
    out_len = ffi.new(_SIZEP)
    rc = L.llenvs_env_reset(handle, req, len(req), ep, out, out_len)
    data = take_buffer(out, out_len)
    if rc != OK:
        raise_for(rc, data)
    return int(ep[0]), loads_reply(data)


STEP_TERMINATED = 1
STEP_TRUNCATED = 2
STEP_OBSERVATION = 4
STEP_SAME_TASK = 8
STEP_SAME_STATE = 16
STEP_SAME_TOOLS = 32


class StepDetails:
    """The info and signal metadata of one step, fetched from the library the first time they are read.

    The step's reply carries a handle to them (``llenvs_step_details``): the
    environment may build them only then. The handle is closed once they
    are read, or when this object goes.
    """

    __slots__ = ("_handle", "_value", "__weakref__")

    def __init__(self, handle: int):
        self._handle = handle
        self._value: list[Any] | None = None

    def get(self) -> list[Any]:
        """``[info, [metadata of each signal]]``."""
        with _details_lock:
            v = self._value
            if v is None:
                if _forked:  # the handle is the parent's (a child cannot call the library)
                    raise RuntimeError("the details of this step were not read before the process forked; read "
                                       "StepResult.info (or a signal's metadata) before forking, or pickle the "
                                       "result, which reads them")
                out = ffi.new(_CHARPP)
                out_len = ffi.new(_SIZEP)
                rc = lib().llenvs_step_details(self._handle, out, out_len)
                self._handle = 0
                data = take_buffer(out, out_len)
                if rc != OK:
                    raise_for(rc, data)
                v = self._value = json.loads(data)
        return v

    def metadata_of(self, index: int) -> dict[str, Any]:
        """The step's info (``index`` -1) or the metadata of its signal ``index``, as a dict (for a LazyMapping)."""
        info, metadata = self.get()
        return (info if index < 0 else metadata[index]) or {}

    def __del__(self) -> None:
        h = self._handle
        if h and not _forked:  # a forked child's copy is the parent's to close
            _unread_details.append(h)
            if len(_unread_details) >= _CLOSE_BUNCH:
                close_unread_details()


# Serialises the first reads of step details (a handle is read once).
_details_lock = threading.Lock()
# Handles of details collected unread, closed in bunches (a call per step would cost a tenth of the step).
_unread_details: list[int] = []
_CLOSE_BUNCH = 512


def close_unread_details() -> None:
    """Close the handles of step details that were collected unread (``live_handles`` counts what remains)."""
    pending = []
    while _unread_details:  # pop, not swap: a collection in another thread may append meanwhile
        pending.append(_unread_details.pop())
    if pending and _lib is not None and not _forked:
        _lib.llenvs_step_details_close(ffi.new("uint64_t[]", pending), len(pending))


def episode_step(episode: int, step: int, caller_version: int, text: bytes | None,
                 tool_calls: bytes | None) -> list[Any]:
    """Advance an episode (``llenvs_episode_step``); the conversation is not sent again.

    ``text`` is the action's UTF-8 (None: no text), ``tool_calls`` a JSON array
    (None: none); ``step`` is the state's step count and ``caller_version`` the
    version of the observation the caller holds. Returns the reply array of llenvs.h,
    decoded, with its last element (the details handle) made a :class:`StepDetails`.
    """
    out = ffi.new(_CHARPP)
    out_len = ffi.new(_SIZEP)
    rc = lib().llenvs_episode_step(episode, step, caller_version, ffi.NULL if text is None else text,
                                   -1 if text is None else len(text), tool_calls or ffi.NULL,
                                   len(tool_calls) if tool_calls else 0, out, out_len)
    data = take_buffer(out, out_len)
    if rc != OK:
        raise_for(rc, data)
    reply = loads_reply(data)
    reply[12] = StepDetails(reply[12])
    return reply


def episode_close(episode: int, pid: int) -> None:
    """Release an episode handle; a no-op in a process other than the one that made it."""
    if _lib is None or _forked or os.getpid() != pid:
        return
    _lib.llenvs_episode_close(episode)


def live_handles(kind: int = KIND_ALL) -> int:
    """Number of live Go objects of a kind (``KIND_ENVIRONMENT``, ``KIND_EPISODE``; all by default).

    Step details already collected unread are closed first.
    """
    close_unread_details()
    return int(lib().llenvs_live_handles(kind))


def _cpus() -> int:
    """The CPUs this process may run on (what Go's runtime.NumCPU counts on Linux)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def max_threads() -> int:
    """The largest value :func:`set_threads` and ``LLENVS_GO_THREADS`` accept: ``max(64, 4 * CPUs)``.

    More threads than that only cost memory, and past the Go runtime's limit
    of 10,000 threads the process ends with "thread exhaustion". The library
    enforces the same bound, on the CPUs it counted at start-up.
    """
    return max(64, 4 * _cpus())


def set_threads(n: int) -> int:
    """Set how many OS threads run Go code at once (GOMAXPROCS); returns the previous value.

    Environment variables set from Python after start-up do not reach the Go
    runtime, so this is the way to size it (e.g. to a worker's CPU share).
    ``n`` is an int from 1 to :func:`max_threads` (``max(64, 4 * CPUs)``);
    ``0`` only queries. Anything else is a TypeError (not an int: a bool, a
    float, a str) or a ValueError naming the range.
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"set_threads takes an int (0 to query, or 1 to {max_threads()}), "
                        f"got {type(n).__name__} {n!r}")
    limit = max_threads()
    if not 0 <= n <= limit:
        raise ValueError(f"set_threads: n must be from 1 to {limit} (max(64, 4 * the {_cpus()} CPUs this process "
                         f"may use); 0 only queries), got {n}")
    prev = int(lib().llenvs_set_max_procs(n))
    if prev < 0:
        # The library counts its CPUs once, at start-up; the affinity may have shrunk since.
        info = call("info")
        raise ValueError(f"set_threads: n must be from 1 to {info.get('max_procs_limit')} (the library's bound, "
                         f"for the {info.get('num_cpu')} CPUs it counted at start-up), got {n}")
    return prev


def tokenizer_new(tokenizer_json: bytes) -> tuple[int, dict[str, Any]]:
    """Load a tokenizer.json into the Go core; returns its handle and ``{"nfc": bool}``. A tokenizer the
    core does not implement raises ValueError saying why."""
    L = lib()
    h = ffi.new("uint64_t *")
    out = ffi.new("char **")
    out_len = ffi.new("size_t *")
    rc = L.llenvs_tokenizer_new(tokenizer_json, len(tokenizer_json), h, out, out_len)
    data = take_buffer(out, out_len)
    if rc != OK:
        raise_for(rc, data)
    return int(h[0]), json.loads(data)


def tokenizer_close(handle: int, pid: int) -> None:
    """Release a tokenizer handle; a no-op in a process other than the one that made it."""
    if _lib is None or _forked or os.getpid() != pid:
        return
    _lib.llenvs_tokenizer_close(handle)
