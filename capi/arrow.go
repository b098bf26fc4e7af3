package main

/*
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include "llenvs.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
)

// itemsLayout is the ChatLayout of llenvs_items_batch's layout argument.
type itemsLayout = core.ChatLayout

// llenvsgo_items_batch builds the dataset rows of tasks, generated in
// parallel, as an Arrow record batch through the C Data Interface:
// task_index (int64), prompt (utf8), ground_truth (nullable utf8) and
// messages (list<struct<role: utf8, content: utf8>>). A task whose
// generation fails is left out of the rows and listed in the second batch
// (position in the request, message). The caller's structs are filled only
// on success.
//
//export llenvsgo_items_batch
func llenvsgo_items_batch(h C.uint64_t, indices *C.int64_t, n C.size_t, layout *C.char, layoutLen C.size_t,
	schema *C.struct_ArrowSchema, array *C.struct_ArrowArray, errSchema *C.struct_ArrowSchema,
	errArray *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
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
	core.TaskTextsBatch(env, idx, prompts, truths, errs)
	rows, failed, err := itemsBatch(idx, prompts, truths, errs, lay)
	if err != nil {
		return fail(fmt.Errorf("building dataset rows: %w", err), out, outLen)
	}
	exportBatch(rows, schema, array)
	exportBatch(failed, errSchema, errArray)
	return statusOK
}

// decodeItemsLayout decodes the layout argument of llenvs_items_batch
// (Go-owned bytes); no template means the prompt alone.
func decodeItemsLayout(b []byte) (itemsLayout, error) {
	var lay itemsLayout
	if err := unmarshal(b, &lay); err != nil {
		return lay, fmt.Errorf("malformed items layout: %w", err)
	}
	return lay.Normalized(), nil
}

// itemsBatch lays out the rows' columns (see llenvsgo_items_batch) and the
// failed tasks' (position, message) in C memory, written in place: every
// size is known from the texts, so nothing is built on the Go heap first.
func itemsBatch(idx []int64, prompts []string, truths []*string, errs []error,
	lay itemsLayout) (rows, failed *cColumn, err error) {
	nrow, promptBytes, truthBytes, nerr, errBytes := 0, 0, 0, 0, 0
	for k := range idx {
		if errs[k] != nil {
			nerr++
			errBytes += len(errs[k].Error())
			continue
		}
		nrow++
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
	nmsg := nrow * perRow
	roleBytes := nrow * len("user")
	if lay.System != nil {
		roleBytes += nrow * len("system")
	}
	contentBytes := nrow*(systemBytes+literal) + promptBytes*holes

	var made []*cColumn // freed if a later column cannot be made
	defer func() {
		if err != nil {
			for _, c := range made {
				c.free()
			}
		}
	}()
	utf8 := func(name string, n, bytes int, nullable bool) *utf8Writer {
		if err != nil {
			return nil
		}
		var w *utf8Writer
		if w, err = newUTF8Column(name, n, bytes, nullable); err == nil {
			made = append(made, w.col)
		}
		return w
	}
	prompt := utf8("prompt", nrow, promptBytes, false)
	truth := utf8("ground_truth", nrow, truthBytes, true)
	role := utf8("role", nmsg, roleBytes, false)
	content := utf8("content", nmsg, contentBytes, false)
	errText := utf8("message", nerr, errBytes, false)
	if err != nil {
		return nil, nil, err
	}
	taskCol, taskIndex := newFixedColumn[int64]("task_index", formatInt64, nrow)
	messages, msgOffsets := newListColumn("messages", nrow, newStructColumn("item", nmsg, role.col, content.col))
	posCol, errPos := newFixedColumn[int64]("position", formatInt64, nerr)
	msgOffsets[0] = 0
	r, e := 0, 0
	for k := range idx {
		if errs[k] != nil {
			errPos[e] = int64(k)
			errText.add(errs[k].Error())
			errText.end()
			e++
			continue
		}
		taskIndex[r] = idx[k]
		prompt.add(prompts[k])
		prompt.end()
		if truths[k] != nil {
			truth.add(*truths[k])
			truth.end()
		} else {
			truth.null()
		}
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
	rows = newStructColumn("", nrow, taskCol, prompt.col, truth.col, messages)
	failed = newStructColumn("", nerr, posCol, errText.col)
	return rows, failed, nil
}
