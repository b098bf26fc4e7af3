// cdata.go: a small writer of the Arrow C Data Interface
// (https://arrow.apache.org/docs/format/CDataInterface.html), the one form
// in which bulk results cross the C ABI.
//
// A record batch is a struct array ("+s") whose children are the columns.
// Columns are built as a tree of cColumn whose buffers are C memory
// (C.malloc), then exportBatch fills a caller's ArrowSchema and ArrowArray.
// Every node gets its own plain-C release callback that frees, with free(),
// the node's buffers, its children and its private block, so a consumer
// may also move a child out and release it alone. No Go pointer leaves Go.
//
// Column kinds: fixed width (newFixedColumn: int64 "l", int32 "i",
// float64 "g", uint8 "C"), utf8 with an optional validity bitmap
// (newUTF8Column, written in place; utf8ColumnOf and stringColumnOf from
// Go strings), list (newListColumn) and struct (newStructColumn);
// utf8Batch is a whole batch of utf8 columns.
package main

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "llenvs.h"

// A node's private block holds its buffer and child pointer arrays, its
// children's structs and, for a schema, its format and name strings.
static void llenvs_cdata_release_array(struct ArrowArray *a) {
	if (a == NULL || a->release == NULL) return;
	for (int64_t i = 0; i < a->n_children; i++) {
		struct ArrowArray *c = a->children[i];
		if (c->release != NULL) c->release(c);
	}
	for (int64_t i = 0; i < a->n_buffers; i++) free((void *)a->buffers[i]);
	free(a->private_data);
	a->release = NULL;
}

static void llenvs_cdata_release_schema(struct ArrowSchema *s) {
	if (s == NULL || s->release == NULL) return;
	for (int64_t i = 0; i < s->n_children; i++) {
		struct ArrowSchema *c = s->children[i];
		if (c->release != NULL) c->release(c);
	}
	free(s->private_data);
	s->release = NULL;
}

static void llenvs_cdata_init_array(struct ArrowArray *a, int64_t length, int64_t nulls, int64_t n_buffers,
                                    int64_t n_children) {
	size_t size = (size_t)n_buffers * sizeof(void *) + (size_t)n_children * (sizeof(void *) + sizeof(struct ArrowArray));
	char *p = calloc(1, size ? size : 1);
	if (p == NULL) abort();
	memset(a, 0, sizeof *a);
	a->length = length;
	a->null_count = nulls;
	a->n_buffers = n_buffers;
	a->n_children = n_children;
	a->buffers = (const void **)p;
	a->children = (struct ArrowArray **)(p + n_buffers * sizeof(void *));
	struct ArrowArray *kids = (struct ArrowArray *)(p + (n_buffers + n_children) * sizeof(void *));
	for (int64_t i = 0; i < n_children; i++) a->children[i] = &kids[i];
	a->private_data = p;
	a->release = llenvs_cdata_release_array;
}

static void llenvs_cdata_init_schema(struct ArrowSchema *s, _GoString_ format, _GoString_ name, int64_t flags,
                                     int64_t n_children) {
	size_t fl = _GoStringLen(format), nl = _GoStringLen(name);
	size_t kids = (size_t)n_children * (sizeof(void *) + sizeof(struct ArrowSchema));
	char *p = calloc(1, kids + fl + nl + 2);
	if (p == NULL) abort();
	memset(s, 0, sizeof *s);
	s->children = (struct ArrowSchema **)p;
	struct ArrowSchema *structs = (struct ArrowSchema *)(p + n_children * sizeof(void *));
	for (int64_t i = 0; i < n_children; i++) s->children[i] = &structs[i];
	char *f = p + kids, *n = f + fl + 1;
	memcpy(f, _GoStringPtr(format), fl);
	memcpy(n, _GoStringPtr(name), nl);
	s->format = f;
	s->name = n;
	s->flags = flags;
	s->n_children = n_children;
	s->private_data = p;
	s->release = llenvs_cdata_release_schema;
}

*/
import "C"

import (
	"errors"
	"math"
	"unsafe"
)

// Arrow format strings of the column kinds in use.
const (
	formatInt64   = "l"
	formatInt32   = "i"
	formatFloat64 = "g"
	formatUint8   = "C"
	formatUTF8    = "u"
	formatList    = "+l"
	formatStruct  = "+s"
)

// cColumn is one column (or child) before export: its Arrow type, length
// and null count, its buffers in C memory (nil for an absent validity
// bitmap) and its children.
type cColumn struct {
	name     string
	format   string
	nullable bool
	length   int64
	nulls    int64
	buffers  []unsafe.Pointer
	children []*cColumn
}

// cAlloc is n bytes of C memory (at least one, so that no buffer is NULL).
func cAlloc(n int) unsafe.Pointer { return C.malloc(C.size_t(max(n, 1))) }

// free releases the buffers of a column that was never exported.
func (c *cColumn) free() {
	for _, b := range c.buffers {
		C.free(b)
	}
	for _, k := range c.children {
		k.free()
	}
}

// newFixedColumn is a non-null column of n fixed-width values and the slice
// to fill them through.
func newFixedColumn[T int64 | float64 | int32 | uint8](name, format string, n int) (*cColumn, []T) {
	var zero T
	p := cAlloc(n * int(unsafe.Sizeof(zero)))
	return &cColumn{name: name, format: format, length: int64(n), buffers: []unsafe.Pointer{nil, p}},
		unsafe.Slice((*T)(p), max(n, 1))[:n]
}

// utf8Writer fills a utf8 column in place: sized beforehand (rows and data
// bytes), each row written with add (any number of pieces) then end or null.
type utf8Writer struct {
	col      *cColumn
	offsets  []int32
	data     []byte
	validity []byte
	n, at    int
}

