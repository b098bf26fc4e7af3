package sympyeval

import (
	"math/big"
)

// pow is a ** b: exact where sympy keeps the power exact (integer
// powers, perfect roots, I), else a Float as float() evaluates it.
func (p *parser) pow(a, b value) (value, error) {
	if a.k == kindBool || b.k == kindBool {
		return value{}, errNoValue
	}
	switch {
	case b.k == kindRational && b.q.Sign() == 0:
		return smallInt(1), nil
	case b.k == kindFloat && b.f.Sign() == 0:
		if a.k == kindZoo || a.k == kindNaN {
			return value{k: kindNaN}, nil
		}
		if a.k == kindFloat {
			return floatValue(new(big.Float).SetPrec(a.f.Prec()).SetInt64(1)), nil
		}
		return smallInt(1), nil
	case a.k == kindNaN || b.k == kindNaN || b.k == kindZoo:
		return value{k: kindNaN}, nil
	case a.k == kindZoo:
		if b.k == kindComplex || b.k == kindGaussian {
			return value{k: kindComplex}, nil
		}
		if b.sign() > 0 {
			return value{k: kindZoo}, nil
		}
		return smallInt(0), nil
	case b.k == kindComplex || b.k == kindGaussian:
		if a.isZero() {
			return value{k: kindNaN}, nil
		}
		if a.k == kindRational && a.q.Cmp(big.NewRat(1, 1)) == 0 {
			return a, nil
		}
		return value{k: kindComplex}, nil
	case a.k == kindComplex:
		return value{k: kindComplex}, nil
	case a.k == kindGaussian:
		// Integer powers of an exact complex value stay exact.
		var n *big.Int
		if b.isInt() {
			n = b.q.Num()
		} else if b.k == kindFloat && b.f.IsInt() && b.f.MantExp(nil) <= 62 {
			n, _ = b.f.Int(nil)
		}
		if n == nil || !n.IsInt64() || abs64(n.Int64()) > 4096 {
			return value{k: kindComplex}, nil
		}
		v, err := p.gaussPow(a, n.Int64())
		if err != nil || b.k != kindFloat {
			return v, err
		}
		// A Float exponent gives Float parts.
		re, im := v.parts()
		toF := func(x value) (value, error) {
			if x.k == kindRational {
				return floatResult(new(big.Float).SetPrec(b.f.Prec()).SetRat(x.q))
			}
			return x, nil
		}
		if re, err = toF(re); err != nil {
			return value{}, err
		}
		if im, err = toF(im); err != nil {
			return value{}, err
		}
		return gaussian(re, im), nil
	}
	// Both real and finite, b nonzero.
	if a.isZero() {
		if b.sign() < 0 {
			return value{k: kindZoo}, nil
		}
		return a, nil
	}
	if a.k == kindRational && a.q.Cmp(big.NewRat(1, 1)) == 0 {
		return a, nil
	}
	if b.isInt() {
		return p.powInt(a, b.q.Num())
	}
	if b.k == kindFloat && b.f.IsInt() {
		// An integer-valued Float exponent: a real result, as a Float.
		if b.f.MantExp(nil) > 62 {
			// Far too big to matter exactly (and even, as the mantissa
			// ends in zero bits).
			prec := floatPrec(a, b)
			return finiteFloat(powReal(new(big.Float).Abs(a.bigFloat(prec)), b.f, prec))
		}
		n, _ := b.f.Int(nil)
		v, err := p.powInt(a, n)
		if err != nil || v.k != kindRational {
			return v, err
		}
		return finiteFloat(new(big.Float).SetPrec(b.f.Prec()).SetRat(v.q))
	}
	if a.sign() < 0 {
		// (-x)**(p/2) = x**(p/2) * I**p, exact when x is a perfect square.
		if a.k == kindRational && b.k == kindRational && b.q.Denom().Cmp(big.NewInt(2)) == 0 {
			if v, ok, err := p.powRoot(new(big.Rat).Neg(a.q), b.q); err != nil || ok {
				if err != nil || v.k != kindRational {
					return value{k: kindComplex}, err
				}
				unit, err := p.gaussPow(gaussian(smallInt(0), smallInt(1)), new(big.Int).Mod(b.q.Num(), big.NewInt(4)).Int64())
				if err != nil {
					return value{}, err
				}
				return p.mul(v, unit)
			}
		}
		return value{k: kindComplex}, nil
	}
	if a.k == kindRational && b.k == kindRational {
		if v, ok, err := p.powRoot(a.q, b.q); ok || err != nil {
			return v, err
		}
		// An irrational power stays symbolic; float() evaluates it with
		// evalf: 57 bits rounded down, then rounded to 53.
		if err := p.charge(ratBits(a.q) + ratBits(b.q) + 1<<16); err != nil {
			return value{}, err
		}
		x := new(big.Float).SetPrec(200).SetRat(a.q)
		y := new(big.Float).SetPrec(200).SetRat(b.q)
		v := powReal(x, y, 200)
		v = new(big.Float).SetPrec(57).SetMode(big.ToZero).Set(v)
		return finiteFloat(new(big.Float).SetPrec(53).Set(v))
	}
	// Float powers: base and exponent rounded to the Float precision,
	// then mpf_pow, correctly rounded.
	prec := floatPrec(a, b)
	if err := p.charge(int(prec) * 1024); err != nil {
		return value{}, err
	}
	v := powReal(a.bigFloat(prec), b.bigFloat(prec), prec+96)
	return finiteFloat(new(big.Float).SetPrec(prec).Set(v))
}

