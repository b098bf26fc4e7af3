package main

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/strictcfg"
	"github.com/llenvs/llenvs-go/verify"
)

// Math answer verification (llenvs_math_parse, llenvs_math_verify_batch).
//
// An extraction configuration is the JSON object
//
//	{"targets": [{"kind": "latex" | "expr" | "string", "try_extract_without_anchor": bool,
//	              "boxed_match_priority": int, "normalization_config": {...},
//	              "strings": [str], "lowercase": bool}, ...],
//	 "fallback_mode": "first_match" | "no_fallback", "extraction_mode": "any_match" | "first_match"}
//
// (absent keys take math-verify's defaults). A parsed value crosses as
// its encoding (verify.Encode); a packed item is '\x02' followed by
// encodings separated by '\x1e', a text to parse is '\x01' followed by
// the text.

type targetJSON struct {
	Kind          string         `json:"kind"`
	TryNoAnchor   *bool          `json:"try_extract_without_anchor"`
	BoxedPriority *int64         `json:"boxed_match_priority"`
	Normalization map[string]any `json:"normalization_config"`
	Strings       []any          `json:"strings"`
	Lowercase     *bool          `json:"lowercase"`
}

type normJSON struct {
	BasicLatex         bool   `json:"basic_latex"`
	Units              bool   `json:"units"`
	MalformedOperators bool   `json:"malformed_operators"`
	Nits               bool   `json:"nits"`
	Boxed              string `json:"boxed"`
	Equations          bool   `json:"equations"`
}

// extractConfig decodes an extraction configuration (nil: the default).
func extractConfig(raw any, what string) (verify.ExtractConfig, error) {
	if raw == nil {
		return verify.DefaultExtractConfig, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return verify.ExtractConfig{}, fmt.Errorf("%s must be a mapping, got %T", what, raw)
	}
	var c struct {
		Targets  []any  `json:"targets"`
		Fallback string `json:"fallback_mode"`
		Mode     string `json:"extraction_mode"`
	}
	c.Fallback, c.Mode = "first_match", "any_match"
	if err := strictcfg.Decode(what, m, &c); err != nil {
		return verify.ExtractConfig{}, err
	}
	cfg := verify.ExtractConfig{}
	switch c.Fallback {
	case "first_match":
		cfg.FirstMatchFallback = true
	case "no_fallback":
	default:
		return cfg, fmt.Errorf("%s: fallback_mode must be \"first_match\" or \"no_fallback\", got %q", what, c.Fallback)
	}
	switch c.Mode {
	case "any_match":
	case "first_match":
		cfg.FirstMatchOnly = true
	default:
		return cfg, fmt.Errorf("%s: extraction_mode must be \"any_match\" or \"first_match\", got %q", what, c.Mode)
	}
	if m["targets"] == nil {
		cfg.Targets = verify.DefaultExtractConfig.Targets
		return cfg, nil
	}
	for i, t := range c.Targets {
		tm, ok := t.(map[string]any)
		if !ok {
			return cfg, fmt.Errorf("%s: targets[%d] must be a mapping, got %T", what, i, t)
		}
		var tj targetJSON
		if err := strictcfg.Decode(fmt.Sprintf("%s targets[%d]", what, i), tm, &tj); err != nil {
			return cfg, err
		}
		var tg verify.Target
		switch tj.Kind {
		case "latex":
			tg = verify.DefaultLatexTarget
			if tj.BoxedPriority != nil {
				tg.BoxedPriority = int(*tj.BoxedPriority)
			}
			if tj.Normalization != nil {
				n := normJSON{Boxed: "all", BasicLatex: true}
				if err := strictcfg.Decode(fmt.Sprintf("%s targets[%d] normalization_config", what, i), tj.Normalization, &n); err != nil {
					return cfg, err
				}
				if n.Boxed != "all" && n.Boxed != "last" && n.Boxed != "none" {
					return cfg, fmt.Errorf("%s targets[%d]: normalization_config boxed must be \"all\", \"last\" or \"none\", got %q", what, i, n.Boxed)
				}
				tg.Norm = verify.NormConfig(n)
			}
		case "expr":
			tg = verify.DefaultExprTarget
		case "string":
			tg = verify.DefaultStringTarget
			if tj.Strings != nil {
				tg.Strings = nil
				for _, s := range tj.Strings {
					str, ok := s.(string)
					if !ok {
						return cfg, fmt.Errorf("%s targets[%d]: strings must be strings, got %T", what, i, s)
					}
					tg.Strings = append(tg.Strings, str)
				}
			}
			if tj.Lowercase != nil {
				tg.Lowercase = *tj.Lowercase
			}
		default:
			return cfg, strictcfg.NotFound("extraction target kind", tj.Kind, "", []string{"expr", "latex", "string"})
		}
		if tj.TryNoAnchor != nil {
			tg.TryWithoutAnchor = *tj.TryNoAnchor
		}
		cfg.Targets = append(cfg.Targets, tg)
	}
	return cfg, nil
}

