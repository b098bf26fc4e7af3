package dataset

import (
	"strings"
	"testing"
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
