package sandbox

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// Spec is how callers outside Go describe runs (the JSON of
// llenvs_go.code.Sandbox): the pool's interpreter, isolation and
// concurrency, and every run's limits. Sizes are in bytes, times in
// seconds; zero means the default.
type Spec struct {
	Interpreter string  `json:"interpreter"`
	Isolation   string  `json:"isolation"`
	Concurrency int     `json:"concurrency"`
	Mode        string  `json:"mode"`
	Timeout     float64 `json:"timeout"`
	CPUTime     float64 `json:"cpu_time"`
	Memory      int64   `json:"memory"`
	Tmpfs       int64   `json:"tmpfs"`
	Output      int     `json:"output"`
	FileSize    int64   `json:"file_size"`
	Procs       int     `json:"procs"`
	OpenFiles   int     `json:"open_files"`
}

// Limits are the spec's limits over DefaultLimits; the CPU time defaults to
// the wall-clock timeout.
func (s Spec) Limits() (Limits, error) {
	l := DefaultLimits()
	dur := func(name string, v float64, into *time.Duration) error {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 3600 {
			return fmt.Errorf("sandbox: %s must be from 0 to 3600 seconds, got %v", name, v)
		}
		if v > 0 {
			*into = time.Duration(v * float64(time.Second))
		}
		return nil
	}
	if err := dur("timeout", s.Timeout, &l.Wall); err != nil {
		return l, err
	}
	l.CPU = l.Wall
	if err := dur("cpu_time", s.CPUTime, &l.CPU); err != nil {
		return l, err
	}
	if s.Memory != 0 {
		l.MemoryBytes = s.Memory
	}
	if s.Tmpfs != 0 {
		l.TmpfsBytes = s.Tmpfs
	}
	if s.FileSize != 0 {
		l.FileBytes = s.FileSize
	}
	if s.Output != 0 {
		l.OutputBytes = s.Output
	}
	if s.Procs != 0 {
		l.Procs = s.Procs
	}
	if s.OpenFiles != 0 {
		l.OpenFiles = s.OpenFiles
	}
	return l, l.Validate()
}

// sharedKey names a shared pool: specs with the same interpreter,
// isolation and concurrency share one.
type sharedKey struct {
	interpreter, isolation string
	concurrency            int
}

var (
	sharedMu    sync.Mutex
	sharedPools = map[sharedKey]*Pool{}
)

// SharedPool is the process's warm pool for the spec's interpreter,
// isolation and concurrency, made on first use: every caller in the
// process (direct runs, environments that score code) shares its worker.
func SharedPool(s Spec) (*Pool, error) {
	key := sharedKey{s.Interpreter, s.Isolation, s.Concurrency}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if p, ok := sharedPools[key]; ok {
		return p, nil
	}
	p, err := NewPool(Config{Interpreter: s.Interpreter, Isolation: Isolation(s.Isolation), Concurrency: s.Concurrency})
	if err != nil {
		return nil, err
	}
	sharedPools[key] = p
	return p, nil
}
