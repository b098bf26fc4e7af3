package main

import (
	"runtime"
	"testing"
)

func TestSetMaxProcsIsBounded(t *testing.T) {
	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	limit := maxProcsLimit()
	if limit < 64 || limit < 4*runtime.NumCPU() {
		t.Fatalf("limit %d below max(64, 4*%d)", limit, runtime.NumCPU())
	}
	for _, n := range []int{limit + 1, 100_000, 1 << 30} {
		if got := setMaxProcs(n); got != statusInvalid {
			t.Errorf("setMaxProcs(%d) = %d, want statusInvalid", n, got)
		}
		if got := runtime.GOMAXPROCS(0); got != prev {
			t.Errorf("setMaxProcs(%d) changed GOMAXPROCS to %d", n, got)
		}
	}
	if got := setMaxProcs(limit); got != prev {
		t.Errorf("setMaxProcs(limit) returned %d, want the previous %d", got, prev)
	}
	if got := setMaxProcs(-5); got != limit {
		t.Errorf("setMaxProcs(-5) = %d, want a query giving %d", got, limit)
	}
	if got := setMaxProcs(0); got != limit {
		t.Errorf("setMaxProcs(0) = %d, want %d", got, limit)
	}
}