// newUTF8Column starts a utf8 column of rows strings, bytes in all; with
// nullable it has a validity bitmap. Arrow's utf8 has int32 offsets, hence
// the 2 GiB limit of a column.
func newUTF8Column(name string, rows, bytes int, nullable bool) (*utf8Writer, error) {
	if bytes > math.MaxInt32 {
		return nil, errors.New("column " + name + " exceeds 2 GiB of text; build it in smaller chunks")
	}
	offs, data := cAlloc(4*(rows+1)), cAlloc(bytes)
	w := &utf8Writer{col: &cColumn{name: name, format: formatUTF8, nullable: nullable, length: int64(rows),
		buffers: []unsafe.Pointer{nil, offs, data}},
		offsets: unsafe.Slice((*int32)(offs), rows+1), data: unsafe.Slice((*byte)(data), max(bytes, 1))[:bytes]}
	if nullable {
		v := cAlloc((rows + 7) / 8)
		w.col.buffers[0] = v
		w.validity = unsafe.Slice((*byte)(v), max((rows+7)/8, 1))
		clear(w.validity)
	}
	w.offsets[0] = 0
	return w, nil
}

// add appends s to the current string.
func (w *utf8Writer) add(s string) { w.at += copy(w.data[w.at:], s) }

// addBytes appends b to the current string.
func (w *utf8Writer) addBytes(b []byte) { w.at += copy(w.data[w.at:], b) }

// end closes the current string as a value.
func (w *utf8Writer) end() {
	if w.validity != nil {
		w.validity[w.n/8] |= 1 << (w.n % 8)
	}
	w.n++
	w.offsets[w.n] = int32(w.at)
}

// null closes the current row as null (nullable columns only).
func (w *utf8Writer) null() {
	w.col.nulls++
	w.n++
	w.offsets[w.n] = int32(w.at)
}

// utf8ColumnOf is a utf8 column of values (nil entries are nulls when
// nullable; without nullable none may be nil).
func utf8ColumnOf(name string, values []*string, nullable bool) (*cColumn, error) {
	bytes := 0
	for _, v := range values {
		if v != nil {
			bytes += len(*v)
		}
	}
	w, err := newUTF8Column(name, len(values), bytes, nullable)
	if err != nil {
		return nil, err
	}
	for _, v := range values {
		if v == nil {
			w.null()
			continue
		}
		w.add(*v)
		w.end()
	}
	return w.col, nil
}

// stringColumnOf is a non-null utf8 column of values.
func stringColumnOf(name string, values []string) (*cColumn, error) {
	bytes := 0
	for _, v := range values {
		bytes += len(v)
	}
	w, err := newUTF8Column(name, len(values), bytes, false)
	if err != nil {
		return nil, err
	}
	for _, v := range values {
		w.add(v)
		w.end()
	}
	return w.col, nil
}

// utf8Field is one utf8 column of a batch built by utf8Batch.
type utf8Field struct {
	name     string
	values   []*string // nil entries are nulls (nullable fields only)
	nullable bool
}

// utf8Batch is a record batch of utf8 columns, in order, of rows rows
// each; when a column cannot be made, those already made are freed.
func utf8Batch(rows int, fields ...utf8Field) (*cColumn, error) {
	cols := make([]*cColumn, 0, len(fields))
	for _, f := range fields {
		c, err := utf8ColumnOf(f.name, f.values, f.nullable)
		if err != nil {
			for _, made := range cols {
				made.free()
			}
			return nil, err
		}
		cols = append(cols, c)
	}
	return newStructColumn("", rows, cols...), nil
}

// newListColumn is a non-null list column of rows lists over child, and
// the rows+1 int32 offsets to fill.
func newListColumn(name string, rows int, child *cColumn) (*cColumn, []int32) {
	p := cAlloc(4 * (rows + 1))
	child.name = "item"
	return &cColumn{name: name, format: formatList, length: int64(rows), buffers: []unsafe.Pointer{nil, p},
		children: []*cColumn{child}}, unsafe.Slice((*int32)(p), rows+1)
}

// newStructColumn is a non-null struct of rows rows over the children (a
// record batch is one of these).
func newStructColumn(name string, rows int, children ...*cColumn) *cColumn {
	return &cColumn{name: name, format: formatStruct, length: int64(rows), buffers: []unsafe.Pointer{nil},
		children: children}
}

// exportBatch hands batch (a struct column) to the caller's structs, which
// own it from then on: its buffers are theirs to release.
func exportBatch(batch *cColumn, schema *C.struct_ArrowSchema, array *C.struct_ArrowArray) {
	exportSchema(batch, schema)
	exportArray(batch, array)
}

func exportSchema(c *cColumn, s *C.struct_ArrowSchema) {
	// Every field is declared nullable, as pyarrow's fields are by default,
	// so schemas compare equal to those built in Python; nullable says
	// whether a validity bitmap is written.
	C.llenvs_cdata_init_schema(s, c.format, c.name, C.ARROW_FLAG_NULLABLE, C.int64_t(len(c.children)))
	// The child pointers are C memory, read from Go: one cgo call per node, not one per child.
	kids := unsafe.Slice(s.children, len(c.children))
	for i, k := range c.children {
		exportSchema(k, kids[i])
	}
}

func exportArray(c *cColumn, a *C.struct_ArrowArray) {
	C.llenvs_cdata_init_array(a, C.int64_t(c.length), C.int64_t(c.nulls), C.int64_t(len(c.buffers)),
		C.int64_t(len(c.children)))
	bufs := unsafe.Slice(a.buffers, len(c.buffers))
	for i, b := range c.buffers {
		bufs[i] = b
	}
	kids := unsafe.Slice(a.children, len(c.children))
	for i, k := range c.children {
		exportArray(k, kids[i])
	}
}
