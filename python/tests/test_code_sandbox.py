"""The code sandbox (llenvs_go.code): statuses, limits, and escape attempts checked from the host's side.

Each escape test runs a program that tries to reach the caller (its loopback, its temporary directory, its
processes), and asserts on the host that nothing happened, that the run ended within its limit, and that no
process of the run is left.
"""

from __future__ import annotations

import os
import pathlib
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from llenvs_go import code

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux-only")

NAMESPACES = code.capabilities()["user_namespaces"]
needs_namespaces = pytest.mark.skipif(not NAMESPACES, reason="this kernel has no user namespaces")


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (from /proc), zombies left out."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] == "Z":
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in out:
                out.add(c)
                todo.append(c)
    return out


def settle(before: set[int], timeout: float = 5.0) -> set[int]:
    """The descendants of this process that were not there before, once they have had time to go."""
    deadline = time.monotonic() + timeout
    while True:
        extra = descendants(os.getpid()) - before
        if not extra or time.monotonic() > deadline:
            return extra
        time.sleep(0.05)


@pytest.fixture()
def box() -> code.Sandbox:
    box = code.Sandbox(timeout=3.0, memory_mb=256, tmpfs_mb=8, output_bytes=4096)
    box.run("pass")  # the worker is started before a test counts processes
    return box


def run_checked(box: code.Sandbox, source: str, *, within: float | None = None) -> code.RunResult:
    """Run source; the run must end within its timeout and a margin, leaving no process behind."""
    before = descendants(os.getpid())
    start = time.monotonic()
    r = box.run(textwrap.dedent(source))
    elapsed = time.monotonic() - start
    assert r.status in code.STATUSES
    assert elapsed < (within if within is not None else box.timeout + 5.0), (elapsed, r)
    assert settle(before) == set(), "processes of the run are left"
    return r


def test_a_program_runs_with_its_stdin_and_gets_its_output():
    r = code.run("import sys\nname = input()\nprint('hello', name)\nprint('oops', file=sys.stderr)", stdin="ada\n")
    assert (r.status, r.exit_code, r.stdout, r.stderr) == ("ok", 0, "hello ada\n", "oops\n")
    assert r.ok and r.signal is None and r.reason == ""


@pytest.mark.parametrize(("source", "status", "exit_code"), [
    ("raise SystemExit(3)", "error", 3),
    ("import sys; sys.exit(0)", "ok", 0),
    ("raise ValueError('boom')", "error", 1),
    ("def f(:\n    pass", "error", 1),
])
def test_exit_statuses(source, status, exit_code):
    r = code.run(source)
    assert (r.status, r.exit_code) == (status, exit_code)


def test_an_uncaught_exception_gives_its_traceback_from_the_programs_own_frame():
    r = code.run("def f():\n    raise KeyError('k')\nf()\n")
    assert r.status == "error"
    assert 'File "main.py", line 2, in f' in r.stderr and r.stderr.rstrip().endswith("KeyError: 'k'")
    assert "forkserver" not in r.stderr and "<string>" not in r.stderr


def test_infinite_loop_and_long_sleep_are_timeouts_not_errors(box):
    for source in ("while True:\n    pass\n", "import time\ntime.sleep(60)\n"):
        r = run_checked(box, source)
        assert r.status == "timeout", r
        # A busy loop spends CPU as fast as wall clock: either limit (both the timeout) may end it first.
        reasons = ("deadline", "CPU time") if "while" in source else ("deadline",)
        assert any(x in r.reason for x in reasons) and r.exit_code is None, r
        assert r.wall_time >= box.timeout * 0.9


def test_cpu_time_limit_is_a_timeout():
    r = code.run("while True:\n    pass\n", timeout=20.0, cpu_time=1.0)
    assert r.status == "timeout" and "CPU" in r.reason, r
    assert r.wall_time < 10


def test_memory_past_the_limit(box):
    r = run_checked(box, "x = bytearray(1 << 30)\n")
    assert r.status == "memory", r
    assert "MemoryError" in r.stderr


def test_stdout_flood_is_cut_at_the_limit(box):
    r = run_checked(box, "while True:\n    print('x' * 1000)\n")
    assert r.status == "output_limit", r
    assert r.stdout_truncated and len(r.stdout) == box.output_bytes
    assert r.wall_time < box.timeout  # ended at the limit, not at the deadline


