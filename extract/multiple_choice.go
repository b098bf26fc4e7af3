package extract

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// MultipleChoice is llenvs' multiple_choice extractor: a choice
// letter found by three patterns tried in priority order, the first
// pattern with any match winning with its last match; the letter is
// upper-cased. The patterns, written as Python regular expressions with X
// for the class of choice letters:
//
//  1. (?:answer|choice)(?:\s+is)?[\s:]*\(?(X)(?!\w)\)?
//  2. \((X)\)
//  3. ^(X)[.)\s]          (at the start of any line)
//
// Deliberate fixes to pattern 1: "The answer is B" matches (llenvs has no
// "is"), and the letter must not be followed by a word character, so
// "Answer: Because" does not give "B" and "Answer choices" does not give
// "C". In the "is" form a lower-case letter followed by whitespace and
// more text is read as prose, not as a choice ("the answer is a prime"
// gives nothing). The keywords "answer", "choice" and "is" match in any
// case even when CaseSensitive is set; CaseSensitive only governs the
// letters (llenvs' case_sensitive=True also made "Answer" fail to match).
type MultipleChoice struct {
	Choices       string
	CaseSensitive bool
	letters       map[rune]bool
	upper         map[rune]string // each letter's answer, upper-cased
	ascii         [128]bool
	patterns      [3]string
	extras        [3]map[string]any
}

// NewMultipleChoice returns a multiple_choice extractor for the
// letters of choices.
func NewMultipleChoice(choices string, caseSensitive bool) *MultipleChoice {
	m := &MultipleChoice{Choices: choices, CaseSensitive: caseSensitive, letters: map[rune]bool{},
		upper: map[rune]string{}}
	for _, r := range choices {
		m.add(r)
		if !caseSensitive {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				m.add(f)
			}
		}
	}
	class := "[" + pyRegexEscape(choices) + "]"
	m.patterns = [3]string{
		`(?:answer|choice)(?:\s+is)?[\s:]*\(?(` + class + `)(?!\w)\)?`,
		`\((` + class + `)\)`,
		`^(` + class + `)[\.\)\s]`,
	}
	for i, p := range m.patterns {
		m.extras[i] = map[string]any{mcPatternKey: p}
	}
	return m
}

// mcPatternKey is the Extra key that holds the pattern used.
const mcPatternKey = "pattern_used"

func (m *MultipleChoice) add(r rune) {
	if r < utf8.RuneSelf && r >= 0 {
		m.ascii[r] = true
	}
	m.letters[r] = true
	m.upper[r] = strings.ToUpper(string(r))
}

func init() {
	Register("multiple_choice", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			Choices       string `json:"choices"`
			CaseSensitive bool   `json:"case_sensitive"`
		}{"ABCDE", false}
		if err := strictcfg.Decode("multiple_choice extractor config", cfg, &c); err != nil {
			return nil, err
		}
		if c.Choices == "" {
			return nil, fmt.Errorf("multiple_choice extractor config: \"choices\" is empty; give the choice letters, e.g. \"ABCDE\"")
		}
		return NewMultipleChoice(c.Choices, c.CaseSensitive), nil
	})
}

// Name is "multiple_choice".
func (m *MultipleChoice) Name() string { return "multiple_choice" }

// letterAt returns the choice letter at byte offset i of text and its
// width, or width 0 when there is none.
func (m *MultipleChoice) letterAt(text string, i int) (rune, int) {
	if i >= len(text) {
		return 0, 0
	}
	if c := text[i]; c < utf8.RuneSelf {
		if m.ascii[c] {
			return rune(c), 1
		}
		return 0, 0
	}
	r, w := utf8.DecodeRuneInString(text[i:])
	if r == utf8.RuneError && w == 1 {
		return 0, 0
	}
	if m.letters[r] {
		return r, w
	}
	return 0, 0
}

// Extract tries the three patterns in priority order.
func (m *MultipleChoice) Extract(text string) Extraction {
	for p := range m.patterns {
		var x Extraction
		var r rune
		switch p {
		case 0:
			x, r = m.findKeyword(text)
		case 1:
			x, r = m.findParens(text)
		default:
			x, r = m.findLineStart(text)
		}
		if x.Found {
			x.Answer = m.upper[r]
			x.Extra = m.extras[p]
			return x
		}
	}
	return Extraction{}
}

// findKeyword is pattern 1; it returns the last match and its letter.
func (m *MultipleChoice) findKeyword(text string) (Extraction, rune) {
	var x Extraction
	var letter rune
	answers, choices := newFoldFinder(text, "answer"), newFoldFinder(text, "choice")
	for pos := 0; pos < len(text); {
		k := answers.next(pos)
		if c := choices.next(pos); c >= 0 && (k < 0 || c < k) {
			k = c
		}
		if k < 0 {
			break
		}
		end, r, ok := m.afterKeyword(text, k+6)
		if !ok {
			pos = k + 1
			continue
		}
		x.Found = true
		x.NumMatches++
		x.MatchStart, x.MatchEnd = k, end
		letter = r
		pos = end
	}
	return x, letter
}

