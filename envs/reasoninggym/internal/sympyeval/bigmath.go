package sympyeval

import (
	"math"
	"math/big"
)

// abs64 is |x|.
func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// ln2 returns log(2) to prec bits.
func ln2(prec uint) *big.Float {
	third := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), new(big.Float).SetPrec(prec).SetInt64(3))
	return twiceAtanh(third, prec)
}

// twiceAtanh is 2*atanh(z) for |z| <= 1/3 by its power series.
func twiceAtanh(z *big.Float, prec uint) *big.Float {
	sum := new(big.Float).SetPrec(prec).Set(z)
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	pw := new(big.Float).SetPrec(prec).Set(z)
	term := new(big.Float).SetPrec(prec)
	for k := int64(3); ; k += 2 {
		pw.Mul(pw, z2)
		term.Quo(pw, new(big.Float).SetPrec(prec).SetInt64(k))
		if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-int(prec)-4 {
			break
		}
		sum.Add(sum, term)
	}
	return sum.Mul(sum, big.NewFloat(2))
}

// logBig is log(x) for x > 0 to about prec bits.
func logBig(x *big.Float, prec uint) *big.Float {
	m := new(big.Float).SetPrec(prec)
	e := x.MantExp(m) // x = m * 2**e, m in [0.5, 1)
	one := new(big.Float).SetPrec(prec).SetInt64(1)
	num := new(big.Float).SetPrec(prec).Sub(m, one)
	den := new(big.Float).SetPrec(prec).Add(m, one)
	res := twiceAtanh(num.Quo(num, den), prec)
	if e != 0 {
		l2 := ln2(prec)
		res.Add(res, l2.Mul(l2, new(big.Float).SetPrec(prec).SetInt64(int64(e))))
	}
	return res
}

// expBig is exp(t) to about prec bits, for |t| within big.Float's exponent
// range (the caller checks).
func expBig(t *big.Float, prec uint) *big.Float {
	tf, _ := t.Float64()
	kf := math.Round(tf / math.Ln2)
	work := prec + 16 + uint(bitLen(int64(math.Abs(kf))))
	l2 := ln2(work)
	r := new(big.Float).SetPrec(work).Sub(new(big.Float).SetPrec(work).Set(t),
		l2.Mul(l2, new(big.Float).SetPrec(work).SetInt64(int64(kf))))
	// exp(r) = exp(r / 2**8) ** (2**8)
	const halvings = 8
	r.SetMantExp(r, -halvings)
	sum := new(big.Float).SetPrec(work).SetInt64(1)
	term := new(big.Float).SetPrec(work).SetInt64(1)
	for n := int64(1); n < 100000; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(work).SetInt64(n))
		if term.Sign() == 0 || term.MantExp(nil) < -int(work)-4 {
			break
		}
		sum.Add(sum, term)
	}
	for i := 0; i < halvings; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(kf))
}

// bitLen is the number of bits of x > 0 (0 for x <= 0).
func bitLen(x int64) int {
	n := 0
	for x > 0 {
		n++
		x >>= 1
	}
	return n
}

// powReal is x**y for x > 0 to about prec bits; beyond big.Float's
// exponent range it gives an infinity (saturated by finiteFloat) or zero.
func powReal(x, y *big.Float, prec uint) *big.Float {
	yf, _ := y.Float64()
	mant := new(big.Float)
	e := x.MantExp(mant)
	mf, _ := mant.Float64()
	lg := yf * (math.Log2(mf) + float64(e)) // log2 of the result
	if lg > float64(math.MaxInt32)-64 {
		return new(big.Float).SetInf(false)
	}
	if lg < -float64(math.MaxInt32)+64 {
		return new(big.Float).SetPrec(prec)
	}
	work := prec + 32 + uint(bitLen(int64(math.Abs(lg))+1))
	l := logBig(new(big.Float).SetPrec(work).Set(x), work)
	l.Mul(l, new(big.Float).SetPrec(work).Set(y))
	return expBig(l, work)
}

// nthRoot returns the exact k-th root of n >= 1, if it is an integer,
// by Newton's iteration from an overestimate.
func nthRoot(n *big.Int, k int64) (*big.Int, bool) {
	if n.Cmp(big.NewInt(1)) == 0 {
		return big.NewInt(1), true
	}
	bl := int64(n.BitLen())
	if k >= bl {
		return nil, false // 1 < root < 2
	}
	// Overestimate from the top 64 bits: 2**(log2(n)/k) * (1 + 2**-30).
	shift := max(bl-64, 0)
	top, _ := new(big.Float).SetInt(new(big.Int).Rsh(n, uint(shift))).Float64()
	lg := (math.Log2(top) + float64(shift)) / float64(k)
	ip := math.Floor(lg)
	x := new(big.Int)
	m := math.Exp2(lg-ip) * (1 + 1.0/(1<<30))
	if ip >= 52 {
		x.SetUint64(uint64(m * (1 << 52)))
		x.Lsh(x, uint(ip-52))
	} else {
		x.SetUint64(uint64(m*math.Exp2(ip)) + 1)
	}
	x.Add(x, big.NewInt(1))
	kk := big.NewInt(k)
	km1 := big.NewInt(k - 1)
	t := new(big.Int)
	y := new(big.Int)
	for i := 0; i < 10000; i++ {
		// y = ((k-1) x + n / x**(k-1)) / k
		t.Exp(x, km1, nil)
		t.Quo(n, t)
		y.Mul(x, km1)
		y.Add(y, t)
		y.Quo(y, kk)
		if y.Cmp(x) >= 0 {
			break
		}
		x, y = y, x
	}
	if t.Exp(x, kk, nil).Cmp(n) == 0 {
		return x, true
	}
	return nil, false
}

// powFloatInt is a**n by repeated squaring in floating point.
func powFloatInt(a *big.Float, n int64, prec uint) *big.Float {
	work := a.Prec()
	res := new(big.Float).SetPrec(work).SetInt64(1)
	base := new(big.Float).SetPrec(work).Set(a)
	for e := abs64(n); e > 0; e >>= 1 {
		if e&1 == 1 {
			res.Mul(res, base)
		}
		if res.IsInf() || base.IsInf() {
			return new(big.Float).SetInf(false)
		}
		if e > 1 {
			base.Mul(base, base)
		}
	}
	if n < 0 {
		if res.Sign() == 0 {
			return new(big.Float).SetInf(false)
		}
		res.Quo(new(big.Float).SetPrec(work).SetInt64(1), res)
	}
	return new(big.Float).SetPrec(prec).Set(res)
}
