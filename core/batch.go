package core

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/llenvs/llenvs-go/extract"
)

// parallelMin is the batch size from which ScoreBatch spreads work over
// goroutines; below it the cost of starting them outweighs the gain.
const parallelMin = 128

// ScoreBatch scores texts[i] against task indices[i] for every i, in
// parallel over up to runtime.GOMAXPROCS(0) goroutines for large batches.
// Results land in outs in input order. A panic while scoring one item is
// recovered and recorded in that item's Err; it never affects the others.
// Indices must have been checked by the caller.
func ScoreBatch(env SingleTurn, indices []int64, texts []string, outs []Scored) {
	n := len(texts)
	nsig := len(env.SignalSpecs())
	values := make([]float64, n*nsig)
	for i := range outs {
		outs[i].Values = values[i*nsig : (i+1)*nsig : (i+1)*nsig]
	}
	ParallelFor(n, func(lo, hi int) { scoreRange(env, indices, texts, outs, lo, hi) })
}

// ParallelFor calls work on consecutive sub-ranges covering [0, n), on up
// to GOMAXPROCS goroutines when n is large enough to be worth it, and
// returns when all are done. work must not panic.
func ParallelFor(n int, work func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < parallelMin || workers < 2 {
		work(0, n)
		return
	}
	workers = min(workers, n/32)
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			work(lo, hi)
		}(lo, hi)
	}
	wg.Wait()
}

func scoreRange(env SingleTurn, indices []int64, texts []string, outs []Scored, lo, hi int) {
	if p, ok := env.(interface{ Prefetch([]int64) }); ok {
		p.Prefetch(indices[lo:hi])
	}
	for i := lo; i < hi; i++ {
		scoreOne(env, int(indices[i]), texts[i], &outs[i])
	}
}

// ScoreOne scores one text against task idx into out, whose Values the
// caller sizes to the environment's signals; a panic is recovered into
// out.Err, as in ScoreBatch. The index must have been checked.
func ScoreOne(env SingleTurn, idx int, text string, out *Scored) {
	scoreOne(env, idx, text, out)
}

func scoreOne(env SingleTurn, idx int, text string, out *Scored) {
	defer func() {
		if r := recover(); r != nil {
			for j := range out.Values {
				out.Values[j] = 0
			}
			out.Total = 0
			out.Extraction = extract.Extraction{}
			out.Err = fmt.Errorf("scoring task %d failed: %v", idx, r)
		}
	}()
	env.ScoreText(idx, text, out)
}
