package main

/*
#include "llenvs.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
)

// Columns a scoring call returns as a record batch besides the caller's
// arrays of totals, values and flags (LLENVS_SCORE_* of llenvs.h).
const scoreAnswers = 1 // answer and error, both nullable utf8

// scoredBatch is the record batch of a scored batch's answers (null where
// nothing was extracted) and errors (null where the item was scored),
// written in place once their sizes are known.
func scoredBatch(outs []core.Scored) (*cColumn, error) {
	answerBytes, errBytes := 0, 0
	var msgs map[int]string // the few failed items' messages
	for k := range outs {
		o := &outs[k]
		if o.Extraction.Found {
			answerBytes += len(o.Extraction.Answer)
		}
		if o.Err != nil {
			if msgs == nil {
				msgs = make(map[int]string)
			}
			msgs[k] = o.Err.Error()
			errBytes += len(msgs[k])
		}
	}
	answer, err := newUTF8Column("answer", len(outs), answerBytes, true)
	if err != nil {
		return nil, err
	}
	errs, err := newUTF8Column("error", len(outs), errBytes, true)
	if err != nil {
		answer.col.free()
		return nil, err
	}
	for k := range outs {
		if x := &outs[k].Extraction; x.Found {
			answer.add(x.Answer)
			answer.end()
		} else {
			answer.null()
		}
		if msg, failed := msgs[k]; failed {
			errs.add(msg)
			errs.end()
		} else {
			errs.null()
		}
	}
	return newStructColumn("", len(outs), answer.col, errs.col), nil
}

// describedBatch is the record batch of what a scored item's metadata is
// made of besides its answer: extraction, the extractor's description of
// the text's extraction as a JSON object (null when the environment has
// no extractor), and expected, the task's ground truth (null when it has
// none). Extractors are deterministic (extract.Extractor), so extracting
// again gives the extraction the item was scored with; nothing is scored.
func describedBatch(st core.SingleTurn, idx []int64, texts []string) (*cColumn, error) {
	n := len(texts)
	var ex extract.Extractor
	if e, ok := st.(core.ExtractorProvider); ok {
		ex = e.Extractor()
	}
	fast, _ := ex.(extract.DescriptionAppender)
	exp, _ := st.(core.ExpectedAnswers)
	descs := make([]*string, n)
	truths := make([]*string, n)
	core.ParallelFor(n, func(lo, hi int) {
		var b []byte
		for k := lo; k < hi; k++ {
			if exp != nil {
				if k > lo && idx[k] == idx[k-1] {
					truths[k] = truths[k-1] // samples of one prompt usually come together
				} else if gt, err := exp.Expected(int(idx[k])); err == nil {
					truths[k] = &gt
				}
			}
			if ex == nil {
				continue
			}
			x := extractOrZero(ex, texts[k])
			if fast != nil {
				b = fast.AppendDescription(b[:0], x, appendJSONString)
			} else {
				b = appendJSON(b[:0], ex.Describe(x))
			}
			s := string(b)
			descs[k] = &s
		}
	})
	return utf8Batch(n, utf8Field{"extraction", descs, true}, utf8Field{"expected", truths, true})
}

// extractOrZero is ex's extraction of text; one that panics is described
// as nothing found, as scoring reports an item whose scoring panicked.
func extractOrZero(ex extract.Extractor, text string) (x extract.Extraction) {
	defer func() {
		if recover() != nil {
			x = extract.Extraction{}
		}
	}()
	return ex.Extract(text)
}

// llenvsgo_describe_texts fills schema and array with describedBatch of
// texts[k] (lens[k] bytes, read during the call only) against tasks
// indices[k], for k < n.
//
//export llenvsgo_describe_texts
func llenvsgo_describe_texts(h C.uint64_t, indices *C.int64_t, texts **C.char, lens *C.int64_t, n C.size_t,
	schema *C.struct_ArrowSchema, array *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	if err := needBatchSlots(schema, array); err != nil {
		return fail(fmt.Errorf("describe_texts: %w", err), out, outLen)
	}
	st, idx, strs, err := scoringArgs(h, indices, texts, lens, n)
	if err != nil {
		return fail(err, out, outLen)
	}
	batch, err := describedBatch(st, idx, strs)
	if err != nil {
		return fail(fmt.Errorf("describe_texts: %w", err), out, outLen)
	}
	exportBatch(batch, schema, array)
	*out, *outLen = nil, 0
	return statusOK
}

// scoringArgs checks a scoring call's environment and task indices and
// views its texts (caller memory, read only during the call).
func scoringArgs(h C.uint64_t, indices *C.int64_t, texts **C.char, lens *C.int64_t,
	n C.size_t) (core.SingleTurn, []int64, []string, error) {
	env, err := getEnv(uint64(h))
	if err != nil {
		return nil, nil, nil, err
	}
	st, ok := env.(core.SingleTurn)
	if !ok {
		return nil, nil, nil, fmt.Errorf("environment %q is not single-turn and cannot be scored", env.Spec().Name)
	}
	count := int(n)
	if count == 0 {
		return st, nil, nil, nil
	}
	idx := unsafe.Slice((*int64)(unsafe.Pointer(indices)), count)
	for k, i := range idx {
		if err := st.Check(int(i)); err != nil {
			return nil, nil, nil, fmt.Errorf("task_indices[%d]: %w", k, err)
		}
	}
	ptrs := unsafe.Slice((**C.char)(unsafe.Pointer(texts)), count)
	ls := unsafe.Slice((*int64)(unsafe.Pointer(lens)), count)
	strs := make([]string, count)
	for k := range strs {
		strs[k] = unsafe.String((*byte)(unsafe.Pointer(ptrs[k])), int(ls[k]))
	}
	return st, idx, strs, nil
}

// spanOf reports where answer lies in text when it is a substring of it
// (its bytes are text's own), as byte offsets.
func spanOf(text, answer string) (int64, int64, bool) {
	if len(answer) == 0 || len(text) == 0 {
		return 0, 0, false // an empty answer is given as empty own bytes
	}
	t := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	a := uintptr(unsafe.Pointer(unsafe.StringData(answer)))
	if a < t || a+uintptr(len(answer)) > t+uintptr(len(text)) {
		return 0, 0, false
	}
	off := int64(a - t)
	return off, off + int64(len(answer)), true
}
