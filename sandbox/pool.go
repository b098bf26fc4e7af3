package sandbox

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

//go:embed forkserver.py
var forkServer string

// Isolation is how a pool's worker is separated from the caller.
type Isolation string

const (
	// IsolationNamespaces runs the worker in new user, mount, PID, network,
	// IPC and UTS namespaces, and each run in PID and mount namespaces of
	// its own with a seccomp filter: see the package documentation.
	IsolationNamespaces Isolation = "namespaces"
	// IsolationNone runs programs as the caller's user with only rlimits, a
	// process group and a deadline: for kernels without user namespaces,
	// and only for code the caller trusts. A pool never picks it itself.
	IsolationNone Isolation = "none"
)

// Config says how a pool runs programs.
type Config struct {
	// Interpreter is the Python executable that runs the programs.
	Interpreter string
	// Isolation defaults to IsolationNamespaces.
	Isolation Isolation
	// Concurrency is the number of runs at once; 0 means two per CPU
	// (DefaultConcurrency).
	Concurrency int
	// StartTimeout bounds the worker's start; 0 means 30 s.
	StartTimeout time.Duration
	// Preload are the modules the worker imports before it forks, so that
	// runs find them imported; nil means DefaultPreload.
	Preload []string
	// Keep are paths under the hidden directories that programs may read
	// (the interpreter's own installation is always kept).
	Keep []string
}

// DefaultPreload are standard-library modules that solutions and tests of
// the common code datasets import: imported once in the worker, they cost
// a run nothing. A run may still import anything else the interpreter has.
var DefaultPreload = []string{
	"typing", "math", "random", "copy", "string", "collections", "re", "hashlib", "itertools", "functools",
	"heapq", "bisect", "fractions", "decimal", "datetime", "statistics", "operator", "io",
}

// DefaultConcurrency is two runs per CPU: a run spends part of its wall
// time with no CPU of its own (its namespaces are torn down after it exits,
// its output is read), so one run per CPU leaves CPUs idle. On two cores,
// HumanEval's canonical solutions checked at four runs at once took
// 0.62 s against 0.77 s at two (docs/performance.md).
func DefaultConcurrency() int { return 2 * runtime.NumCPU() }

// Program is one run's input.
type Program struct {
	Source string
	Stdin  string
	Mode   Mode
	Limits Limits
	// Prelude, in ModeMain, is trusted code (never the program's) whose
	// names the program starts with, as if it ran first: the worker runs
	// each distinct prelude once, before forking, and every run gets a copy
	// of its names. Its effects beyond those names (on sys, say) are undone
	// in the worker, so a prelude should only import and define.
	Prelude string
}

// Result is one run's outcome. Stdout and stderr are valid UTF-8 (invalid
// bytes become U+FFFD) and hold at most Limits.OutputBytes each.
type Result struct {
	Status          Status
	ExitCode        int // -1 when the program ended by a signal or never ran
	Signal          int // the signal that ended it, or 0
	Stdout, Stderr  string
	StdoutTruncated bool
	StderrTruncated bool
	Wall, CPU       time.Duration
	// Verdict is what ModeFunctionCheck's harness said ("passed",
	// "failed: ..."); in ModeMain, "exception <type>" for an uncaught
	// exception (not SystemExit); "" when nothing was said.
	Verdict string
	// Reason says which limit or event decided the status, "" for ok and error.
	Reason string
}

// A Pool runs programs in a warm, sandboxed interpreter: one worker
// process, started on first use and again if it ends, that forks once per
// run. It is safe for concurrent use.
type Pool struct {
	cfg  Config
	sem  chan struct{}
	mu   sync.Mutex
	w    *worker
	done bool
}

