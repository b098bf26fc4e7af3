package verify

import "strings"

// ParseReference parses a reference answer. Text with a math environment
// or a \boxed{} is searched as Parse does; a bare answer ("42",
// "\frac{1}{2}", "x^2+1") is normalized and parsed whole, so that a plain
// expression is not cut to its last number.
func ParseReference(text string, cfg ExtractConfig) ([]Value, error) {
	if strings.Contains(text, "$") || strings.Contains(text, `\boxed`) || strings.Contains(text, `\[`) || strings.Contains(text, `\(`) {
		return Parse(text, cfg)
	}
	w := newWork(cfg.Budget)
	s := normalizeLatex(text, DefaultNormConfig)
	v, err := parseLatexAnswerSafe(s, w)
	if err != nil {
		if IsBudgetError(err) {
			return nil, err
		}
		return Parse(text, cfg)
	}
	v.src = "L-" + s
	out := []Value{v}
	if cfg.FirstMatchFallback {
		out = append(out, TextValue(s))
	}
	return out, nil
}

func parseLatexAnswerSafe(s string, w *work) (v Value, err error) {
	defer catch(&err)
	return parseLatexAnswer(s, w)
}

// Score compares a model response with a reference answer: 1 when the
// answer found in pred equals gold, else 0, with the reason ("equal",
// "not equal", "no answer", "over budget: ..."). gold is parsed with
// ParseReference, pred with Parse (or, when Parse finds no answer in it,
// as a bare answer with ParseReference), both with DefaultExtractConfig, and
// compared with DefaultOptions. This is the scorer behind scoring="math"
// and the math_verify reward; its signature is stable.
func Score(gold, pred string) (float64, string) {
	g, err := ParseReference(gold, DefaultExtractConfig)
	if err != nil {
		return 0, "reference " + err.Error()
	}
	p, err := Parse(pred, DefaultExtractConfig)
	if err == nil && len(p) == 0 {
		// An answer already cut out of a response (e.g. by the boxed
		// extractor) is bare LaTeX without delimiters.
		p, err = ParseReference(pred, DefaultExtractConfig)
	}
	if err != nil {
		return 0, "response " + err.Error()
	}
	ok, reason := Equal(g, p, DefaultOptions)
	if ok {
		return 1, string(reason)
	}
	return 0, string(reason)
}
