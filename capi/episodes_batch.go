package main

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
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
// writes their handles to episodes[n] and returns the first prompts and
// ground truths packed by packItems. Nothing is started
// when any reset fails.
//
//export llenvsgo_env_reset_many
func llenvsgo_env_reset_many(h C.uint64_t, indices *C.int64_t, n C.size_t, episodes *C.uint64_t, out **C.char,
	outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	env, err := getEnv(uint64(h))
	if err != nil {
		return fail(err, out, outLen)
	}
	count := int(n)
	if count == 0 {
		toC(packItems(nil, nil), out, outLen)
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
	hs := unsafe.Slice((*uint64)(unsafe.Pointer(episodes)), count)
	prompts := make([]string, count)
	truths := make([]*string, count)
	for k := range starts {
		hs[k] = putHandle(kindEpisode, core.NewRun(env, starts[k]))
		prompts[k], truths[k] = starts[k].Observation.Prompt, starts[k].Hidden.ExpectedAnswer
	}
	toC(packItems(prompts, truths), out, outLen)
	return statusOK
}

// llenvsgo_episodes_step_texts steps episodes[which[k]] from step
// steps[which[k]] with the text texts[k] (lens[k] bytes, read during the
// call only), for k < n, in parallel; episodes and steps are the whole
// batch's arrays, and which must not repeat an episode. On success
// steps[which[k]] is advanced; totals[k] gets the step's weighted reward and
// flags[k] its LLENVS_EPISODE_* flags; with closeDone, an episode that ended
// is closed. *out gets the next prompts (for an item that failed, its error
// message), packed by packItems.
//
//export llenvsgo_episodes_step_texts
func llenvsgo_episodes_step_texts(episodes *C.uint64_t, steps *C.int64_t, which *C.int64_t, batch C.size_t,
	texts **C.char, lens *C.int64_t, n C.size_t, totals *C.double, flags *C.uint8_t, closeDone C.int32_t,
	out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	count, size := int(n), int(batch)
	if count == 0 {
		toC(packItems(nil, nil), out, outLen)
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
	core.ParallelFor(count, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			i := wh[k]
			// A copy: the episode keeps the text in its history.
			text := C.GoStringN(ptrs[k], C.int(ls[k]))
			b, err := stepBrief(hs[i], int(st[i]), text)
			if err != nil {
				tot[k], fl[k], prompts[k] = 0, episodeError, err.Error()
				continue
			}
			st[i]++
			var f uint8
			if b.Terminated {
				f |= episodeTerminated
			}
			if b.Truncated {
				f |= episodeTruncated
			}
			tot[k], fl[k], prompts[k] = b.Total, f, b.Prompt
			if f != 0 && closeDone != 0 {
				_ = dropHandle(hs[i], kindEpisode)
			}
		}
	})
	toC(packItems(prompts, make([]*string, count)), out, outLen)
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

func stepBrief(h uint64, step int, text string) (b core.Brief, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in llenvs-go (please report): %v", r)
		}
	}()
	run, err := getEpisode(h)
	if err != nil {
		return b, err
	}
	return run.StepBrief(step, text)
}

// packItems packs prompts and optional ground truths into one buffer
// (little-endian int64s): n, prompt code-point offsets [n+1], truth
// code-point offsets [n+1], has-truth bytes [n] padded to a multiple of 8,
// prompt byte count, truth byte count, the prompts' UTF-8, the truths' UTF-8.
// Offsets count code points so that Python can slice the decoded str.
func packItems(prompts []string, truths []*string) []byte {
	n := len(prompts)
	pBytes, tBytes := 0, 0
	for k := range prompts {
		pBytes += len(prompts[k])
		if truths[k] != nil {
			tBytes += len(*truths[k])
		}
	}
	flagWords := (n + 7) / 8
	head := 8 * (1 + 2*(n+1) + flagWords + 2)
	buf := make([]byte, head, head+pBytes+tBytes)
	le := binary.LittleEndian
	le.PutUint64(buf, uint64(n))
	pOff, tOff, flags := 8, 8+8*(n+1), 8+16*(n+1)
	var pc, tc int64
	for k := range prompts {
		le.PutUint64(buf[pOff+8*k:], uint64(pc))
		le.PutUint64(buf[tOff+8*k:], uint64(tc))
		pc += int64(utf8.RuneCountInString(prompts[k]))
		if truths[k] != nil {
			buf[flags+k] = 1
			tc += int64(utf8.RuneCountInString(*truths[k]))
		}
	}
	le.PutUint64(buf[pOff+8*n:], uint64(pc))
	le.PutUint64(buf[tOff+8*n:], uint64(tc))
	sizes := flags + 8*flagWords
	le.PutUint64(buf[sizes:], uint64(pBytes))
	le.PutUint64(buf[sizes+8:], uint64(tBytes))
	for _, p := range prompts {
		buf = append(buf, p...)
	}
	for _, t := range truths {
		if t != nil {
			buf = append(buf, *t...)
		}
	}
	return buf
}
