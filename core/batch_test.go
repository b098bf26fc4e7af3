package core

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/internal/workers"
)

func TestParallelForRaisesAWorkerPanicInTheCaller(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4)) // the parallel path even on one CPU
	for _, n := range []int{10, 5000} {             // the serial path and the parallel one
		func() {
			defer func() {
				r := recover()
				if r == nil {
					t.Fatalf("n=%d: no panic reached the caller", n)
				}
				msg := fmt.Sprint(r)
				if wp, ok := r.(*workers.Panic); ok {
					msg = wp.Error()
				}
				if !strings.Contains(msg, "item 7 failed") {
					t.Fatalf("n=%d: panic %q lost its value", n, msg)
				}
			}()
			done := make([]bool, n)
			ParallelFor(n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					if i == 7 {
						panic("item 7 failed")
					}
					done[i] = true
				}
			})
		}()
	}
}