// NewPool checks cfg and returns a pool; its worker starts on the first run.
func NewPool(cfg Config) (*Pool, error) {
	if cfg.Interpreter == "" {
		return nil, errors.New("sandbox: no interpreter given")
	}
	if !filepath.IsAbs(cfg.Interpreter) {
		p, err := exec.LookPath(cfg.Interpreter)
		if err != nil {
			return nil, fmt.Errorf("sandbox: interpreter %q: %w", cfg.Interpreter, err)
		}
		cfg.Interpreter = p
	}
	if st, err := os.Stat(cfg.Interpreter); err != nil || st.IsDir() {
		return nil, fmt.Errorf("sandbox: interpreter %q is not an executable file", cfg.Interpreter)
	}
	switch cfg.Isolation {
	case "":
		cfg.Isolation = IsolationNamespaces
	case IsolationNamespaces, IsolationNone:
	default:
		return nil, fmt.Errorf("sandbox: isolation must be %q or %q, got %q", IsolationNamespaces, IsolationNone,
			cfg.Isolation)
	}
	if cfg.Isolation == IsolationNamespaces {
		if caps := Probe(); !caps.UserNamespaces {
			return nil, fmt.Errorf("sandbox: %s; untrusted code is not run without isolation "+
				"(isolation %q runs it unprotected, for trusted code only)", caps.Problem, IsolationNone)
		}
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency()
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 30 * time.Second
	}
	return &Pool{cfg: cfg, sem: make(chan struct{}, cfg.Concurrency)}, nil
}

// Close ends the worker and every run in it.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	if p.w != nil {
		p.w.stop()
		p.w = nil
	}
	return nil
}

// Config is the pool's configuration with defaults filled in.
func (p *Pool) Config() Config { return p.cfg }

// Run runs one program and returns its outcome. An error means the program
// could not be run at all (bad limits, a closed pool, a worker that cannot
// start); every program that ran has a Result.
func (p *Pool) Run(ctx context.Context, prog Program) (Result, error) {
	if err := prog.Limits.Validate(); err != nil {
		return Result{}, err
	}
	if prog.Mode == "" {
		prog.Mode = ModeMain
	}
	if prog.Mode != ModeMain && prog.Mode != ModeFunctionCheck {
		return Result{}, fmt.Errorf("sandbox: mode must be %q or %q, got %q", ModeMain, ModeFunctionCheck, prog.Mode)
	}
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	defer func() { <-p.sem }()
	w, err := p.worker()
	if err != nil {
		return Result{}, err
	}
	return w.run(ctx, prog, p), nil
}

// RunBatch runs every program, up to the pool's concurrency at once, and
// returns their results in order. The error is the first program that could
// not be run; the results of the others are still filled in.
func (p *Pool) RunBatch(ctx context.Context, progs []Program) ([]Result, error) {
	results := make([]Result, len(progs))
	errs := make([]error, len(progs))
	var wg sync.WaitGroup
	for k := range progs {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			results[k], errs[k] = p.Run(ctx, progs[k])
		}(k)
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			return results, fmt.Errorf("programs[%d]: %w", k, err)
		}
	}
	return results, nil
}

// worker returns the running worker, starting one if there is none.
func (p *Pool) worker() (*worker, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return nil, errors.New("sandbox: the pool is closed")
	}
	if p.w != nil && !p.w.dead() {
		return p.w, nil
	}
	w, err := startWorker(p.cfg)
	if err != nil {
		return nil, err
	}
	p.w = w
	return w, nil
}

// retire stops w if it is still the pool's worker (it failed to answer).
func (p *Pool) retire(w *worker) {
	p.mu.Lock()
	if p.w == w {
		p.w = nil
	}
	p.mu.Unlock()
	w.stop()
}

// worker is one started fork server.
type worker struct {
	cmd      *exec.Cmd
	control  int // our end of the SOCK_SEQPACKET pair
	sendMu   sync.Mutex
	exited   chan struct{}
	stopOnce sync.Once
	log      *boundedBuffer
}

// workerConfig is what the fork server reads from its argument.
type workerConfig struct {
	Isolated   bool     `json:"isolated"`
	Seccomp    string   `json:"seccomp"`
	SandboxUID *int     `json:"sandbox_uid"`
	Hide       []string `json:"hide"`
	Keep       []string `json:"keep"`
	Workdir    string   `json:"workdir"`
	Preload    []string `json:"preload"`
}

