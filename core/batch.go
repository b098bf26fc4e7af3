package core

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/internal/workers"
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
	if b, ok := env.(BatchScorer); ok && b.BatchScoring() {
		scoreWhole(b, indices, texts, outs)
		return
	}
	ParallelFor(n, func(lo, hi int) { scoreRange(env, indices, texts, outs, lo, hi) })
}

// ParallelFor calls work on consecutive sub-ranges covering [0, n), on up
// to GOMAXPROCS goroutines when n is large enough to be worth it, and
// returns when all are done. The ranges are handed out a few per
// goroutine, in turn, rather than one half each: on a machine whose cores
// are busy with other work, the goroutine that runs takes more of them
// instead of waiting for one that does not. A panic in work is raised
// again, as a *workers.Panic, in the caller's goroutine once every
// goroutine has stopped, so that the caller's recover sees it: an
// unrecovered panic on a worker goroutine would end the process.
func ParallelFor(n int, work func(lo, hi int)) {
	nw := runtime.GOMAXPROCS(0)
	if n < parallelMin || nw < 2 {
		work(0, n)
		return
	}
	nw = min(nw, n/32)
	chunk := max(32, (n+8*nw-1)/(8*nw))
	var next atomic.Int64
	run := func() {
		for {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return
			}
			work(lo, min(lo+chunk, n))
		}
	}
	var g workers.Group
	for w := 1; w < nw; w++ {
		g.Go(run)
	}
	g.Run(run) // the calling goroutine works too
	g.Wait()
}

func scoreRange(env SingleTurn, indices []int64, texts []string, outs []Scored, lo, hi int) {
	if p, ok := env.(Prefetcher); ok {
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

// scoreWhole hands the batch to a BatchScorer; a panic fails every item
// with it, as a panic in ScoreText fails its item.
func scoreWhole(b BatchScorer, indices []int64, texts []string, outs []Scored) {
	defer func() {
		if r := recover(); r != nil {
			for i := range outs {
				for j := range outs[i].Values {
					outs[i].Values[j] = 0
				}
				outs[i].Total = 0
				outs[i].Extraction = extract.Extraction{}
				outs[i].Err = fmt.Errorf("scoring the batch failed: %v", r)
			}
		}
	}()
	b.ScoreTexts(indices, texts, outs)
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
