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
)

// Episode flags of llenvs.h (LLENVS_EPISODE_*).
const (
	episodeTerminated = 1
	episodeTruncated  = 2
	episodeError      = 4
)

// llenvsgo_env_reset_many starts one episode per task index, in parallel,
// writes their handles to episodes[n] and fills the caller's schema and
// array with a record batch of their first prompts (prompt utf8) and ground
// truths (ground_truth nullable utf8), one row per index. Nothing is
// started, and the structs are not filled, when any reset fails.
//
//export llenvsgo_env_reset_many
func llenvsgo_env_reset_many(h C.uint64_t, indices *C.int64_t, n C.size_t, episodes *C.uint64_t,
	schema *C.struct_ArrowSchema, array *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	if err := needBatchSlots(schema, array); err != nil {
		return fail(fmt.Errorf("reset_many: %w", err), out, outLen)
	}
	env, err := getEnv(uint64(h))
	if err != nil {
		return fail(err, out, outLen)
	}
	count := int(n)
	if count == 0 {
		batch, err := startsBatch(nil, nil)
		if err != nil {
			return fail(fmt.Errorf("building the first prompts: %w", err), out, outLen)
		}
		exportBatch(batch, schema, array)
		return statusOK
	}
	idx := unsafe.Slice((*int64)(unsafe.Pointer(indices)), count)
	starts := make([]core.Start, count)
	errs := make([]error, count)
	core.ParallelFor(count, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			errs[k] = func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("resetting task %d: %v", idx[k], r)
					}
				}()
				starts[k], err = env.Reset(core.ResetRequest{TaskIndex: int(idx[k])})
				return err
			}()
		}
	})
	for k, err := range errs {
		if err != nil {
			return fail(fmt.Errorf("indices[%d]: %w", k, err), out, outLen)
		}
	}
	prompts := make([]string, count)
	truths := make([]*string, count)
	for k := range starts {
		prompts[k], truths[k] = starts[k].Observation.Prompt, starts[k].Hidden.ExpectedAnswer
	}
	// Built before any handle is made, so that a batch too large to export
	// leaves no episode behind.
	batch, err := startsBatch(prompts, truths)
	if err != nil {
		return fail(fmt.Errorf("building the first prompts: %w", err), out, outLen)
	}
	hs := unsafe.Slice((*uint64)(unsafe.Pointer(episodes)), count)
	for k := range starts {
		hs[k] = putHandle(kindEpisode, core.NewRun(env, starts[k]))
	}
	exportBatch(batch, schema, array)
	return statusOK
}

