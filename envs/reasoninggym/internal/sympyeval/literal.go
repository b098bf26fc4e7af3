package sympyeval

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// literal is auto_number: Integer(text), Float('text') or
// Float/Integer(text)*I for imaginary literals.
func literal(text string, kind byte) (value, error) {
	clean := strings.ReplaceAll(text, "_", "")
	switch kind {
	case 'x':
		n, ok := new(big.Int).SetString(clean, 0)
		if !ok {
			return value{}, errNoValue
		}
		return integer(n), nil
	case 'd':
		if strings.Trim(clean, "0") != "" && len(clean) > 4300 {
			return value{}, errNoValue // int max str digits
		}
		if len(clean) > 1 && clean[0] == '0' && strings.Trim(clean, "0") != "" {
			return value{}, errNoValue // leading zeros (from an imaginary literal)
		}
		n, ok := new(big.Int).SetString(clean, 10)
		if !ok {
			return value{}, errNoValue
		}
		return integer(n), nil
	}
	return floatLiteral(clean)
}

// floatLiteral is sympy's Float of a decimal string: the exact decimal
// value rounded to the precision of its digit count (at least 15 digits).
func floatLiteral(s string) (value, error) {
	mant, exp := s, int64(0)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.ParseInt(s[i+1:], 10, 64)
		if err != nil {
			if len(strings.TrimLeft(s[i+1:], "+-0")) > 18 {
				return value{}, errNoValue
			}
			return value{}, errNoValue
		}
		exp = e
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	digits := intPart + frac
	exp -= int64(len(frac))
	coef, ok := new(big.Int).SetString("0"+digits, 10)
	if !ok {
		return value{}, errNoValue
	}
	// The Decimal's digit count, as sympy's _decimal_to_Rational_prec sees it.
	dps := len(strings.TrimLeft(digits, "0"))
	if dps == 0 {
		dps = 1
	}
	if !strings.Contains(s, ".") && coef.Sign() != 0 && exp >= 0 {
		// An integer-valued literal without a point: at least as many
		// digits as the integer has.
		dps = max(dps, len(coef.String())+int(min(exp, 1<<20)))
	}
	dps = max(dps, 15)
	prec := uint(math.Round(float64(dps+1) * 3.3219280948873626))
	prec = min(max(prec, 1), maxFloatPrec)
	if coef.Sign() == 0 {
		return floatValue(new(big.Float).SetPrec(prec)), nil
	}
	if exp >= -100000 && exp <= 100000 {
		ten := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(exp)), nil)
		q := new(big.Rat).SetInt(coef)
		if exp >= 0 {
			q.Mul(q, new(big.Rat).SetInt(ten))
		} else {
			q.Quo(q, new(big.Rat).SetInt(ten))
		}
		return floatValue(new(big.Float).SetPrec(prec).SetRat(q)), nil
	}
	// Far out of range: approximate 10**exp by repeated squaring.
	if exp > 1<<30 || exp < -(1<<30) {
		return value{}, errNoValue
	}
	work := prec + 64
	p := new(big.Float).SetPrec(work).SetInt64(1)
	base := new(big.Float).SetPrec(work).SetInt64(10)
	for e := abs64(exp); e > 0; e >>= 1 {
		if e&1 == 1 {
			p.Mul(p, base)
		}
		base.Mul(base, base)
		if p.IsInf() || base.IsInf() {
			return value{}, errNoValue
		}
	}
	c := new(big.Float).SetPrec(work).SetInt(coef)
	if exp >= 0 {
		c.Mul(c, p)
	} else {
		c.Quo(c, p)
	}
	return finiteFloat(new(big.Float).SetPrec(prec).Set(c))
}
