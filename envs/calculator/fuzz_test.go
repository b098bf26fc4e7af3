package calculator

import (
	"errors"
	"math"
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

// FuzzNum checks the small rationals against big.Rat: every operation
// gives the same value, and a result kept small is in lowest terms with a
// positive denominator and a numerator other than math.MinInt64.
func FuzzNum(f *testing.F) {
	f.Add(int64(3), int64(4), int64(-5), int64(6), false, false)
	f.Add(int64(math.MaxInt64), int64(1), int64(math.MaxInt64), int64(1), false, false)
	f.Add(int64(math.MinInt64+1), int64(1), int64(-1), int64(1), false, true)
	f.Add(int64(1<<40), int64(3), int64(1<<40), int64(7), true, false)
	f.Add(int64(0), int64(1), int64(-9), int64(2), false, false)
	f.Fuzz(func(t *testing.T, n1, d1, n2, d2 int64, big1, big2 bool) {
		mk := func(n, d int64, asBig bool) (num, bool) {
			if d == 0 || n == math.MinInt64 || d == math.MinInt64 {
				return num{}, false
			}
			if asBig {
				return bigNum(big.NewRat(n, d)), true
			}
			return frac(n, d), true
		}
		x, ok1 := mk(n1, d1, big1)
		y, ok2 := mk(n2, d2, big2)
		if !ok1 || !ok2 {
			return
		}
		check := func(op string, got num, want *big.Rat) {
			if got.rat().Cmp(want) != 0 {
				t.Fatalf("%v %s %v = %v, want %v", x.rat(), op, y.rat(), got.rat(), want)
			}
			if got.r == nil && (got.d <= 0 || got.n == math.MinInt64 || gcd64(got.n, got.d) != 1) {
				t.Fatalf("%v %s %v: small result %d/%d is not in lowest terms", x.rat(), op, y.rat(), got.n, got.d)
			}
			if got.isInt() != want.IsInt() || got.sign() != want.Sign() {
				t.Fatalf("%v %s %v: isInt or sign differs", x.rat(), op, y.rat())
			}
			if got.text() != Format(want) {
				t.Fatalf("%v %s %v: text %q, want %q", x.rat(), op, y.rat(), got.text(), Format(want))
			}
		}
		check("+", add(x, y, false), new(big.Rat).Add(x.rat(), y.rat()))
		check("-", add(x, y, true), new(big.Rat).Sub(x.rat(), y.rat()))
		check("*", mul(x, y), new(big.Rat).Mul(x.rat(), y.rat()))
		check("neg", neg(x), new(big.Rat).Neg(x.rat()))
		if y.sign() != 0 {
			check("/", quo(x, y), new(big.Rat).Quo(x.rat(), y.rat()))
		}
	})
}
