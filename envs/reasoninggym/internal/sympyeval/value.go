package sympyeval

import (
	"math"
	"math/big"
)

// Value kinds: what a sympy expression of the subset evaluates to.
const (
	kindRational = iota // exact rational (sympy Integer/Rational)
	kindFloat           // sympy Float (or a real value sympy keeps symbolic)
	kindZoo             // complex infinity
	kindNaN             // nan
	kindComplex         // a non-real value not tracked exactly
	kindGaussian        // re + im*I with re, im real (kindRational or kindFloat) and im nonzero
	kindBool            // a Python bool from == or !=
)

// value is an evaluated (sub)expression; k says which fields hold it.
type value struct {
	k      int        // one of the kinds above
	q      *big.Rat   // kindRational
	f      *big.Float // kindFloat, at the Float's precision
	b      bool       // kindBool
	re, im *value     // kindGaussian
}

// gaussian builds re + im*I, which is real when im is zero.
func gaussian(re, im value) value {
	if im.k == kindRational && im.q.Sign() == 0 {
		return re
	}
	if (re.k != kindRational && re.k != kindFloat) || (im.k != kindRational && im.k != kindFloat) {
		return value{k: kindComplex}
	}
	return value{k: kindGaussian, re: &re, im: &im}
}

// parts splits a real or complex value into its real and imaginary parts.
func (v value) parts() (value, value) {
	if v.k == kindGaussian {
		return *v.re, *v.im
	}
	return v, smallInt(0)
}

// Constructors of exact values and Floats.

func rational(q *big.Rat) value { return value{k: kindRational, q: q} }
func integer(n *big.Int) value  { return value{k: kindRational, q: new(big.Rat).SetInt(n)} }
func smallInt(n int64) value    { return value{k: kindRational, q: big.NewRat(n, 1)} }
func floatValue(f *big.Float) value {
	return value{k: kindFloat, f: f}
}

func (v value) isInt() bool { return v.k == kindRational && v.q.IsInt() }
func (v value) isZero() bool {
	return (v.k == kindRational && v.q.Sign() == 0) || (v.k == kindFloat && v.f.Sign() == 0)
}
func (v value) sign() int {
	switch v.k {
	case kindRational:
		return v.q.Sign()
	case kindFloat:
		return v.f.Sign()
	}
	return 0
}

// rat is the exact value of a finite real value. A Float too far from 1
// (beyond 2**maxExactBits) is refused rather than expanded.
func (v value) rat() (*big.Rat, error) {
	if v.k == kindRational {
		return v.q, nil
	}
	if v.f.Sign() != 0 {
		if e := v.f.MantExp(nil); e > maxExactBits || e < -maxExactBits {
			return nil, errNoValue
		}
	}
	r, _ := v.f.Rat(nil)
	return r, nil
}

// float64 is Python's float(v): an error where float() raises (non-real
// values, zoo).
func (v value) float64() (float64, error) {
	switch v.k {
	case kindRational:
		f, _ := v.q.Float64()
		return f, nil
	case kindFloat:
		f, _ := v.f.Float64()
		return f, nil
	case kindNaN:
		return math.NaN(), nil
	case kindBool:
		if v.b {
			return 1, nil
		}
		return 0, nil
	}
	return 0, errNoValue
}

// ratBits is the size of q, the measure of the work budget.
func ratBits(q *big.Rat) int { return q.Num().BitLen() + q.Denom().BitLen() }

// bigFloat rounds a real value to a Float of precision prec.
func (v value) bigFloat(prec uint) *big.Float {
	if v.k == kindFloat {
		return new(big.Float).SetPrec(prec).Set(v.f)
	}
	return new(big.Float).SetPrec(prec).SetRat(v.q)
}

// finiteFloat turns a Float result into a value. sympy's mpf has no exponent
// limit; a result beyond big.Float's exponent range (2**(2**31)) saturates
// there, which still converts to an infinite float.
func finiteFloat(f *big.Float) (value, error) {
	if f.IsInf() {
		prec := f.Prec()
		if prec == 0 {
			prec = 53
		}
		sat := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), big.MaxExp-1)
		if f.Signbit() {
			sat.Neg(sat)
		}
		return floatValue(sat), nil
	}
	return floatValue(f), nil
}

// floatResult is Float._new: a Float operation whose result is exactly zero
// gives sympy's exact Zero.
func floatResult(f *big.Float) (value, error) {
	if f.Sign() == 0 {
		return smallInt(0), nil
	}
	return finiteFloat(f)
}

// exact wraps an exact result, continuing as a float when it is too big.
func (p *parser) exact(q *big.Rat) (value, error) {
	bits := ratBits(q)
	p.budget -= int64(bits)
	if p.budget < 0 {
		return value{}, errNoValue
	}
	if bits > maxExactBits {
		return finiteFloat(new(big.Float).SetPrec(53).SetRat(q))
	}
	return rational(q), nil
}

// charge takes bits of work from the budget; running out raises.
func (p *parser) charge(bits int) error {
	p.budget -= int64(bits)
	if p.budget < 0 {
		return errNoValue
	}
	return nil
}

// floatPrec is the precision of an operation on a and b: the larger of
// their Float precisions (0 when neither is a Float).
func floatPrec(a, b value) uint {
	var prec uint
	if a.k == kindFloat {
		prec = a.f.Prec()
	}
	if b.k == kindFloat {
		prec = max(prec, b.f.Prec())
	}
	return prec
}

// neg is -v.
func neg(v value) value {
	switch v.k {
	case kindGaussian:
		return gaussian(neg(*v.re), neg(*v.im))
	case kindRational:
		return rational(new(big.Rat).Neg(v.q))
	case kindFloat:
		return floatValue(new(big.Float).Neg(v.f))
	}
	return v
}