// afterKeyword matches `(?:\s+is)?[\s:]*\(?(X)(?!\w)\)?` at i, trying the
// alternatives in the order a backtracking regex engine would.
func (m *MultipleChoice) afterKeyword(text string, i int) (end int, r rune, ok bool) {
	if j := skipSpace(text, i); j > i && j+2 <= len(text) && equalFoldASCII(text[j:j+2], "is") {
		if end, r, ok = m.afterColons(text, j+2, true); ok {
			return end, r, ok
		}
	}
	return m.afterColons(text, i, false)
}

// afterColons matches `[\s:]*\(?(X)(?!\w)\)?` at i. The run of whitespace
// and colons is greedy; shorter runs are tried only when the text inside
// the run could itself be a letter (when choices hold such characters).
func (m *MultipleChoice) afterColons(text string, i int, isForm bool) (end int, r rune, ok bool) {
	j := i
	var stops []int
	for j < len(text) {
		c, w := runeAt(text, j)
		if c != ':' && !pycompat.IsSpace(c) {
			break
		}
		if _, lw := m.letterAt(text, j); lw > 0 {
			stops = append(stops, j)
		}
		j += w
	}
	if end, r, ok = m.letterHere(text, j, isForm); ok {
		return end, r, ok
	}
	for s := len(stops) - 1; s >= 0; s-- {
		if end, r, ok = m.letterHere(text, stops[s], isForm); ok {
			return end, r, ok
		}
	}
	return 0, 0, false
}

// letterHere matches `\(?(X)(?!\w)\)?` at i.
func (m *MultipleChoice) letterHere(text string, i int, isForm bool) (end int, r rune, ok bool) {
	if i < len(text) && text[i] == '(' {
		if end, r, ok = m.bareLetter(text, i+1, isForm, true); ok {
			return end, r, ok
		}
	}
	return m.bareLetter(text, i, isForm, false)
}

func (m *MultipleChoice) bareLetter(text string, i int, isForm, paren bool) (end int, r rune, ok bool) {
	r, w := m.letterAt(text, i)
	if w == 0 {
		return 0, 0, false
	}
	j := i + w
	if next, _ := runeAt(text, j); j < len(text) && pycompat.IsWordChar(next) {
		return 0, 0, false
	}
	if isForm && !paren && !m.CaseSensitive && unicode.IsLower(r) {
		// "the answer is a prime": an article, not a choice.
		if k := skipSpace(text, j); k > j && k < len(text) {
			if next, _ := runeAt(text, k); pycompat.IsWordChar(next) {
				return 0, 0, false
			}
		}
	}
	if j < len(text) && text[j] == ')' {
		j++
	}
	return j, r, true
}

// findParens is pattern 2, `\((X)\)`.
func (m *MultipleChoice) findParens(text string) (Extraction, rune) {
	var x Extraction
	var letter rune
	for pos := 0; pos < len(text); {
		k := strings.IndexByte(text[pos:], '(')
		if k < 0 {
			break
		}
		k += pos
		r, w := m.letterAt(text, k+1)
		if w == 0 || k+1+w >= len(text) || text[k+1+w] != ')' {
			pos = k + 1
			continue
		}
		x.Found = true
		x.NumMatches++
		x.MatchStart, x.MatchEnd = k, k+2+w
		letter = r
		pos = x.MatchEnd
	}
	return x, letter
}

// findLineStart is pattern 3, `^(X)[.)\s]` in multiline mode: at the start
// of the text or after a "\n".
func (m *MultipleChoice) findLineStart(text string) (Extraction, rune) {
	var x Extraction
	var letter rune
	for k := 0; k < len(text); {
		if r, w := m.letterAt(text, k); w > 0 {
			if c, cw := runeAt(text, k+w); cw > 0 && (c == '.' || c == ')' || pycompat.IsSpace(c)) {
				x.Found = true
				x.NumMatches++
				x.MatchStart, x.MatchEnd = k, k+w+cw
				letter = r
			}
		}
		nl := strings.IndexByte(text[k:], '\n')
		if nl < 0 {
			break
		}
		k += nl + 1
	}
	return x, letter
}

// Describe renders llenvs' multiple_choice metadata (byte offsets);
// pattern_used is one of the patterns in the type's documentation.
func (m *MultipleChoice) Describe(x Extraction) map[string]any {
	d := formatMeta("multiple_choice", x, false)
	if x.Found {
		if p, ok := x.Extra[mcPatternKey]; ok {
			d["pattern_used"] = p
		}
	}
	return d
}

// pyRegexEscape is Python's re.escape: a backslash before every character
// that has a special meaning in a pattern.
func pyRegexEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("()[]{}?*+-|^$\\.&~# \t\n\r\v\f", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
