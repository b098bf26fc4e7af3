package main

/*
#include <stdint.h>
#include <stddef.h>
#include "llenvs.h"
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
// has a reason, the caller's details structs get a record batch of n rows,
// pred (nullable utf8: null unless the family returns a dict) and reason
// (utf8, "" when the item has a verdict); otherwise they are left as they
// were (release NULL): the common case allocates nothing.
// llenvs_recipe_score is one response, its outputs in the caller's
// llenvs_recipe_result (the pred in the caller's buffer).

const (
	recipeFlagAcc  = 1
	recipeFlagDict = 2
)

//export llenvsgo_recipe_score_batch
func llenvsgo_recipe_score_batch(sources *C.char, sourceOffsets *C.int64_t, solutions *C.char, solutionOffsets *C.int64_t,
	truths *C.char, truthOffsets *C.int64_t, n C.size_t, scores *C.double, statuses *C.uint8_t, flags *C.uint8_t,
	detailsSchema *C.struct_ArrowSchema, detailsArray *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	src, err := textColumn(sources, sourceOffsets, int(n), "data_source")
	if err != nil {
		return fail(fmt.Errorf("recipe_score: %w", err), out, outLen)
	}
	sol, err := textColumn(solutions, solutionOffsets, int(n), "solution")
	if err != nil {
		return fail(fmt.Errorf("recipe_score: %w", err), out, outLen)
	}
	gt, err := textColumn(truths, truthOffsets, int(n), "ground_truth")
	if err != nil {
		return fail(fmt.Errorf("recipe_score: %w", err), out, outLen)
	}
	if n > 0 && (scores == nil || statuses == nil || flags == nil) {
		return fail(fmt.Errorf("recipe_score: scores, statuses and flags must not be NULL"), out, outLen)
	}
	sc := cSlice[float64](unsafe.Pointer(scores), int(n))
	st := cSlice[uint8](unsafe.Pointer(statuses), int(n))
	fl := cSlice[uint8](unsafe.Pointer(flags), int(n))
	// One response (veRL's naive manager, once per sample) is scored on
	// this goroutine with nothing allocated: a call that allocates brings
	// the collector round every few thousand calls, which costs more than
	// the rules.
	var one [1]recipes.Result
	results := one[:]
	if n == 1 {
		scoreRecipe(src.at(0), sol.at(0), gt.at(0), &one[0], &sc[0], &st[0], &fl[0])
	} else {
		results = make([]recipes.Result, n)
		core.ParallelFor(int(n), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				scoreRecipe(src.at(i), sol.at(i), gt.at(i), &results[i], &sc[i], &st[i], &fl[i])
			}
		})
	}
	details, err := recipeDetails(results[:n])
	if err != nil {
		return fail(fmt.Errorf("recipe_score: %w", err), out, outLen)
	}
	if details != nil {
		if detailsSchema == nil || detailsArray == nil {
			details.free()
			return fail(fmt.Errorf("recipe_score: details_schema and details_array must not be NULL"), out, outLen)
		}
		exportBatch(details, detailsSchema, detailsArray)
	}
	return statusOK
}

// scoreRecipe scores one response into its result and its slots.
func scoreRecipe(source, solution, truth string, r *recipes.Result, score *float64, status, flags *uint8) {
	*r = recipes.ScoreVerl(source, solution, truth)
	*score, *status, *flags = r.Score, uint8(r.Status), 0
	if r.Acc {
		*flags |= recipeFlagAcc
	}
	if r.Dict {
		*flags |= recipeFlagDict
	}
}

// textColumn is n texts as they cross the ABI: one buffer and n+1
// offsets, checked. Its texts are views of the caller's memory, valid
// during the call only; whatever outlives the call is copied out.
type textColumnView struct {
	buf  unsafe.Pointer
	offs []int64
}

func textColumn(buf *C.char, offsets *C.int64_t, n int, what string) (textColumnView, error) {
	offs, err := offsetsOf(offsets, n, what)
	if err != nil {
		return textColumnView{}, err
	}
	if offs[n] > 0 && buf == nil {
		return textColumnView{}, fmt.Errorf("%s buffer is NULL", what)
	}
	return textColumnView{unsafe.Pointer(buf), offs}, nil
}

func (c textColumnView) at(i int) string {
	lo, hi := c.offs[i], c.offs[i+1]
	if hi == lo {
		return ""
	}
	return unsafe.String((*byte)(unsafe.Add(c.buf, lo)), hi-lo)
}

// recipeDetails lays out the preds and reasons of a batch as a record
// batch (pred nullable utf8, reason utf8), or nil when no item has either:
// then the caller's structs stay unfilled and nothing is allocated.
func recipeDetails(results []recipes.Result) (*cColumn, error) {
	needed, predBytes, reasonBytes := false, 0, 0
	for i := range results {
		r := &results[i]
		needed = needed || r.Dict || r.Reason != ""
		if r.Dict {
			predBytes += len(r.Pred)
		}
		reasonBytes += len(r.Reason)
	}
	if !needed {
		return nil, nil
	}
	pred, err := newUTF8Column("pred", len(results), predBytes, true)
	if err != nil {
		return nil, err
	}
	reason, err := newUTF8Column("reason", len(results), reasonBytes, false)
	if err != nil {
		pred.col.free()
		return nil, err
	}
	for i := range results {
		r := &results[i]
		if r.Dict {
			pred.add(r.Pred)
			pred.end()
		} else {
			pred.null()
		}
		reason.add(r.Reason)
		reason.end()
	}
	return newStructColumn("", len(results), pred.col, reason.col), nil
}

//export llenvsgo_recipe_score_one
func llenvsgo_recipe_score_one(source *C.char, sourceLen C.size_t, solution *C.char, solutionLen C.size_t,
	truth *C.char, truthLen C.size_t, result *C.llenvs_recipe_result) (rc C.int32_t) {
	defer guard(&rc, &result.out, &result.out_len)
	view := func(p *C.char, n C.size_t) string {
		if n == 0 {
			return ""
		}
		return unsafe.String((*byte)(unsafe.Pointer(p)), int(n))
	}
	if (source == nil && sourceLen > 0) || (solution == nil && solutionLen > 0) || (truth == nil && truthLen > 0) {
		return fail(fmt.Errorf("recipe_score: a NULL text with a length"), &result.out, &result.out_len)
	}
	// The texts are views of the caller's memory, valid during the call:
	// the pred is copied into the caller's buffer before it returns.
	var r recipes.Result
	var score float64
	var status, flags uint8
	scoreRecipe(view(source, sourceLen), view(solution, solutionLen), view(truth, truthLen), &r, &score, &status, &flags)
	result.score, result.status, result.flags = C.double(score), C.uint8_t(status), C.uint8_t(flags)
	result.pred_len = C.size_t(len(r.Pred))
	if r.Dict && len(r.Pred) <= int(result.pred_cap) && len(r.Pred) > 0 {
		copy(cSlice[byte](unsafe.Pointer(result.pred), len(r.Pred)), r.Pred)
	}
	return statusOK
}
