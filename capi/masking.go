package main

/*
#include <stdlib.h>
#include <stdint.h>
#include "llenvs.h"
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

// llenvsgo_mask_batch masks n trajectories over a table of tokenised
// fragments into an Arrow record batch (see maskColumns), exported into
// the caller's schema and array on success.
//
//export llenvsgo_mask_batch
func llenvsgo_mask_batch(tokens *C.int32_t, tokenOffsets *C.int64_t, nFragments C.size_t,
	segments *C.int32_t, segmentOffsets *C.int64_t, rewards *C.double, rewardOffsets *C.int64_t, n C.size_t,
	maxLength C.int64_t, schema *C.struct_ArrowSchema, array *C.struct_ArrowArray, out **C.char,
	outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	bad := func(err error) C.int32_t { return fail(fmt.Errorf("mask_batch: %w", err), out, outLen) }
	toks, err := offsetsOf(tokenOffsets, int(nFragments), "token")
	if err != nil {
		return bad(err)
	}
	frags := masking.Fragments{Tokens: cSlice[int32](unsafe.Pointer(tokens), int(toks[nFragments])), Offsets: toks}
	if frags.Tokens == nil && toks[nFragments] > 0 {
		return bad(fmt.Errorf("tokens are NULL"))
	}
	return maskFragments(frags, segments, segmentOffsets, rewards, rewardOffsets, n, maxLength, -1, schema, array,
		out, outLen)
}

// maskFragments masks n trajectories over frags into the caller's schema
// and array (the rest of llenvs_mask_batch's arguments as there). With
// nTexts >= 0, a negative fragment number -1-k names fragment nTexts+k
// (carried ids after the texts); the caller's segments are not modified.
func maskFragments(frags masking.Fragments, segments *C.int32_t, segmentOffsets *C.int64_t, rewards *C.double,
	rewardOffsets *C.int64_t, n C.size_t, maxLength C.int64_t, nTexts int, schema *C.struct_ArrowSchema,
	array *C.struct_ArrowArray, out **C.char, outLen *C.size_t) C.int32_t {
	bad := func(err error) C.int32_t { return fail(fmt.Errorf("mask_batch: %w", err), out, outLen) }
	if schema == nil || array == nil {
		return bad(fmt.Errorf("the ArrowSchema or ArrowArray to fill is NULL"))
	}
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
	batch, err := maskColumns(trajs, frags, limit)
	if err != nil {
		return bad(err)
	}
	exportBatch(batch, schema, array)
	return statusOK
}

// maskColumns masks trajs into a record batch in C memory, one row per
// trajectory: prompt_ids, response_ids (list<int32>), response_mask
// (list<uint8>, 1 model, 0 environment), token_rewards (list<float64>),
// spans (list<struct<start, end, source, step, fragment: int32>>, start and
// end within the row's response, fragment the caller's index), reward_at
// (list<int32>: per step, the response position of its reward, -1 when
// nowhere) and truncated (uint8). masking.AssembleBatch writes the columns
// in place: it knows every size before it copies a token and asks for the
// buffers then, so nothing is laid out on the Go heap first.
func maskColumns(trajs []masking.Trajectory, frags masking.Fragments, limit int) (batch *cColumn, err error) {
	var cols []*cColumn
	var maskOffs, rewardOffs []int32
	defer func() { // also when a worker's panic passes through on its way to guard
		if batch == nil {
			for _, c := range cols {
				c.free()
			}
		}
	}()
	ints := func(name string, k int) (*cColumn, []int32) { return newFixedColumn[int32](name, formatInt32, k) }
	alloc := func(n int, t masking.Totals) (masking.Columns, error) {
		var c masking.Columns
		list := func(name string, child *cColumn) []int32 {
			col, offs := newListColumn(name, n, child)
			cols = append(cols, col)
			return offs
		}
		prompt, pids := ints("item", t.Prompt)
		c.PromptIDs, c.PromptOffsets = pids, list("prompt_ids", prompt)
		response, rids := ints("item", t.Response)
		c.ResponseIDs, c.ResponseOffsets = rids, list("response_ids", response)
		mask, m := newFixedColumn[uint8]("item", formatUint8, t.Response)
		c.Mask, maskOffs = m, list("response_mask", mask)
		rewards, r := newFixedColumn[float64]("item", formatFloat64, t.Response)
		c.TokenRewards, rewardOffs = r, list("token_rewards", rewards)
		start, s0 := ints("start", t.Spans)
		end, s1 := ints("end", t.Spans)
		source, s2 := ints("source", t.Spans)
		step, s3 := ints("step", t.Spans)
		fragment, s4 := ints("fragment", t.Spans)
		c.SpanStart, c.SpanEnd, c.SpanSource, c.SpanStep, c.SpanFragment = s0, s1, s2, s3, s4
		c.SpanOffsets = list("spans", newStructColumn("item", t.Spans, start, end, source, step, fragment))
		at, a := ints("item", t.Steps)
		c.RewardAt, c.StepOffsets = a, list("reward_at", at)
		truncated, tr := newFixedColumn[uint8]("truncated", formatUint8, n)
		cols = append(cols, truncated)
		c.Truncated = tr
		return c, nil
	}
	c, err := masking.AssembleBatch(trajs, frags, limit, alloc)
	if err != nil {
		return nil, err
	}
	// The response's three columns share their offsets; Arrow gives each
	// list its own buffer.
	copy(maskOffs, c.ResponseOffsets)
	copy(rewardOffs, c.ResponseOffsets)
	return newStructColumn("", len(trajs), cols...), nil
}

// The segment record of llenvs.h must be masking.Segment's memory layout.
var _ = [1]struct{}{}[unsafe.Sizeof(masking.Segment{})-12]

//export llenvsgo_tokenizer_new
func llenvsgo_tokenizer_new(data *C.char, n C.size_t, handle *C.uint64_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
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
	rewardOffsets *C.int64_t, n C.size_t, maxLength C.int64_t, schema *C.struct_ArrowSchema,
	array *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
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
		rewardOffsets, n, maxLength, int(nTexts), schema, array, out, outLen)
}
