package core

import (
	"fmt"
	"regexp"
)

// DefaultAnswerPatterns are llenvs' default pattern_answer prefixes, as
// Python regular expressions.
var DefaultAnswerPatterns = []string{`the\s+answer\s+is\s+`, `therefore,?\s+`, `=\s+`}

// defaultAnswerPatternsGo are DefaultAnswerPatterns in Go syntax, with
// Python's Unicode \s.
var defaultAnswerPatternsGo = []string{
	`the` + pyWhitespaceClass + `+answer` + pyWhitespaceClass + `+is` + pyWhitespaceClass + `+`,
	`therefore,?` + pyWhitespaceClass + `+`,
	`=` + pyWhitespaceClass + `+`,
}

// PatternAnswerExtractor is llenvs' pattern_answer extractor: the text
// that follows a prefix pattern ("the answer is", "therefore", "= ") up to
// the first ". ", a "." that ends the line, or the end of the line,
// matched case-insensitively with "^" and "$" at line boundaries. Among
// the matches of all patterns the one that starts last wins (on a tie the
// earlier pattern); the result is stripped.
//
// llenvs ends the answer with a lookahead, which Go's regexp lacks; here
// the terminator is matched and the next search starts where the answer
// ends, which finds the same matches. The default patterns keep Python's
// Unicode whitespace; user patterns are Go RE2 syntax, where \s, \d, \w
// and \b are ASCII-only and lookarounds are not supported.
type PatternAnswerExtractor struct {
	Patterns []string
	its      []*matchIter
	extras   []map[string]any
}

// NewPatternAnswerExtractor compiles patterns (Go syntax); nil means the
// defaults.
func NewPatternAnswerExtractor(patterns []string) (*PatternAnswerExtractor, error) {
	const what = "pattern_answer extractor config"
	goPatterns := patterns
	if patterns == nil {
		patterns, goPatterns = DefaultAnswerPatterns, defaultAnswerPatternsGo
	}
	if len(patterns) == 0 {
		return nil, fmt.Errorf("%s: \"patterns\" is an empty list, so nothing could ever match; leave it out for the defaults %q", what, DefaultAnswerPatterns)
	}
	p := &PatternAnswerExtractor{Patterns: patterns}
	for i, src := range goPatterns {
		if _, err := regexp.Compile(src); err != nil {
			return nil, fmt.Errorf("%s: patterns[%d]: invalid pattern %q: %v (patterns use Go RE2 syntax: no lookahead, lookbehind or backreferences)", what, i, src, err)
		}
		full := `(?im)(?:` + src + `)(.+?)(?:\.(?:` + pyWhitespaceClass + `|$)|$)`
		it, err := newMatchIter(full)
		if err != nil {
			return nil, fmt.Errorf("%s: patterns[%d]: invalid pattern %q: %v", what, i, src, err)
		}
		p.its = append(p.its, it)
		p.extras = append(p.extras, map[string]any{paPatternKey: i})
	}
	return p, nil
}

// paPatternKey is the Extra key that holds the index of the pattern used.
const paPatternKey = "pattern_index"

func init() {
	RegisterExtractor("pattern_answer", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			Patterns *[]string `json:"patterns"`
		}{}
		if err := DecodeStrict("pattern_answer extractor config", cfg, &c); err != nil {
			return nil, err
		}
		var patterns []string
		if c.Patterns != nil {
			patterns = *c.Patterns
			if patterns == nil {
				patterns = []string{}
			}
		}
		return NewPatternAnswerExtractor(patterns)
	})
}

// Name is "pattern_answer".
func (p *PatternAnswerExtractor) Name() string { return "pattern_answer" }

// Extract finds, for each pattern, its last match, and keeps the one that
// starts last.
func (p *PatternAnswerExtractor) Extract(text string) Extraction {
	var best []int
	bestIdx, bestN := -1, 0
	for i, it := range p.its {
		// Matches never overlap: the next search starts where the
		// answer (group 1) ends, as after llenvs' lookahead.
		var last []int
		n := 0
		for pos := 0; pos <= len(text); {
			m := it.at(text, pos)
			if m == nil {
				break
			}
			last = m
			n++
			pos = m[3]
		}
		if last != nil && (best == nil || last[0] > best[0]) {
			best, bestIdx, bestN = last, i, n
		}
	}
	if best == nil {
		return Extraction{}
	}
	return Extraction{Found: true, Answer: PyStrip(text[best[2]:best[3]]), MatchStart: best[0],
		MatchEnd: best[3], NumMatches: bestN, Extra: p.extras[bestIdx]}
}

// Describe renders llenvs' pattern_answer metadata (byte offsets; the
// match ends where the answer does, as with llenvs' lookahead).
func (p *PatternAnswerExtractor) Describe(x Extraction) map[string]any {
	if !x.Found {
		return map[string]any{"found": false, "format": "pattern_answer"}
	}
	m := map[string]any{"found": true, "format": "pattern_answer", "match_start": x.MatchStart, "match_end": x.MatchEnd}
	if i, ok := x.Extra[paPatternKey].(int); ok && i >= 0 && i < len(p.Patterns) {
		m["pattern_index"] = i
		m["pattern"] = p.Patterns[i]
	}
	return m
}
