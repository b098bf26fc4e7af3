package workers

import (
	"strings"
	"sync/atomic"
	"testing"
)

func TestGroup(t *testing.T) {
	tests := []struct {
		name   string
		panics []bool // which goroutines panic
	}{
		{"none", []bool{false, false, false}},
		{"one", []bool{false, true, false}},
		{"all", []bool{true, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ran atomic.Int32
			var got any
			func() {
				defer func() { got = recover() }()
				var g Group
				for k, p := range tt.panics {
					g.Go(func() {
						ran.Add(1)
						if p {
							panic("worker " + string(rune('0'+k)) + " failed")
						}
					})
				}
				g.Wait()
			}()
			if int(ran.Load()) != len(tt.panics) {
				t.Fatalf("%d of %d goroutines ran", ran.Load(), len(tt.panics))
			}
			want := false
			for _, p := range tt.panics {
				want = want || p
			}
			if (got != nil) != want {
				t.Fatalf("recovered %v, want a panic: %v", got, want)
			}
			if want {
				p, ok := got.(*Panic)
				if !ok || !strings.Contains(p.Error(), "failed") || !strings.Contains(p.Error(), "worker goroutine") {
					t.Fatalf("recovered %#v", got)
				}
			}
		})
	}
}