// gaussPow raises an exact complex value to a small integer power.
func (p *parser) gaussPow(a value, n int64) (value, error) {
	res := smallInt(1)
	base := a
	var err error
	for e := abs64(n); e > 0; e >>= 1 {
		if e&1 == 1 {
			if res, err = p.mul(res, base); err != nil {
				return value{}, err
			}
		}
		if e > 1 {
			if base, err = p.mul(base, base); err != nil {
				return value{}, err
			}
		}
	}
	if n < 0 {
		return p.div(smallInt(1), res)
	}
	return res, nil
}

// powInt raises a nonzero real value to an integer power exactly (a Float
// result is the exact power rounded to the Float's precision).
func (p *parser) powInt(a value, n *big.Int) (value, error) {
	r, err := a.rat()
	if err != nil {
		return value{}, err
	}
	bits := int64(ratBits(r))
	if !n.IsInt64() || abs64(n.Int64()) > maxExactBits || bits*abs64(n.Int64()) > maxExactBits {
		// Too big to compute exactly: continue as a float.
		prec := uint(53)
		if a.k == kindFloat {
			prec = a.f.Prec()
		}
		if !n.IsInt64() || abs64(n.Int64()) > 1<<40 {
			nf, _ := new(big.Float).SetInt(n).Float64()
			f := powReal(new(big.Float).Abs(a.bigFloat(prec)), big.NewFloat(nf), prec)
			if a.sign() < 0 && n.Bit(0) == 1 {
				f.Neg(f)
			}
			return finiteFloat(f)
		}
		return finiteFloat(powFloatInt(a.bigFloat(prec+64), n.Int64(), prec))
	}
	if err := p.charge(int(bits * abs64(n.Int64()))); err != nil {
		return value{}, err
	}
	e := new(big.Int).Abs(n)
	num := new(big.Int).Exp(r.Num(), e, nil)
	den := new(big.Int).Exp(r.Denom(), e, nil)
	var q *big.Rat
	if n.Sign() < 0 {
		q = new(big.Rat).SetFrac(den, num)
	} else {
		q = new(big.Rat).SetFrac(num, den)
	}
	if a.k == kindFloat {
		return finiteFloat(new(big.Float).SetPrec(a.f.Prec()).SetRat(q))
	}
	return p.exact(q)
}

// powRoot is a positive rational to a non-integer rational power when the
// result is rational (sympy evaluates perfect powers exactly).
func (p *parser) powRoot(a, b *big.Rat) (value, bool, error) {
	den := b.Denom()
	if !den.IsInt64() || den.Int64() > 4096 {
		return value{}, false, nil
	}
	k := den.Int64()
	rn, ok1 := nthRoot(a.Num(), k)
	rd, ok2 := nthRoot(a.Denom(), k)
	if !ok1 || !ok2 {
		return value{}, false, nil
	}
	v, err := p.powInt(rational(new(big.Rat).SetFrac(rn, rd)), b.Num())
	return v, true, err
}
