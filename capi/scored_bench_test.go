package main

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

// scoreWorkload is a GRPO-shaped batch of leg_counting responses of about
// size bytes: 512 prompts x 16 samples, a third right, a third wrong, a
// third without tags (as scripts/workload.py makes them).
func scoreWorkload(b *testing.B, size int) (core.SingleTurn, []int64, []string) {
	b.Helper()
	n := int64(512)
	seed := int64(42)
	env, err := core.NewEnvironment(core.EnvConfig{Name: "leg_counting", Adapter: "reasoning_gym", Size: &n,
		Seed: &seed})
	if err != nil {
		b.Fatal(err)
	}
	st := env.(core.SingleTurn)
	filler := strings.Repeat("Let me think step by step and count each part carefully. ", size/56+1)[:max(0, size-40)]
	var idx []int64
	var texts []string
	for i := int64(0); i < n; i++ {
		for s := int64(0); s < 16; s++ {
			var tail string
			switch (i + s) % 3 {
			case 0:
				tail = "<answer>12</answer>"
			case 1:
				tail = fmt.Sprintf("<answer>%d</answer>", s*7)
			default:
				tail = "So the total is 12."
			}
			idx = append(idx, i)
			texts = append(texts, filler+tail)
		}
	}
	return st, idx, texts
}

func BenchmarkScoreBatch(b *testing.B) {
	for _, size := range []int{1024, 16384} {
		st, idx, texts := scoreWorkload(b, size)
		outs := make([]core.Scored, len(texts))
		core.ScoreBatch(st, idx, texts, outs) // warm the entry cache
		b.Run(fmt.Sprintf("totals/%d", size), func(b *testing.B) {
			for it := 0; it < b.N; it++ {
				core.ScoreBatch(st, idx, texts, outs)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/response")
		})
		// The floor of the totals path: one read of every response (a search
		// for a byte none of them holds), on the same goroutines.
		b.Run(fmt.Sprintf("read-floor/%d", size), func(b *testing.B) {
			var found atomic.Int64
			for it := 0; it < b.N; it++ {
				core.ParallelFor(len(texts), func(lo, hi int) {
					for _, t := range texts[lo:hi] {
						if strings.IndexByte(t, 0) >= 0 {
							found.Add(1)
						}
					}
				})
			}
			if found.Load() != 0 {
				b.Fatal("a response holds a NUL byte")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/response")
		})
		b.Run(fmt.Sprintf("answers/%d", size), func(b *testing.B) {
			for it := 0; it < b.N; it++ {
				core.ScoreBatch(st, idx, texts, outs)
				batch, err := scoredBatch(outs)
				if err != nil {
					b.Fatal(err)
				}
				batch.free()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/response")
		})
		b.Run(fmt.Sprintf("details/%d", size), func(b *testing.B) {
			for it := 0; it < b.N; it++ {
				batch, err := describedBatch(st, idx, texts)
				if err != nil {
					b.Fatal(err)
				}
				batch.free()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/response")
		})
	}
}
