package main

import (
	"encoding/binary"
	"sort"
	"sync"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
)

// Sections of the rich scoring buffer, in order (see packScored).
const (
	scoredAnswerKind     = iota // uint8 per item: answerNone, answerSpan or answerOwn
	scoredAnswerStart           // int64 per item
	scoredAnswerEnd             // int64 per item
	scoredAnswerData            // UTF-8 of the answers that are not spans of their response
	scoredMetaOffsets           // int64 [n+1] into scoredMetaData
	scoredMetaData              // one JSON object per item: the extraction metadata
	scoredExpectedIndex         // int64 per distinct task index that has a ground truth
	scoredExpectedOffset        // int64 [m+1]
	scoredExpectedData          // UTF-8
	scoredErrorItem             // int64 per failed item: its position in the batch
	scoredErrorOffsets          // int64 [e+1]
	scoredErrorData             // UTF-8
	scoredSections
)

// How an item's extracted answer is given.
const (
	answerNone = 0 // nothing extracted
	answerSpan = 1 // bytes [start, end) of the item's own response
	answerOwn  = 2 // bytes [start, end) of scoredAnswerData (a cleaner changed it)
)

// packScored writes the rich part of a batch's scores as columns: where each
// extracted answer is, each item's extraction metadata, the ground truth of
// each distinct task, and messages for the items that failed. The buffer is
// the item count, then an (offset, length) pair of int64s per section, then
// the sections, each starting at a multiple of 8.
func packScored(st core.SingleTurn, idx []int64, texts []string, outs []core.Scored) []byte {
	n := len(outs)
	exp, _ := st.(core.ExpectedAnswers)
	var ex extract.Extractor
	if e, ok := st.(core.ExtractorProvider); ok {
		ex = e.Extractor()
	}
	fast, _ := ex.(extract.DescriptionAppender)

	kind := make([]byte, n)
	start := make([]int64, n)
	end := make([]int64, n)
	// The metadata section is one JSON array, so a reader can decode all of
	// it at once; offsets delimit each item's object inside it. Ranges of
	// items are described in parallel, then joined.
	metaSpan := make([]int64, 2*n)
	var mu sync.Mutex
	var parts []scoredPart
	core.ParallelFor(n, func(lo, hi int) {
		p := scoredPart{lo: lo, hi: hi, meta: make([]byte, 0, (hi-lo)*96)}
		for k := lo; k < hi; k++ {
			o := &outs[k]
			if x := o.Extraction; x.Found {
				if a, b, ok := spanOf(texts[k], x.Answer); ok {
					kind[k], start[k], end[k] = answerSpan, a, b
				} else {
					kind[k], start[k] = answerOwn, int64(len(p.own))
					p.own = append(p.own, x.Answer...)
					end[k] = int64(len(p.own))
				}
			}
			if k > lo {
				p.meta = append(p.meta, ',')
			}
			metaSpan[2*k] = int64(len(p.meta))
			switch {
			case ex == nil:
				p.meta = append(p.meta, "null"...)
			case fast != nil:
				p.meta = fast.AppendDescription(p.meta, o.Extraction, appendJSONString)
			default:
				p.meta = appendJSON(p.meta, ex.Describe(o.Extraction))
			}
			metaSpan[2*k+1] = int64(len(p.meta))
		}
		mu.Lock()
		parts = append(parts, p)
		mu.Unlock()
	})
	sort.Slice(parts, func(a, b int) bool { return parts[a].lo < parts[b].lo })
	metaLen := 2
	for _, p := range parts {
		metaLen += len(p.meta) + 1
	}
	meta := make([]byte, 0, metaLen)
	meta = append(meta, '[')
	var own []byte
	for j, p := range parts {
		if j > 0 {
			meta = append(meta, ',')
		}
		base, ownBase := int64(len(meta)), int64(len(own))
		meta = append(meta, p.meta...)
		own = append(own, p.own...)
		for k := p.lo; k < p.hi; k++ {
			metaSpan[2*k] += base
			metaSpan[2*k+1] += base
			if kind[k] == answerOwn {
				start[k] += ownBase
				end[k] += ownBase
			}
		}
	}
	meta = append(meta, ']')
	var errItem, errOff []int64
	var errData []byte
	errOff = append(errOff, 0)
	for k := range outs {
		if err := outs[k].Err; err != nil {
			errItem = append(errItem, int64(k))
			errData = append(errData, err.Error()...)
			errOff = append(errOff, int64(len(errData)))
		}
	}

	distinct := idx
	if len(idx) > 1 {
		distinct = make([]int64, 0, 64)
		seen := make(map[int64]struct{}, 64)
		for k, i := range idx {
			if k > 0 && i == idx[k-1] {
				continue // samples of one prompt usually come together
			}
			if _, ok := seen[i]; !ok {
				seen[i] = struct{}{}
				distinct = append(distinct, i)
			}
		}
		sort.Slice(distinct, func(a, b int) bool { return distinct[a] < distinct[b] })
	}
	var expIdx []int64
	expOff := []int64{0}
	var expData []byte
	if exp != nil {
		for _, i := range distinct {
			gt, err := exp.Expected(int(i))
			if err != nil {
				continue
			}
			expIdx = append(expIdx, i)
			expData = append(expData, gt...)
			expOff = append(expOff, int64(len(expData)))
		}
	}

	sections := [scoredSections][]byte{
		scoredAnswerKind:     kind,
		scoredAnswerStart:    int64Bytes(start),
		scoredAnswerEnd:      int64Bytes(end),
		scoredAnswerData:     own,
		scoredMetaOffsets:    int64Bytes(metaSpan),
		scoredMetaData:       meta,
		scoredExpectedIndex:  int64Bytes(expIdx),
		scoredExpectedOffset: int64Bytes(expOff),
		scoredExpectedData:   expData,
		scoredErrorItem:      int64Bytes(errItem),
		scoredErrorOffsets:   int64Bytes(errOff),
		scoredErrorData:      errData,
	}
	return packSections(uint64(n), sections[:])
}

// scoredPart is the metadata and own answer bytes of items [lo, hi) of a
// batch, with offsets relative to the part until packScored joins them.
type scoredPart struct {
	lo, hi    int
	meta, own []byte
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

// packSections lays out a header (count, then an offset and length per
// section) followed by the sections, each padded to a multiple of 8.
func packSections(count uint64, sections [][]byte) []byte {
	head := 8 * (1 + 2*len(sections))
	total := head
	for _, s := range sections {
		total += (len(s) + 7) &^ 7
	}
	buf := make([]byte, head, total)
	le := binary.LittleEndian
	le.PutUint64(buf[0:], count)
	for i, s := range sections {
		le.PutUint64(buf[8+16*i:], uint64(len(buf)))
		le.PutUint64(buf[16+16*i:], uint64(len(s)))
		buf = append(buf, s...)
		for len(buf)%8 != 0 {
			buf = append(buf, 0)
		}
	}
	return buf
}

// int64Bytes views v as little-endian bytes (the platforms we build for
// are little-endian).
func int64Bytes(v []int64) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 8*len(v))
}
