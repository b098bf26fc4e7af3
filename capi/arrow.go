package main

/*
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
*/
import "C"

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
)

// Sections of the buffer llenvsgo_items_arrow returns, in order. Each is
// described in the header by its byte offset and length; every section
// starts at a multiple of 8.
const (
	arrowTaskIndex      = iota // int64 per row
	arrowPromptOffsets         // int32 [rows+1]
	arrowPromptData            // UTF-8
	arrowTruthValidity         // bitmap, least significant bit first
	arrowTruthOffsets          // int32 [rows+1]
	arrowTruthData             // UTF-8
	arrowMessageOffsets        // int32 [rows+1], into the messages
	arrowRoleOffsets           // int32 [messages+1]
	arrowRoleData              // UTF-8
	arrowContentOffsets        // int32 [messages+1]
	arrowContentData           // UTF-8
	arrowErrorIndex            // int64 per failed task: its position in the request
	arrowErrorOffsets          // int32 [errors+1]
	arrowErrorData             // UTF-8
	arrowSections
)

// itemsLayout is how a dataset row's chat messages are made: an optional
// system message, then the user message, which is the template's literal
// parts with the task's prompt between each two of them.
type itemsLayout struct {
	System   *string  `json:"system"`
	Template []string `json:"template"`
}

// llenvsgo_items_arrow builds the dataset rows of tasks as Arrow columns:
// task_index (int64), prompt (string), ground_truth (nullable string) and
// messages (list<struct<role: string, content: string>>), generated in
// parallel. The result is one buffer laid out by packSections: the row
// count, an (offset, length) pair per section (arrowTaskIndex...), then the
// sections. A task whose generation fails is left out of the columns and
// listed in the error sections, by its position in the request.
//
//export llenvsgo_items_arrow
func llenvsgo_items_arrow(h C.uint64_t, indices *C.int64_t, n C.size_t, layout *C.char, layoutLen C.size_t,
	out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	env, err := getEnv(uint64(h))
	if err != nil {
		return fail(err, out, outLen)
	}
	lay, err := decodeItemsLayout(input(layout, layoutLen))
	if err != nil {
		return fail(err, out, outLen)
	}
	count := int(n)
	var idx []int64
	if count > 0 {
		idx = unsafe.Slice((*int64)(unsafe.Pointer(indices)), count)
	}
	for k, i := range idx {
		if i < 0 || i >= int64(env.Len()) {
			return fail(fmt.Errorf("indices[%d]: %w", k, &core.IndexError{Index: int(i), Len: env.Len()}), out, outLen)
		}
	}
	prompts := make([]string, count)
	truths := make([]*string, count)
	errs := make([]error, count)
	tt, fast := env.(core.TaskTexter)
	bt, bulk := env.(core.BulkTaskTexter)
	core.ParallelFor(count, func(lo, hi int) {
		if bulk {
			defer func() {
				if r := recover(); r != nil {
					for k := lo; k < hi; k++ {
						errs[k] = fmt.Errorf("building task %d: %v", idx[k], r)
					}
				}
			}()
			bt.TaskTextsBulk(idx[lo:hi], prompts[lo:hi], truths[lo:hi], errs[lo:hi])
			return
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
	buf, size, err := packArrow(idx, prompts, truths, errs, lay)
	if err != nil {
		return fail(err, out, outLen)
	}
	*out, *outLen = (*C.char)(buf), C.size_t(size)
	return statusOK
}

// decodeItemsLayout decodes the layout argument of llenvs_items_arrow
// (Go-owned bytes); no template means the prompt alone.
func decodeItemsLayout(b []byte) (itemsLayout, error) {
	var lay itemsLayout
	if err := unmarshal(b, &lay); err != nil {
		return lay, fmt.Errorf("malformed items layout: %w", err)
	}
	if len(lay.Template) == 0 {
		lay.Template = []string{"", ""}
	}
	return lay, nil
}

// packArrow lays out the rows' columns (see llenvsgo_items_arrow) in one
// buffer of C memory, written in place: the sizes of every section are
// known from the texts, so nothing is built on the Go heap and copied
// afterwards. The caller owns the buffer (llenvs_free).
func packArrow(idx []int64, prompts []string, truths []*string, errs []error,
	lay itemsLayout) (unsafe.Pointer, int, error) {
	rows, promptBytes, truthBytes, nerr, errBytes := 0, 0, 0, 0, 0
	for k := range idx {
		if errs[k] != nil {
			nerr++
			errBytes += len(errs[k].Error())
			continue
		}
		rows++
		promptBytes += len(prompts[k])
		if truths[k] != nil {
			truthBytes += len(*truths[k])
		}
	}
	perRow, systemBytes := 1, 0
	if lay.System != nil {
		perRow, systemBytes = 2, len(*lay.System)
	}
	literal := 0
	for _, p := range lay.Template {
		literal += len(p)
	}
	holes := len(lay.Template) - 1
	nmsg := rows * perRow
	roleBytes := rows * len("user")
	if lay.System != nil {
		roleBytes += rows * len("system")
	}
	contentBytes := rows*(systemBytes+literal) + promptBytes*holes
	for _, n := range []int{promptBytes, truthBytes, roleBytes, contentBytes, errBytes} {
		if n > math.MaxInt32 {
			return nil, 0, errors.New("a string column of this chunk exceeds 2 GiB; build the dataset in smaller chunks")
		}
	}
	var sizes [arrowSections]int
	sizes[arrowTaskIndex] = 8 * rows
	sizes[arrowPromptOffsets] = 4 * (rows + 1)
	sizes[arrowPromptData] = promptBytes
	sizes[arrowTruthValidity] = (rows + 7) / 8
	sizes[arrowTruthOffsets] = 4 * (rows + 1)
	sizes[arrowTruthData] = truthBytes
	sizes[arrowMessageOffsets] = 4 * (rows + 1)
	sizes[arrowRoleOffsets] = 4 * (nmsg + 1)
	sizes[arrowRoleData] = roleBytes
	sizes[arrowContentOffsets] = 4 * (nmsg + 1)
	sizes[arrowContentData] = contentBytes
	sizes[arrowErrorIndex] = 8 * nerr
	sizes[arrowErrorOffsets] = 4 * (nerr + 1)
	sizes[arrowErrorData] = errBytes
	buf, total, sec := cSections(uint64(rows), sizes[:])

	taskIndex := int64s(sec[arrowTaskIndex])
	prompt := newColumnWriter(sec[arrowPromptOffsets], sec[arrowPromptData])
	truth := newColumnWriter(sec[arrowTruthOffsets], sec[arrowTruthData])
	validity := sec[arrowTruthValidity]
	clear(validity)
	msgOffsets := int32s(sec[arrowMessageOffsets])
	msgOffsets[0] = 0
	role := newColumnWriter(sec[arrowRoleOffsets], sec[arrowRoleData])
	content := newColumnWriter(sec[arrowContentOffsets], sec[arrowContentData])
	errIndex := int64s(sec[arrowErrorIndex])
	errText := newColumnWriter(sec[arrowErrorOffsets], sec[arrowErrorData])
	r, e := 0, 0
	for k := range idx {
		if errs[k] != nil {
			errIndex[e] = int64(k)
			errText.add(errs[k].Error())
			errText.end()
			e++
			continue
		}
		taskIndex[r] = idx[k]
		prompt.add(prompts[k])
		prompt.end()
		if truths[k] != nil {
			validity[r/8] |= 1 << (r % 8)
			truth.add(*truths[k])
		}
		truth.end()
		if lay.System != nil {
			role.add("system")
			role.end()
			content.add(*lay.System)
			content.end()
		}
		role.add("user")
		role.end()
		content.add(lay.Template[0])
		for _, lit := range lay.Template[1:] {
			content.add(prompts[k])
			content.add(lit)
		}
		content.end()
		r++
		msgOffsets[r] = int32(r * perRow)
	}
	return buf, total, nil
}

// columnWriter fills one Arrow string column in place: int32 offsets
// (offsets[0] is 0) and the UTF-8 data, sized beforehand.
type columnWriter struct {
	offsets []int32
	data    []byte
	n, at   int
}

func newColumnWriter(offsets, data []byte) *columnWriter {
	w := &columnWriter{offsets: int32s(offsets), data: data}
	w.offsets[0] = 0
	return w
}

// add appends s to the current string.
func (w *columnWriter) add(s string) { w.at += copy(w.data[w.at:], s) }

// end closes the current string.
func (w *columnWriter) end() {
	w.n++
	w.offsets[w.n] = int32(w.at)
}

// cSections allocates in C memory a buffer laid out as packSections lays
// out sections of the given sizes (the count, an offset and length per
// section, then the sections, each starting at a multiple of 8), and
// returns it, its size and a view of each section to fill.
func cSections(count uint64, sizes []int) (unsafe.Pointer, int, [][]byte) {
	head := 8 * (1 + 2*len(sizes))
	total := head
	for _, n := range sizes {
		total += (n + 7) &^ 7
	}
	p := C.malloc(C.size_t(total))
	if p == nil {
		panic("out of memory for a dataset chunk")
	}
	buf := unsafe.Slice((*byte)(p), total)
	le := binary.LittleEndian
	le.PutUint64(buf[0:], count)
	views := make([][]byte, len(sizes))
	at := head
	for i, n := range sizes {
		le.PutUint64(buf[8+16*i:], uint64(at))
		le.PutUint64(buf[16+16*i:], uint64(n))
		views[i] = buf[at : at+n : at+n]
		clear(buf[at+n : at+((n+7)&^7)]) // padding
		at += (n + 7) &^ 7
	}
	return p, total, views
}

// freeC releases a buffer of cSections (for callers that do not hand it out).
func freeC(p unsafe.Pointer) { C.free(p) }

// int64s and int32s view a section as numbers (little-endian platforms).
func int64s(b []byte) []int64 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(&b[0])), len(b)/8)
}

func int32s(b []byte) []int32 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), len(b)/4)
}

// int64Bytes views v as little-endian bytes (the platforms we build for
// are little-endian).
func int64Bytes(v []int64) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 8*len(v))
}
