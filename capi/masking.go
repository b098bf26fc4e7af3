package main

/*
#include <stdlib.h>
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/llenvs/llenvs-go/bpe"
	"github.com/llenvs/llenvs-go/masking"
)

// cSlice views n elements of type T at p (caller memory, read during the
// call only; Go keeps no reference after it returns).
func cSlice[T any](p unsafe.Pointer, n int) []T {
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(p), n)
}

// offsetsOf reads an offsets array of n+1 entries and checks that it
// starts at 0 and never decreases; the last entry is the total.
func offsetsOf(p *C.int64_t, n int, what string) ([]int64, error) {
	if p == nil {
		return nil, fmt.Errorf("%s offsets are NULL", what)
	}
	offs := cSlice[int64](unsafe.Pointer(p), n+1)
	if err := checkOffsets(offs, what); err != nil {
		return nil, err
	}
	return offs, nil
}

// checkOffsets checks that an offsets array starts at 0 and never
// decreases.
func checkOffsets(offs []int64, what string) error {
	if len(offs) == 0 {
		return fmt.Errorf("%s offsets are empty, want at least one entry (0)", what)
	}
	if offs[0] != 0 {
		return fmt.Errorf("%s offsets[0] is %d, want 0", what, offs[0])
	}
	for i := 1; i < len(offs); i++ {
		if offs[i] < offs[i-1] {
			return fmt.Errorf("%s offsets decrease at %d", what, i)
		}
	}
	return nil
}

//export llenvsgo_mask_batch
func llenvsgo_mask_batch(tokens *C.int32_t, tokenOffsets *C.int64_t, nFragments C.size_t,
	segments *C.int32_t, segmentOffsets *C.int64_t, rewards *C.double, rewardOffsets *C.int64_t, n C.size_t,
	maxLength C.int64_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	bad := func(err error) C.int32_t { return fail(fmt.Errorf("mask_batch: %w", err), out, outLen) }
	toks, err := offsetsOf(tokenOffsets, int(nFragments), "token")
	if err != nil {
		return bad(err)
	}
	frags := masking.Fragments{Tokens: cSlice[int32](unsafe.Pointer(tokens), int(toks[nFragments])), Offsets: toks}
	if frags.Tokens == nil && toks[nFragments] > 0 {
		return bad(fmt.Errorf("tokens are NULL"))
	}
	return maskFragments(frags, segments, segmentOffsets, rewards, rewardOffsets, n, maxLength, -1, out, outLen)
}

// maskFragments masks n trajectories over frags into *out (the rest of
// llenvs_mask_batch's arguments as there). With nTexts >= 0, a negative
// fragment number -1-k names fragment nTexts+k (carried ids after the
// texts); the caller's segments are not modified.
func maskFragments(frags masking.Fragments, segments *C.int32_t, segmentOffsets *C.int64_t, rewards *C.double,
	rewardOffsets *C.int64_t, n C.size_t, maxLength C.int64_t, nTexts int, out **C.char, outLen *C.size_t) C.int32_t {
	bad := func(err error) C.int32_t { return fail(fmt.Errorf("mask_batch: %w", err), out, outLen) }
	segOffs, err := offsetsOf(segmentOffsets, int(n), "segment")
	if err != nil {
		return bad(err)
	}
	rewOffs, err := offsetsOf(rewardOffsets, int(n), "reward")
	if err != nil {
		return bad(err)
	}
	if (segments == nil && segOffs[n] > 0) || (rewards == nil && rewOffs[n] > 0) {
		return bad(fmt.Errorf("segments or rewards are NULL"))
	}
	// A segment is three int32 (fragment, source, step), the layout of masking.Segment.
	segs := cSlice[masking.Segment](unsafe.Pointer(segments), int(segOffs[n]))
	if nTexts >= 0 {
		segs = append([]masking.Segment(nil), segs...)
		for i := range segs {
			if f := segs[i].Fragment; f < 0 {
				segs[i].Fragment = int32(nTexts) - 1 - f
			}
		}
	}
	rews := cSlice[float64](unsafe.Pointer(rewards), int(rewOffs[n]))
	trajs := make([]masking.Trajectory, int(n))
	for i := range trajs {
		trajs[i] = masking.Trajectory{Segments: segs[segOffs[i]:segOffs[i+1]], Rewards: rews[rewOffs[i]:rewOffs[i+1]]}
	}
	limit := int(maxLength)
	if limit < 0 {
		limit = masking.NoLimit
	}
	var cbuf unsafe.Pointer
	buf, err := masking.AssembleBatch(trajs, frags, limit, func(size int) []byte {
		cbuf = C.malloc(C.size_t(size))
		if cbuf == nil {
			return nil
		}
		return unsafe.Slice((*byte)(cbuf), size)
	})
	if err != nil {
		if cbuf != nil {
			C.free(cbuf)
		}
		return bad(err)
	}
	*out = (*C.char)(cbuf)
	*outLen = C.size_t(len(buf))
	return statusOK
}

// The segment record of llenvs.h must be masking.Segment's memory layout.
var _ = [1]struct{}{}[unsafe.Sizeof(masking.Segment{})-12]

//export llenvsgo_tokenizer_new
func llenvsgo_tokenizer_new(data *C.char, n C.size_t, handle *C.uint64_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	t, err := bpe.Load(input(data, n))
	if err != nil {
		return fail(err, out, outLen)
	}
	*handle = C.uint64_t(putHandle(kindTokenizer, t))
	nfc := "false"
	if t.NFC {
		nfc = "true"
	}
	toC([]byte(`{"nfc":`+nfc+`}`), out, outLen)
	return statusOK
}

//export llenvsgo_tokenizer_close
func llenvsgo_tokenizer_close(h C.uint64_t) (rc C.int32_t) {
	defer func() {
		if recover() != nil {
			rc = statusPanic
		}
	}()
	if err := dropHandle(uint64(h), kindTokenizer); err != nil {
		return statusHandle
	}
	return statusOK
}

// llenvsgo_mask_texts is llenvsgo_mask_batch with the fragments given as
// texts for a tokenizer handle (texts[i] of lens[i] bytes, read during the
// call only) followed by carried id fragments.
//
//export llenvsgo_mask_texts
func llenvsgo_mask_texts(h C.uint64_t, texts **C.char, lens *C.int64_t, nTexts C.size_t, carried *C.int32_t,
	carriedOffsets *C.int64_t, nCarried C.size_t, segments *C.int32_t, segmentOffsets *C.int64_t, rewards *C.double,
	rewardOffsets *C.int64_t, n C.size_t, maxLength C.int64_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	v, err := lookup(uint64(h), kindTokenizer)
	if err != nil {
		return fail(err, out, outLen)
	}
	tok := v.(*bpe.Tokenizer)
	ptrs := cSlice[*C.char](unsafe.Pointer(texts), int(nTexts))
	sizes := cSlice[int64](unsafe.Pointer(lens), int(nTexts))
	strs := make([]string, int(nTexts))
	for i := range strs {
		strs[i] = unsafe.String((*byte)(unsafe.Pointer(ptrs[i])), int(sizes[i]))
	}
	tokens, offs := tok.EncodeAll(strs)
	cOffs, err := offsetsOf(carriedOffsets, int(nCarried), "carried")
	if err != nil {
		return fail(fmt.Errorf("mask_texts: %w", err), out, outLen)
	}
	base := int64(len(tokens))
	tokens = append(tokens, cSlice[int32](unsafe.Pointer(carried), int(cOffs[nCarried]))...)
	for _, o := range cOffs[1:] {
		offs = append(offs, base+o)
	}
	return maskFragments(masking.Fragments{Tokens: tokens, Offsets: offs}, segments, segmentOffsets, rewards,
		rewardOffsets, n, maxLength, int(nTexts), out, outLen)
}
