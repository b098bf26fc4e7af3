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

// taskTexts is what an environment offers for building dataset items in
// bulk without a metadata map per item.
type taskTexts interface {
	TaskTexts(i int) (prompt string, truth *string, err error)
}

// prefetcher is an environment that generates many tasks faster together
// than one at a time.
type prefetcher interface {
	Prefetch(idx []int64)
}

// llenvsgo_items packs the prompts and ground truths of tasks into one
// buffer (little-endian int64s):
//
//	n, prompt code-point offsets [n+1], truth code-point offsets [n+1],
//	has-truth bytes [n] padded to a multiple of 8, prompt byte count,
//	truth byte count, the prompts' UTF-8, the truths' UTF-8.
//
// Offsets count code points so that Python can slice the decoded str.
//
//export llenvsgo_items
func llenvsgo_items(h C.uint64_t, indices *C.int64_t, n C.size_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	env, err := getEnv(uint64(h))
	if err != nil {
		return fail(err, out, outLen)
	}
	count := int(n)
	var idx []int64
	if count > 0 {
		idx = unsafe.Slice((*int64)(unsafe.Pointer(indices)), count)
	}
	prompts := make([]string, count)
	truths := make([]*string, count)
	errs := make([]error, count)
	tt, fast := env.(taskTexts)
	pre, bulk := env.(prefetcher)
	core.ParallelFor(count, func(lo, hi int) {
		if bulk {
			pre.Prefetch(idx[lo:hi])
		}
		for k := lo; k < hi; k++ {
			errs[k] = func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("building task %d: %v", idx[k], r)
					}
				}()
				if fast {
					prompts[k], truths[k], err = tt.TaskTexts(int(idx[k]))
					return err
				}
				start, err := env.Reset(core.ResetRequest{TaskIndex: int(idx[k])})
				prompts[k], truths[k] = start.Observation.Prompt, start.Hidden.ExpectedAnswer
				return err
			}()
		}
	})
	for k, err := range errs {
		if err != nil {
			return fail(fmt.Errorf("indices[%d]: %w", k, err), out, outLen)
		}
	}
	toC(packItems(prompts, truths), out, outLen)
	return statusOK
}

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
