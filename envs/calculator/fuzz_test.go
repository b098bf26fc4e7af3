package calculator

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

// FuzzEval evaluates arbitrary expressions: an error is always an
// *EvalError with a message, and a result whose decimal form is exact
// (a terminating decimal of at most MaxDigits characters) prints as text
// that evaluates back to it.
func FuzzEval(f *testing.F) {
	for _, s := range []string{"2+2", "1/0", "(1 + 2) * 3 - 4 / 5", "2**10", "2^-3", "-(-(3))", "0.1 + 0.2", "1.5e3",
		"10 / 4", "1/3", "2**2**2**2", "2**100000", "(2**64)**(2**64)", "9" + strings.Repeat("9", 300), "",
		"   ", "1 +", "((((", strings.Repeat("(", 10000) + "1", "3 $ 4", "\u0661 + 1", "1_000", "-0", "0.000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		v, err := Eval(expr, 4096)
		if err != nil {
			var ee *EvalError
			if !errors.As(err, &ee) || ee.Msg == "" {
				t.Fatalf("Eval(%q): unstructured error %v", expr, err)
			}
			if errorMessage(err, expr) == "" {
				t.Fatalf("Eval(%q): no message for %v", expr, err)
			}
			return
		}
		if v == nil {
			t.Fatalf("Eval(%q): no value and no error", expr)
		}
		txt := Format(v)
		if !terminates(v) || len(strings.TrimLeft(txt, "-")) > MaxDigits {
			return // rounded, or longer than a number the parser takes
		}
		w, err := Eval(txt, 1<<20)
		if err != nil || w.Cmp(v) != 0 {
			t.Fatalf("Eval(%q) = %v printed %q, which evaluates to %v, %v", expr, v, txt, w, err)
		}
	})
}

// terminates says whether v has a finite decimal expansion.
func terminates(v *big.Rat) bool {
	d := new(big.Int).Set(v.Denom())
	for _, p := range []int64{2, 5} {
		bp, m := big.NewInt(p), new(big.Int)
		for {
			q, r := new(big.Int).QuoRem(d, bp, m)
			if r.Sign() != 0 {
				break
			}
			d = q
		}
	}
	return d.IsInt64() && d.Int64() == 1
}
