"""The C ABI as Python sees it: contract, errors, panics, handles."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from llenvs_go import _native


def _declarations(text: str) -> list[str]:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    keep = []
    for line in text.splitlines():
        line = line.strip()
        skip = ("#define LLENVS_H", "#define ARROW_C_DATA_INTERFACE")
        if not line or line.startswith(("#ifndef", "#endif", "#include")) or line in skip:
            continue
        keep.append(" ".join(line.split()))
    return keep


def test_cdef_matches_header(repo):
    header = (repo / "capi" / "llenvs.h").read_text()
    assert _declarations(_native.CDEF) == _declarations(header)


def test_abi_version_and_info():
    assert _native.lib().llenvs_abi_version() == _native.ABI_VERSION
    info = _native.call("info")
    assert info["abi_version"] == _native.ABI_VERSION
    assert info["json"] == "sonic"


def test_panic_in_go_is_a_python_exception_and_process_survives(leg_env):
    import faulthandler

    if not _native.call("info").get("test_hooks"):
        pytest.skip("the library was built without -tags llenvs_testhooks (make test builds it with them)")
    assert faulthandler.is_enabled()  # pytest enables it after load: Go must still recover
    with pytest.raises(_native.InternalError, match="nil pointer"):
        _native.call("panic_for_test")
    assert len(leg_env) == 1000


def test_panic_on_a_worker_goroutine_is_a_python_exception_and_process_survives(leg_env):
    import json

    if not _native.call("info").get("test_hooks"):
        pytest.skip("the library was built without -tags llenvs_testhooks (make test builds it with them)")
    # The extractor panics on one text of a batch spread over goroutines: the panic happens on a worker
    # goroutine, where only the library's own recovery stands between it and the end of the process.
    from llenvs_go.core.columns import call_texts

    spec = json.dumps({"extractor": {"type": "panics_on_marker_for_test"}}).encode()
    previous = _native.set_threads(4)  # a batch this large is spread over goroutines, even on one CPU
    try:
        with pytest.raises(_native.InternalError, match="met its marker"):
            call_texts("llenvs_extract_texts", spec, ["x"] * 5000 + ["PANIC"], "extract")
    finally:
        _native.set_threads(previous)
    assert len(leg_env) == 1000


def test_malformed_json_is_value_error(leg_env):
    L = _native.lib()
    out = _native.ffi.new("char **")
    out_len = _native.ffi.new("size_t *")
    bad = b'{"task_index": '
    rc = L.llenvs_env_reset(leg_env.handle, bad, len(bad), _native.ffi.new("uint64_t *"), out, out_len)
    msg = _native.take_buffer(out, out_len).decode()
    assert rc == _native.ERR_INVALID
    assert "malformed reset request" in msg


def test_invalid_utf8_config_is_an_error_not_a_crash():
    L = _native.lib()
    h = _native.ffi.new("uint64_t *")
    out = _native.ffi.new("char **")
    out_len = _native.ffi.new("size_t *")
    bad = b'{"name": "\xff\xfe"}'
    rc = L.llenvs_env_new(bad, len(bad), h, out, out_len)
    msg = _native.take_buffer(out, out_len).decode("utf-8", "replace")
    assert rc != _native.OK and msg


def test_unknown_method_and_stale_handle(leg_env):
    with pytest.raises(ValueError, match="no method"):
        _native.env_call(leg_env.handle, "frobnicate")
    handle, _ = _native.env_new({"name": "leg_counting", "seed": 1})
    _native.env_close(handle, __import__("os").getpid())
    with pytest.raises(ValueError, match="invalid environment handle"):
        _native.env_call(handle, "describe")
    assert _native.lib().llenvs_env_close(handle) == _native.ERR_HANDLE


def test_live_handles_return_to_baseline():
    import gc

    from llenvs_go.core.registry import environment_registry

    gc.collect()
    base = _native.live_handles()
    base_envs = _native.live_handles(_native.KIND_ENVIRONMENT)
    envs = [environment_registry.get(name="leg_counting", seed=i, size=10) for i in range(5)]
    assert _native.live_handles() == base + 5
    assert _native.live_handles(_native.KIND_ENVIRONMENT) == base_envs + 5
    envs[0].close()
    assert _native.live_handles() == base + 4
    del envs
    gc.collect()
    assert _native.live_handles() == base
    assert _native.live_handles(_native.KIND_ENVIRONMENT) == base_envs


def test_thread_count_setter():
    prev = _native.set_threads(1)
    try:
        assert _native.set_threads(0) == 1
    finally:
        _native.set_threads(prev)
    assert _native.set_threads(0) == prev


def test_thread_count_is_bounded_and_an_int():
    # Found under attack: set_threads(100_000) ended the process with "thread exhaustion" at the next call,
    # 2**31 raised OverflowError and 1.5 silently set 1.
    limit = _native.max_threads()
    assert limit == max(64, 4 * len(os.sched_getaffinity(0)))
    prev = _native.set_threads(0)
    for bad in (limit + 1, 100_000, 10**6, 2**31, 2**100, -1):
        with pytest.raises(ValueError, match=rf"from 1 to {limit}.*got {bad}"):
            _native.set_threads(bad)
    for bad in (1.5, True, "4", None, 4.0):
        with pytest.raises(TypeError, match=r"set_threads takes an int \(0 to query, or 1 to \d+\)"):
            _native.set_threads(bad)
    assert _native.set_threads(0) == prev
    # The library refuses too (defence in depth), and changes nothing.
    assert _native.lib().llenvs_set_max_procs(100_000) == _native.ERR_INVALID
    assert _native.lib().llenvs_set_max_procs(0) == prev
    assert _native.call("info")["max_procs_limit"] == limit
    try:
        assert _native.set_threads(limit) == prev
    finally:
        _native.set_threads(prev)


@pytest.mark.parametrize("value", ["100000", "1.5", "-2", "0", "4x", "\u0664"])
def test_thread_count_from_the_environment_is_checked(value):
    code = ("import llenvs_go\nfrom llenvs_go import _native\n"
            "try:\n    _native.lib()\nexcept ValueError as e:\n    print('refused:', e)\n"
            "else:\n    print('loaded', _native.set_threads(0))\n")
    env = {**os.environ, "LLENVS_GO_THREADS": value}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("refused: LLENVS_GO_THREADS must be an integer from 1 to "
                                 f"{_native.max_threads()}"), out.stdout
    env["LLENVS_GO_THREADS"] = " 3 "
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "loaded 3", (out.stdout, out.stderr)


def test_doctor_reports_a_bad_thread_count():
    pytest.importorskip("click")
    env = {**os.environ, "LLENVS_GO_THREADS": "100000"}
    out = subprocess.run([sys.executable, "-m", "llenvs_go", "doctor"], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 1, (out.stdout, out.stderr)
    assert "NOT LOADED: LLENVS_GO_THREADS must be an integer from 1 to" in out.stdout, out.stdout


def test_unknown_adapter_lists_available():
    from llenvs_go.core.registry import environment_registry

    with pytest.raises(KeyError, match="reasoning_gym") as e:
        environment_registry.get(name="leg_counting", adapter="reasoning-gym")
    assert isinstance(e.value, ValueError)
    assert "did you mean" in str(e.value)


@pytest.mark.parametrize(
    ("config", "exc_type", "kind", "key", "suggestion"),
    [
        ({"name": "leg_counting", "sead": 1}, ValueError, "unknown_key", "sead", "seed"),
        ({"name": "leg_counting", "answer_extractor": "boxd"}, _native.UnknownNameError, "not_found", "boxd", "boxed"),
        ({"name": "leg_counting", "adapter": "reasoning-gym"}, _native.UnknownNameError, "not_found", "reasoning-gym",
         "reasoning_gym"),
        ({"name": "leg_counting", "answer_extractor": "zzzzzzzz"}, _native.UnknownNameError, "not_found", "zzzzzzzz",
         None),
    ],
)
def test_errors_carry_kind_key_suggestion_and_valid(config, exc_type, kind, key, suggestion):
    with pytest.raises(exc_type) as e:
        _native.env_new(config)
    err = e.value
    assert (err.kind, err.key, err.suggestion) == (kind, key, suggestion)
    assert key not in err.valid and err.valid == sorted(err.valid)
    assert suggestion is None or suggestion in err.valid
    assert str(err).startswith(("environment config", "extractor", "Adapter"))
    assert repr(err.valid) in str(err)  # the list as Python prints it


def test_errors_without_a_key_have_none_attributes(leg_env):
    with pytest.raises(ValueError, match="no method") as e:
        _native.env_call(leg_env.handle, "frobnicate")
    assert (e.value.kind, e.value.key, e.value.suggestion, e.value.valid) == ("invalid", None, None, None)
    with pytest.raises(_native.TaskIndexError) as e:
        _native.env_reset(leg_env.handle, {"task_index": len(leg_env)})
    assert e.value.kind == "index" and e.value.key is None


def test_a_plain_error_buffer_is_the_message():
    with pytest.raises(ValueError, match="^plain text$") as e:
        _native.raise_for(_native.ERR_INVALID, b"plain text")
    assert e.value.kind is None
