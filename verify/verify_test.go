package verify

import (
	"strings"
	"testing"
	"time"
)

func TestScore(t *testing.T) {
	cases := []struct {
		name, gold, pred string
		want             float64
	}{
		{"integer", "42", `The answer is \boxed{42}.`, 1},
		{"wrong integer", "42", `The answer is \boxed{43}.`, 0},
		{"negative", "-7", `\boxed{-7}`, 1},
		{"sign matters", "-7", `\boxed{7}`, 0},
		{"decimal vs fraction", `\frac{1}{2}`, `so \boxed{0.5}`, 1},
		{"rounded decimal", `\frac{1}{3}`, `\boxed{0.333333}`, 1},
		{"too coarse decimal", `\frac{1}{3}`, `\boxed{0.33}`, 0},
		{"trailing zeros", "3.5", `\boxed{3.50}`, 1},
		{"thousands separators", "1234567", `\boxed{1,234,567}`, 1},
		{"thousands in text", "1234", `The total is 1,234.`, 1},
		{"dfrac", `\frac{3}{4}`, `\boxed{\dfrac{6}{8}}`, 1},
		{"tfrac", `\frac{3}{4}`, `\boxed{\tfrac{3}{4}}`, 1},
		{"slash fraction", `\frac{3}{4}`, `The ratio is 3/4.`, 1},
		{"frac12", `\frac{1}{2}`, `\boxed{\frac12}`, 1},
		{"mixed number", `2\frac{1}{2}`, `\boxed{\frac{5}{2}}`, 1},
		{"percent vs decimal", `50\%`, `\boxed{0.5}`, 1},
		{"percent vs integer", `50\%`, `\boxed{50}`, 1},
		{"percent wrong", `50\%`, `\boxed{5}`, 0},
		{"scientific", `1.5\times 10^{3}`, `\boxed{1500}`, 1},
		{"negative exponent", `3\times 10^{-2}`, `\boxed{0.03}`, 1},
		{"sqrt", `\sqrt{8}`, `\boxed{2\sqrt{2}}`, 1},
		{"sqrt wrong", `\sqrt{8}`, `\boxed{\sqrt{2}}`, 0},
		{"cube root", `3`, `\boxed{\sqrt[3]{27}}`, 1},
		{"rationalized", `\frac{\sqrt{2}}{2}`, `\boxed{\frac{1}{\sqrt{2}}}`, 1},
		{"pi", `2\pi`, `\boxed{\pi \cdot 2}`, 1},
		{"pi decimal too coarse", `\pi`, `\boxed{3.14}`, 0},
		{"pi decimal", `\pi`, `\boxed{3.141593}`, 1},
		{"arithmetic", "1024", `\boxed{2^{10}}`, 1},
		{"factorial", "120", `\boxed{5!}`, 1},
		{"units", "5", `\boxed{5 \text{ cm}}`, 1},
		{"currency", "5", `\boxed{\$5}`, 1},
		{"text", `\text{Monday}`, `\boxed{\text{Monday}}`, 1},
		{"text wrong", `\text{Monday}`, `\boxed{\text{Tuesday}}`, 0},
		{"degrees", `30^\circ`, `\boxed{30}`, 1},
		{"tuple", "(1, 2)", `\boxed{(1,2)}`, 1},
		{"tuple order", "(1, 2, 3)", `\boxed{(2,1,3)}`, 0},
		{"set order", `\{1,2,3\}`, `\boxed{\{3,1,2\}}`, 1},
		{"interval", "[1, 2)", `\boxed{[1,2)}`, 1},
		{"interval ends", "[1, 2)", `\boxed{[1,2]}`, 0},
		{"union", `(-\infty, 3] \cup (5, \infty)`, `\boxed{(5,\infty)\cup(-\infty,3]}`, 1},
		{"multiple answers", "1, 2", `so $x = 1$ and $x = 2$, \boxed{2, 1}`, 1},
		{"plus minus", `2 \pm \sqrt{3}`, `\boxed{2-\sqrt{3}, 2+\sqrt{3}}`, 1},
		{"equation vs value", "x = 3", `\boxed{3}`, 1},
		{"value vs equation", "3", `\boxed{x = 3}`, 1},
		{"equation", "y = 2x + 1", `\boxed{y = 1 + 2x}`, 1},
		{"equation wrong", "y = 2x + 1", `\boxed{y = 2x - 1}`, 0},
		{"polynomial", "x^2+2x+1", `\boxed{(x+1)^2}`, 1},
		{"polynomial wrong", "x^2+2x+1", `\boxed{(x-1)^2}`, 0},
		{"rational function", `\frac{x^2-1}{x-1}`, `\boxed{x+1}`, 1},
		{"two variables", "(a+b)^2", `\boxed{a^2+2ab+b^2}`, 1},
		{"trig identity", `\sin^2 x + \cos^2 x`, `\boxed{1}`, 1},
		{"abs", `\sqrt{x^2}`, `\boxed{|x|}`, 1},
		{"abs vs x", `\sqrt{x^2}`, `\boxed{x}`, 0},
		{"inequality flipped", "x > 3", `\boxed{3 < x}`, 1},
		{"inequality as interval", "x > 3", `\boxed{(3, \infty)}`, 1},
		{"final answer anchor", "17", "We try 3 and 5. The final answer is $17$. I hope it is correct.", 1},
		{"no answer", "17", "I do not know.", 0},
		{"last boxed wins", "8", `First \boxed{7} looked right, but the count of the second row was wrong, so we redo the whole sum. Correct: \boxed{8}`, 1},
		{"close boxes are all kept", "8", `First \boxed{7}, then \boxed{8}`, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, reason := Score(c.gold, c.pred)
			if got != c.want {
				t.Errorf("Score(%q, %q) = %v (%s), want %v", c.gold, c.pred, got, reason, c.want)
			}
		})
	}
}

