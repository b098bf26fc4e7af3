package calculator

import (
	"math"
	"math/big"
	"strconv"
)

// num is an exact rational: n/d in lowest terms with d > 0 while both fit
// in an int64 (and n is not math.MinInt64, so that every negation fits),
// else the *big.Rat r. Most calculator expressions are small integers:
// they are evaluated without allocating, and an operation whose result
// would not fit continues in big.Rat, with the same value.
type num struct {
	n, d int64
	r    *big.Rat // nil while the value is n/d
}

func smallNum(n int64) num { return num{n: n, d: 1} }

// rat is the value as a new *big.Rat (or r itself).
func (x num) rat() *big.Rat {
	if x.r != nil {
		return x.r
	}
	return big.NewRat(x.n, x.d)
}

func bigNum(r *big.Rat) num { return num{r: r} }

func (x num) sign() int {
	if x.r != nil {
		return x.r.Sign()
	}
	switch {
	case x.n < 0:
		return -1
	case x.n > 0:
		return 1
	}
	return 0
}

func (x num) isInt() bool {
	if x.r != nil {
		return x.r.IsInt()
	}
	return x.d == 1
}

// mul64 is x*y, and whether it fits (math.MinInt64 never does).
func mul64(x, y int64) (int64, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	p := x * y
	if p/y != x || x == math.MinInt64 || y == math.MinInt64 || p == math.MinInt64 {
		return 0, false
	}
	return p, true
}

// add64 is x+y, and whether it fits (math.MinInt64 never does).
func add64(x, y int64) (int64, bool) {
	s := x + y
	if (x > 0 && y > 0 && s < 0) || (x < 0 && y < 0 && s >= 0) || s == math.MinInt64 {
		return 0, false
	}
	return s, true
}

func gcd64(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// frac is n/d in lowest terms (d != 0, neither math.MinInt64).
func frac(n, d int64) num {
	if d < 0 {
		n, d = -n, -d
	}
	if g := gcd64(n, d); g > 1 {
		n, d = n/g, d/g
	}
	return num{n: n, d: d}
}

// add is x+y (sub: x-y when neg is set).
func add(x, y num, neg bool) num {
	if x.r == nil && y.r == nil {
		yn := y.n
		if neg {
			yn = -yn
		}
		if x.d == 1 && y.d == 1 {
			if s, ok := add64(x.n, yn); ok {
				return smallNum(s)
			}
		} else {
			a, ok1 := mul64(x.n, y.d)
			b, ok2 := mul64(yn, x.d)
			d, ok3 := mul64(x.d, y.d)
			if ok1 && ok2 && ok3 {
				if s, ok := add64(a, b); ok {
					return frac(s, d)
				}
			}
		}
	}
	if neg {
		return bigNum(new(big.Rat).Sub(x.rat(), y.rat()))
	}
	return bigNum(new(big.Rat).Add(x.rat(), y.rat()))
}

// mul is x*y.
func mul(x, y num) num {
	if x.r == nil && y.r == nil {
		// Cross-reduce first: the product is then in lowest terms.
		g1, g2 := gcd64(x.n, y.d), gcd64(y.n, x.d)
		n, ok1 := mul64(x.n/g1, y.n/g2)
		d, ok2 := mul64(x.d/g2, y.d/g1)
		if ok1 && ok2 {
			return num{n: n, d: d}
		}
	}
	return bigNum(new(big.Rat).Mul(x.rat(), y.rat()))
}

// quo is x/y; y is not zero.
func quo(x, y num) num {
	if y.r == nil {
		return mul(x, frac(y.d, y.n))
	}
	return bigNum(new(big.Rat).Quo(x.rat(), y.r))
}

func neg(x num) num {
	if x.r == nil {
		return num{n: -x.n, d: x.d}
	}
	return bigNum(new(big.Rat).Neg(x.r))
}

// text is Format of the value.
func (x num) text() string {
	if x.r == nil && x.d == 1 {
		return strconv.FormatInt(x.n, 10)
	}
	return Format(x.rat())
}
