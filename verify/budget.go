package verify

import (
	"fmt"
	"runtime"
	"time"
)

// Budget bounds the work of one Parse or one comparison. A zero field
// takes the default of DefaultBudget.
type Budget struct {
	// MaxInputBytes is the longest text Parse reads (a longer one is cut
	// to its last MaxInputBytes bytes, where answers are).
	MaxInputBytes int
	// MaxExprBytes is the longest extracted answer that is parsed.
	MaxExprBytes int
	// MaxDepth is the deepest nesting of brackets and operations.
	MaxDepth int
	// MaxNodes is the largest expression tree.
	MaxNodes int
	// MaxSteps bounds the arithmetic and matching steps of one comparison.
	MaxSteps int
	// MaxBits is the largest exact number (numerator or denominator bits);
	// a power that would exceed it is not computed.
	MaxBits int
	// MaxTime bounds the CPU time of one Parse or one comparison (the
	// thread's CPU clock on Linux, where the work is locked to its thread;
	// wall-clock time elsewhere): past it the work stops with a budget
	// error (no answer, not equal), never a match. CPU time, not elapsed
	// time, so that a loaded machine does not change a verdict.
	MaxTime time.Duration
}

// DefaultBudget is the budget used where none is given.
var DefaultBudget = Budget{
	MaxInputBytes: 1 << 20,
	MaxExprBytes:  8 << 10,
	MaxDepth:      64,
	MaxNodes:      4096,
	MaxSteps:      200_000,
	MaxBits:       8192,
	MaxTime:       10 * time.Millisecond,
}

func (b Budget) withDefaults() Budget {
	d := DefaultBudget
	if b.MaxInputBytes > 0 {
		d.MaxInputBytes = b.MaxInputBytes
	}
	if b.MaxExprBytes > 0 {
		d.MaxExprBytes = b.MaxExprBytes
	}
	if b.MaxDepth > 0 {
		d.MaxDepth = b.MaxDepth
	}
	if b.MaxNodes > 0 {
		d.MaxNodes = b.MaxNodes
	}
	if b.MaxSteps > 0 {
		d.MaxSteps = b.MaxSteps
	}
	if b.MaxBits > 0 {
		d.MaxBits = b.MaxBits
	}
	if b.MaxTime > 0 {
		d.MaxTime = b.MaxTime
	}
	return d
}

// budgetError is raised (as a panic, recovered at the API boundary) when
// a limit is hit.
type budgetError struct{ what string }

func (e *budgetError) Error() string { return "over budget: " + e.what }

// work counts the steps of one operation against its budget.
type work struct {
	b        Budget
	steps    int
	cpu      bool          // the limit is on the thread's CPU clock (else wall-clock time)
	start    time.Duration // the thread's CPU time at the start
	deadline time.Time     // the wall-clock deadline when cpu is false
	check    int           // steps left before the clock is read again
}

// clockEvery is how many steps pass between two readings of the clock.
const clockEvery = 256

// newWork starts an operation under b. The goroutine is locked to its
// thread, so that the thread's CPU clock measures this work alone; the
// caller defers release.
func newWork(b Budget) *work {
	w := &work{b: b.withDefaults(), check: clockEvery}
	runtime.LockOSThread()
	if w.start, w.cpu = threadCPUTime(); !w.cpu {
		w.deadline = time.Now().Add(w.b.MaxTime * timeScale)
	}
	return w
}

// release ends the operation newWork started.
func (w *work) release() { runtime.UnlockOSThread() }

// overTime reports whether the operation has used up its time.
func (w *work) overTime() bool {
	if w.cpu {
		now, ok := threadCPUTime()
		return ok && now-w.start > w.b.MaxTime*timeScale
	}
	return time.Now().After(w.deadline)
}

// step spends n steps.
func (w *work) step(n int) {
	w.steps += n
	if w.steps > w.b.MaxSteps {
		panic(&budgetError{fmt.Sprintf("more than %d steps", w.b.MaxSteps)})
	}
	if w.check -= n; w.check <= 0 {
		w.check = clockEvery
		if w.overTime() {
			panic(&budgetError{fmt.Sprintf("more than %v of CPU time", w.b.MaxTime)})
		}
	}
}

// bits refuses a number larger than MaxBits.
func (w *work) bits(n int) {
	if n > w.b.MaxBits {
		panic(&budgetError{fmt.Sprintf("a number of more than %d bits", w.b.MaxBits)})
	}
}

// catch turns a budget panic into an error and any other panic into an
// internal error; it must be deferred.
func catch(err *error) {
	if r := recover(); r != nil {
		if be, ok := r.(*budgetError); ok {
			*err = be
			return
		}
		*err = fmt.Errorf("internal error: %v", r)
	}
}
