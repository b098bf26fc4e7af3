package extract

import (
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/clean"
)

// size is the length of the large responses: extractors must handle
// multi-megabyte responses in linear time (no timing is asserted; a
// quadratic scan would not finish).
const size = 5 << 20

func repeatTo(unit string) string { return strings.Repeat(unit, size/len(unit)) }

func TestLargeInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	prose := repeatTo("The quick brown fox jumps over 13 lazy dogs; so x = 7, then y. ")
	cases := []struct {
		name, ex string
		cfg      map[string]any
		text     string
		want     exCase
	}{
		{"tag prose", "tag_based", nil, prose + "<answer>42</answer>", yes("", "42")},
		{"tag opens", "tag_based", nil, repeatTo("<answer>"), no("")},
		{"tag closed", "tag_based", nil, repeatTo("<answer>1</answer>"), yes("", "1")},
		{"boxed prose", "boxed", nil, prose + `\boxed{9}`, yes("", "9")},
		{"boxed unclosed", "boxed", nil, repeatTo(`\boxed{`), no("")},
		{"boxed nested", "boxed", nil, repeatTo(`\boxed{`) + "1" + strings.Repeat("}", size/7), yes("", "1")},
		{"boxed spaces", "boxed", nil, `\boxed` + repeatTo(" ") + "x", no("")},
		{"gsm8k hashes", "gsm8k", nil, repeatTo("#"), no("")},
		{"gsm8k many", "gsm8k", nil, repeatTo("#### 1,2 "), yes("", "12")},
		{"gsm8k prose", "gsm8k", nil, prose + "#### -3", yes("", "-3")},
		{"numeric digits", "numeric", nil, repeatTo("1234567890"), yes("", repeatTo("1234567890"))},
		{"numeric commas", "numeric", nil, repeatTo("1,"), yes("", "1")},
		{"numeric prose", "numeric", nil, prose, yes("", "7")},
		{"numeric minus", "numeric", nil, repeatTo("-"), no("")},
		{"mc answers", "multiple_choice", nil, repeatTo("answer "), no("")},
		{"mc choices", "multiple_choice", nil, repeatTo("Choice: (A) ") + "Answer: C", yes("", "C")},
		{"mc parens", "multiple_choice", nil, repeatTo("(("), no("")},
		{"mc lines", "multiple_choice", nil, repeatTo("\n"), no("")},
		{"mc colons", "multiple_choice", nil, "answer" + repeatTo(":") + "B", yes("", "B")},
		{"last_line newlines", "last_line", nil, "x" + repeatTo("\n"), yes("", "x")},
		{"last_line prose", "last_line", nil, prose + "\nlast", yes("", "last")},
		{"raw", "raw", nil, " " + prose, yes("", strings.TrimSpace(prose))},
		{"tail", "tail", nil, prose, yes("", strings.TrimSpace(prose)[len(prose)-257:])},
		{"code fences", "code_block", nil, repeatTo("```"), no("")},
		{"code open", "code_block", nil, repeatTo("```py\n"), yes("", "")},
		{"code words", "code_block", nil, "```" + repeatTo("w"), no("")},
		{"code lang", "code_block", map[string]any{"language": "py"}, repeatTo("```p"), no("")},
		{"pa the", "pattern_answer", nil, repeatTo("the answer is "), yes("", strings.TrimSpace(repeatTo("the answer is ")[14:]))},
		{"pa eq", "pattern_answer", nil, repeatTo("= \n"), yes("", "=")},
		{"pa eq2", "pattern_answer", nil, repeatTo("= 1. "), yes("", "1")},
		{"pa prose", "pattern_answer", nil, prose, yes("", "7, then y")},
		{"pa spaces", "pattern_answer", nil, "= " + repeatTo("\u2003"), yes("", "")},
		{"regex", "regex", map[string]any{"pattern": `(\d+)`}, prose, yes("", "7")},
		{"regex digits", "regex", map[string]any{"pattern": `(\d+)`}, repeatTo("1"), yes("", repeatTo("1"))},
		{"regex words", "regex", map[string]any{"pattern": `\b(\w+)\b`}, prose, yes("", "y")},
		{"pa custom", "pattern_answer", map[string]any{"patterns": []any{`x\s*=\s*`}}, prose, yes("", "7, then y")},
	}
	// Invalid UTF-8 and Unicode whitespace everywhere.
	for _, junk := range []string{repeatTo("\xff\xe2\x82"), repeatTo("\u2003\u00a0\x1c")} {
		for _, name := range []string{"tag_based", "boxed", "gsm8k", "numeric", "multiple_choice", "last_line",
			"code_block", "pattern_answer"} {
			cases = append(cases, struct {
				name, ex string
				cfg      map[string]any
				text     string
				want     exCase
			}{"junk " + name, name, nil, junk + "\n#### 5", yes("", "")})
		}
	}
	for _, c := range cases {
		ex := mustExtractor(t, c.ex, c.cfg)
		x := ex.Extract(c.text)
		if strings.HasPrefix(c.name, "junk ") {
			continue // only must not panic or hang
		}
		if x.Found != c.want.found || x.Answer != c.want.answer {
			a := x.Answer
			if len(a) > 40 {
				a = a[:40] + "..."
			}
			t.Errorf("%s: got (%q, %v), want found=%v", c.name, a, x.Found, c.want.found)
		}
		ex.Describe(x)
	}
	big := repeatTo("<think>a</think><s>") + repeatTo("<think>") + repeatTo("$")
	for _, c := range []clean.Cleaner{clean.StripSpecialTokens, clean.StripThinkingTokens, clean.StripTrailingPunctuation, clean.StripSurroundingQuotes,
		clean.StripLatexDollars, clean.TruncateTail(256)} {
		c(big)
	}
	if got, want := clean.StripThinkingTokens(big), strings.Repeat("<s>", size/19); got != want {
		t.Errorf("StripThinkingTokens left %d bytes, want %d", len(got), len(want))
	}
	if got := clean.StripSpecialTokens(repeatTo("<s>")); got != "" {
		t.Errorf("StripSpecialTokens left %d bytes", len(got))
	}
}
