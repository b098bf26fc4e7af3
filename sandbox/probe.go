package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Capabilities is what this machine lets the sandbox do.
type Capabilities struct {
	// UserNamespaces: a process can be started in new user, mount, PID,
	// network, IPC and UTS namespaces, so IsolationNamespaces works.
	UserNamespaces bool `json:"user_namespaces"`
	// Seccomp: a seccomp filter is built for this architecture.
	Seccomp bool `json:"seccomp"`
	// Problem says why UserNamespaces is false, and what to change.
	Problem string `json:"problem,omitempty"`
	// Kernel is the running kernel's release.
	Kernel string `json:"kernel"`
	// RunsAs is the user programs run as: "nobody" when the caller is
	// root, else the caller's own user inside the namespace.
	RunsAs string `json:"runs_as"`
}

var (
	probeOnce sync.Once
	probed    Capabilities
)

// Probe reports the sandbox's capabilities on this machine (once per process).
func Probe() Capabilities {
	probeOnce.Do(func() { probed = probe() })
	return probed
}

func probe() Capabilities {
	var uts unix.Utsname
	_ = unix.Uname(&uts)
	c := Capabilities{Seccomp: auditArch() != 0, Kernel: unix.ByteSliceToString(uts.Release[:]), RunsAs: "the caller's user"}
	if os.Geteuid() == 0 {
		c.RunsAs = "nobody"
	}
	truePath, err := exec.LookPath("true")
	if err != nil {
		c.Problem = "no 'true' program to probe namespaces with"
		return c
	}
	cmd := exec.Command(truePath)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags: unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
			unix.CLONE_NEWIPC | unix.CLONE_NEWUTS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}},
	}
	if err := cmd.Run(); err != nil {
		c.Problem = fmt.Sprintf("this kernel does not let this user create namespaces (%v); "+
			"enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, "+
			"user.max_user_namespaces > 0, or the container runtime's equivalent)", err)
		return c
	}
	c.UserNamespaces = true
	return c
}

// hiddenDirs are the directories a run must not see: the caller's
// temporary and home directories, and the shared ones.
func hiddenDirs() []string {
	set := map[string]bool{"/tmp": true, "/var/tmp": true, "/dev/shm": true, "/root": true, "/home": true,
		"/run/user": true}
	add := func(p string) {
		if p == "" || !filepath.IsAbs(p) {
			return
		}
		p = filepath.Clean(p)
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if p != "/" && !strings.HasPrefix(p, "/proc") && !strings.HasPrefix(p, "/dev/") {
			set[p] = true
		}
	}
	add(os.TempDir())
	if home, err := os.UserHomeDir(); err == nil {
		add(home)
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