def test_stderr_flood_is_cut_at_the_limit(box):
    r = run_checked(box, "import sys\nwhile True:\n    sys.stderr.write('y' * 1000)\n")
    assert r.status == "output_limit" and r.stderr_truncated and len(r.stderr) == box.output_bytes


def test_invalid_utf8_output_is_replaced_not_an_error():
    r = code.run("import sys\nsys.stdout.buffer.write(b'a\\xffb')\n")
    assert r.status == "ok" and r.stdout == "a\ufffdb"


def test_a_big_file_is_an_output_limit():
    r = code.run("open('big', 'wb').write(b'x' * (3 << 20))\n", file_size_mb=1, tmpfs_mb=16)
    assert r.status == "output_limit" and "file size" in r.reason, r


@needs_namespaces
def test_filling_the_disk_ends_with_an_error_and_leaves_the_host_alone(box, tmp_path):
    r = run_checked(box, """
        with open('fill', 'wb') as f:
            while True:
                f.write(b'x' * 65536)
                f.flush()
    """)
    assert r.status in ("error", "output_limit"), r
    assert "No space left" in r.stderr or r.status == "output_limit"


@needs_namespaces
def test_no_network_not_even_the_callers_loopback(box):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.5)
    port = server.getsockname()[1]
    r = run_checked(box, f"""
        import socket
        s = socket.socket()
        s.settimeout(2)
        s.connect(("127.0.0.1", {port}))
        print("connected")
    """)
    with pytest.raises(socket.timeout):
        server.accept()  # nothing came in
    server.close()
    assert r.status == "error" and "connected" not in r.stdout
    assert "OSError" in r.stderr or "Error" in r.stderr


