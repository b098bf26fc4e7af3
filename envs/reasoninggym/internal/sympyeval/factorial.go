package sympyeval

import (
	"math"
	"math/big"
)

// factorial is sympy's factorial (postfix !): exact for integers, gamma
// values otherwise.
func (p *parser) factorial(v value) (value, error) {
	if v.isZero() {
		return smallInt(1), nil
	}
	switch v.k {
	case kindNaN:
		return v, nil
	case kindZoo, kindComplex, kindGaussian:
		return value{k: kindComplex}, nil
	case kindRational:
		if v.q.IsInt() {
			n := v.q.Num()
			if n.Sign() < 0 {
				return value{k: kindZoo}, nil
			}
			if !n.IsInt64() || n.Int64() > 60000 {
				nf, _ := new(big.Float).SetInt(n).Float64()
				return finiteFloat(gammaBig(nf + 1))
			}
			if err := p.charge(int(n.Int64()) * 17); err != nil {
				return value{}, err
			}
			return p.exact(new(big.Rat).SetInt(new(big.Int).MulRange(1, n.Int64())))
		}
	case kindFloat:
		if v.f.IsInt() && v.f.Sign() < 0 {
			return value{}, errNoValue // gamma function pole
		}
		if v.f.IsInt() && v.f.Cmp(big.NewFloat(60000)) <= 0 {
			// Integer-valued: the exact factorial, rounded.
			n, _ := v.f.Int64()
			if err := p.charge(int(n) * 17); err != nil {
				return value{}, err
			}
			return finiteFloat(new(big.Float).SetPrec(v.f.Prec()).SetInt(new(big.Int).MulRange(1, n)))
		}
	}
	var x float64
	if v.k == kindFloat {
		x, _ = v.f.Float64()
	} else {
		x, _ = v.q.Float64()
	}
	prec := uint(53)
	if v.k == kindFloat {
		prec = v.f.Prec()
	}
	g := gammaBig(x + 1)
	return finiteFloat(new(big.Float).SetPrec(prec).Set(g))
}

// gammaBig is gamma(x) as a big.Float, through lgamma when it overflows
// a float64.
func gammaBig(x float64) *big.Float {
	if g := math.Gamma(x); !math.IsInf(g, 0) && !math.IsNaN(g) && (g != 0 || x > 0) {
		return new(big.Float).SetPrec(53).SetFloat64(g)
	}
	lg, sign := math.Lgamma(x)
	l2 := lg / math.Ln2
	if math.IsInf(l2, 0) || math.IsNaN(l2) || math.Abs(l2) > math.MaxInt32-64 {
		return new(big.Float).SetInf(false)
	}
	ip := math.Floor(l2)
	res := new(big.Float).SetPrec(53).SetFloat64(float64(sign) * math.Exp2(l2-ip))
	return res.SetMantExp(res, int(ip))
}

// factorial2 is sympy's factorial2: defined for nonnegative integers
// and negative odd integers only.
func factorial2(v value) (value, error) {
	switch v.k {
	case kindZoo, kindComplex, kindGaussian:
		return value{k: kindComplex}, nil
	case kindRational:
		if !v.q.IsInt() {
			return value{}, errNoValue
		}
		n := v.q.Num()
		if !n.IsInt64() || abs64(n.Int64()) > 100000 {
			if n.Sign() > 0 && n.IsInt64() && n.Int64() <= 1<<40 {
				// n!! ~ sqrt(2^n * gamma(n/2+1)^2 ...): approximate via lgamma.
				k := float64(n.Int64())
				lg, _ := math.Lgamma(k/2 + 1)
				l2 := (k/2)*1 + lg/math.Ln2
				if int64(k)%2 == 1 {
					l2 += 0.5*math.Log2(2/math.Pi) + 0 // odd: n!! = 2^(n/2) gamma(n/2+1) sqrt(2/pi)
				}
				ip := math.Floor(l2)
				res := new(big.Float).SetPrec(53).SetFloat64(math.Exp2(l2 - ip))
				return finiteFloat(res.SetMantExp(res, int(ip)))
			}
			return value{}, errNoValue
		}
		m := n.Int64()
		if m < 0 {
			if m%2 == 0 {
				return value{}, errNoValue
			}
			// (2k-1)!! for negative odd n: n!! = (n+2)!! / (n+2).
			r := big.NewRat(1, 1)
			for k := int64(-1); k > m; k -= 2 {
				r.Quo(r, big.NewRat(k, 1))
			}
			return rational(r), nil
		}
		res := big.NewInt(1)
		for k := m; k > 1; k -= 2 {
			res.Mul(res, big.NewInt(k))
		}
		return integer(res), nil
	}
	return value{}, errNoValue
}
