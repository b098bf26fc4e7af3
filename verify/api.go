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
	defer w.release()
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

// ParseAnswer parses an answer that an answer extractor has already cut
// out of a response (the content of <answer>…</answer>, of the last
// \boxed{}): the whole text is the answer, and it is never searched for a
// part that parses, so "x + 7" is x + 7 and never 7. It is read as the
// content of a \boxed{} is: one pair of math delimiters around it ($…$,
// \(…\), \[…\]) is dropped, the text is normalized as cfg's first LaTeX
// target says (DefaultNormConfig without one) and parsed whole; failing
// that, it is read whole as a plain expression ("37." is 37.0). The result
// is what Parse returns for "\boxed{answer}" when the box parses: the
// value and, with cfg.FirstMatchFallback, the normalized text; the text
// alone when neither reading parses; nothing for an empty answer. The
// error is a budget overrun, and then there is no answer: a budget never
// turns into a match.
func ParseAnswer(answer string, cfg ExtractConfig) (out []Value, err error) {
	defer catch(&err)
	w := newWork(cfg.Budget)
	defer w.release()
	if len(answer) > w.b.MaxInputBytes {
		return nil, &budgetError{"an answer longer than the input limit"}
	}
	s := stripMathDelimiters(strings.TrimSpace(answer))
	if s == "" {
		return nil, nil
	}
	norm := DefaultNormConfig
	for _, t := range cfg.Targets {
		if t.Kind == TargetLatex {
			norm = t.Norm
			break
		}
	}
	norm.Boxed = "last"
	ns := normalizeLatex(s, norm)
	if v, perr := parseLatexAnswer(ns, w); perr == nil { // a budget overrun panics, caught above
		v.src = "L-" + ns
		out = append(out, v)
	} else if v, perr := parseAnswer(plainExpr(s), w); perr == nil {
		v.src = "X" + s
		out = append(out, v)
	} else if IsBudgetError(perr) {
		return nil, perr
	}
	if cfg.FirstMatchFallback || len(out) == 0 {
		out = append(out, TextValue(ns))
	}
	return out, nil
}

// stripMathDelimiters drops one pair of math delimiters around the whole
// of s.
func stripMathDelimiters(s string) string {
	for _, d := range [][2]string{{"$$", "$$"}, {`\[`, `\]`}, {`\(`, `\)`}, {"$", "$"}} {
		if len(s) >= len(d[0])+len(d[1]) && strings.HasPrefix(s, d[0]) && strings.HasSuffix(s, d[1]) {
			return strings.TrimSpace(s[len(d[0]) : len(s)-len(d[1])])
		}
	}
	return s
}

// Score compares a model response with a reference answer: 1 when the
// answer found in pred equals gold, else 0, with the reason ("equal",
// "not equal", "no answer", "over budget: ..."). gold is parsed with
// ParseReference, pred with Parse (or, when Parse finds no answer in it,
// as a bare answer with ParseReference), both with DefaultExtractConfig, and
// compared with DefaultOptions. It scores a whole response (reasoning-gym's
// math_verify reward); an answer already extracted from a response is
// scored with ScoreAnswer. Its signature is stable.
func Score(gold, pred string) (float64, string) {
	g, err := ParseReference(gold, DefaultExtractConfig)
	if err != nil {
		return 0, "reference " + err.Error()
	}
	p, err := Parse(pred, DefaultExtractConfig)
	if err == nil && len(p) == 0 {
		// A bare answer without delimiters or anchors.
		p, err = ParseReference(pred, DefaultExtractConfig)
	}
	if err != nil {
		return 0, "response " + err.Error()
	}
	return score(g, p)
}

// ScoreAnswer compares an answer already extracted from a response (by an
// answer extractor: the text of <answer>…</answer>, the content of the
// last \boxed{}) with a reference answer: 1 when the whole answer, read by
// ParseAnswer, equals gold (read by ParseReference), else 0, with the
// reason as Score gives it; a budget overrun is 0 with its reason. This is
// the scorer behind the dataset scorings "math" and "math_verify". Its
// signature is stable.
func ScoreAnswer(gold, answer string) (float64, string) {
	g, err := ParseReference(gold, DefaultExtractConfig)
	if err != nil {
		return 0, "reference " + err.Error()
	}
	p, err := ParseAnswer(answer, DefaultExtractConfig)
	if err != nil {
		return 0, "answer " + err.Error()
	}
	return score(g, p)
}

func score(g, p []Value) (float64, string) {
	ok, reason := Equal(g, p, DefaultOptions)
	if ok {
		return 1, string(reason)
	}
	return 0, string(reason)
}