@needs_namespaces
def test_the_callers_temporary_and_home_directories_are_not_visible(box, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the caller's secret")
    home = pathlib.Path.home()
    r = run_checked(box, f"""
        import os
        for path in ({str(secret)!r}, {str(tmp_path)!r}):
            print(path, os.path.exists(path))
        print(sorted(os.listdir({str(home)!r})) if os.path.isdir({str(home)!r}) else "no home")
        print(open({str(secret)!r}).read())
    """)
    assert "the caller's secret" not in r.stdout
    assert f"{secret} False" in r.stdout and f"{tmp_path} False" in r.stdout
    assert r.status == "error" and "FileNotFoundError" in r.stderr


@needs_namespaces
def test_posix_shared_memory_lives_in_the_runs_own_tmpfs(box):
    # shm_open's files are under /dev/shm (multiprocessing's SharedMemory would also start a resource
    # tracker, a new interpreter, which this test leaves aside).
    r = run_checked(box, """
        import mmap, os
        fd = os.open("/dev/shm/llenvs_segment", os.O_CREAT | os.O_RDWR, 0o600)
        os.ftruncate(fd, 4096)
        with mmap.mmap(fd, 4096) as m:
            m[:2] = b"hi"
        print("llenvs_segment" in os.listdir("/tmp"), open("/tmp/llenvs_segment", "rb").read(2))
    """)
    assert r.status == "ok" and r.stdout == "True b'hi'\n", r


def test_the_callers_environment_variables_do_not_reach_a_run(monkeypatch):
    # A token in the trainer's environment (a hub or cloud key) must not be readable by model-written code.
    monkeypatch.setenv("LLENVS_SANDBOX_TEST_SECRET", "the caller's token")
    box = code.Sandbox(timeout=3.0, memory_mb=256, tmpfs_mb=8, output_bytes=4096)
    box.run("pass")  # the worker is started before a test counts processes
    r = run_checked(box, """
        import os
        print(sorted(os.environ.items()))
        print(os.getcwd())
    """)
    assert r.status == "ok", r
    assert "the caller's token" not in r.stdout and "LLENVS_SANDBOX_TEST_SECRET" not in r.stdout
    names = [name for name, _ in eval(r.stdout.splitlines()[0])]
    assert names == ["HOME", "LANG", "PATH", "TMPDIR"]
    workdir = r.stdout.splitlines()[1]
    assert dict(eval(r.stdout.splitlines()[0]))["HOME"] == workdir


@needs_namespaces
def test_writing_or_deleting_the_callers_files_fails(box, tmp_path):
    keep = tmp_path / "keep.txt"
    keep.write_text("unchanged")
    r = run_checked(box, f"""
        import os
        results = []
        for attempt in (lambda: os.remove({str(keep)!r}),
                        lambda: open({str(tmp_path / "new.txt")!r}, "w").write("x"),
                        lambda: open("/usr/llenvs-sandbox-probe", "w").write("x"),
                        lambda: open("/etc/hostname", "a").write("x")):
            try:
                attempt()
                results.append("done")
            except OSError as e:
                results.append(type(e).__name__)
        print(results)
    """)
    assert "done" not in r.stdout, r.stdout
    assert keep.read_text() == "unchanged" and not (tmp_path / "new.txt").exists()
    assert not os.path.exists("/usr/llenvs-sandbox-probe")


@needs_namespaces
def test_the_callers_processes_cannot_be_seen_or_signalled(box):
    victim = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        r = run_checked(box, f"""
            import os, signal
            print("pids", sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
            for pid in ({victim.pid}, {os.getpid()}):
                try:
                    os.kill(pid, signal.SIGKILL)
                    print("killed", pid)
                except OSError as e:
                    print(type(e).__name__, pid)
        """)
        assert victim.poll() is None, "the caller's process was killed"
        assert "killed" not in r.stdout, r.stdout
        assert "pids [1]" in r.stdout  # the run sees itself only, as PID 1
    finally:
        victim.kill()
        victim.wait()


@needs_namespaces
def test_a_fork_bomb_ends_and_leaves_no_process(box):
    r = run_checked(box, """
        import os
        while True:
            try:
                os.fork()
            except OSError:
                pass
    """)
    assert r.status in ("timeout", "killed", "error"), r


@needs_namespaces
def test_a_daemonised_child_does_not_outlive_the_run(box, tmp_path):
    r = run_checked(box, """
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(30)
                print("still here")
            os._exit(0)
        print("parent done")
    """)
    assert r.status == "ok" and r.stdout == "parent done\n"


@needs_namespaces
def test_namespace_and_mount_system_calls_are_refused(box):
    r = run_checked(box, """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        for name, call in (("unshare", lambda: libc.unshare(0x10000000)),
                           ("mount", lambda: libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)),
                           ("ptrace", lambda: libc.ptrace(16, 1, None, None))):
            rc = call()
            print(name, rc, os.strerror(ctypes.get_errno()) if rc else "")
    """)
    assert r.status == "ok", r
    for name in ("unshare", "mount", "ptrace"):
        assert f"{name} -1 Operation not permitted" in r.stdout, r.stdout


@needs_namespaces
def test_each_run_has_a_fresh_working_directory(box):
    first = box.run("open('left.txt', 'w').write('x')\nimport os\nprint(os.getcwd(), sorted(os.listdir('.')))")
    second = box.run("import os\nprint(sorted(os.listdir('.')))")
    assert first.stdout == "/tmp ['left.txt', 'main.py']\n"
    assert second.stdout == "['main.py']\n"


def test_a_batch_runs_every_program_in_order():
    sources = [f"print({k} * {k})" for k in range(40)] + ["while True: pass"]
    results = code.run_batch(sources, timeout=2.0)
    assert [r.stdout for r in results[:40]] == [f"{k * k}\n" for k in range(40)]
    assert results[40].status == "timeout"


def test_batches_from_many_threads_leave_no_process_and_no_descriptor():
    box = code.Sandbox(timeout=5.0)
    box.run("pass")
    fds_before = len(os.listdir("/proc/self/fd"))
    procs_before = descendants(os.getpid())
    failures: list[object] = []

    def work(t: int) -> None:
        for k in range(5):
            rs = box.run_batch([f"print({t} + {k} + {j})" for j in range(10)])
            if [r.stdout for r in rs] != [f"{t + k + j}\n" for j in range(10)]:
                failures.append(rs)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert failures == []
    assert settle(procs_before) == set()
    assert len(os.listdir("/proc/self/fd")) <= fds_before + 2


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"timeout": 0}, ValueError), ({"timeout": float("nan")}, ValueError), ({"timeout": "5"}, TypeError),
    ({"memory_mb": 4}, ValueError), ({"procs": True}, TypeError), ({"isolation": "chroot"}, ValueError),
    ({"output_bytes": 0}, ValueError), ({"timeout": 1e6}, ValueError),
])
def test_bad_limits_are_refused_with_the_field_named(kwargs, error):
    with pytest.raises(error, match=next(iter(kwargs))):
        code.Sandbox(**kwargs)