func TestParseValues(t *testing.T) {
	cases := []struct {
		text string
		kind Kind
		str  string
	}{
		{`\boxed{\frac{6}{8}}`, KindExpr, "3/4"},
		{`\boxed{1,000}`, KindExpr, "1000"},
		{`\boxed{1,2}`, KindSet, "{1, 2}"},
		{`\boxed{(1,2)}`, KindInterval, "(1, 2)"},
		{`\boxed{(2,1)}`, KindTuple, "(2, 1)"},
		{`\boxed{(1,2,3)}`, KindTuple, "(1, 2, 3)"},
		{`\boxed{[0,1)}`, KindInterval, "[0, 1)"},
		{`\boxed{\{3,1,3\}}`, KindSet, "{3, 1}"},
		{`\boxed{x=3}`, KindRelation, "x = 3"},
		{`\boxed{1 < x \le 2}`, KindRelation, "1 < x <= 2"},
		{`\boxed{2\frac{1}{3}}`, KindExpr, "7/3"},
		{`\boxed{50\%}`, KindExpr, "50%"},
		{`The answer is 12.5.`, KindExpr, "12.5"},
		{`\boxed{\text{Yes}}`, KindExpr, "yes"},
	}
	for _, c := range cases {
		vals, err := Parse(c.text, DefaultExtractConfig)
		if err != nil || len(vals) == 0 {
			t.Errorf("Parse(%q) = %v, %v", c.text, vals, err)
			continue
		}
		if vals[0].Kind != c.kind || vals[0].String() != c.str {
			t.Errorf("Parse(%q)[0] = %s %q, want %s %q", c.text, vals[0].Kind, vals[0].String(), c.kind, c.str)
		}
	}
}

func TestFallbackText(t *testing.T) {
	vals, err := Parse(`\boxed{\frac{1}{2}}`, DefaultExtractConfig)
	if err != nil || len(vals) != 2 || vals[1].Kind != KindText || vals[1].Text != `\frac{1}{2}` {
		t.Fatalf("Parse = %v, %v; want the value and the text \\frac{1}{2}", vals, err)
	}
	cfg := DefaultExtractConfig
	cfg.FirstMatchFallback = false
	vals, _ = Parse(`\boxed{\frac{1}{2}}`, cfg)
	if len(vals) != 1 {
		t.Fatalf("without fallback Parse = %v, want one value", vals)
	}
	// Found but unparsable: the text alone.
	vals, _ = Parse(`\boxed{\unknowncommand{2}}`, DefaultExtractConfig)
	if len(vals) != 1 || vals[0].Kind != KindText {
		t.Fatalf("unparsable answer: Parse = %v, want only its text", vals)
	}
}

