package extract

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// DefaultAnswerPatterns are llenvs' default pattern_answer prefixes, as
// Python regular expressions. Do not modify.
var DefaultAnswerPatterns = []string{`the\s+answer\s+is\s+`, `therefore,?\s+`, `=\s+`}

// defaultAnswerPatternsGo are DefaultAnswerPatterns in Go syntax, with
// Python's Unicode \s: the reference the hand scanner is tested against.
var defaultAnswerPatternsGo = []string{
	`the` + pycompat.WhitespaceClass + `+answer` + pycompat.WhitespaceClass + `+is` + pycompat.WhitespaceClass + `+`,
	`therefore,?` + pycompat.WhitespaceClass + `+`,
	`=` + pycompat.WhitespaceClass + `+`,
}

// PatternAnswer is llenvs' pattern_answer extractor: the text
// that follows a prefix pattern ("the answer is", "therefore", "= ") up to
// the first ". ", a "." that ends the line, or the end of the line,
// matched case-insensitively with "^" and "$" at line boundaries. Among
// the matches of all patterns the one that starts last wins (on a tie the
// earlier pattern); the result is stripped.
//
// The default patterns are scanned by hand with Python's semantics
// (Unicode whitespace; keywords in ASCII case folding). User patterns are
// Go RE2 syntax, where \s, \d, \w and \b are ASCII-only and lookarounds
// are not supported. llenvs ends the answer with a lookahead, which Go's
// regexp lacks; for user patterns the terminator is matched instead and
// the next search starts where the answer ends, which finds the same
// matches.
type PatternAnswer struct {
	Patterns []string
	// builtin is set for the default patterns, which are scanned by hand
	// rather than with Go's regexp (several times faster on long texts).
	builtin bool
	its     []*matchIter
	extras  []map[string]any
}

// NewPatternAnswer compiles patterns (Go syntax); nil means the
// defaults, DefaultAnswerPatterns, which are scanned by hand with Python's
// semantics.
func NewPatternAnswer(patterns []string) (*PatternAnswer, error) {
	const what = "pattern_answer extractor config"
	if patterns == nil {
		patterns = DefaultAnswerPatterns
	}
	if len(patterns) == 0 {
		return nil, fmt.Errorf("%s: \"patterns\" is an empty list, so nothing could ever match; leave it out for the defaults %q", what, DefaultAnswerPatterns)
	}
	if slices.Equal(patterns, DefaultAnswerPatterns) {
		p := &PatternAnswer{Patterns: DefaultAnswerPatterns, builtin: true}
		p.setExtras()
		return p, nil
	}
	return newRegexPatternAnswer(patterns, patterns)
}

// newRegexPatternAnswer compiles goPatterns, reported as patterns.
func newRegexPatternAnswer(patterns, goPatterns []string) (*PatternAnswer, error) {
	const what = "pattern_answer extractor config"
	p := &PatternAnswer{Patterns: patterns}
	for i, src := range goPatterns {
		if _, err := regexp.Compile(src); err != nil {
			return nil, fmt.Errorf("%s: patterns[%d]: invalid pattern %q: %v (patterns use Go RE2 syntax: no lookahead, lookbehind or backreferences)", what, i, src, err)
		}
		full := `(?im)(?:` + src + `)(.+?)(?:\.(?:` + pycompat.WhitespaceClass + `|$)|$)`
		it, err := newMatchIter(full)
		if err != nil {
			return nil, fmt.Errorf("%s: patterns[%d]: invalid pattern %q: %v", what, i, src, err)
		}
		p.its = append(p.its, it)
	}
	p.setExtras()
	return p, nil
}

func (p *PatternAnswer) setExtras() {
	p.extras = make([]map[string]any, len(p.Patterns))
	for i := range p.Patterns {
		p.extras[i] = map[string]any{paPatternKey: i}
	}
}

// paPatternKey is the Extra key that holds the index of the pattern used.
const paPatternKey = "pattern_index"

func init() {
	Register("pattern_answer", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			Patterns *[]string `json:"patterns"`
		}{}
		if err := strictcfg.Decode("pattern_answer extractor config", cfg, &c); err != nil {
			return nil, err
		}
		var patterns []string
		if c.Patterns != nil {
			patterns = *c.Patterns
			if patterns == nil {
				patterns = []string{}
			}
		}
		return NewPatternAnswer(patterns)
	})
}

// Name is "pattern_answer".
func (p *PatternAnswer) Name() string { return "pattern_answer" }

