package sandbox

import (
	"encoding/binary"
	"runtime"

	"golang.org/x/sys/unix"
)

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const (
	bpfLoadAbs    = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJumpEq     = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJumpGe     = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	bpfJumpSet    = 0x45 // BPF_JMP | BPF_JSET | BPF_K
	bpfReturn     = 0x06 // BPF_RET | BPF_K
	retAllow      = 0x7fff0000
	retErrno      = 0x00050000
	retKill       = 0x80000000 // SECCOMP_RET_KILL_PROCESS
	offsetNr      = 0          // seccomp_data.nr
	offsetArch    = 4          // seccomp_data.arch
	offsetArg0    = 16         // low half of seccomp_data.args[0] (little-endian)
	x32SyscallBit = 0x40000000
)

// cloneNamespaceFlags are clone(2)'s flags that make a new namespace.
const cloneNamespaceFlags = unix.CLONE_NEWNS | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC | unix.CLONE_NEWUSER |
	unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// deniedSyscalls fail with EPERM inside a run: they change mounts or
// namespaces, reach into other processes or the kernel, or were the way in
// of past kernel exploits. Almost all need capabilities a run does not have;
// the filter is a second wall, and it is what stops unshare(CLONE_NEWUSER),
// which needs none.
var deniedSyscalls = []uintptr{
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT, unix.SYS_UNSHARE, unix.SYS_SETNS,
	unix.SYS_FSOPEN, unix.SYS_FSMOUNT, unix.SYS_FSCONFIG, unix.SYS_FSPICK, unix.SYS_MOVE_MOUNT,
	unix.SYS_OPEN_TREE, unix.SYS_MOUNT_SETATTR,
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_PIDFD_GETFD,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE,
	unix.SYS_DELETE_MODULE, unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_KEYCTL, unix.SYS_ADD_KEY,
	unix.SYS_REQUEST_KEY, unix.SYS_REBOOT, unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_OPEN_BY_HANDLE_AT,
	unix.SYS_NAME_TO_HANDLE_AT, unix.SYS_USERFAULTFD, unix.SYS_ACCT, unix.SYS_SETTIMEOFDAY,
	unix.SYS_CLOCK_SETTIME, unix.SYS_QUOTACTL, unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER,
	unix.SYS_IO_URING_REGISTER, unix.SYS_SYSLOG, unix.SYS_VHANGUP,
}

// auditArch is the AUDIT_ARCH_* value of the architecture this package was
// built for, or 0 where no filter is built.
func auditArch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return 0xc000003e
	case "arm64":
		return 0xc00000b7
	}
	return 0
}

type bpfInstruction struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

// seccompFilter returns the seccomp program of a run as the bytes of its
// sock_filter array, or nil where this architecture has none. Any other
// architecture's system call ABI (x32, i386 on amd64) kills the process.
func seccompFilter() []byte {
	arch := auditArch()
	if arch == 0 {
		return nil
	}
	eperm := uint32(retErrno | uint32(unix.EPERM))
	prog := []bpfInstruction{
		{bpfLoadAbs, 0, 0, offsetArch},
		{bpfJumpEq, 1, 0, arch},
		{bpfReturn, 0, 0, retKill},
		{bpfLoadAbs, 0, 0, offsetNr},
	}
	if runtime.GOARCH == "amd64" {
		prog = append(prog, bpfInstruction{bpfJumpGe, 0, 1, x32SyscallBit}, bpfInstruction{bpfReturn, 0, 0, eperm})
	}
	for _, nr := range deniedSyscalls {
		prog = append(prog, bpfInstruction{bpfJumpEq, 0, 1, uint32(nr)}, bpfInstruction{bpfReturn, 0, 0, eperm})
	}
	// clone3 passes its flags in memory a filter cannot read: ENOSYS makes
	// the C library fall back to clone, whose flags it can.
	prog = append(prog,
		bpfInstruction{bpfJumpEq, 0, 1, uint32(unix.SYS_CLONE3)},
		bpfInstruction{bpfReturn, 0, 0, retErrno | uint32(unix.ENOSYS)},
		bpfInstruction{bpfJumpEq, 0, 3, uint32(unix.SYS_CLONE)},
		bpfInstruction{bpfLoadAbs, 0, 0, offsetArg0},
		bpfInstruction{bpfJumpSet, 0, 1, uint32(cloneNamespaceFlags)},
		bpfInstruction{bpfReturn, 0, 0, eperm},
		bpfInstruction{bpfReturn, 0, 0, retAllow},
	)
	out := make([]byte, 0, 8*len(prog))
	for _, in := range prog {
		out = binary.LittleEndian.AppendUint16(out, in.code)
		out = append(out, in.jt, in.jf)
		out = binary.LittleEndian.AppendUint32(out, in.k)
	}
	return out
}