// mathOptions is the options object of llenvs_math_verify_batch.
type mathOptions struct {
	FloatRounding    int64 `json:"float_rounding"`
	NumericPrecision int64 `json:"numeric_precision"`
	Strict           bool  `json:"strict"`
	AllowSetRelation bool  `json:"allow_set_relation_comp"`
	Reasons          bool  `json:"reasons"`
	GoldExtraction   any   `json:"gold_extraction"`
	PredExtraction   any   `json:"pred_extraction"`
}

// decodeMathOptions decodes the options of llenvs_math_verify_batch
// (Go-owned bytes): the options as given, the gold and prediction
// extraction configurations and the comparison options.
func decodeMathOptions(b []byte) (o mathOptions, goldCfg, predCfg verify.ExtractConfig, opt verify.Options, err error) {
	raw, err := decodeObject(b)
	if err != nil {
		return o, goldCfg, predCfg, opt, err
	}
	o = mathOptions{FloatRounding: 6, NumericPrecision: 15, Strict: true}
	if err = strictcfg.Decode("math_verify options", raw, &o); err != nil {
		return o, goldCfg, predCfg, opt, err
	}
	if o.FloatRounding < 0 || o.FloatRounding > 100 {
		return o, goldCfg, predCfg, opt, fmt.Errorf("float_rounding must be between 0 and 100, got %d", o.FloatRounding)
	}
	if goldCfg, err = extractConfig(o.GoldExtraction, "gold_extraction"); err != nil {
		return o, goldCfg, predCfg, opt, err
	}
	if predCfg, err = extractConfig(o.PredExtraction, "pred_extraction"); err != nil {
		return o, goldCfg, predCfg, opt, err
	}
	opt = verify.Options{FloatRounding: int(o.FloatRounding), NumericPrecision: int(o.NumericPrecision),
		NonStrict: !o.Strict, AllowSetRelation: o.AllowSetRelation}
	return o, goldCfg, predCfg, opt, nil
}

