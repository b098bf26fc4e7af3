// Package workers runs work on goroutines so that a panic on any of them
// reaches the goroutine that waits for them. An unrecovered panic on a
// goroutine ends the process; the C ABI recovers panics only on the
// goroutine of the call, so every goroutine the library starts for a call
// goes through a Group.
package workers

import (
	"fmt"
	"runtime"
	"sync"
)

// Group is a set of goroutines started with Go and waited for with Wait.
// The zero Group is ready to use.
type Group struct {
	wg     sync.WaitGroup
	once   sync.Once
	failed *Panic
}

// Go runs f on a new goroutine; a panic in f is recovered and kept for
// Wait.
func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer g.recover()
		f()
	}()
}

// Run runs f on the calling goroutine as one of the group: a panic in f
// is recovered and kept for Wait, so that the caller still waits for the
// other goroutines (which may use memory the caller is about to give
// back) before the panic goes on.
func (g *Group) Run(f func()) {
	defer g.recover()
	f()
}

func (g *Group) recover() {
	if r := recover(); r != nil {
		buf := make([]byte, 4096)
		buf = buf[:runtime.Stack(buf, false)]
		g.once.Do(func() { g.failed = &Panic{Value: r, Stack: string(buf)} })
	}
}

// Wait returns when every goroutine started with Go has finished; when any
// of them (or a function given to Run) panicked, it panics with the first
// *Panic, in the caller's goroutine, where the caller's recover sees it.
func (g *Group) Wait() {
	g.wg.Wait()
	if g.failed != nil {
		panic(g.failed)
	}
}

// Panic is a panic that happened in one of a Group's functions: its value
// and the stack of the goroutine it happened on.
type Panic struct {
	Value any
	Stack string
}

// Error renders the panic value and where it happened.
func (p *Panic) Error() string {
	return fmt.Sprintf("%v\n[in a worker goroutine]\n%s", p.Value, p.Stack)
}