func startWorker(cfg Config) (*worker, error) {
	wc := workerConfig{Isolated: cfg.Isolation == IsolationNamespaces, Workdir: os.TempDir(), Preload: cfg.Preload}
	if wc.Preload == nil {
		wc.Preload = DefaultPreload
	}
	attr := &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if wc.Isolated {
		wc.Seccomp = fmt.Sprintf("%x", seccompFilter())
		wc.Hide, wc.Keep = hiddenDirs(), append([]string{}, cfg.Keep...)
		uid, gid := os.Geteuid(), os.Getegid()
		attr.Cloneflags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
			unix.CLONE_NEWIPC | unix.CLONE_NEWUTS
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}}
		if uid == 0 {
			// As root, programs run as the unprivileged "nobody" (sandbox uid 1),
			// so that no file owned by root is theirs to read or write.
			nobody := 1
			wc.SandboxUID = &nobody
			attr.UidMappings = append(attr.UidMappings, syscall.SysProcIDMap{ContainerID: 1, HostID: 65534, Size: 1})
			attr.GidMappings = append(attr.GidMappings, syscall.SysProcIDMap{ContainerID: 1, HostID: 65534, Size: 1})
			attr.GidMappingsEnableSetgroups = true
		}
	}
	arg, err := json.Marshal(wc)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("sandbox: socketpair: %w", err)
	}
	theirs := os.NewFile(uintptr(fds[1]), "sandbox-control")
	cmd := exec.Command(cfg.Interpreter, "-I", "-X", "utf8", "-c", forkServer, string(arg))
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.SysProcAttr = attr
	log := &boundedBuffer{limit: 64 << 10}
	cmd.Stdout, cmd.Stderr = log, log
	// Pdeathsig follows the thread that started the process: keep it on one
	// that Go does not end while the worker lives (threads are ended only
	// when a goroutine exits while locked to one).
	err = cmd.Start()
	theirs.Close() // the worker's copy is its own: a worker that dies is then an end of file here
	if err != nil {
		unix.Close(fds[0])
		return nil, fmt.Errorf("sandbox: starting %s: %w", cfg.Interpreter, err)
	}
	w := &worker{cmd: cmd, control: fds[0], exited: make(chan struct{}), log: log}
	go func() {
		_ = cmd.Wait()
		close(w.exited)
	}()
	if err := w.awaitReady(cfg.StartTimeout); err != nil {
		w.stop()
		return nil, err
	}
	return w, nil
}

// awaitReady reads the worker's first message.
func (w *worker) awaitReady(timeout time.Duration) error {
	got := make(chan error, 1)
	go func() {
		buf := make([]byte, 4096)
		n, err := unix.Read(w.control, buf)
		switch {
		case err != nil:
			got <- err
		case n == 0:
			got <- io.EOF
		case !bytes.Contains(buf[:n], []byte(`"ready": true`)):
			got <- fmt.Errorf("unexpected first message %q", buf[:n])
		default:
			got <- nil
		}
	}()
	select {
	case err := <-got:
		if err != nil {
			<-w.exitedOrAfter(time.Second)
			return fmt.Errorf("sandbox: the worker did not start (%v): %s", err, strings.TrimSpace(w.log.String()))
		}
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("sandbox: the worker did not start within %s: %s", timeout, strings.TrimSpace(w.log.String()))
	}
}

func (w *worker) exitedOrAfter(d time.Duration) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		select {
		case <-w.exited:
		case <-time.After(d):
		}
		close(c)
	}()
	return c
}

func (w *worker) dead() bool {
	select {
	case <-w.exited:
		return true
	default:
		return false
	}
}

// stop kills the worker: it is PID 1 of its namespace, so every run dies with it.
func (w *worker) stop() {
	w.stopOnce.Do(func() {
		_ = w.cmd.Process.Kill()
		unix.Close(w.control)
	})
	<-w.exited
}

// runRequest is what the fork server reads for one run.
type runRequest struct {
	Mode        Mode      `json:"mode"`
	Prelude     string    `json:"prelude,omitempty"`
	WallSeconds float64   `json:"wall_seconds"`
	Limits      runLimits `json:"limits"`
}

type runLimits struct {
	Memory     int64 `json:"memory"`
	Procs      int   `json:"procs"`
	FileSize   int64 `json:"file_size"`
	OpenFiles  int   `json:"open_files"`
	CPUSeconds int64 `json:"cpu_seconds"`
	Tmpfs      int64 `json:"tmpfs"`
}

