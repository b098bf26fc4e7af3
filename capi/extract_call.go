package main

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"fmt"
	"strings"

	"github.com/llenvs/llenvs-go/clean"
	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// extractRequest is the request of the "extract" method of llenvs_call:
//
//	{"extractor": {"type": name, "config": {...}} | [{"type": ..., "config": ...}, ...],
//	 "pre_cleaners": [...] | null, "post_cleaners": [...] | null, "texts": [str, ...]}
//
// The extractor is built as an environment configured with the same
// answer_extractor / answer_extractor_config (a mapping) or
// answer_extractors (a list, a composite chain) and cleaners would build
// it, so both report the same answer and metadata for a text.
type extractRequest struct {
	Extractor    any      `json:"extractor"`
	PreCleaners  []any    `json:"pre_cleaners"`
	PostCleaners []any    `json:"post_cleaners"`
	Texts        []string `json:"texts"`
}

// cleanRequest is the request of the "clean" method of llenvs_call:
//
//	{"kind": "pre" | "post", "cleaners": [name | {"type": ..., "config": {...}}, ...], "texts": [str, ...]}
type cleanRequest struct {
	Kind     string   `json:"kind"`
	Cleaners []any    `json:"cleaners"`
	Texts    []string `json:"texts"`
}

// buildRequestExtractor builds the extractor an extract request names,
// through core.BuildExtractor, the function environments use.
func buildRequestExtractor(r extractRequest) (extract.Extractor, error) {
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

// callExtract serves the "extract" method: the response is a JSON list
// with one {"answer": str | null, "metadata": {...}} per text, the
// metadata being what the extractor's Describe reports, as in rich
// scoring results.
func callExtract(raw map[string]any) ([]byte, error) {
	for _, k := range []string{"pre_cleaners", "post_cleaners"} {
		if v, ok := raw[k]; ok && v == nil {
			delete(raw, k) // null: no cleaners, as when the key is absent
		}
	}
	var r extractRequest
	if err := strictcfg.Decode("extract request", raw, &r); err != nil {
		return nil, err
	}
	ex, err := buildRequestExtractor(r)
	if err != nil {
		return nil, err
	}
	xs := make([]extract.Extraction, len(r.Texts))
	core.ParallelFor(len(xs), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xs[i] = ex.Extract(r.Texts[i])
		}
	})
	buf := make([]byte, 0, 2+len(xs)*96)
	buf = append(buf, '[')
	for i, x := range xs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"answer":`...)
		if x.Found {
			buf = appendJSONString(buf, x.Answer)
		} else {
			buf = append(buf, "null"...)
		}
		buf = append(buf, `,"metadata":`...)
		buf = appendJSON(buf, ex.Describe(x))
		buf = append(buf, '}')
	}
	return append(buf, ']'), nil
}

// callClean serves the "clean" method: the texts, each passed through the
// cleaners in order, as a JSON list of strings.
func callClean(raw map[string]any) ([]byte, error) {
	var r cleanRequest
	if err := strictcfg.Decode("clean request", raw, &r); err != nil {
		return nil, err
	}
	if r.Kind != "pre" && r.Kind != "post" {
		return nil, fmt.Errorf("clean: invalid cleaner kind %q: must be \"pre\" or \"post\" (pre-cleaners: %s; post-cleaners: %s; either, as a mapping: %s)",
			r.Kind, strings.Join(clean.Names("pre"), ", "), strings.Join(clean.Names("post"), ", "),
			strings.Join(clean.ParameterizedNames(), ", "))
	}
	cs, err := clean.Resolve(r.Kind, r.Cleaners)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(r.Texts))
	core.ParallelFor(len(out), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s := r.Texts[i]
			for _, c := range cs {
				s = c(s)
			}
			out[i] = s
		}
	})
	buf := make([]byte, 0, 2+len(out)*16)
	buf = append(buf, '[')
	for i, s := range out {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendJSONString(buf, s)
	}
	return append(buf, ']'), nil
}

// rawReply decodes the request of a method whose reply f encodes itself
// and hands the reply, or the error, back through out.
func rawReply(f func(map[string]any) ([]byte, error), req *C.char, reqLen C.size_t, out **C.char, outLen *C.size_t) C.int32_t {
	raw, err := decodeObject(input(req, reqLen))
	if err == nil {
		var b []byte
		if b, err = f(raw); err == nil {
			toC(b, out, outLen)
			return statusOK
		}
	}
	return fail(err, out, outLen)
}