// llenvsgo_episodes_step_texts steps episodes[which[k]] from step
// steps[which[k]] with the text texts[k] (lens[k] bytes, read during the
// call only), for k < n, in parallel; episodes and steps are the whole
// batch's arrays, and which must not repeat an episode. On success
// steps[which[k]] is advanced; totals[k] gets the step's weighted reward and
// flags[k] its LLENVS_EPISODE_* flags; with closeDone, an episode that ended
// is closed. The caller's schema and array get a record batch of n rows
// (see stepBatch): the next prompts, and the error message of each item
// that failed. The structs are filled only when the call succeeds.
//
//export llenvsgo_episodes_step_texts
func llenvsgo_episodes_step_texts(episodes *C.uint64_t, steps *C.int64_t, which *C.int64_t, batch C.size_t,
	texts **C.char, lens *C.int64_t, n C.size_t, totals *C.double, flags *C.uint8_t, closeDone C.int32_t,
	schema *C.struct_ArrowSchema, array *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	if err := needBatchSlots(schema, array); err != nil {
		return fail(fmt.Errorf("episodes_step: %w", err), out, outLen)
	}
	count, size := int(n), int(batch)
	if count == 0 {
		rows, err := stepBatch(nil, nil)
		if err != nil {
			return fail(fmt.Errorf("building the next prompts: %w", err), out, outLen)
		}
		exportBatch(rows, schema, array)
		return statusOK
	}
	hs := unsafe.Slice((*uint64)(unsafe.Pointer(episodes)), size)
	st := unsafe.Slice((*int64)(unsafe.Pointer(steps)), size)
	wh := unsafe.Slice((*int64)(unsafe.Pointer(which)), count)
	if err := checkWhich(wh, size); err != nil {
		return fail(err, out, outLen)
	}
	ptrs := unsafe.Slice((**C.char)(unsafe.Pointer(texts)), count)
	ls := unsafe.Slice((*int64)(unsafe.Pointer(lens)), count)
	tot := unsafe.Slice((*float64)(unsafe.Pointer(totals)), count)
	fl := unsafe.Slice((*uint8)(unsafe.Pointer(flags)), count)
	prompts := make([]string, count)
	errs := make([]error, count)
	core.ParallelFor(count, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			i := wh[k]
			// A copy: the episode keeps the text in its history.
			text := C.GoStringN(ptrs[k], C.int(ls[k]))
			res, err := stepText(hs[i], int(st[i]), text)
			if err != nil {
				tot[k], fl[k], errs[k] = 0, episodeError, err
				continue
			}
			st[i]++
			var f uint8
			if res.Terminated {
				f |= episodeTerminated
			}
			if res.Truncated {
				f |= episodeTruncated
			}
			tot[k], fl[k] = res.Total(), f
			if res.Observation != nil {
				prompts[k] = res.Observation.Prompt
			}
			if f != 0 && closeDone != 0 {
				_ = dropHandle(hs[i], kindEpisode)
			}
		}
	})
	rows, err := stepBatch(prompts, errs)
	if err != nil {
		// The steps were taken (steps and flags say so); only their texts
		// cannot be handed back.
		return fail(fmt.Errorf("building the next prompts: %w", err), out, outLen)
	}
	exportBatch(rows, schema, array)
	return statusOK
}

// checkWhich checks the which argument of llenvs_episodes_step_texts:
// positions in a batch of size episodes, none repeated.
func checkWhich(wh []int64, size int) error {
	seen := make([]bool, size)
	for k, i := range wh {
		if i < 0 || i >= int64(size) {
			return fmt.Errorf("which[%d]: episode %d is not in the batch of %d", k, i, size)
		}
		if seen[i] {
			return fmt.Errorf("which[%d]: episode %d is stepped twice in one call", k, i)
		}
		seen[i] = true
	}
	return nil
}

// stepText takes one step of a batch: the episode's own step, with its
// details left unread.
func stepText(h uint64, step int, text string) (res core.StepResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in llenvs-go (please report): %v", r)
		}
	}()
	run, err := getEpisode(h)
	if err != nil {
		return res, err
	}
	res, _, err = run.Step(step, core.Action{Text: &text}, 0)
	return res, err
}

// startsBatch is the record batch of llenvsgo_env_reset_many: prompt
// (utf8) and ground_truth (nullable utf8), one row per episode.
func startsBatch(prompts []string, truths []*string) (*cColumn, error) {
	ptrs := make([]*string, len(prompts))
	for k := range prompts {
		ptrs[k] = &prompts[k]
	}
	return utf8Batch(len(prompts), utf8Field{"prompt", ptrs, false}, utf8Field{"ground_truth", truths, true})
}

// stepBatch is the record batch of llenvsgo_episodes_step_texts, one row
// per item stepped: prompt (nullable utf8: the next prompt, null where the
// step failed) and error (nullable utf8: the step's error message, null
// where it succeeded). Both are columns of one batch, rather than failures
// in a second batch, so that a step costs the caller one import.
func stepBatch(prompts []string, errs []error) (*cColumn, error) {
	n := len(prompts)
	next := make([]*string, n)
	msgs := make([]*string, n)
	for k := range prompts {
		if errs[k] != nil {
			m := errs[k].Error()
			msgs[k] = &m
			continue
		}
		next[k] = &prompts[k]
	}
	return utf8Batch(n, utf8Field{"prompt", next, true}, utf8Field{"error", msgs, true})
}
