package verify

import (
	"strings"
	"testing"
)

// deepSum is 1+(1+(...(1)...)) nested n deep: its value is n+1, and past
// 32 levels it is deeper than the parser's budget.
func deepSum(n int) string { return strings.Repeat("1+(", n) + "1" + strings.Repeat(")", n) }

func TestScoreAnswer(t *testing.T) {
	deep := `3 + \frac{1}{2} + ` + strings.Repeat("(", 70) + "1" + strings.Repeat(")", 70)
	cases := []struct {
		name, gold, answer string
		want               float64
		reason             string // a substring of the reason
	}{
		// The gold as a proper part of the answer is not the answer.
		{"fraction of the gold", `\frac{1}{2}`, `\frac{\frac{1}{2}}{3}`, 0, "not equal"},
		{"gold plus a variable", "7", "x + 7", 0, "not equal"},
		{"gold in a sum", "7", "7 + 1", 0, "not equal"},
		{"gold times two", "7", `2 \cdot 7`, 0, "not equal"},
		{"gold squared", "3", "3^2", 0, "not equal"},
		{"root of the gold", "4", `\sqrt{4}`, 0, "not equal"},
		{"gold in a tuple", "3", "(3, 1)", 0, ""},
		{"gold in a sentence", "7", "the answer is 7", 0, ""},
		{"gold then a choice", "7", "7 or 8", 0, ""},
		{"last number is the gold", "1", deepSum(10), 0, "not equal"},
		{"whole sum", "11", deepSum(10), 1, "equal"},
		// A budget overrun is never a match, whatever part of the answer equals the gold.
		{"padded past the nesting limit", `\frac{1}{2}`, deep, 0, "over budget"},
		{"deep plain sum", "1", deepSum(40), 0, "over budget"},
		{"too long", "7", "7 + " + strings.Repeat("0+", 5000) + "0", 0, "over budget"},
		// What is still the same answer.
		{"equal", "7", "7", 1, "equal"},
		{"decimal", `\frac{1}{2}`, "0.5", 1, "equal"},
		{"spaces", "7", "  7 ", 1, "equal"},
		{"dollars", "7", "$7$", 1, "equal"},
		{"inline math", `\frac{1}{2}`, `\(\frac{1}{2}\)`, 1, "equal"},
		{"display math", `\frac{1}{2}`, `\[\frac{2}{4}\]`, 1, "equal"},
		{"boxed", "7", `\boxed{7}`, 1, "equal"},
		{"unit", "5", `5 \text{ cm}`, 1, "equal"},
		{"unit word", "12", "12 apples", 1, "equal"},
		{"trailing dot", "37", "37.", 1, "equal"},
		{"thousands", "1234", "1,234", 1, "equal"},
		{"percent", `50\%`, "50%", 1, "equal"},
		{"slash", `\frac{3}{4}`, "3/4", 1, "equal"},
		{"equation", "7", "x = 7", 1, "equal"},
		{"text", `\text{Monday}`, `\text{Monday}`, 1, "equal"},
		{"unparsed text equals itself", `\boxed{\unknowncommand{2}}`, `\unknowncommand{2}`, 1, "equal"},
		{"set", "1, 2", `\{2, 1\}`, 1, "equal"},
		{"no answer", "7", "", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, reason := ScoreAnswer(c.gold, c.answer)
			if got != c.want {
				t.Errorf("ScoreAnswer(%q, %q) = %v (%s), want %v", c.gold, c.answer, got, reason, c.want)
			}
			if !strings.Contains(reason, c.reason) {
				t.Errorf("reason %q does not mention %q", reason, c.reason)
			}
		})
	}
}

// TestBudgetIsNeverAMatch holds Parse to its budgets: a candidate answer
// that runs past one ends the search with the error; it does not pass the
// turn to a smaller candidate (here the innermost 1) that equals the gold.
func TestBudgetIsNeverAMatch(t *testing.T) {
	e := deepSum(40)
	for _, resp := range []string{
		"Answer: " + e + "\n",
		"so " + e + " ",
		"x = " + e + " = y",
		`$a = b = ` + strings.Repeat("(", 70) + "1" + strings.Repeat(")", 70) + `$`,
		`\boxed{3 + \frac{1}{2} + ` + strings.Repeat("(", 70) + "1" + strings.Repeat(")", 70) + `}`,
	} {
		gold := "1"
		if strings.Contains(resp, `\frac`) {
			gold = `\frac{1}{2}`
		}
		got, reason := Score(gold, resp)
		if got != 0 || !strings.Contains(reason, "over budget") {
			t.Errorf("Score(%q, %.40q...) = %v (%s), want 0 over budget", gold, resp, got, reason)
		}
	}
	// Below the budget the whole expression is read: 11 is not 1.
	if got, reason := Score("1", "so "+deepSum(10)+" "); got != 0 {
		t.Errorf("1+(1+(...)) 10 deep scored %v (%s) against 1", got, reason)
	}
	if got, reason := Score("11", "so "+deepSum(10)+" "); got != 1 {
		t.Errorf("1+(1+(...)) 10 deep scored %v (%s) against 11", got, reason)
	}
}

// TestLoneSurrogatesStayDistinct: Python hands texts over as
// "surrogatepass" UTF-8, where a lone surrogate is ED A0-BF 80-BF. Two
// different ones are different answers, as text and as \text{} variables.
func TestLoneSurrogatesStayDistinct(t *testing.T) {
	hi, lo := "\xed\xa0\x80", "\xed\xb0\x80"
	for _, form := range []string{`\boxed{%s}`, `\boxed{\text{%s}}`, `\boxed{\text{A%s}}`, `$x%s$`} {
		g, _ := Parse(strings.Replace(form, "%s", hi, 1), DefaultExtractConfig)
		p, _ := Parse(strings.Replace(form, "%s", lo, 1), DefaultExtractConfig)
		if ok, _ := Equal(g, p, DefaultOptions); ok {
			t.Errorf("%s: U+D800 equals U+DC00 (parsed %v and %v)", form, g, p)
		}
		if ok, _ := Equal(g, g, DefaultOptions); !ok {
			t.Errorf("%s: U+D800 differs from itself (parsed %v)", form, g)
		}
		for _, v := range g {
			if !strings.Contains(v.String(), hi) {
				t.Errorf("%s: %s value %q lost the surrogate", form, v.Kind, v.String())
			}
		}
	}
	if got, reason := ScoreAnswer(`\text{`+hi+`}`, `\text{`+lo+`}`); got != 0 {
		t.Errorf("ScoreAnswer of two different surrogates = %v (%s)", got, reason)
	}
}