// runReport is what the run's supervisor writes back.
type runReport struct {
	Exit     *int    `json:"exit"`
	Signal   *int    `json:"signal"`
	TimedOut bool    `json:"timed_out"`
	Canceled bool    `json:"canceled"`
	Wall     float64 `json:"wall"`
	CPU      float64 `json:"cpu"`
	Verdict  string  `json:"verdict"`
	Error    string  `json:"error"`
}

// supervisorGrace is how long past a run's deadline its supervisor may take
// to answer before the worker is taken to be stuck and is replaced.
const supervisorGrace = 5 * time.Second

// drainGrace is how long the output of a finished run may take to be read.
const drainGrace = 2 * time.Second

func (w *worker) run(ctx context.Context, prog Program, pool *Pool) Result {
	lim := prog.Limits
	req, _ := json.Marshal(runRequest{Mode: prog.Mode, Prelude: prog.Prelude, WallSeconds: lim.Wall.Seconds(), Limits: runLimits{
		Memory: lim.MemoryBytes, Procs: lim.Procs, FileSize: lim.FileBytes, OpenFiles: lim.OpenFiles,
		CPUSeconds: lim.cpuSeconds(), Tmpfs: lim.TmpfsBytes,
	}})
	// The run's ends: source, stdin, stdout, stderr, report, cancel.
	var ours, theirs [6]*os.File
	for k := range ours {
		r, wr, err := os.Pipe()
		if err != nil {
			closeAll(ours[:], theirs[:])
			return lost(fmt.Sprintf("sandbox: pipe: %v", err))
		}
		if k == 0 || k == 1 { // we write source and stdin
			ours[k], theirs[k] = wr, r
		} else if k == 5 { // closing our cancel end tells the supervisor to kill the run
			ours[k], theirs[k] = wr, r
		} else {
			ours[k], theirs[k] = r, wr
		}
	}
	rights := make([]int, len(theirs))
	for k, f := range theirs {
		rights[k] = int(f.Fd())
	}
	w.sendMu.Lock()
	err := unix.Sendmsg(w.control, req, unix.UnixRights(rights...), nil, 0)
	w.sendMu.Unlock()
	for _, f := range theirs {
		f.Close()
	}
	if err != nil {
		closeAll(ours[:], nil)
		pool.retire(w)
		return lost(fmt.Sprintf("sandbox: the worker is gone (%v): %s", err, strings.TrimSpace(w.log.String())))
	}
	var wg sync.WaitGroup
	feed := func(f *os.File, data string) {
		defer wg.Done()
		_, _ = io.WriteString(f, data)
		f.Close()
	}
	wg.Add(2)
	go feed(ours[0], prog.Source)
	go feed(ours[1], prog.Stdin)
	var cancelOnce sync.Once
	cancel := func() { cancelOnce.Do(func() { ours[5].Close() }) }
	stdout, stderr := &capped{limit: lim.OutputBytes}, &capped{limit: lim.OutputBytes}
	wg.Add(2)
	drain := func(f *os.File, c *capped) {
		defer wg.Done()
		c.readFrom(f, cancel)
		f.Close()
	}
	go drain(ours[2], stdout)
	go drain(ours[3], stderr)
	reportCh := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(ours[4], 1<<20))
		reportCh <- b
	}()
	var raw []byte
	stuck := time.NewTimer(lim.Wall + supervisorGrace)
	defer stuck.Stop()
	select {
	case raw = <-reportCh:
	case <-ctx.Done():
		cancel()
		raw = <-reportCh
	case <-stuck.C:
		pool.retire(w)
		raw = <-reportCh
	}
	cancel()
	ours[4].Close()
	// The run's processes are gone; what they wrote is still in the pipes.
	// A process that escaped the run (possible only without namespaces) may
	// hold a pipe open: past a short grace its ends are closed under it.
	drained := make(chan struct{})
	go func() { wg.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(drainGrace):
		closeAll(ours[:4])
		<-drained
	}
	res := classify(raw, stdout, stderr, lim)
	if res.Status == StatusKilled && ctx.Err() != nil {
		res.Reason = "canceled: " + ctx.Err().Error()
	}
	return res
}

