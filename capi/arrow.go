package main

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
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
	tt, fast := env.(taskTexts)
	bt, bulk := env.(bulkTaskTexts)
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
	buf, err := packArrow(idx, prompts, truths, errs, lay)
	if err != nil {
		return fail(err, out, outLen)
	}
	toC(buf, out, outLen)
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

// arrowColumn accumulates one Arrow string column: int32 offsets and data.
type arrowColumn struct {
	offsets []int32
	data    []byte
	err     error
}

func newArrowColumn(rows, bytes int) *arrowColumn {
	c := &arrowColumn{offsets: make([]int32, 1, rows+1), data: make([]byte, 0, bytes)}
	return c
}

func (c *arrowColumn) add(parts ...string) {
	for _, p := range parts {
		c.data = append(c.data, p...)
	}
	if len(c.data) > math.MaxInt32 && c.err == nil {
		c.err = errors.New("a string column of this chunk exceeds 2 GiB; build the dataset in smaller chunks")
	}
	c.offsets = append(c.offsets, int32(len(c.data)))
}

func packArrow(idx []int64, prompts []string, truths []*string, errs []error, lay itemsLayout) ([]byte, error) {
	rows, promptBytes, truthBytes := 0, 0, 0
	for k := range idx {
		if errs[k] == nil {
			rows++
			promptBytes += len(prompts[k])
			if truths[k] != nil {
				truthBytes += len(*truths[k])
			}
		}
	}
	perRow := 1
	if lay.System != nil {
		perRow = 2
	}
	literal := 0
	for _, p := range lay.Template {
		literal += len(p)
	}
	holes := len(lay.Template) - 1

	taskIndex := make([]int64, 0, rows)
	prompt := newArrowColumn(rows, promptBytes)
	truth := newArrowColumn(rows, truthBytes)
	validity := make([]byte, (rows+7)/8)
	msgOffsets := make([]int32, 1, rows+1)
	role := newArrowColumn(rows*perRow, rows*(perRow*6))
	systemBytes := 0
	if lay.System != nil {
		systemBytes = len(*lay.System)
	}
	content := newArrowColumn(rows*perRow, rows*(systemBytes+literal)+promptBytes*holes)
	var errIndex []int64
	errText := newArrowColumn(0, 0)
	userParts := make([]string, 0, 2*len(lay.Template))
	for k := range idx {
		if errs[k] != nil {
			errIndex = append(errIndex, int64(k))
			errText.add(errs[k].Error())
			continue
		}
		r := len(taskIndex)
		taskIndex = append(taskIndex, idx[k])
		prompt.add(prompts[k])
		if truths[k] != nil {
			validity[r/8] |= 1 << (r % 8)
			truth.add(*truths[k])
		} else {
			truth.add()
		}
		if lay.System != nil {
			role.add("system")
			content.add(*lay.System)
		}
		role.add("user")
		userParts = append(userParts[:0], lay.Template[0])
		for _, lit := range lay.Template[1:] {
			userParts = append(userParts, prompts[k], lit)
		}
		content.add(userParts...)
		msgOffsets = append(msgOffsets, int32(len(role.offsets)-1))
	}
	for _, c := range []*arrowColumn{prompt, truth, role, content, errText} {
		if c.err != nil {
			return nil, c.err
		}
	}
	sections := [arrowSections][]byte{
		arrowTaskIndex:      int64Bytes(taskIndex),
		arrowPromptOffsets:  int32Bytes(prompt.offsets),
		arrowPromptData:     prompt.data,
		arrowTruthValidity:  validity,
		arrowTruthOffsets:   int32Bytes(truth.offsets),
		arrowTruthData:      truth.data,
		arrowMessageOffsets: int32Bytes(msgOffsets),
		arrowRoleOffsets:    int32Bytes(role.offsets),
		arrowRoleData:       role.data,
		arrowContentOffsets: int32Bytes(content.offsets),
		arrowContentData:    content.data,
		arrowErrorIndex:     int64Bytes(errIndex),
		arrowErrorOffsets:   int32Bytes(errText.offsets),
		arrowErrorData:      errText.data,
	}
	return packSections(uint64(rows), sections[:]), nil
}

// int64Bytes views v as little-endian bytes (the platforms we build for
// are little-endian).
func int64Bytes(v []int64) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 8*len(v))
}

func int32Bytes(v []int32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
}

// taskTexts is what an environment offers for building dataset items in
// bulk without a reset per item.
type taskTexts interface {
	TaskTexts(i int) (prompt string, truth *string, err error)
}

// bulkTaskTexts is an environment that builds many tasks faster together
// than one at a time; it reports each task's error in errs.
type bulkTaskTexts interface {
	TaskTextsBulk(idx []int64, prompts []string, truths []*string, errs []error)
}
