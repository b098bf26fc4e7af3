package verify

import (
	"fmt"

	"github.com/llenvs/llenvs-go/strictcfg"
)

// Configurations as callers write them (decoded JSON objects, as in
// math-verify's arguments). An extraction configuration is
//
//	{"targets": [{"kind": "latex" | "expr" | "string", "try_extract_without_anchor": bool,
//	              "boxed_match_priority": int, "normalization_config": {...},
//	              "strings": [str], "lowercase": bool}, ...],
//	 "fallback_mode": "first_match" | "no_fallback", "extraction_mode": "any_match" | "first_match"}
//
// and the options of a batch of comparisons are
//
//	{"float_rounding": int, "numeric_precision": int, "strict": bool,
//	 "allow_set_relation_comp": bool, "reasons": bool,
//	 "gold_extraction": {...}, "pred_extraction": {...}}
//
// Absent keys take math-verify's defaults; unknown keys are errors.

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

// DecodeExtractConfig decodes an extraction configuration (a decoded JSON
// object; nil is DefaultExtractConfig). what names it in errors.
func DecodeExtractConfig(raw any, what string) (ExtractConfig, error) {
	if raw == nil {
		return DefaultExtractConfig, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return ExtractConfig{}, fmt.Errorf("%s must be a mapping, got %T", what, raw)
	}
	var c struct {
		Targets  []any  `json:"targets"`
		Fallback string `json:"fallback_mode"`
		Mode     string `json:"extraction_mode"`
	}
	c.Fallback, c.Mode = "first_match", "any_match"
	if err := strictcfg.Decode(what, m, &c); err != nil {
		return ExtractConfig{}, err
	}
	cfg := ExtractConfig{}
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
		cfg.Targets = DefaultExtractConfig.Targets
		return cfg, nil
	}
	for i, t := range c.Targets {
		if _, ok := t.(map[string]any); !ok {
			return cfg, fmt.Errorf("%s: targets[%d] must be a mapping, got %T", what, i, t)
		}
		tg, err := decodeTarget(t.(map[string]any), fmt.Sprintf("%s targets[%d]", what, i))
		if err != nil {
			return cfg, err
		}
		cfg.Targets = append(cfg.Targets, tg)
	}
	return cfg, nil
}

// decodeTarget decodes one extraction target, starting from its kind's
// defaults.
func decodeTarget(tm map[string]any, what string) (Target, error) {
	var tj targetJSON
	if err := strictcfg.Decode(what, tm, &tj); err != nil {
		return Target{}, err
	}
	var tg Target
	switch tj.Kind {
	case "latex":
		tg = DefaultLatexTarget
		if tj.BoxedPriority != nil {
			tg.BoxedPriority = int(*tj.BoxedPriority)
		}
		if tj.Normalization != nil {
			n := normJSON{Boxed: "all", BasicLatex: true}
			if err := strictcfg.Decode(what+" normalization_config", tj.Normalization, &n); err != nil {
				return tg, err
			}
			if n.Boxed != "all" && n.Boxed != "last" && n.Boxed != "none" {
				return tg, fmt.Errorf("%s: normalization_config boxed must be \"all\", \"last\" or \"none\", got %q", what, n.Boxed)
			}
			tg.Norm = NormConfig(n)
		}
	case "expr":
		tg = DefaultExprTarget
	case "string":
		tg = DefaultStringTarget
		if tj.Strings != nil {
			tg.Strings = nil
			for _, s := range tj.Strings {
				str, ok := s.(string)
				if !ok {
					return tg, fmt.Errorf("%s: strings must be strings, got %T", what, s)
				}
				tg.Strings = append(tg.Strings, str)
			}
		}
		if tj.Lowercase != nil {
			tg.Lowercase = *tj.Lowercase
		}
	default:
		return tg, strictcfg.NotFound("extraction target kind", tj.Kind, "", []string{"expr", "latex", "string"})
	}
	if tj.TryNoAnchor != nil {
		tg.TryWithoutAnchor = *tj.TryNoAnchor
	}
	return tg, nil
}

// BatchOptions are the decoded options of a batch of comparisons: how
// golds and predictions given as text are parsed, how pairs are compared,
// and whether each pair's Reason is wanted.
type BatchOptions struct {
	Gold, Pred ExtractConfig
	Compare    Options
	Reasons    bool
}

// DecodeOptions decodes the options of a batch of comparisons (a decoded
// JSON object; nil or empty takes every default).
func DecodeOptions(raw map[string]any) (BatchOptions, error) {
	o := struct {
		FloatRounding    int64 `json:"float_rounding"`
		NumericPrecision int64 `json:"numeric_precision"`
		Strict           bool  `json:"strict"`
		AllowSetRelation bool  `json:"allow_set_relation_comp"`
		Reasons          bool  `json:"reasons"`
		GoldExtraction   any   `json:"gold_extraction"`
		PredExtraction   any   `json:"pred_extraction"`
	}{FloatRounding: 6, NumericPrecision: 15, Strict: true}
	var b BatchOptions
	if raw == nil {
		raw = map[string]any{}
	}
	if err := strictcfg.Decode("math_verify options", raw, &o); err != nil {
		return b, err
	}
	if o.FloatRounding < 0 || o.FloatRounding > 100 {
		return b, fmt.Errorf("float_rounding must be between 0 and 100, got %d", o.FloatRounding)
	}
	var err error
	if b.Gold, err = DecodeExtractConfig(o.GoldExtraction, "gold_extraction"); err != nil {
		return b, err
	}
	if b.Pred, err = DecodeExtractConfig(o.PredExtraction, "pred_extraction"); err != nil {
		return b, err
	}
	b.Compare = Options{FloatRounding: int(o.FloatRounding), NumericPrecision: int(o.NumericPrecision),
		NonStrict: !o.Strict, AllowSetRelation: o.AllowSetRelation}
	b.Reasons = o.Reasons
	return b, nil
}