// parsedItem decodes one item: a text to parse or packed encodings.
func parsedItem(s string, cfg verify.ExtractConfig, budget verify.Budget) ([]verify.Value, error) {
	if s == "" {
		return nil, fmt.Errorf("empty item (it must start with \\x01 or \\x02)")
	}
	switch s[0] {
	case 1:
		return verify.Parse(s[1:], cfg)
	case 2:
		if len(s) == 1 {
			return nil, nil
		}
		parts := strings.Split(s[1:], "\x1e")
		out := make([]verify.Value, 0, len(parts))
		for _, p := range parts {
			v, err := verify.Decode(p, budget)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("item starts with byte %d (it must start with \\x01 or \\x02)", s[0])
}

// stringsOf copies n strings given as a buffer and n+1 offsets.
func stringsOf(buf *C.char, offsets *C.int64_t, n int, what string) ([]string, error) {
	offs, err := offsetsOf(offsets, n, what)
	if err != nil {
		return nil, err
	}
	total := offs[n]
	if total > 0 && buf == nil {
		return nil, fmt.Errorf("%s buffer is NULL", what)
	}
	all := string(cSlice[byte](unsafe.Pointer(buf), int(total)))
	out := make([]string, n)
	for i := range out {
		out[i] = all[offs[i]:offs[i+1]]
	}
	return out, nil
}

//export llenvsgo_math_parse
func llenvsgo_math_parse(buf *C.char, offsets *C.int64_t, n C.size_t, cfgJSON *C.char, cfgLen C.size_t,
	out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	bad := func(err error) C.int32_t { return fail(fmt.Errorf("math_parse: %w", err), out, outLen) }
	texts, err := stringsOf(buf, offsets, int(n), "text")
	if err != nil {
		return bad(err)
	}
	var raw any
	if b := input(cfgJSON, cfgLen); len(b) > 0 {
		if err := unmarshal(b, &raw); err != nil {
			return bad(fmt.Errorf("malformed JSON configuration: %w", err))
		}
	}
	cfg, err := extractConfig(raw, "extraction config")
	if err != nil {
		return bad(err)
	}
	results := make([][]verify.Value, len(texts))
	errs := make([]error, len(texts))
	core.ParallelFor(len(texts), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			results[i], errs[i] = verify.Parse(texts[i], cfg)
		}
	})
	// [[[encoding, display, kind], ...] | {"error": message}, ...]
	b := make([]byte, 0, 64*len(texts)+2)
	b = append(b, '[')
	for i, vals := range results {
		if i > 0 {
			b = append(b, ',')
		}
		if errs[i] != nil {
			b = append(b, `{"error":`...)
			b = appendJSONString(b, errs[i].Error())
			b = append(b, '}')
			continue
		}
		b = append(b, '[')
		for j, v := range vals {
			enc, err := verify.Encode(v)
			if err != nil {
				return bad(err)
			}
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = appendJSONStringSurrogates(b, enc)
			b = append(b, ',')
			b = appendJSONStringSurrogates(b, v.String())
			b = append(b, ',')
			b = appendJSONString(b, v.Kind.String())
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	b = append(b, ']')
	toC(b, out, outLen)
	return statusOK
}

//export llenvsgo_math_verify_batch
func llenvsgo_math_verify_batch(golds *C.char, goldOffsets *C.int64_t, preds *C.char, predOffsets *C.int64_t, n C.size_t,
	optsJSON *C.char, optsLen C.size_t, scores *C.double, verdicts *C.uint8_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	bad := func(err error) C.int32_t { return fail(fmt.Errorf("math_verify: %w", err), out, outLen) }
	g, err := stringsOf(golds, goldOffsets, int(n), "gold")
	if err != nil {
		return bad(err)
	}
	p, err := stringsOf(preds, predOffsets, int(n), "prediction")
	if err != nil {
		return bad(err)
	}
	o, goldCfg, predCfg, opt, err := decodeMathOptions(input(optsJSON, optsLen))
	if err != nil {
		return bad(err)
	}
	sc := cSlice[float64](unsafe.Pointer(scores), int(n))
	vd := cSlice[uint8](unsafe.Pointer(verdicts), int(n))
	reasons := make([]string, n)
	core.ParallelFor(int(n), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ok, reason := verifyItem(g[i], p[i], goldCfg, predCfg, opt)
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
			reasons[i] = reason
		}
	})
	if !o.Reasons {
		return statusOK
	}
	b := make([]byte, 0, 16*len(reasons)+2)
	b = append(b, '[')
	for i, r := range reasons {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, r)
	}
	toC(append(b, ']'), out, outLen)
	return statusOK
}

// verifyItem compares one pair; a malformed item or a budget overrun is a
// false verdict with its reason.
func verifyItem(gold, pred string, goldCfg, predCfg verify.ExtractConfig, opt verify.Options) (ok bool, reason string) {
	defer func() {
		if r := recover(); r != nil {
			ok, reason = false, fmt.Sprintf("internal error: %v", r)
		}
	}()
	gv, err := parsedItem(gold, goldCfg, opt.Budget)
	if err != nil {
		return false, "gold: " + err.Error()
	}
	pv, err := parsedItem(pred, predCfg, opt.Budget)
	if err != nil {
		return false, "prediction: " + err.Error()
	}
	eq, r := verify.Equal(gv, pv, opt)
	return eq, string(r)
}
