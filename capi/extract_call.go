package main

/*
#include <stdint.h>
#include <stddef.h>
#include "llenvs.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/llenvs/llenvs-go/clean"
	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/toolcall"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// extractSpec is the spec of llenvs_extract_texts (JSON):
//
//	{"extractor": {"type": name, "config": {...}} | [{"type": ..., "config": ...}, ...],
//	 "pre_cleaners": [...] | null, "post_cleaners": [...] | null}
//
// The extractor is built as an environment configured with the same
// answer_extractor / answer_extractor_config (a mapping) or
// answer_extractors (a list, a composite chain) and cleaners would build
// it, so both report the same answer and metadata for a text.
type extractSpec struct {
	Extractor    any   `json:"extractor"`
	PreCleaners  []any `json:"pre_cleaners"`
	PostCleaners []any `json:"post_cleaners"`
}

// cleanSpec is the spec of llenvs_clean_texts (JSON):
//
//	{"kind": "pre" | "post", "cleaners": [name | {"type": ..., "config": {...}}, ...]}
type cleanSpec struct {
	Kind     string `json:"kind"`
	Cleaners []any  `json:"cleaners"`
}

// buildRequestExtractor builds the extractor an extract spec names,
// through core.BuildExtractor, the function environments use.
func buildRequestExtractor(r extractSpec) (extract.Extractor, error) {
	cfg := core.EnvConfig{PreCleaners: r.PreCleaners, PostCleaners: r.PostCleaners}
	switch spec := r.Extractor.(type) {
	case map[string]any:
		var s struct {
			Type   *string        `json:"type"`
			Config map[string]any `json:"config"`
		}
		if err := strictcfg.Decode("extractor", spec, &s); err != nil {
			return nil, err
		}
		if s.Type == nil {
			return nil, fmt.Errorf("extractor: \"type\" is required (one of: %s)", strings.Join(extract.Names(), ", "))
		}
		if *s.Type == "native" {
			return nil, nativeExtractorError("extractor")
		}
		cfg.AnswerExtractor, cfg.AnswerExtractorConfig = *s.Type, s.Config
	case []any:
		for i, e := range spec {
			if m, ok := e.(map[string]any); ok && m["type"] == "native" {
				return nil, nativeExtractorError(fmt.Sprintf("extractor[%d]", i))
			}
		}
		cfg.AnswerExtractors = spec
	case nil:
		return nil, fmt.Errorf("extract: \"extractor\" is required: {\"type\": name, \"config\": {...}} or a list of them (one of: %s)",
			strings.Join(extract.Names(), ", "))
	default:
		return nil, fmt.Errorf("extract: \"extractor\" must be {\"type\": name, \"config\": {...}} or a list of them, got %T", spec)
	}
	return core.BuildExtractor(cfg)
}

func nativeExtractorError(what string) error {
	return fmt.Errorf("%s: \"native\" extraction calls a Python function and cannot be built in the Go core; "+
		"use llenvs_go.core.extraction.NativeExtractor, or one of: %s", what, strings.Join(extract.Names(), ", "))
}

// decodeExtractor decodes an extract spec and builds its extractor.
func decodeExtractor(spec []byte) (extract.Extractor, error) {
	raw, err := decodeObject(spec)
	if err != nil {
		return nil, fmt.Errorf("extract spec: %w", err)
	}
	for _, k := range []string{"pre_cleaners", "post_cleaners"} {
		if v, ok := raw[k]; ok && v == nil {
			delete(raw, k) // null: no cleaners, as when the key is absent
		}
	}
	var r extractSpec
	if err := strictcfg.Decode("extract spec", raw, &r); err != nil {
		return nil, err
	}
	return buildRequestExtractor(r)
}

// extractedBatch is the record batch of llenvs_extract_texts: per text,
// answer (nullable utf8: null where nothing was found) and metadata (utf8:
// the JSON object the extractor's Describe reports, as in rich scoring
// results).
func extractedBatch(ex extract.Extractor, texts []string) (*cColumn, error) {
	answers := make([]*string, len(texts))
	metas := make([]*string, len(texts))
	core.ParallelFor(len(texts), func(lo, hi int) {
		var buf []byte
		for i := lo; i < hi; i++ {
			x := ex.Extract(texts[i])
			if x.Found {
				a := x.Answer
				answers[i] = &a
			}
			buf = appendJSON(buf[:0], ex.Describe(x))
			m := string(buf)
			metas[i] = &m
		}
	})
	return utf8Batch(len(texts), utf8Field{"answer", answers, true}, utf8Field{"metadata", metas, false})
}

// decodeCleaners decodes a clean spec into its cleaners, in order.
func decodeCleaners(spec []byte) ([]clean.Cleaner, error) {
	raw, err := decodeObject(spec)
	if err != nil {
		return nil, fmt.Errorf("clean spec: %w", err)
	}
	var r cleanSpec
	if err := strictcfg.Decode("clean spec", raw, &r); err != nil {
		return nil, err
	}
	if r.Kind != "pre" && r.Kind != "post" {
		return nil, fmt.Errorf("clean: invalid cleaner kind %q: must be \"pre\" or \"post\" (pre-cleaners: %s; post-cleaners: %s; either, as a mapping: %s)",
			r.Kind, strings.Join(clean.Names("pre"), ", "), strings.Join(clean.Names("post"), ", "),
			strings.Join(clean.ParameterizedNames(), ", "))
	}
	return clean.Resolve(r.Kind, r.Cleaners)
}

// cleanedBatch is the record batch of llenvs_clean_texts: per text, text
// (utf8), the text passed through the cleaners in order.
func cleanedBatch(cs []clean.Cleaner, texts []string) (*cColumn, error) {
	out := make([]*string, len(texts))
	core.ParallelFor(len(out), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s := texts[i]
			for _, c := range cs {
				s = c(s)
			}
			out[i] = &s
		}
	})
	return utf8Batch(len(texts), utf8Field{"text", out, false})
}

// textViews views n texts given as C arrays of pointers and byte lengths
// (caller memory, read only during the call).
func textViews(texts **C.char, lens *C.int64_t, n C.size_t) ([]string, error) {
	count := int(n)
	if count == 0 {
		return nil, nil
	}
	if texts == nil || lens == nil {
		return nil, errors.New("texts or lens is NULL")
	}
	ptrs := unsafe.Slice((**C.char)(unsafe.Pointer(texts)), count)
	ls := unsafe.Slice((*int64)(unsafe.Pointer(lens)), count)
	strs := make([]string, count)
	for k := range strs {
		if ls[k] < 0 || (ls[k] > 0 && ptrs[k] == nil) {
			return nil, fmt.Errorf("texts[%d]: invalid pointer or length %d", k, ls[k])
		}
		if ls[k] > 0 {
			strs[k] = unsafe.String((*byte)(unsafe.Pointer(ptrs[k])), int(ls[k]))
		}
	}
	return strs, nil
}

// llenvsgo_extract_texts fills schema and array with extractedBatch of
// texts[k] (lens[k] bytes) for k < n, under the extractor spec (JSON).
//
//export llenvsgo_extract_texts
func llenvsgo_extract_texts(spec *C.char, specLen C.size_t, texts **C.char, lens *C.int64_t, n C.size_t,
	schema *C.struct_ArrowSchema, array *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	if err := needBatchSlots(schema, array); err != nil {
		return fail(fmt.Errorf("extract_texts: %w", err), out, outLen)
	}
	ex, err := decodeExtractor(input(spec, specLen))
	if err != nil {
		return fail(err, out, outLen)
	}
	strs, err := textViews(texts, lens, n)
	if err != nil {
		return fail(fmt.Errorf("extract_texts: %w", err), out, outLen)
	}
	batch, err := extractedBatch(ex, strs)
	if err != nil {
		return fail(fmt.Errorf("extract_texts: %w", err), out, outLen)
	}
	exportBatch(batch, schema, array)
	return statusOK
}

// llenvsgo_clean_texts fills schema and array with cleanedBatch of
// texts[k] (lens[k] bytes) for k < n, under the cleaner spec (JSON).
//
//export llenvsgo_clean_texts
func llenvsgo_clean_texts(spec *C.char, specLen C.size_t, texts **C.char, lens *C.int64_t, n C.size_t,
	schema *C.struct_ArrowSchema, array *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	if err := needBatchSlots(schema, array); err != nil {
		return fail(fmt.Errorf("clean_texts: %w", err), out, outLen)
	}
	cs, err := decodeCleaners(input(spec, specLen))
	if err != nil {
		return fail(err, out, outLen)
	}
	strs, err := textViews(texts, lens, n)
	if err != nil {
		return fail(fmt.Errorf("clean_texts: %w", err), out, outLen)
	}
	batch, err := cleanedBatch(cs, strs)
	if err != nil {
		return fail(fmt.Errorf("clean_texts: %w", err), out, outLen)
	}
	exportBatch(batch, schema, array)
	return statusOK
}

// maxToolCallLimit bounds the calls read from one text by llenvs_parse_tool_calls.
const maxToolCallLimit = 1 << 12

// toolCallSpec is the JSON spec of llenvs_parse_tool_calls.
type toolCallSpec struct {
	Format   string `json:"format"`
	IDPrefix string `json:"id_prefix"`
	Limit    int    `json:"limit"`
}

// parsedBatch is the record batch of llenvs_parse_tool_calls, one row per
// text: calls (a list of structs {id, name, arguments, error}, one per
// call in order: arguments the JSON object text of the call's arguments,
// keys sorted; error null for a well-formed call, else why it is not one)
// and more (uint8, 1 when calls beyond the limit were left unread). Text
// that is not UTF-8 is made so as the JSON writer does (U+FFFD per invalid
// byte).
func parsedBatch(f toolcall.Format, texts []string, idPrefix string, limit int) (*cColumn, error) {
	parsed := toolcall.ParseTexts(f, texts, idPrefix, limit)
	first := make([]int, len(texts)+1) // the index of each text's first call
	for k, p := range parsed {
		first[k+1] = first[k] + len(p.Calls)
	}
	calls := first[len(texts)]
	// The arguments as JSON (most of the batch's work), in parallel: per text one buffer, the end of each
	// call's object in argEnds.
	args := make([][]byte, len(texts))
	argEnds := make([]int, calls)
	core.ParallelFor(len(texts), func(lo, hi int) {
		// One buffer for the chunk: each text's arguments are a slice of it (or of an earlier, smaller one).
		b := make([]byte, 0, 64*(first[hi]-first[lo]))
		for k := lo; k < hi; k++ {
			b = b[len(b):]
			for j := range parsed[k].Calls {
				c := &parsed[k].Calls[j]
				if c.Call.Arguments == nil {
					b = append(b, "{}"...)
				} else {
					b = appendJSON(b, c.Call.Arguments)
				}
				argEnds[first[k]+j] = len(b)
				c.Call.ID, c.Call.Name, c.Err = validUTF8(c.Call.ID), validUTF8(c.Call.Name), validUTF8(c.Err)
			}
			args[k] = b
		}
	})
	idBytes, nameBytes, argBytes, errBytes := 0, 0, 0, 0
	for k, p := range parsed {
		argBytes += len(args[k])
		for _, c := range p.Calls {
			idBytes += len(c.Call.ID)
			nameBytes += len(c.Call.Name)
			errBytes += len(c.Err)
		}
	}
	var cols []*utf8Writer
	for _, c := range []struct {
		name     string
		bytes    int
		nullable bool
	}{{"id", idBytes, false}, {"name", nameBytes, false}, {"arguments", argBytes, false}, {"error", errBytes, true}} {
		w, err := newUTF8Column(c.name, calls, c.bytes, c.nullable)
		if err != nil {
			for _, made := range cols {
				made.col.free()
			}
			return nil, err
		}
		cols = append(cols, w)
	}
	ids, names, argCol, errs := cols[0], cols[1], cols[2], cols[3]
	more, moreValues := newFixedColumn[uint8]("more", formatUint8, len(texts))
	list, offsets := newListColumn("calls", len(texts), newStructColumn("", calls, ids.col, names.col,
		argCol.col, errs.col))
	offsets[0] = 0
	for k, p := range parsed {
		a, at := args[k], 0
		for j, c := range p.Calls {
			ids.add(c.Call.ID)
			ids.end()
			names.add(c.Call.Name)
			names.end()
			end := argEnds[first[k]+j]
			argCol.addBytes(a[at:end])
			argCol.end()
			at = end
			if c.Err == "" {
				errs.null()
			} else {
				errs.add(c.Err)
				errs.end()
			}
		}
		offsets[k+1] = int32(first[k+1])
		moreValues[k] = 0
		if p.More {
			moreValues[k] = 1
		}
	}
	return newStructColumn("", len(texts), list, more), nil
}

// validUTF8 is s with each byte that is not part of valid UTF-8 replaced by
// U+FFFD, as the JSON writer writes it.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// llenvsgo_parse_tool_calls fills schema and array with parsedBatch of
// texts[k] (lens[k] bytes) for k < n, under the spec (JSON: {"format",
// "id_prefix", "limit"}).
//
//export llenvsgo_parse_tool_calls
func llenvsgo_parse_tool_calls(spec *C.char, specLen C.size_t, texts **C.char, lens *C.int64_t, n C.size_t,
	schema *C.struct_ArrowSchema, array *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	if err := needBatchSlots(schema, array); err != nil {
		return fail(fmt.Errorf("parse_tool_calls: %w", err), out, outLen)
	}
	raw, err := decodeObject(input(spec, specLen))
	if err != nil {
		return fail(fmt.Errorf("parse_tool_calls spec: %w", err), out, outLen)
	}
	var r toolCallSpec
	if err := strictcfg.Decode("parse_tool_calls spec", raw, &r); err != nil {
		return fail(err, out, outLen)
	}
	f, err := toolcall.FormatByName(r.Format)
	if err != nil {
		return fail(err, out, outLen)
	}
	if r.Limit < 1 || r.Limit > maxToolCallLimit {
		return fail(fmt.Errorf("parse_tool_calls: limit must be from 1 to %d, got %d", maxToolCallLimit, r.Limit),
			out, outLen)
	}
	strs, err := textViews(texts, lens, n)
	if err != nil {
		return fail(fmt.Errorf("parse_tool_calls: %w", err), out, outLen)
	}
	batch, err := parsedBatch(f, strs, r.IDPrefix, r.Limit)
	if err != nil {
		return fail(fmt.Errorf("parse_tool_calls: %w", err), out, outLen)
	}
	exportBatch(batch, schema, array)
	return statusOK
}
