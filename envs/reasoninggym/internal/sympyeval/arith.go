package sympyeval

import (
	"math"
	"math/big"
)

// gaussOp applies op to values of which at least one is complex, part by
// part with the real operations (sympy keeps I exact).
func (p *parser) gaussOp(op string, a, b value) (value, error) {
	ar, ai := a.parts()
	br, bi := b.parts()
	var re, im value
	var err error
	step := func(f func(x, y value) (value, error), x, y value) value {
		if err != nil {
			return value{}
		}
		var v value
		v, err = f(x, y)
		return v
	}
	switch op {
	case "+":
		re, im = step(p.add, ar, br), step(p.add, ai, bi)
	case "*":
		re = step(p.add, step(p.mul, ar, br), neg(step(p.mul, ai, bi)))
		im = step(p.add, step(p.mul, ar, bi), step(p.mul, ai, br))
	case "/":
		// (ar + ai I)(br - bi I) / (br^2 + bi^2)
		den := step(p.add, step(p.mul, br, br), step(p.mul, bi, bi))
		nr := step(p.add, step(p.mul, ar, br), step(p.mul, ai, bi))
		ni := step(p.add, step(p.mul, ai, br), neg(step(p.mul, ar, bi)))
		re, im = step(p.div, nr, den), step(p.div, ni, den)
	}
	if err != nil {
		return value{}, err
	}
	return gaussian(re, im), nil
}

// apply evaluates a binary operator other than **.
func (p *parser) apply(op string, a, b value) (value, error) {
	if a.k == kindBool || b.k == kindBool {
		return value{}, errNoValue
	}
	switch op {
	case "+":
		return p.add(a, b)
	case "-":
		return p.add(a, neg(b))
	case "*":
		return p.mul(a, b)
	case "/":
		return p.div(a, b)
	case "//":
		return p.floorDiv(a, b)
	case "%":
		return p.mod(a, b)
	}
	return p.bitwise(op, a, b)
}

// add is a + b (a - b is add(a, neg(b)), as sympy's Add).
func (p *parser) add(a, b value) (value, error) {
	switch {
	case a.k == kindNaN || b.k == kindNaN || (a.k == kindZoo && b.k == kindZoo):
		return value{k: kindNaN}, nil
	case a.k == kindZoo || b.k == kindZoo:
		return value{k: kindZoo}, nil
	case a.k == kindComplex || b.k == kindComplex:
		return value{k: kindComplex}, nil
	case a.k == kindGaussian || b.k == kindGaussian:
		return p.gaussOp("+", a, b)
	case a.k == kindRational && b.k == kindRational:
		if err := p.charge(ratBits(a.q) + ratBits(b.q)); err != nil {
			return value{}, err
		}
		return p.exact(new(big.Rat).Add(a.q, b.q))
	}
	prec := floatPrec(a, b)
	return floatResult(new(big.Float).SetPrec(prec).Add(a.bigFloat(prec), b.bigFloat(prec)))
}

// mul is a * b.
func (p *parser) mul(a, b value) (value, error) {
	switch {
	case a.k == kindNaN || b.k == kindNaN:
		return value{k: kindNaN}, nil
	case a.k == kindZoo || b.k == kindZoo:
		if a.isZero() || b.isZero() {
			return value{k: kindNaN}, nil
		}
		return value{k: kindZoo}, nil
	case a.k == kindComplex || b.k == kindComplex:
		if a.isZero() || b.isZero() {
			return smallInt(0), nil
		}
		return value{k: kindComplex}, nil
	case a.k == kindGaussian || b.k == kindGaussian:
		if a.isZero() || b.isZero() {
			return smallInt(0), nil
		}
		return p.gaussOp("*", a, b)
	case a.k == kindRational && b.k == kindRational:
		if err := p.charge(ratBits(a.q) + ratBits(b.q)); err != nil {
			return value{}, err
		}
		if ratBits(a.q)+ratBits(b.q) > 2*maxExactBits {
			return finiteFloat(new(big.Float).SetPrec(53).Mul(a.bigFloat(64), b.bigFloat(64)))
		}
		return p.exact(new(big.Rat).Mul(a.q, b.q))
	}
	prec := floatPrec(a, b)
	return floatResult(new(big.Float).SetPrec(prec).Mul(a.bigFloat(prec), b.bigFloat(prec)))
}

