// Package sandbox runs model-written programs (Python) with limits, in
// Linux namespaces, from a warm pool.
//
// A Pool starts one worker: the configured interpreter running the fork
// server (forkserver.py, embedded), in new user, mount, PID, network, IPC
// and UTS namespaces. The worker makes its file system view once, then
// forks a supervisor per run, which forks the run itself. A run's status is
// always one of ok, error, timeout, memory, output_limit or killed.
//
// What contains a run, and how each is enforced:
//
//   - Network: the worker's new network namespace has only a loopback
//     interface, down: no address outside, nor the caller's loopback, is
//     reachable.
//   - Processes: each run is PID 1 of a PID namespace of its own. When it
//     ends, or is killed at its deadline, the kernel kills every process
//     left in that namespace, daemonised or not. The caller's processes are
//     in no namespace a run can see, so it can neither list nor signal them.
//   - Files: the whole tree is read-only (mount_setattr, recursively). The
//     caller's temporary and home directories, /tmp, /var/tmp, /dev/shm,
//     /root, /home and /run/user are covered with empty tmpfs mounts; the
//     interpreter's own installation is mounted back, read-only. /dev holds
//     only null, zero, full, random and urandom (and /dev/shm, a link to
//     /tmp). Each run's working directory is /tmp, a fresh tmpfs of
//     Limits.TmpfsBytes in a mount namespace of its own, gone when the run
//     ends.
//   - Identity: a run has no capabilities and no_new_privs set. Where the
//     caller is root, runs are the unprivileged host user nobody (65534).
//   - Limits: RLIMIT_CPU, RLIMIT_AS, RLIMIT_NPROC, RLIMIT_FSIZE and
//     RLIMIT_NOFILE per run; stdout and stderr are read through a cap and
//     the run is killed at the first byte past it; a wall-clock deadline
//     kills the run's namespace, and a worker that does not answer within a
//     grace past it is killed and replaced.
//   - System calls: a seccomp filter (built here from this architecture's
//     system call numbers) refuses mounting, namespace creation (unshare,
//     setns, clone with namespace flags), ptrace and process_vm_*, module
//     and kexec loading, bpf, perf_event_open, keyrings, io_uring and
//     userfaultfd, and kills a process using another architecture's ABI.
//
// What it does not contain: kernel bugs reachable through allowed system
// calls, CPU and memory bandwidth shared with the caller (a run can slow
// the machine, within its limits), and reads of world-readable files
// outside the hidden directories (/etc, /usr, other users' readable
// files). Run it inside a container or VM where those matter.
//
// Where user namespaces are unavailable, NewPool refuses
// IsolationNamespaces with the reason (Probe says it too).
// IsolationNone is an explicit, documented weaker mode for trusted code.
package sandbox