// Extract finds, for each pattern, its last match, and keeps the one that
// starts last.
func (p *PatternAnswer) Extract(text string) Extraction {
	var best paMatch
	bestIdx, bestN := -1, 0
	for i := range p.Patterns {
		var last paMatch
		var n int
		if p.builtin {
			last, n = lastBuiltinAnswer(text, i)
		} else {
			last, n = p.lastRegexAnswer(text, i)
		}
		if n > 0 && (bestIdx < 0 || last.start > best.start) {
			best, bestIdx, bestN = last, i, n
		}
	}
	if bestIdx < 0 {
		return Extraction{}
	}
	// A user pattern runs on Go's regexp, which reads the three bytes of a
	// surrogatepass-encoded surrogate as three code points: a prefix that
	// ends inside one takes it whole, as Python's would (unless that leaves
	// no answer), and the answer ends past one it ends inside.
	start, end := pycompat.CodePointStart(text, best.start), pycompat.CodePointEnd(text, best.end)
	body := pycompat.CodePointEnd(text, best.body)
	if body >= end {
		body = pycompat.CodePointStart(text, best.body)
	}
	return Extraction{Found: true, Answer: pycompat.Strip(text[body:end]), MatchStart: start,
		MatchEnd: end, NumMatches: bestN, Extra: p.extras[bestIdx]}
}

// paMatch is one pattern_answer match: where the prefix starts, where the
// answer starts and where it ends (the end of the match).
type paMatch struct{ start, body, end int }

// lastRegexAnswer returns the last match of user pattern i and how many
// there are. The answer is group 1, as in llenvs (a user pattern with
// groups of its own shifts it). Matches never overlap: the next search
// starts where the answer capture (.+?), the pattern's last group, ends,
// as after llenvs' lookahead; that capture is never empty, so the scan
// always advances.
func (p *PatternAnswer) lastRegexAnswer(text string, i int) (paMatch, int) {
	var last paMatch
	n := 0
	it := p.its[i]
	k := 2 * it.re.NumSubexp()
	for pos := 0; pos <= len(text); {
		m := it.at(text, pos)
		if m == nil {
			break
		}
		body, end := m[2], m[3]
		if body < 0 { // the user's group 1 did not take part in the match
			body, end = m[0], m[0]
		}
		last = paMatch{m[0], body, end}
		n++
		if m[k+1] <= pos {
			break // cannot happen: (.+?) takes at least one code point
		}
		pos = m[k+1]
	}
	return last, n
}

// lastBuiltinAnswer scans for default pattern i: "the\s+answer\s+is\s+",
// "therefore,?\s+" or "=\s+" (keywords in ASCII case folding, Python's
// Unicode whitespace), then the answer, exactly as the regular expression
// with its backtracking would.
func lastBuiltinAnswer(text string, i int) (paMatch, int) {
	var keyword string
	switch i {
	case 0:
		keyword = "the"
	case 1:
		keyword = "therefore"
	default:
		keyword = "="
	}
	find := newFoldFinder(text, keyword)
	var last paMatch
	n := 0
	for pos := 0; ; {
		k := find.next(pos)
		if k < 0 {
			break
		}
		if a, e, ok := builtinPrefix(text, i, k+len(keyword)); ok {
			if q, ok := answerStart(text, a, e); ok {
				last = paMatch{k, q, answerEnd(text, q)}
				n++
				pos = last.end
				continue
			}
		}
		pos = k + 1
	}
	return last, n
}

// builtinPrefix matches the rest of default pattern i after its keyword,
// which ends at j, and returns the final whitespace run [a, e).
func builtinPrefix(text string, i, j int) (a, e int, ok bool) {
	switch i {
	case 0: // the\s+answer\s+is\s+
		for _, w := range []string{"answer", "is"} {
			e := skipSpace(text, j)
			if e == j || !hasFoldAt(text, e, w) {
				return 0, 0, false
			}
			j = e + len(w)
		}
	case 1: // therefore,?\s+ (without its comma, \s+ cannot start at ",")
		if j < len(text) && text[j] == ',' {
			j++
		}
	}
	e = skipSpace(text, j)
	return j, e, e > j
}

// answerStart is where `(.+?)` starts after `\s+` matched the whitespace
// run [a, e): at e, unless the run reaches the end of the text, in which
// case the regex gives back whitespace until the answer can be one
// character that is not a newline.
func answerStart(text string, a, e int) (int, bool) {
	if e < len(text) {
		return e, true // text[e] is not whitespace, so not "\n"
	}
	for q := e; q > a; {
		r, w := utf8.DecodeLastRuneInString(text[a:q])
		q -= w
		if q == a {
			break // \s+ must keep one character
		}
		if r != '\n' {
			return q, true
		}
	}
	return 0, false
}

// answerEnd is where the lazy answer that starts at q (with one character
// that is not a newline) stops: before the first ". " or "." that ends the
// line, before a newline, or at the end.
func answerEnd(text string, q int) int {
	_, w := runeAt(text, q)
	k := q + w
	for k < len(text) {
		j := strings.IndexAny(text[k:], ".\n")
		if j < 0 {
			return len(text)
		}
		k += j
		if text[k] == '\n' {
			return k
		}
		if r, w := runeAt(text, k+1); w == 0 || pycompat.IsSpace(r) {
			return k
		}
		k++
	}
	return k
}

// Describe renders llenvs' pattern_answer metadata (byte offsets; the
// match ends where the answer does, as with llenvs' lookahead).
func (p *PatternAnswer) Describe(x Extraction) map[string]any {
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
