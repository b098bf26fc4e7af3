package core

import (
	"sync/atomic"
	"testing"
)

func TestParallelForCoversEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, parallelMin - 1, parallelMin, 1000, 10007} {
		hits := make([]atomic.Int32, n)
		var calls atomic.Int32
		ParallelFor(n, func(lo, hi int) {
			calls.Add(1)
			if lo < 0 || hi > n || lo >= hi && n > 0 {
				t.Errorf("n=%d: bad range [%d, %d)", n, lo, hi)
			}
			for i := lo; i < hi; i++ {
				hits[i].Add(1)
			}
		})
		for i := range hits {
			if h := hits[i].Load(); h != 1 {
				t.Fatalf("n=%d: index %d done %d times", n, i, h)
			}
		}
		if n == 0 && calls.Load() > 1 {
			t.Fatalf("n=0: %d calls", calls.Load())
		}
	}
}
