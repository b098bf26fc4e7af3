package main

/*
#include <stdint.h>
#include <stddef.h>
#include "llenvs.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/verify"
)

// Math answer verification (llenvs_math_parse, llenvs_math_verify_batch,
// llenvs_math_verify): the ABI glue over package verify, which also
// decodes the configurations and options (verify.DecodeExtractConfig,
// verify.DecodeOptions).
//
// A parsed value crosses as its encoding (verify.Encode). Each side of a
// comparison is a column of items: item i is either a text to parse
// (kind mathItemText, one string) or a list of encodings (kind
// mathItemValues, any number of strings), the strings laid out as one
// buffer with offsets and grouped into items by a second offsets array.

// Kinds of items (LLENVS_MATH_TEXT, LLENVS_MATH_VALUES).
const (
	mathItemText   = 0
	mathItemValues = 1
)

// mathItems is one side of a batch as it crosses the ABI: per-item kinds
// (nil: every item a text), per-item offsets into the strings (nil: item i
// is string i) and the strings (a Go copy, see copied).
type mathItems struct {
	kinds []uint8
	items []int64
	strs  textColumnView
}

// mathItemsOf checks one side of a batch of n items.
func mathItemsOf(kinds *C.uint8_t, buf *C.char, offsets *C.int64_t, items *C.int64_t, n int, what string) (mathItems, error) {
	var m mathItems
	count := n
	if items != nil {
		offs, err := offsetsOf(items, n, what+" items")
		if err != nil {
			return m, err
		}
		m.items, count = offs, int(offs[n])
	}
	strs, err := textColumn(buf, offsets, count, what)
	if err != nil {
		return m, err
	}
	m.strs = copied(strs, count)
	if kinds != nil {
		m.kinds = cSlice[uint8](unsafe.Pointer(kinds), n)
	}
	return m, m.check(n, what)
}

// check checks the kinds of n items and that each text is one string.
func (m mathItems) check(n int, what string) error {
	for i := 0; i < n; i++ {
		lo, hi := m.span(i)
		switch k := m.kind(i); {
		case k == mathItemText && hi-lo != 1:
			return fmt.Errorf("%s item %d is a text but has %d strings", what, i, hi-lo)
		case k != mathItemText && k != mathItemValues:
			return fmt.Errorf("%s item %d has kind %d (want %d, a text, or %d, encoded values)", what, i, k,
				mathItemText, mathItemValues)
		}
	}
	return nil
}

// copied is the n strings of a column moved into one Go string: parsing
// views of the caller's memory measured about 15% slower in bench_math
// than parsing the same bytes on the Go heap, which one copy costs far
// less than.
func copied(c textColumnView, n int) textColumnView {
	if total := c.offs[n]; total > 0 {
		all := string(cSlice[byte](c.buf, int(total)))
		c.buf = unsafe.Pointer(unsafe.StringData(all))
	}
	return c
}

func (m mathItems) kind(i int) uint8 {
	if m.kinds == nil {
		return mathItemText
	}
	return m.kinds[i]
}

func (m mathItems) span(i int) (lo, hi int) {
	if m.items == nil {
		return i, i + 1
	}
	return int(m.items[i]), int(m.items[i+1])
}

// values is item i: a text parsed under cfg or its decoded encodings.
func (m mathItems) values(i int, cfg verify.ExtractConfig, budget verify.Budget) ([]verify.Value, error) {
	lo, hi := m.span(i)
	if m.kind(i) == mathItemText {
		return verify.Parse(m.strs.at(lo), cfg)
	}
	return decodeValues(m.strs, lo, hi, budget)
}

// decodeValues decodes strings lo..hi-1 of strs as encodings.
func decodeValues(strs textColumnView, lo, hi int, budget verify.Budget) ([]verify.Value, error) {
	if hi == lo {
		return nil, nil
	}
	out := make([]verify.Value, 0, hi-lo)
	for j := lo; j < hi; j++ {
		v, err := verify.Decode(strs.at(j), budget)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// decodeMathOptions decodes the options of llenvs_math_verify_batch
// (Go-owned bytes).
func decodeMathOptions(b []byte) (verify.BatchOptions, error) {
	raw, err := decodeObject(b)
	if err != nil {
		return verify.BatchOptions{}, err
	}
	return verify.DecodeOptions(raw)
}

// decodeExtractConfig decodes the configuration of llenvs_math_parse
// (Go-owned bytes; empty: the default).
func decodeExtractConfig(b []byte) (verify.ExtractConfig, error) {
	var raw any
	if len(b) > 0 {
		if err := unmarshal(b, &raw); err != nil {
			return verify.ExtractConfig{}, fmt.Errorf("malformed JSON configuration: %w", err)
		}
	}
	return verify.DecodeExtractConfig(raw, "extraction config")
}

// mathParsed is one text's parse: its values with their encodings, or the
// error that stopped it.
type mathParsed struct {
	vals []verify.Value
	encs []string
	err  error
}

// parseText parses one text and encodes its values.
func parseText(text string, cfg verify.ExtractConfig) (p mathParsed, encErr error) {
	p.vals, p.err = verify.Parse(text, cfg)
	if p.err != nil {
		return p, nil
	}
	p.encs = make([]string, len(p.vals))
	for j, v := range p.vals {
		if p.encs[j], encErr = verify.Encode(v); encErr != nil {
			return p, encErr
		}
	}
	return p, nil
}

//export llenvsgo_math_parse
func llenvsgo_math_parse(buf *C.char, offsets *C.int64_t, n C.size_t, cfgJSON *C.char, cfgLen C.size_t,
	schema *C.struct_ArrowSchema, array *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	bad := func(err error) C.int32_t { return fail(fmt.Errorf("math_parse: %w", err), out, outLen) }
	texts, err := textColumn(buf, offsets, int(n), "text")
	if err != nil {
		return bad(err)
	}
	texts = copied(texts, int(n))
	if schema == nil || array == nil {
		return bad(fmt.Errorf("schema and array must not be NULL"))
	}
	cfg, err := decodeExtractConfig(input(cfgJSON, cfgLen))
	if err != nil {
		return bad(err)
	}
	parsed := make([]mathParsed, n)
	encErrs := make([]error, n)
	core.ParallelFor(int(n), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			parsed[i], encErrs[i] = parseText(texts.at(i), cfg)
		}
	})
	for _, err := range encErrs {
		if err != nil {
			return bad(err)
		}
	}
	batch, err := parseBatch(parsed)
	if err != nil {
		return bad(err)
	}
	exportBatch(batch, schema, array)
	return statusOK
}

// parseBatch lays out the parses as a record batch, one row per text:
// values list<struct<encoding, display, kind: utf8>> (empty for a text
// whose parse failed) and error (nullable utf8), written in place.
func parseBatch(parsed []mathParsed) (batch *cColumn, err error) {
	nvals, encBytes, dispBytes, kindBytes, errBytes := 0, 0, 0, 0, 0
	displays := make([][]string, len(parsed))
	for i := range parsed {
		p := &parsed[i]
		if p.err != nil {
			errBytes += len(p.err.Error())
			continue
		}
		displays[i] = make([]string, len(p.vals))
		for j, v := range p.vals {
			displays[i][j] = v.String()
			encBytes += len(p.encs[j])
			dispBytes += len(displays[i][j])
			kindBytes += len(v.Kind.String())
		}
		nvals += len(p.vals)
	}
	var made []*cColumn // freed if a later column cannot be made
	defer func() {
		if err != nil {
			for _, c := range made {
				c.free()
			}
		}
	}()
	utf8 := func(name string, rows, bytes int, nullable bool) *utf8Writer {
		if err != nil {
			return nil
		}
		var w *utf8Writer
		if w, err = newUTF8Column(name, rows, bytes, nullable); err == nil {
			made = append(made, w.col)
		}
		return w
	}
	enc := utf8("encoding", nvals, encBytes, false)
	disp := utf8("display", nvals, dispBytes, false)
	kind := utf8("kind", nvals, kindBytes, false)
	errText := utf8("error", len(parsed), errBytes, true)
	if err != nil {
		return nil, err
	}
	values, valOffsets := newListColumn("values", len(parsed), newStructColumn("item", nvals, enc.col, disp.col, kind.col))
	valOffsets[0] = 0
	at := 0
	for i := range parsed {
		p := &parsed[i]
		if p.err != nil {
			errText.add(p.err.Error())
			errText.end()
		} else {
			errText.null()
			for j, v := range p.vals {
				enc.add(p.encs[j])
				enc.end()
				disp.add(displays[i][j])
				disp.end()
				kind.add(v.Kind.String())
				kind.end()
			}
			at += len(p.vals)
		}
		valOffsets[i+1] = int32(at)
	}
	return newStructColumn("", len(parsed), values, errText.col), nil
}

//export llenvsgo_math_verify_batch
func llenvsgo_math_verify_batch(goldKinds *C.uint8_t, golds *C.char, goldOffsets *C.int64_t, goldItems *C.int64_t,
	predKinds *C.uint8_t, preds *C.char, predOffsets *C.int64_t, predItems *C.int64_t, n C.size_t,
	optsJSON *C.char, optsLen C.size_t, scores *C.double, verdicts *C.uint8_t,
	reasonsSchema *C.struct_ArrowSchema, reasonsArray *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	bad := func(err error) C.int32_t { return fail(fmt.Errorf("math_verify: %w", err), out, outLen) }
	g, err := mathItemsOf(goldKinds, golds, goldOffsets, goldItems, int(n), "gold")
	if err != nil {
		return bad(err)
	}
	p, err := mathItemsOf(predKinds, preds, predOffsets, predItems, int(n), "prediction")
	if err != nil {
		return bad(err)
	}
	o, err := decodeMathOptions(input(optsJSON, optsLen))
	if err != nil {
		return bad(err)
	}
	if o.Reasons && (reasonsSchema == nil || reasonsArray == nil) {
		return bad(fmt.Errorf("reasons asked for, but reasons_schema or reasons_array is NULL"))
	}
	sc := cSlice[float64](unsafe.Pointer(scores), int(n))
	vd := cSlice[uint8](unsafe.Pointer(verdicts), int(n))
	var reasons []string
	if o.Reasons {
		reasons = make([]string, n)
	}
	core.ParallelFor(int(n), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ok, reason := verifyItem(g, p, i, o)
			if sc != nil {
				sc[i] = 0
				if ok {
					sc[i] = 1
				}
			}
			if vd != nil {
				vd[i] = 0
				if ok {
					vd[i] = 1
				}
			}
			if reasons != nil {
				reasons[i] = reason
			}
		}
	})
	if !o.Reasons {
		return statusOK
	}
	col, err := stringColumnOf("reason", reasons)
	if err != nil {
		return bad(err)
	}
	exportBatch(newStructColumn("", int(n), col), reasonsSchema, reasonsArray)
	return statusOK
}

//export llenvsgo_math_verify_one
func llenvsgo_math_verify_one(goldKind, predKind C.uint8_t, buf *C.char, offsets *C.int64_t, goldCount, predCount C.size_t,
	optsJSON *C.char, optsLen C.size_t, verdict *C.uint8_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	bad := func(err error) C.int32_t { return fail(fmt.Errorf("math_verify: %w", err), out, outLen) }
	ng, np := int(goldCount), int(predCount)
	strs, err := textColumn(buf, offsets, ng+np, "item")
	if err != nil {
		return bad(err)
	}
	strs = copied(strs, ng+np)
	// The pair is a batch of one whose gold is strings 0..ng-1 and whose
	// prediction is strings ng..ng+np-1 of the same column.
	g := mathItems{kinds: []uint8{uint8(goldKind)}, items: []int64{0, int64(ng)}, strs: strs}
	p := mathItems{kinds: []uint8{uint8(predKind)}, items: []int64{int64(ng), int64(ng + np)}, strs: strs}
	if err := g.check(1, "gold"); err != nil {
		return bad(err)
	}
	if err := p.check(1, "prediction"); err != nil {
		return bad(err)
	}
	o, err := decodeMathOptions(input(optsJSON, optsLen))
	if err != nil {
		return bad(err)
	}
	ok, reason := verifyItem(g, p, 0, o)
	if verdict != nil {
		*verdict = 0
		if ok {
			*verdict = 1
		}
	}
	if o.Reasons {
		toC([]byte(reason), out, outLen)
	}
	return statusOK
}

// verifyItem compares pair i of golds and preds; an item that cannot be
// read or a budget overrun is a false verdict with its reason.
func verifyItem(golds, preds mathItems, i int, o verify.BatchOptions) (ok bool, reason string) {
	defer func() {
		if r := recover(); r != nil {
			ok, reason = false, fmt.Sprintf("internal error: %v", r)
		}
	}()
	gv, err := golds.values(i, o.Gold, o.Compare.Budget)
	if err != nil {
		return false, "gold: " + err.Error()
	}
	pv, err := preds.values(i, o.Pred, o.Compare.Budget)
	if err != nil {
		return false, "prediction: " + err.Error()
	}
	eq, r := verify.Equal(gv, pv, o.Compare)
	return eq, string(r)
}