// div is a / b; a zero divisor gives zoo or nan, or raises, as in sympy.
func (p *parser) div(a, b value) (value, error) {
	switch {
	case a.k == kindNaN || b.k == kindNaN:
		return value{k: kindNaN}, nil
	case a.k == kindZoo:
		if b.k == kindZoo {
			return value{k: kindNaN}, nil
		}
		return value{k: kindZoo}, nil
	case b.k == kindZoo:
		return smallInt(0), nil
	case b.isZero():
		if b.k == kindFloat && a.k == kindFloat {
			return value{}, errNoValue // Float / Float(0) raises
		}
		if a.isZero() {
			return value{k: kindNaN}, nil
		}
		return value{k: kindZoo}, nil
	case a.k == kindComplex || b.k == kindComplex:
		if a.isZero() {
			return a, nil
		}
		return value{k: kindComplex}, nil
	case a.k == kindGaussian || b.k == kindGaussian:
		if a.isZero() {
			return a, nil
		}
		return p.gaussOp("/", a, b)
	case a.k == kindRational && b.k == kindRational:
		if err := p.charge(ratBits(a.q) + ratBits(b.q)); err != nil {
			return value{}, err
		}
		if ratBits(a.q)+ratBits(b.q) > 2*maxExactBits {
			return finiteFloat(new(big.Float).SetPrec(53).Quo(a.bigFloat(64), b.bigFloat(64)))
		}
		return p.exact(new(big.Rat).Quo(a.q, b.q))
	}
	prec := floatPrec(a, b)
	if a.k == kindRational {
		// Rational.__truediv__(Float) is self*(1/other): two roundings.
		inv := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).SetInt64(1), b.f)
		return floatResult(new(big.Float).SetPrec(prec).Mul(a.bigFloat(prec), inv))
	}
	return floatResult(new(big.Float).SetPrec(prec).Quo(a.bigFloat(prec), b.bigFloat(prec)))
}

// floor is sympy's floor of a value.
func (p *parser) floor(v value) (value, error) {
	switch v.k {
	case kindRational, kindFloat:
		r, err := v.rat()
		if err != nil {
			return value{}, err
		}
		if err := p.charge(ratBits(r)); err != nil {
			return value{}, err
		}
		return p.exact(new(big.Rat).SetInt(floorRat(r)))
	case kindGaussian:
		// floor(re + im*I) = floor(re) + floor(im)*I
		re, err := p.floor(*v.re)
		if err != nil {
			return value{}, err
		}
		im, err := p.floor(*v.im)
		if err != nil {
			return value{}, err
		}
		return gaussian(re, im), nil
	}
	return v, nil
}

// floorRat is the floor of a rational.
func floorRat(r *big.Rat) *big.Int {
	// Euclidean division by the positive denominator is floor division.
	return new(big.Int).Div(r.Num(), r.Denom())
}

// floorDiv is a // b, through the method sympy dispatches to.
func (p *parser) floorDiv(a, b value) (value, error) {
	half := big.NewRat(1, 2)
	switch {
	case a.k == kindNaN || b.k == kindNaN:
		return value{k: kindNaN}, nil
	case a.k == kindGaussian || b.k == kindGaussian:
		if b.isZero() && a.k == kindRational {
			return value{}, errNoValue
		}
		q, err := p.div(a, b)
		if err != nil {
			return value{}, err
		}
		return p.floor(q)
	case a.isInt():
		// Integer.__floordiv__, and Number.__divmod__ for a non-Integer b.
		switch {
		case b.k == kindZoo:
			return smallInt(0), nil
		case b.k == kindComplex:
			if a.isZero() {
				return a, nil
			}
			return value{k: kindComplex}, nil
		case b.isZero():
			return value{}, errNoValue
		}
		r, err := b.rat()
		if err != nil {
			return value{}, err
		}
		if err := p.charge(ratBits(a.q) + ratBits(r)); err != nil {
			return value{}, err
		}
		rat := new(big.Rat).Quo(a.q, r)
		if b.isInt() {
			return p.exact(new(big.Rat).SetInt(floorRat(rat)))
		}
		// w = int(rat) if rat >= 0 else int(rat) - 1, then one step up
		// when self - other*w equals other as a Float (a Rational
		// remainder never equals a Float in sympy).
		w := new(big.Int).Quo(rat.Num(), rat.Denom())
		if rat.Sign() < 0 {
			w.Sub(w, big.NewInt(1))
		}
		if b.k == kindFloat {
			prec := b.f.Prec()
			prod := new(big.Float).SetPrec(prec).Mul(b.f, new(big.Float).SetPrec(prec).SetInt(w))
			rem := new(big.Float).SetPrec(prec).Sub(new(big.Float).SetPrec(prec).SetRat(a.q), prod)
			if rem.Cmp(b.f) == 0 {
				w.Add(w, big.NewInt(1))
			}
		}
		return p.exact(new(big.Rat).SetInt(w))
	case a.k == kindRational && b.isInt() && a.q.Cmp(half) != 0:
		// Integer.__rfloordiv__ takes precedence (Integer subclasses
		// Rational): Integer(a), truncated, floor-divided by b. S.Half
		// is a class of its own, so 1/2 takes the generic path.
		if b.isZero() {
			return value{}, errNoValue
		}
		t := new(big.Int).Quo(a.q.Num(), a.q.Denom())
		return p.exact(new(big.Rat).SetInt(floorRat(new(big.Rat).SetFrac(t, b.q.Num()))))
	case a.k == kindFloat && b.k == kindFloat && b.isZero():
		return value{}, errNoValue
	}
	// Expr.__floordiv__: floor(a / b).
	q, err := p.div(a, b)
	if err != nil {
		return value{}, err
	}
	return p.floor(q)
}

