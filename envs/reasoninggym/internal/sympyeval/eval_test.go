package sympyeval

import (
	"math"
	"strings"
	"testing"
)

// TestEval checks Eval against float(sympy.parse_expr(s)) as sympy 1.14
// computes it: every expected value below is sympy's, to the bit, and every
// expected error is an exception there (named in the comment).
func TestEval(t *testing.T) {
	cases := []struct {
		expr    string
		want    float64
		wantErr bool
	}{
		{"(10 + 5) * 2 - 1", 29.0, false},
		{"100 / 4 + 3", 28.0, false},
		{"2**10", 1024.0, false},
		{"2^3", 1.0, false},
		{"7!", 5040.0, false},
		{"3!!", 3.0, false},
		{"1e3 + 2.5", 1002.5, false},
		{"-(-(-1))", -1.0, false},
		{"(((((1)))))", 1.0, false},
		{"1 < 2", 0, true}, // TypeError
		{"3 == 3.0", 0.0, false},
		{"3 == 3", 1.0, false},
		{"1 != 2", 1.0, false},
		{"10 // 3 % 2", 1.0, false},
		{"5 & 3 | 2", 3.0, false},
		{"2**0.5", 1.4142135623730951, false},
		{"2**(1/2)", 1.4142135623730951, false},
		{"(-8)**(1/3)", 0, true}, // TypeError
		{"2**-1074 / 2", 0.0, false},
		{"1j", 0, true}, // TypeError
		{"0/0", math.NaN(), false},
		{"1/0", 0, true}, // TypeError
		{"1_000 + 1", 1001.0, false},
		{"\u0661 + 1", 0, true}, // SyntaxError
		{"x + 1", 0, true},      // TypeError
		{"", 0, true},           // SyntaxError
		{"   ", 0, true},        // SyntaxError
		{"1/3", 0.3333333333333333, false},
		{"-7 // 2", -4.0, false},
		{"-7 % 3", 2.0, false},
		{"7 % -3", -2.0, false},
		{"(-3/2)//1", -1.0, false},
		{"(-2)//(1/2)", -5.0, false},
		{"0.1 + 0.2", 0.30000000000000004, false},
		{"0.1 * 3", 0.30000000000000004, false},
		{"100.5 - 0.5", 100.0, false},
		{"5 % 0.0", 0, true}, // ZeroDivisionError
		{"0.25 % 0", 0.25, false},
		{"1 << 10", 1024.0, false},
		{"-1 >> 100", -1.0, false},
		{"~5", -6.0, false},
		{"0x1f + 0b101 + 0o17", 51.0, false},
		{"(1+2j)*(1-2j)", 5.0, false},
		{"4**(1/2)", 2.0, false},
		{"(-4)**(1/2)", 0, true}, // TypeError
		{"8**(2/3)", 4.0, false},
		{"(9/4)**(-1/2)", 0.6666666666666666, false},
		{"5!/(3!*2!)", 10.0, false},
		{"(-1)!", 0, true}, // TypeError
		{"7!!", 105.0, false},
		{"(-5)!!", 0.3333333333333333, false},
		{"1e308*10", math.Inf(1), false},
		{"1e-400", 0.0, false},
		{"123456789012345678901234567890 / 7", 1.763668414462081e+28, false},
		{"2**100 - 1", 1.2676506002282294e+30, false},
		{"10**20 + 0.5", 1e+20, false},
		{"1.5 // 0.5", 3.0, false},
		{"1.5 % 0.4", 0.29999999999999993, false},
		{"(1 +\n 2)", 3.0, false},
		{"1 +\n 2", 0, true}, // SyntaxError
		{"1 + 2 # comment", 3.0, false},
		{"1 + \\\n 2", 3.0, false},
		{"3.0 ** 2", 9.0, false},
		{"2 ** 3.0", 8.0, false},
		{"(-2) ** 3.0", -8.0, false},
		{"2 ** -2", 0.25, false},
		{"-2 ** -2", -0.25, false},
		{"1/3 + 1/3 + 1/3", 1.0, false},
		{"25 * 4 - 3 * 7 + 18 / 6", 82.0, false},
		{"007", 0, true}, // SyntaxError
		{"00", 0.0, false},
		{"1e3j", 0, true}, // TypeError
	}
	for _, c := range cases {
		got, err := Eval(c.expr)
		switch {
		case c.wantErr:
			if err == nil {
				t.Errorf("Eval(%q) = %v, want an error", c.expr, got)
			}
		case err != nil:
			t.Errorf("Eval(%q): %v, want %v", c.expr, err, c.want)
		case math.IsNaN(c.want):
			if !math.IsNaN(got) {
				t.Errorf("Eval(%q) = %v, want NaN", c.expr, got)
			}
		case math.Float64bits(got) != math.Float64bits(c.want):
			t.Errorf("Eval(%q) = %v (%#x), want %v (%#x)", c.expr, got, math.Float64bits(got), c.want, math.Float64bits(c.want))
		}
	}
}

// TestEvalKnownDifferences pins the documented differences from sympy (see
// the package documentation), so that a change to them is deliberate.
func TestEvalKnownDifferences(t *testing.T) {
	cases := []struct {
		expr    string
		sympy   string // what float(parse_expr(expr)) gives
		want    float64
		wantErr bool
	}{
		{"I*I", "-1.0 (I is a sympy name)", 0, true},
		{"(2*I)**2", "-4.0 (I is a sympy name)", 0, true},
		{"pi", "3.141592653589793", 0, true},
		{"2**(1/2)*2**(1/2)", "2.0 (exact there)", 2.0000000000000004, false},
		{"0.5!", "0.886226925452758 (mpmath gamma)", 0.8862269254527579, false},
	}
	for _, c := range cases {
		got, err := Eval(c.expr)
		if c.wantErr {
			if err == nil {
				t.Errorf("Eval(%q) = %v, want an error (sympy: %s)", c.expr, got, c.sympy)
			}
			continue
		}
		if err != nil || math.Float64bits(got) != math.Float64bits(c.want) {
			t.Errorf("Eval(%q) = %v, %v; want %v (sympy: %s)", c.expr, got, err, c.want, c.sympy)
		}
	}
}

// FuzzEval evaluates arbitrary expressions as countdown's scorer does
// (Python's parse_expr, then float()): no panic, a bounded amount of work
// and the same result every time (NaN, as sympy gives for 0/0, included).
func FuzzEval(f *testing.F) {
	for _, s := range []string{"(10 + 5) * 2 - 1", "100 / 4 + 3", "2**10", "2^3", "7!", "3!!", "1e3 + 2.5", "-(-(-1))",
		"(((((1)))))", "1 < 2", "3 == 3.0", "10 // 3 % 2", "5 & 3 | 2", "2**0.5", "(-8)**(1/3)", "2**-1074 / 2",
		"9**9**9", "1j", "I*I", "0/0", "1/0", "1" + strings.Repeat("0", 400), strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200),
		"1_000 + 1", "\u0661 + 1", "x + 1", "", "   "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		v, err := Eval(expr)
		v2, err2 := Eval(expr)
		if (err == nil) != (err2 == nil) || (err == nil && v != v2 && !(math.IsNaN(v) && math.IsNaN(v2))) {
			t.Fatalf("Eval(%q) = %v, %v then %v, %v", expr, v, err, v2, err2)
		}
	})
}