func TestOptions(t *testing.T) {
	g, _ := Parse(`$\frac{1}{3}$`, DefaultExtractConfig)
	p, _ := Parse(`$0.33$`, DefaultExtractConfig)
	if ok, _ := Equal(g, p, DefaultOptions); ok {
		t.Error("1/3 equals 0.33 at 6 places")
	}
	opt := DefaultOptions
	opt.FloatRounding = 2
	if ok, _ := Equal(g, p, opt); !ok {
		t.Error("1/3 differs from 0.33 at 2 places")
	}
	g, _ = Parse(`$x+1$`, DefaultExtractConfig)
	p, _ = Parse(`$y+1$`, DefaultExtractConfig)
	if ok, _ := Equal(g, p, DefaultOptions); ok {
		t.Error("x+1 equals y+1 in strict mode")
	}
	opt = DefaultOptions
	opt.NonStrict = true
	if ok, _ := Equal(g, p, opt); !ok {
		t.Error("x+1 differs from y+1 in non-strict mode")
	}
	g, _ = Parse(`$(1, 2)$`, DefaultExtractConfig)
	p, _ = Parse(`$1 < x < 2$`, DefaultExtractConfig)
	if ok, _ := Equal(g, p, DefaultOptions); ok {
		t.Error("a relation in the prediction equals a set in the reference without AllowSetRelation")
	}
	opt = DefaultOptions
	opt.AllowSetRelation = true
	if ok, _ := Equal(g, p, opt); !ok {
		t.Error("1 < x < 2 differs from (1, 2) with AllowSetRelation")
	}
}

func TestStringTarget(t *testing.T) {
	cfg := ExtractConfig{Targets: []Target{DefaultStringTarget}, FirstMatchFallback: true}
	g, _ := Parse("B", cfg)
	for text, want := range map[string]bool{"The answer is B.": true, "Answer: C": false, "I pick (D) at first, but B.": true} {
		p, _ := Parse(text, cfg)
		if ok, _ := Equal(g, p, DefaultOptions); ok != want {
			t.Errorf("%q: equal = %v, want %v (parsed %v)", text, ok, want, p)
		}
	}
}

func TestBudgets(t *testing.T) {
	cases := []struct {
		name, gold, pred string
		reason           string // a substring of the reason; "" for any not-equal reason
	}{
		{"power tower", `9^{9^{9^{9}}}`, `\boxed{9^{9^{9^{9}}}+1}`, "over budget"},
		{"huge power", `10^{10^{10}}`, `\boxed{10^{10^{10}}-1}`, "over budget"},
		{"deep nesting", "1", `\boxed{` + strings.Repeat("(", 500) + "1" + strings.Repeat(")", 500) + `}`, ""},
		{"huge number", "1", `\boxed{` + strings.Repeat("9", 5000) + `}`, ""},
		{"many terms", "1", `\boxed{` + strings.Repeat("x+", 5000) + `1}`, ""},
		{"huge factorial", "1", `\boxed{100000000!}`, ""},
		{"long text", "7", strings.Repeat("word 1 ", 200000) + `\boxed{8}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && len(c.pred) > 100_000 {
				t.Skip("large input (slow under the race detector)")
			}
			start := time.Now()
			got, reason := Score(c.gold, c.pred)
			if elapsed := time.Since(start); elapsed > 5*time.Second {
				t.Errorf("took %v", elapsed)
			}
			if got != 0 {
				t.Errorf("Score = %v (%s), want 0", got, reason)
			}
			if c.reason != "" && !strings.Contains(reason, c.reason) {
				t.Errorf("reason %q does not mention %q", reason, c.reason)
			}
		})
	}
	// An identical tower is equal without being computed.
	if got, reason := Score(`9^{9^{9^{9}}}`, `\boxed{9^{9^{9^{9}}}}`); got != 1 {
		t.Errorf("identical tower: %v (%s)", got, reason)
	}
}

func TestEncodeDecode(t *testing.T) {
	texts := []string{`\boxed{\frac{1}{2}}`, "The answer is 12.", `$1$ and $2$`, `\boxed{(1,2]}`, `\boxed{x=3}`,
		`$50\%$`, `the total is 2+3.`, `\boxed{\text{yes}}`}
	for _, text := range texts {
		vals, err := Parse(text, DefaultExtractConfig)
		if err != nil || len(vals) == 0 {
			t.Fatalf("Parse(%q) = %v, %v", text, vals, err)
		}
		for _, v := range vals {
			enc, err := Encode(v)
			if err != nil {
				t.Fatalf("Encode(%v): %v", v, err)
			}
			back, err := Decode(enc, Budget{})
			if err != nil {
				t.Fatalf("Decode(%q): %v", enc, err)
			}
			if !back.sameAs(&v) || back.String() != v.String() {
				t.Errorf("%q: decoded %v, want %v", text, back, v)
			}
		}
	}
	if _, err := Decode("Zbad", Budget{}); err == nil {
		t.Error("Decode accepted a malformed encoding")
	}
	if _, err := Encode(exprValue(intNode(1))); err == nil {
		t.Error("Encode accepted a value not made by Parse")
	}
}
