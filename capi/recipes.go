package main

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/recipes"
)

// Frameworks' own scoring rules (llenvs_recipe_score_batch): n responses,
// each with its veRL data_source and ground truth, scored by the rule veRL
// 0.9.1's default_compute_score routes the source to (package recipes).
// scores[i] is the value veRL returns (the dict's "score" for a dict
// family), statuses[i] a recipes.Status, flags[i] bit 0 the dict's "acc"
// and bit 1 whether the family returns a dict. When any item is a dict or
// has a reason, *out is the JSON object {"pred": [str|null, ...],
// "reason": [str, ...]} (one entry per item); otherwise nothing.

const (
	recipeFlagAcc  = 1
	recipeFlagDict = 2
)

//export llenvsgo_recipe_score_batch
func llenvsgo_recipe_score_batch(sources *C.char, sourceOffsets *C.int64_t, solutions *C.char, solutionOffsets *C.int64_t,
	truths *C.char, truthOffsets *C.int64_t, n C.size_t, scores *C.double, statuses *C.uint8_t, flags *C.uint8_t,
	out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	bad := func(err error) C.int32_t { return fail(fmt.Errorf("recipe_score: %w", err), out, outLen) }
	src, err := stringsOf(sources, sourceOffsets, int(n), "data_source")
	if err != nil {
		return bad(err)
	}
	sol, err := stringsOf(solutions, solutionOffsets, int(n), "solution")
	if err != nil {
		return bad(err)
	}
	gt, err := stringsOf(truths, truthOffsets, int(n), "ground_truth")
	if err != nil {
		return bad(err)
	}
	if n > 0 && (scores == nil || statuses == nil || flags == nil) {
		return bad(fmt.Errorf("scores, statuses and flags must not be NULL"))
	}
	sc := cSlice[float64](unsafe.Pointer(scores), int(n))
	st := cSlice[uint8](unsafe.Pointer(statuses), int(n))
	fl := cSlice[uint8](unsafe.Pointer(flags), int(n))
	results := make([]recipes.Result, n)
	core.ParallelFor(int(n), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			r := recipes.ScoreVerl(src[i], sol[i], gt[i])
			sc[i], st[i] = r.Score, uint8(r.Status)
			fl[i] = 0
			if r.Acc {
				fl[i] |= recipeFlagAcc
			}
			if r.Dict {
				fl[i] |= recipeFlagDict
			}
			results[i] = r
		}
	})
	toC(appendRecipeDetails(nil, results), out, outLen)
	return statusOK
}

// appendRecipeDetails writes the preds and reasons of a batch, or nothing
// when no item has either.
func appendRecipeDetails(b []byte, results []recipes.Result) []byte {
	needed := false
	for _, r := range results {
		if r.Dict || r.Reason != "" {
			needed = true
			break
		}
	}
	if !needed {
		return b
	}
	b = append(b, `{"pred":[`...)
	for i, r := range results {
		if i > 0 {
			b = append(b, ',')
		}
		if r.Dict {
			b = appendJSONString(b, r.Pred)
		} else {
			b = append(b, "null"...)
		}
	}
	b = append(b, `],"reason":[`...)
	for i, r := range results {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, r.Reason)
	}
	return append(b, "]}"...)
}
