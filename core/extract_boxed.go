package core

import "strings"

// BoxedExtractor is llenvs' boxed extractor: the content of the last
// balanced \boxed{…} (optional whitespace allowed before the brace). Every
// occurrence counts, nested ones included, so \boxed{\boxed{1}} gives "1";
// an occurrence whose brace never closes is skipped. \boxed{} gives "".
//
// Braces are matched in one pass over the text, so the cost is linear
// even for many unclosed boxes (llenvs rescans the rest of the text for
// each one).
type BoxedExtractor struct {
	Strip bool
}

func init() {
	RegisterExtractor("boxed", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			StripWhitespace bool `json:"strip_whitespace"`
		}{true}
		if err := DecodeStrict("boxed extractor config", cfg, &c); err != nil {
			return nil, err
		}
		return &BoxedExtractor{Strip: c.StripWhitespace}, nil
	})
}

// Name is "boxed".
func (b *BoxedExtractor) Name() string { return "boxed" }

// boxCandidate is one `\boxed\s*{`: where it starts, where its brace is and,
// once found, where the matching closing brace is (-1 until then).
type boxCandidate struct {
	start, open, close int
}

// Extract finds the last balanced box.
func (b *BoxedExtractor) Extract(text string) Extraction {
	const marker = `\boxed`
	first := strings.Index(text, marker)
	if first < 0 {
		return Extraction{}
	}
	// Pass 1: every \boxed followed by optional whitespace and a brace.
	var cands []boxCandidate
	for i := first; i >= 0; {
		j := skipSpace(text, i+len(marker))
		if j < len(text) && text[j] == '{' {
			cands = append(cands, boxCandidate{start: i, open: j, close: -1})
		}
		k := strings.Index(text[i+len(marker):], marker)
		if k < 0 {
			break
		}
		i += len(marker) + k
	}
	if len(cands) == 0 {
		return Extraction{}
	}
	// Pass 2: match braces. depth counts the open braces not yet closed
	// (a stray '}' at depth 0 is ignored, as it is when llenvs counts from
	// a box's own brace); stack holds the candidates still open, with the
	// depth their brace opened.
	type open struct{ cand, depth int }
	var stack []open
	depth, next := 0, 0
	for i := cands[0].open; i < len(text); i++ {
		switch text[i] {
		case '{':
			depth++
			if next < len(cands) && cands[next].open == i {
				stack = append(stack, open{next, depth})
				next++
			}
		case '}':
			if depth == 0 {
				continue
			}
			if n := len(stack); n > 0 && stack[n-1].depth == depth {
				cands[stack[n-1].cand].close = i
				stack = stack[:n-1]
			}
			depth--
		}
	}
	var x Extraction
	for _, c := range cands {
		if c.close >= 0 {
			x.NumMatches++
			x.MatchStart, x.MatchEnd = c.start, c.close+1
			x.Answer = text[c.open+1 : c.close]
		}
	}
	if x.NumMatches == 0 {
		return Extraction{}
	}
	x.Found = true
	if b.Strip {
		x.Answer = PyStrip(x.Answer)
	}
	return x
}

// Describe renders llenvs' boxed metadata (byte offsets).
func (b *BoxedExtractor) Describe(x Extraction) map[string]any {
	return formatMeta("boxed", x, true)
}

// formatMeta renders the metadata most llenvs extractors report: found and
// format, and on success the match offsets and, when withCount, the number
// of matches.
func formatMeta(format string, x Extraction, withCount bool) map[string]any {
	if !x.Found {
		return map[string]any{"found": false, "format": format}
	}
	m := map[string]any{"found": true, "format": format, "match_start": x.MatchStart, "match_end": x.MatchEnd}
	if withCount {
		m["num_matches"] = x.NumMatches
	}
	return m
}
