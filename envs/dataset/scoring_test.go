package dataset

import (
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

func TestNumeric(t *testing.T) {
	cases := []struct {
		gold, pred string
		want       float64
	}{
		{"42", "42", 1},
		{"42", "42.0", 1},
		{"1200", "1,200", 1},
		{"-5", "-5.00", 1},
		{"0.5", ".5", 1},
		{"1e3", "1000", 1},
		{"3.14159265358", "3.141592654", 1}, // equal in 10 significant digits
		{"3.14159", "3.1416", 0},
		{"1234567890", "1234567890.4", 1}, // llenvs: int string "1234567890" vs .10g "1234567890"
		{"42", "forty-two", 0},
		{"42", "", 0},
		{"nan", "nan", 0},
		{"inf", "inf", 1},
		{"1e400", "inf", 1}, // Python's float() overflows to inf
		{"100000000000000000000", "1e20", 1},
		{" 7 ", "7", 1},
		{"1_000", "1000", 1}, // Python's float() accepts digit separators
	}
	for _, c := range cases {
		if got, _ := Numeric(c.gold, c.pred); got != c.want {
			t.Errorf("Numeric(%q, %q) = %v, want %v", c.gold, c.pred, got, c.want)
		}
	}
	if _, reason := Numeric("4", "four"); !strings.Contains(reason, "not a number") {
		t.Errorf("reason = %q", reason)
	}
}

func TestExactAndTolerance(t *testing.T) {
	if v, _ := Exact(" Paris ", "paris"); v != 1 {
		t.Error("exact: strip and lower")
	}
	if v, _ := Exact("Paris", "Pari s"); v != 0 {
		t.Error("exact: inner spaces count")
	}
	if v, _ := Exact("STRASSE", "strasse"); v != 1 {
		t.Error("exact: lower")
	}
	tol := []struct {
		gold, pred string
		want       float64
	}{
		{"100", "100.0009", 1},
		{"100", "100.01", 0},
		{"0", "0.000001", 1},
		{"0", "0.001", 0},
		{"x", "1", 0},
	}
	for _, c := range tol {
		if got, _ := NumericTolerance(c.gold, c.pred); got != c.want {
			t.Errorf("NumericTolerance(%q, %q) = %v, want %v", c.gold, c.pred, got, c.want)
		}
	}
}

func TestScoringRegistry(t *testing.T) {
	// "math" and "math_verify" are the verifier's (math.go), which compares values, not text.
	cases := []struct {
		name, gold, pred string
		want             float64
	}{
		{"math", `\frac{1}{2}`, "0.5", 1},
		{"math_verify", `\dfrac{3}{4}`, "0.75", 1},
		{"math", `\frac{1}{2}`, "0.6", 0},
		{"exact", `\frac{1}{2}`, "0.5", 0},
	}
	for _, c := range cases {
		f, err := Scoring(c.name)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got, reason := f(c.gold, c.pred); got != c.want {
			t.Errorf("%s(%q, %q) = %v (%q), want %v", c.name, c.gold, c.pred, got, reason, c.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a name twice must panic")
		}
	}()
	RegisterScoring("exact", Exact)
}

// TestMathScoringTakesTheAnswerWhole holds scoring="math" to the answer the
// extractor cut out: it is parsed whole, never searched for a part that
// equals the expected answer, and a budget overrun is never a match.
func TestMathScoringTakesTheAnswerWhole(t *testing.T) {
	deep := `3 + \frac{1}{2} + ` + strings.Repeat("(", 70) + "1" + strings.Repeat(")", 70)
	cases := []struct {
		name, extractor, solution, response string
		want                                float64
		reason                              string // a substring of the scoring reason, "" for any
	}{
		{"fraction of the gold", "tag_based", `\boxed{\frac{1}{2}}`, `<answer>\frac{\frac{1}{2}}{3}</answer>`, 0, "not equal"},
		{"gold plus a variable", "tag_based", `\boxed{7}`, `<answer>x + 7</answer>`, 0, "not equal"},
		{"boxed gold plus a variable", "boxed", `\boxed{7}`, `\boxed{x + 7}`, 0, "not equal"},
		{"padded past the nesting limit", "tag_based", `\boxed{\frac{1}{2}}`, "<answer>" + deep + "</answer>", 0, "over budget"},
		{"boxed, padded past the nesting limit", "boxed", `\boxed{\frac{1}{2}}`, `\boxed{` + deep + `}`, 0, "over budget"},
		{"gold squared", "boxed", `\boxed{3}`, `\boxed{3^2}`, 0, "not equal"},
		{"gold in a tuple", "tag_based", `\boxed{3}`, `<answer>(3, 1)</answer>`, 0, ""},
		{"root of the gold", "boxed", `\boxed{4}`, `\boxed{\sqrt{4}}`, 0, "not equal"},
		{"gold then words", "tag_based", `\boxed{7}`, `<answer>7 or 8</answer>`, 0, ""},
		// what stays a match
		{"equal value", "tag_based", `\boxed{\frac{1}{2}}`, `<answer>0.5</answer>`, 1, "equal"},
		{"equal fraction", "boxed", `\boxed{\frac{1}{2}}`, `so \boxed{\frac{2}{4}}`, 1, "equal"},
		{"dollars", "tag_based", `\boxed{7}`, `<answer>$7$</answer>`, 1, "equal"},
		{"unit", "tag_based", `\boxed{5}`, `<answer>5 \text{ cm}</answer>`, 1, "equal"},
		{"plain decimal with a dot", "tag_based", `\boxed{37}`, `<answer>37.</answer>`, 1, "equal"},
		{"thousands", "tag_based", `\boxed{1234}`, `<answer>1,234</answer>`, 1, "equal"},
		{"equation", "tag_based", `\boxed{7}`, `<answer>x = 7</answer>`, 1, "equal"},
		{"text", "tag_based", `\boxed{\text{Monday}}`, `<answer>\text{Monday}</answer>`, 1, "equal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := core.EnvConfig{Name: "math", Adapter: AdapterName, AnswerExtractor: c.extractor,
				Params: map[string]any{"question_column": "problem", "answer_column": "solution",
					"ground_truth_extractor": "boxed", "scoring": "math"}}
			e, err := New(cfg, map[string]Column{"problem": text("q"), "solution": text(c.solution)})
			if err != nil {
				t.Fatal(err)
			}
			out := core.Scored{Values: make([]float64, 1)}
			e.ScoreText(0, c.response, &out)
			if out.Total != c.want {
				t.Errorf("total %v, want %v (answer %q)", out.Total, c.want, out.Extraction.Answer)
			}
			_, reason := e.correctness(0, out.Extraction)
			if c.reason != "" && !strings.Contains(reason, c.reason) {
				t.Errorf("reason %q does not mention %q", reason, c.reason)
			}
		})
	}
}
