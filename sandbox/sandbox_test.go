package sandbox

import (
	"context"
	"encoding/binary"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

var statuses = map[Status]bool{StatusOK: true, StatusError: true, StatusTimeout: true, StatusMemory: true,
	StatusOutputLimit: true, StatusKilled: true}

func TestLimitsValidate(t *testing.T) {
	base := DefaultLimits()
	tests := []struct {
		name   string
		change func(*Limits)
		want   string // "" for valid
	}{
		{"defaults", func(*Limits) {}, ""},
		{"zero wall", func(l *Limits) { l.Wall = 0 }, "wall-clock"},
		{"wall past the maximum", func(l *Limits) { l.Wall = time.Hour }, "wall-clock"},
		{"negative cpu", func(l *Limits) { l.CPU = -time.Second }, "CPU time"},
		{"tiny memory", func(l *Limits) { l.MemoryBytes = 1 << 20 }, "memory"},
		{"tiny tmpfs", func(l *Limits) { l.TmpfsBytes = 10 }, "working directory"},
		{"no output", func(l *Limits) { l.OutputBytes = 0 }, "output"},
		{"no file", func(l *Limits) { l.FileBytes = 0 }, "file size"},
		{"no process", func(l *Limits) { l.Procs = 0 }, "process"},
		{"too few files", func(l *Limits) { l.OpenFiles = 3 }, "open file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := base
			tt.change(&l)
			err := l.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate() = %v, want an error about %q", err, tt.want)
			}
		})
	}
}

