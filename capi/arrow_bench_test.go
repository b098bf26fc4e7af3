package main

import (
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

func BenchmarkItemsArrowLegCounting(b *testing.B) {
	size := int64(1 << 40)
	seed := int64(42)
	env, err := core.NewEnvironment(core.EnvConfig{Name: "leg_counting", Adapter: "reasoning_gym", Size: &size,
		Seed: &seed})
	if err != nil {
		b.Fatal(err)
	}
	const n = 8192
	idx := make([]int64, n)
	sys := "system prompt"
	lay := itemsLayout{System: &sys, Template: []string{"", ""}}
	b.ResetTimer()
	for it := 0; it < b.N; it += n {
		for k := range idx {
			idx[k] = int64(it + k)
		}
		prompts := make([]string, n)
		truths := make([]*string, n)
		errs := make([]error, n)
		bt := env.(core.BulkTaskTexter)
		core.ParallelFor(n, func(lo, hi int) {
			bt.TaskTextsBulk(idx[lo:hi], prompts[lo:hi], truths[lo:hi], errs[lo:hi])
		})
		rows, failed, err := itemsBatch(idx, prompts, truths, errs, lay)
		if err != nil {
			b.Fatal(err)
		}
		rows.free()
		failed.free()
	}
}