// mod is a % b, sympy's Mod (mpf_mod for Floats).
func (p *parser) mod(a, b value) (value, error) {
	switch {
	case b.isZero():
		if a.k == kindFloat && b.k == kindRational && a.f.Sign() > 0 && a.f.MantExp(nil) < 0 {
			// mpf_mod returns s unchanged when t's exponent (zero's is 0)
			// exceeds s's top bit, before it would divide by zero.
			return a, nil
		}
		return value{}, errNoValue
	case a.k == kindNaN || b.k == kindNaN || a.k == kindZoo || b.k == kindZoo:
		return value{k: kindNaN}, nil
	case a.k == kindComplex || b.k == kindComplex || a.k == kindGaussian || b.k == kindGaussian:
		if a.isZero() || (a.k == kindGaussian && equal(a, b)) {
			return smallInt(0), nil
		}
		return value{k: kindComplex}, nil
	}
	ra, err := a.rat()
	if err != nil {
		return value{}, err
	}
	rb, err := b.rat()
	if err != nil {
		return value{}, err
	}
	if err := p.charge(2 * (ratBits(ra) + ratBits(rb))); err != nil {
		return value{}, err
	}
	if a.k == kindFloat && b.k == kindFloat {
		// Float % Float is 0 when the rounded quotient is an integer.
		prec := floatPrec(a, b)
		q := new(big.Float).SetPrec(prec).Quo(a.f, b.f)
		if q.IsInt() {
			return floatValue(new(big.Float).SetPrec(prec)), nil
		}
	}
	n := floorRat(new(big.Rat).Quo(ra, rb))
	r := new(big.Rat).Sub(ra, new(big.Rat).Mul(rb, new(big.Rat).SetInt(n)))
	if a.k == kindRational && b.k == kindRational {
		return p.exact(r)
	}
	f := new(big.Float).SetPrec(floatPrec(a, b)).SetRat(r)
	if (a.k == kindFloat && b.k == kindFloat) || (a.k == kindFloat && b.isInt()) {
		// mpf_mod through Float._new.
		return floatResult(f)
	}
	// Float(Rational remainder, precision): a zero stays a Float.
	return finiteFloat(f)
}

// bitwise is & | ^ << >>, defined for Integers only.
func (p *parser) bitwise(op string, a, b value) (value, error) {
	if !a.isInt() || !b.isInt() {
		return value{}, errNoValue
	}
	x, y := a.q.Num(), b.q.Num()
	if err := p.charge(x.BitLen() + y.BitLen()); err != nil {
		return value{}, err
	}
	z := new(big.Int)
	switch op {
	case "&":
		z.And(x, y)
	case "|":
		z.Or(x, y)
	case "^":
		z.Xor(x, y)
	case "<<", ">>":
		if y.Sign() < 0 {
			return value{}, errNoValue // negative shift count
		}
		if op == ">>" {
			if !y.IsInt64() || y.Int64() > int64(x.BitLen()) {
				if x.Sign() < 0 {
					return smallInt(-1), nil
				}
				return smallInt(0), nil
			}
			return integer(z.Rsh(x, uint(y.Int64()))), nil
		}
		if x.Sign() == 0 {
			return smallInt(0), nil
		}
		if !y.IsInt64() || y.Int64()+int64(x.BitLen()) > maxExactBits {
			if !y.IsInt64() || y.Int64() > math.MaxInt32 {
				return value{}, errNoValue
			}
			f := new(big.Float).SetPrec(53).SetInt(x)
			return finiteFloat(f.SetMantExp(f, int(y.Int64())))
		}
		return integer(z.Lsh(x, uint(y.Int64()))), nil
	}
	return integer(z), nil
}

// equal is sympy's == on two values: same kind and same value (a Float
// never equals a Rational in sympy 1.13+).
func equal(a, b value) bool {
	if a.k != b.k {
		return false
	}
	switch a.k {
	case kindRational:
		return a.q.Cmp(b.q) == 0
	case kindFloat:
		return a.f.Cmp(b.f) == 0
	case kindZoo, kindNaN:
		return true
	case kindGaussian:
		return equal(*a.re, *b.re) && equal(*a.im, *b.im)
	}
	return false
}
