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
		defer func() {
			if r := recover(); r != nil {
				buf := make([]byte, 4096)
				buf = buf[:runtime.Stack(buf, false)]
				g.once.Do(func() { g.failed = &Panic{Value: r, Stack: string(buf)} })
			}
		}()
		f()
	}()
}

// Wait returns when every goroutine started with Go has finished; when any
// of them panicked, it panics with the first *Panic, in the caller's
// goroutine, where the caller's recover sees it.
func (g *Group) Wait() {
	g.wg.Wait()
	if g.failed != nil {
		panic(g.failed)
	}
}

// Panic is a panic that happened on one of a Group's goroutines: its value
// and that goroutine's stack.
type Panic struct {
	Value any
	Stack string
}

// Error renders the panic value and where it happened.
func (p *Panic) Error() string {
	return fmt.Sprintf("%v\n[in a worker goroutine]\n%s", p.Value, p.Stack)
}