func closeAll(groups ...[]*os.File) {
	for _, g := range groups {
		for _, f := range g {
			if f != nil {
				f.Close()
			}
		}
	}
}

// lost is the result of a run the sandbox could not see to its end.
func lost(reason string) Result {
	return Result{Status: StatusKilled, ExitCode: -1, Reason: reason}
}

// classify turns the supervisor's report and the captured output into a Result.
func classify(raw []byte, stdout, stderr *capped, lim Limits) Result {
	var rep runReport
	if len(raw) == 0 {
		return withOutput(lost("sandbox: the run's supervisor ended without a report"), stdout, stderr)
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		return withOutput(lost(fmt.Sprintf("sandbox: unreadable report %q", raw)), stdout, stderr)
	}
	if rep.Error != "" {
		return withOutput(lost(rep.Error), stdout, stderr)
	}
	res := Result{ExitCode: -1, Wall: seconds(rep.Wall), CPU: seconds(rep.CPU), Verdict: rep.Verdict}
	if rep.Exit != nil {
		res.ExitCode = *rep.Exit
	}
	if rep.Signal != nil {
		res.Signal = *rep.Signal
	}
	memory := strings.HasPrefix(rep.Verdict, "memory ")
	fileSize := strings.HasPrefix(rep.Verdict, "file_size ")
	res.Verdict = strings.TrimPrefix(strings.TrimPrefix(rep.Verdict, "memory "), "file_size ")
	switch {
	case stdout.over || stderr.over:
		which := "stdout"
		if !stdout.over {
			which = "stderr"
		}
		res.Status, res.Reason = StatusOutputLimit, fmt.Sprintf("%s passed %d bytes", which, lim.OutputBytes)
	case rep.TimedOut:
		res.Status, res.Reason = StatusTimeout, fmt.Sprintf("wall-clock deadline of %s", lim.Wall)
	// RLIMIT_CPU ends a run (PID 1, which ignores SIGXCPU) with SIGKILL;
	// its usage as reported may lag the kernel's count by a few ticks.
	case res.Signal == int(syscall.SIGXCPU) || res.Signal == int(syscall.SIGKILL) && res.CPU >= lim.cpuLimit()*3/4:
		res.Status, res.Reason = StatusTimeout, fmt.Sprintf("CPU time limit of %ds", lim.cpuSeconds())
	case res.Signal == int(syscall.SIGXFSZ) || fileSize:
		res.Status, res.Reason = StatusOutputLimit, fmt.Sprintf("file size limit of %d bytes", lim.FileBytes)
	case memory:
		res.Status, res.Reason = StatusMemory, fmt.Sprintf("memory limit of %d bytes", lim.MemoryBytes)
	case rep.Canceled:
		res.Status, res.Reason = StatusKilled, "canceled by the caller"
	case res.Signal != 0:
		res.Status, res.Reason = StatusKilled, "signal "+unix.SignalName(syscall.Signal(res.Signal))
	case res.ExitCode == 0:
		res.Status = StatusOK
	default:
		res.Status = StatusError
	}
	return withOutput(res, stdout, stderr)
}

func withOutput(r Result, stdout, stderr *capped) Result {
	r.Stdout, r.StdoutTruncated = stdout.text(), stdout.over
	r.Stderr, r.StderrTruncated = stderr.text(), stderr.over
	return r
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// capped keeps at most limit bytes of a stream; the first byte past it
// calls onOver and stops the reading.
type capped struct {
	limit int
	buf   []byte
	over  bool
}

func (c *capped) readFrom(r io.Reader, onOver func()) {
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			room := c.limit - len(c.buf)
			if n > room {
				c.buf = append(c.buf, chunk[:room]...)
				c.over = true
				onOver()
				return
			}
			c.buf = append(c.buf, chunk[:n]...)
		}
		if err != nil {
			return
		}
	}
}

func (c *capped) text() string {
	if utf8.Valid(c.buf) {
		return string(c.buf)
	}
	return strings.ToValidUTF8(string(c.buf), "\uFFFD")
}

// boundedBuffer keeps the first bytes of the worker's own output, for errors.
type boundedBuffer struct {
	mu    sync.Mutex
	limit int
	buf   bytes.Buffer
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.limit - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *boundedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