def test_bad_inputs_are_type_errors():
    with pytest.raises(TypeError, match=r"sources\[1\]"):
        code.run_batch(["pass", b"pass"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="stdins has 1 items for 2 sources"):
        code.run_batch(["pass", "pass"], stdins=[""])
    assert code.run_batch([]) == []


def test_a_missing_interpreter_is_a_clear_error():
    with pytest.raises(ValueError, match="interpreter.*nonexistent"):
        code.run("pass", interpreter="/nonexistent/python")


def test_without_isolation_runs_still_have_limits_and_no_leftover_process():
    box = code.Sandbox(timeout=2.0, isolation="none")
    box.run("pass")
    before = descendants(os.getpid())
    r = box.run("import os, time\nif os.fork() == 0:\n    time.sleep(30)\nprint(os.getcwd())\ntime.sleep(30)\n")
    assert r.status == "timeout"
    assert settle(before) == set()
    assert box.run("print(1)").stdout == "1\n"


def test_capabilities_report_the_machine():
    caps = code.capabilities()
    assert set(caps) >= {"user_namespaces", "seccomp", "kernel", "runs_as"}
    assert caps["runs_as"] == ("nobody" if os.geteuid() == 0 else "the caller's user")


def test_the_sandbox_pickles_by_its_limits():
    import pickle

    box = code.Sandbox(timeout=1.5, memory_mb=128)
    assert pickle.loads(pickle.dumps(box)) == box


def test_signal_deaths_are_killed_with_the_signal_named():
    r = code.run("import ctypes\nctypes.string_at(0)\n")  # a real segmentation fault
    assert r.status == "killed" and r.signal == signal.SIGSEGV and "SIGSEGV" in r.reason


def test_doctor_reports_the_sandbox():
    import json

    out = subprocess.run([sys.executable, "-m", "llenvs_go", "doctor", "--json"], capture_output=True, text=True,
                         timeout=120)
    report = json.loads(out.stdout)["sandbox"]
    assert report["user_namespaces"] == NAMESPACES
    if NAMESPACES:
        assert report["isolated_run"] == "ok"
    else:
        assert report["problem"]


def test_python_tool_runs_calls_and_answers_every_outcome():
    from llenvs_go.core.tools import ToolCall, ToolExecutor, ToolResultStatus

    tool = code.PythonTool(code.Sandbox(timeout=1.0))
    assert isinstance(tool, ToolExecutor)
    assert tool.definition.name == "python" and tool.definition.parameters_schema()["required"] == ["code"]
    calls = (ToolCall("a", "python", {"code": "print(6 * 7)"}),
             ToolCall("b", "python", {"code": "raise ValueError('bad input')"}),
             ToolCall("c", "python", {"code": "while True: pass"}),
             ToolCall("d", "python", {"source": "print(1)"}),
             ToolCall("e", "calculator", {"expression": "1+1"}))
    a, b, c, d, e = tool.execute_batch(calls)
    assert a.is_success and a.output == "42\n"
    assert b.status is ToolResultStatus.ERROR and "ValueError: bad input" in b.error
    assert c.status is ToolResultStatus.ERROR and c.error.startswith("timeout")
    assert d.status is ToolResultStatus.INVALID_ARGUMENTS and "code" in d.error
    assert e.status is ToolResultStatus.INVALID_TOOL
    assert [r.call_id for r in (a, b, c, d, e)] == ["a", "b", "c", "d", "e"]


def test_readme_code_execution_snippet_runs(repo):
    import re

    blocks = re.findall(r"```python\n(.*?)```", (repo / "README.md").read_text(encoding="utf-8"), re.S)
    (snippet,) = [b for b in blocks if "code.check_correctness(problem" in b]
    exec(compile(snippet, "README.md", "exec"), {})