func TestCPUSecondsRoundUp(t *testing.T) {
	for _, tt := range []struct {
		cpu  time.Duration
		want int64
	}{{time.Millisecond, 1}, {time.Second, 1}, {1500 * time.Millisecond, 2}, {3 * time.Second, 3}} {
		if got := (Limits{CPU: tt.cpu}).cpuSeconds(); got != tt.want {
			t.Errorf("cpuSeconds(%s) = %d, want %d", tt.cpu, got, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	lim := DefaultLimits()
	tests := []struct {
		name       string
		report     string
		outOver    bool
		wantStatus Status
		wantReason string
	}{
		{"exit 0", `{"exit": 0, "wall": 0.01, "cpu": 0.01}`, false, StatusOK, ""},
		{"exit 3", `{"exit": 3}`, false, StatusError, ""},
		{"deadline", `{"signal": 9, "timed_out": true}`, false, StatusTimeout, "wall-clock"},
		{"cpu limit by SIGKILL", `{"signal": 9, "cpu": 5.0}`, false, StatusTimeout, "CPU time"},
		{"SIGXCPU", `{"signal": 24}`, false, StatusTimeout, "CPU time"},
		{"SIGKILL below the cpu limit", `{"signal": 9, "cpu": 0.5}`, false, StatusKilled, "SIGKILL"},
		{"segfault", `{"signal": 11}`, false, StatusKilled, "SIGSEGV"},
		{"memory", `{"exit": 1, "verdict": "memory exception MemoryError"}`, false, StatusMemory, "memory"},
		{"file size", `{"exit": 1, "verdict": "file_size exception OSError"}`, false, StatusOutputLimit, "file size"},
		{"output first", `{"signal": 9, "canceled": true}`, true, StatusOutputLimit, "stdout"},
		{"canceled", `{"signal": 9, "canceled": true}`, false, StatusKilled, "canceled"},
		{"supervisor error", `{"error": "sandbox: fork failed"}`, false, StatusKilled, "fork failed"},
		{"no report", ``, false, StatusKilled, "without a report"},
		{"garbage", `{"exit": "x"`, false, StatusKilled, "unreadable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := &capped{limit: 4, buf: []byte("abcd"), over: tt.outOver}
			r := classify([]byte(tt.report), out, &capped{limit: 4}, lim)
			if r.Status != tt.wantStatus || !strings.Contains(r.Reason, tt.wantReason) {
				t.Fatalf("classify(%s) = %q (%q), want %q (containing %q)", tt.report, r.Status, r.Reason,
					tt.wantStatus, tt.wantReason)
			}
			if r.Stdout != "abcd" || r.StdoutTruncated != tt.outOver {
				t.Fatalf("stdout %q truncated=%v", r.Stdout, r.StdoutTruncated)
			}
		})
	}
}

func TestClassifyKeepsTheHarnessVerdict(t *testing.T) {
	r := classify([]byte(`{"exit": 0, "verdict": "passed"}`), &capped{limit: 1}, &capped{limit: 1}, DefaultLimits())
	if r.Verdict != "passed" || r.Status != StatusOK {
		t.Fatalf("got %+v", r)
	}
	r = classify([]byte(`{"exit": 1, "verdict": "memory failed: "}`), &capped{limit: 1}, &capped{limit: 1},
		DefaultLimits())
	if r.Verdict != "failed: " || r.Status != StatusMemory {
		t.Fatalf("got %+v", r)
	}
}

func TestCappedStopsAtTheLimit(t *testing.T) {
	c := &capped{limit: 5}
	calls := 0
	c.readFrom(strings.NewReader("hello, world"), func() { calls++ })
	if string(c.buf) != "hello" || !c.over || calls != 1 {
		t.Fatalf("buf %q over=%v calls=%d", c.buf, c.over, calls)
	}
	c = &capped{limit: 3, buf: []byte{'a', 0xff, 'b'}}
	if got := c.text(); got != "a\uFFFDb" {
		t.Fatalf("text() = %q", got)
	}
}

func TestSeccompFilterShape(t *testing.T) {
	prog := seccompFilter()
	if auditArch() == 0 {
		if prog != nil {
			t.Fatal("a filter for an architecture without one")
		}
		return
	}
	if len(prog)%8 != 0 || len(prog)/8 > 4096 {
		t.Fatalf("filter of %d bytes", len(prog))
	}
	type ins struct {
		code uint16
		k    uint32
	}
	var all []ins
	for off := 0; off < len(prog); off += 8 {
		all = append(all, ins{binary.LittleEndian.Uint16(prog[off:]), binary.LittleEndian.Uint32(prog[off+4:])})
	}
	if all[0] != (ins{bpfLoadAbs, offsetArch}) || all[1].k != auditArch() {
		t.Fatalf("the filter does not start with the architecture check: %+v", all[:2])
	}
	if last := all[len(all)-1]; last != (ins{bpfReturn, retAllow}) {
		t.Fatalf("the filter does not end by allowing: %+v", last)
	}
	compared := map[uint32]bool{}
	for _, in := range all {
		if in.code == bpfJumpEq {
			compared[in.k] = true
		}
	}
	for _, nr := range deniedSyscalls {
		if !compared[uint32(nr)] {
			t.Errorf("system call %d is denied but never compared", nr)
		}
	}
}

func TestHiddenDirsHoldTheCallersTemporaryAndHome(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dirs := strings.Join(hiddenDirs(), "\n")
	for _, want := range []string{"/tmp", "/root", "/home", "/dev/shm"} {
		if !strings.Contains(dirs, want) {
			t.Errorf("hiddenDirs() lacks %s: %s", want, dirs)
		}
	}
}

// testPool is a pool of the machine's python3, or a skip where there is none
// or the kernel has no user namespaces.
func testPool(t testing.TB) *Pool {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this machine")
	}
	if !Probe().UserNamespaces {
		t.Skip(Probe().Problem)
	}
	p, err := NewPool(Config{Interpreter: py, Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestPoolStatuses(t *testing.T) {
	p := testPool(t)
	lim := DefaultLimits()
	lim.Wall, lim.CPU, lim.MemoryBytes, lim.OutputBytes = 2*time.Second, 2*time.Second, 128<<20, 1000
	tests := []struct {
		name, source string
		want         Status
		stdout       string
	}{
		{"prints", "print(input())", StatusOK, "in\n"},
		{"exits 4", "raise SystemExit(4)", StatusError, ""},
		{"loops", "while True: pass", StatusTimeout, ""},
		{"sleeps", "import time; time.sleep(30)", StatusTimeout, ""},
		{"allocates", "x = bytearray(1 << 30)", StatusMemory, ""},
		{"floods", "while True: print('z' * 100)", StatusOutputLimit, strings.Repeat(strings.Repeat("z", 100)+"\n", 10)[:1000]},
		{"segfaults", "import ctypes; ctypes.string_at(0)", StatusKilled, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := p.Run(context.Background(), Program{Source: tt.source, Stdin: "in\n", Limits: lim})
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tt.want || r.Stdout != tt.stdout {
				t.Fatalf("status %q stdout %q (reason %q, stderr %q), want %q %q", r.Status, r.Stdout, r.Reason,
					r.Stderr, tt.want, tt.stdout)
			}
		})
	}
}

func TestPoolRefusesBadInput(t *testing.T) {
	if _, err := NewPool(Config{Interpreter: "/nonexistent/python"}); err == nil ||
		!strings.Contains(err.Error(), "/nonexistent/python") {
		t.Fatalf("NewPool with a missing interpreter: %v", err)
	}
	if _, err := NewPool(Config{Interpreter: "/bin/sh", Isolation: "chroot"}); err == nil ||
		!strings.Contains(err.Error(), "chroot") {
		t.Fatalf("NewPool with an unknown isolation: %v", err)
	}
	p := testPool(t)
	if _, err := p.Run(context.Background(), Program{Source: "pass"}); err == nil {
		t.Fatal("Run with zero limits did not fail")
	}
	if _, err := p.Run(context.Background(), Program{Source: "pass", Mode: "repl", Limits: DefaultLimits()}); err == nil ||
		!strings.Contains(err.Error(), "repl") {
		t.Fatalf("Run with an unknown mode: %v", err)
	}
}

func TestPoolCancelKillsTheRun(t *testing.T) {
	p := testPool(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := p.Run(ctx, Program{Source: "import time; time.sleep(30)", Limits: DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusKilled || !strings.Contains(r.Reason, "cancel") || time.Since(start) > 3*time.Second {
		t.Fatalf("after cancel: %+v in %s", r, time.Since(start))
	}
}

func TestPoolReplacesAWorkerThatDied(t *testing.T) {
	p := testPool(t)
	lim := DefaultLimits()
	if r, err := p.Run(context.Background(), Program{Source: "print(1)", Limits: lim}); err != nil || r.Stdout != "1\n" {
		t.Fatalf("first run: %+v %v", r, err)
	}
	p.mu.Lock()
	w := p.w
	p.mu.Unlock()
	_ = w.cmd.Process.Kill()
	<-w.exited
	r, err := p.Run(context.Background(), Program{Source: "print(2)", Limits: lim})
	if err != nil || r.Stdout != "2\n" {
		t.Fatalf("after the worker died: %+v %v", r, err)
	}
}

func TestPoolConcurrentRuns(t *testing.T) {
	p := testPool(t)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			progs := make([]Program, 8)
			for k := range progs {
				progs[k] = Program{Source: "import sys; sys.stdout.write(sys.stdin.read())", Stdin: strings.Repeat("x", g*1000+k), Limits: DefaultLimits()}
			}
			rs, err := p.RunBatch(context.Background(), progs)
			if err != nil {
				errs <- err.Error()
				return
			}
			for k, r := range rs {
				if r.Stdout != progs[k].Stdin {
					errs <- "wrong output for " + progs[k].Stdin[:min(10, len(progs[k].Stdin))]
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{`{"exit": 0}`, `{"signal": 9, "timed_out": true}`, `{"verdict": "memory x"}`, `{`, ``,
		`{"exit": -5, "signal": 99999}`, `{"cpu": 1e308}`, `[]`, `null`} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, raw []byte, over bool) {
		r := classify(raw, &capped{limit: 1, over: over}, &capped{limit: 1}, DefaultLimits())
		if !statuses[r.Status] {
			t.Fatalf("classify(%q) gave status %q", raw, r.Status)
		}
		if over && r.Status != StatusOutputLimit && r.Status != StatusKilled {
			t.Fatalf("output past the limit gave %q", r.Status)
		}
	})
}

func FuzzLimits(f *testing.F) {
	f.Add(int64(5e9), int64(5e9), int64(512<<20), int64(64<<20), 1<<20, int64(16<<20), 64, 256)
	f.Add(int64(-1), int64(0), int64(0), int64(0), 0, int64(0), 0, 0)
	f.Fuzz(func(t *testing.T, wall, cpu, mem, tmpfs int64, out int, file int64, procs, files int) {
		l := Limits{Wall: time.Duration(wall), CPU: time.Duration(cpu), MemoryBytes: mem, TmpfsBytes: tmpfs,
			OutputBytes: out, FileBytes: file, Procs: procs, OpenFiles: files}
		if l.Validate() != nil {
			return
		}
		if l.Wall <= 0 || l.Wall > maxWall || l.cpuSeconds() < 1 || l.MemoryBytes < 16<<20 || l.OutputBytes < 1 ||
			l.Procs < 1 || l.OpenFiles < 16 {
			t.Fatalf("Validate accepted %+v", l)
		}
	})
}

// FuzzRun runs arbitrary sources and stdins: every run ends, within its
// deadline and a margin, with one of the statuses.
func FuzzRun(f *testing.F) {
	for _, s := range []string{"print(1)", "import os\nos.fork()", "\x00", "raise SystemExit('bye')",
		"import sys; sys.stdout.buffer.write(bytes(range(256)))", "x = [0] * 10**9", "while 1: pass"} {
		f.Add(s, "stdin")
	}
	p := testPool(f)
	lim := DefaultLimits()
	lim.Wall, lim.CPU, lim.OutputBytes = time.Second, time.Second, 4096
	f.Fuzz(func(t *testing.T, source, stdin string) {
		start := time.Now()
		r, err := p.Run(context.Background(), Program{Source: source, Stdin: stdin, Limits: lim})
		if err != nil {
			t.Fatal(err)
		}
		if !statuses[r.Status] || time.Since(start) > lim.Wall+supervisorGrace+time.Second {
			t.Fatalf("run of %q: %+v after %s", source, r, time.Since(start))
		}
		if len(r.Stdout) > 3*lim.OutputBytes || len(r.Stderr) > 3*lim.OutputBytes {
			t.Fatalf("output past its cap: %d/%d bytes", len(r.Stdout), len(r.Stderr))
		}
	})
}

// TestPrelude checks that a run starts with its prelude's names, that runs
// get copies (one run's changes are not the next's), and that the prelude's
// effects beyond its names stay out of other runs.
func TestPrelude(t *testing.T) {
	p := testPool(t)
	lim := DefaultLimits()
	pre := "from math import *\nimport sys\nsys.setrecursionlimit(12345)\nCOUNT = [0]\n"
	progs := []Program{
		{Source: "COUNT[0] += 1\nprint(floor(2.5), COUNT[0])", Mode: ModeMain, Limits: lim, Prelude: pre},
		{Source: "COUNT[0] += 1\nprint(floor(2.5), COUNT[0])", Mode: ModeMain, Limits: lim, Prelude: pre},
		{Source: "import sys\nprint(sys.getrecursionlimit() != 12345, 'floor' in globals())", Mode: ModeMain,
			Limits: lim},
	}
	for round := 0; round < 2; round++ {
		res, err := p.RunBatch(context.Background(), progs)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"2 1\n", "2 1\n", "True False\n"}
		for k, r := range res {
			if r.Status != StatusOK || r.Stdout != want[k] {
				t.Errorf("round %d, run %d: %s %q (stderr %q), want ok %q", round, k, r.Status, r.Stdout, r.Stderr,
					want[k])
			}
		}
	}
	bad, err := p.Run(context.Background(), Program{Source: "pass", Mode: ModeMain, Limits: lim, Prelude: "1/0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a failing prelude: %s, %q", bad.Status, bad.Reason)
	if bad.Status != StatusKilled && bad.Status != StatusError {
		t.Errorf("a failing prelude: status %s (%s)", bad.Status, bad.Reason)
	}
}
