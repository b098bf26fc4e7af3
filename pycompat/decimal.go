package pycompat

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// IsDecimal reports whether r is a decimal digit to CPython 3.11:
// str.isdecimal(), and what Python's \d matches in a str pattern.
func IsDecimal(r rune) bool { return DecimalValue(r) >= 0 }

// decimalZeros are the code points with Unicode decimal value 0 in the
// Unicode 14.0 database of CPython 3.11 (the first of ten consecutive
// digits 0..9 each); Decimal() maps any such digit to its ASCII value.
var decimalZeros = []rune{
	0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66,
	0xCE6, 0xD66, 0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810,
	0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620,
	0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30,
	0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650,
	0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60,
	0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140,
	0x1E2F0, 0x1E950, 0x1FBF0,
}

// DecimalValue is Python's unicodedata.decimal(r, -1) in CPython 3.11
// (Unicode 14.0), which is also Py_UNICODE_TODECIMAL: r's value as a
// decimal digit, or -1 when r is not one.
func DecimalValue(r rune) int {
	i := sort.Search(len(decimalZeros), func(i int) bool { return decimalZeros[i] > r })
	if i == 0 {
		return -1
	}
	if d := r - decimalZeros[i-1]; d < 10 {
		return int(d)
	}
	return -1
}

// Limits of the context Decimal(str) converts under (libmpdec's maximum
// context on 64-bit): a finite value whose adjusted exponent is above
// decEmax or whose exponent is below decEtiny is an error.
const (
	decEmax  = 999999999999999999
	decEtiny = -1999999999999999997
	decSat   = int64(1) << 62 // exponent saturation, far beyond both
)

const (
	decInvalid = iota // conversion error (or a NaN: never equal)
	decFinite
	decInf
)

// Decimal is a value of Python's decimal.Decimal parsed from a str,
// reduced to what equality needs.
type Decimal struct {
	kind   int
	neg    bool
	digits string // finite: coefficient without leading/trailing zeros, "" for zero
	exp    int64  // finite: exponent of the last digit of digits
}

// ParseDecimal parses s as Python's Decimal(s) does: surrounding
// Unicode whitespace stripped, every '_' removed, Unicode decimal digits
// accepted, then the decimal string grammar (sign, digits with an optional
// point, optional exponent; Inf/Infinity; NaN/sNaN with a payload).
func ParseDecimal(s string) Decimal {
	s = Strip(s)
	buf := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		switch {
		case r == '_':
		case r > 0 && r <= 127:
			buf = append(buf, byte(r))
		case IsSpace(r):
			buf = append(buf, ' ')
		default:
			d := DecimalValue(r)
			if d < 0 || (r == utf8.RuneError && w == 1) {
				return Decimal{}
			}
			buf = append(buf, byte('0'+d))
		}
	}
	b := buf
	var dec Decimal
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		dec.neg = b[0] == '-'
		b = b[1:]
	}
	lower := strings.ToLower(string(b[:min(len(b), 9)]))
	switch {
	case strings.HasPrefix(lower, "nan") || strings.HasPrefix(lower, "snan"):
		return Decimal{} // NaN compares unequal (sNaN raises): same outcome
	case strings.HasPrefix(lower, "inf"):
		if len(b) == 3 || (len(b) == 8 && lower == "infinity") {
			dec.kind = decInf
			return dec
		}
		return Decimal{}
	}
	i := 0
	intStart := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	intPart := b[intStart:i]
	var frac []byte
	if i < len(b) && b[i] == '.' {
		i++
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		frac = b[j:i]
	}
	if len(intPart)+len(frac) == 0 {
		return Decimal{}
	}
	var exp int64
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		eneg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if exp <= decSat/10 {
				exp = exp*10 + int64(b[i]-'0')
			} else {
				exp = decSat
			}
			i++
		}
		if i == j {
			return Decimal{}
		}
		exp = min(exp, decSat)
		if eneg {
			exp = -exp
		}
	}
	if i != len(b) {
		return Decimal{}
	}
	exp -= int64(len(frac))
	coef := strings.TrimLeft(string(intPart)+string(frac), "0")
	ndigits := int64(max(len(coef), 1))
	if exp+ndigits-1 > decEmax || exp < decEtiny {
		return Decimal{}
	}
	trimmed := strings.TrimRight(coef, "0")
	exp += int64(len(coef) - len(trimmed))
	dec.kind = decFinite
	dec.digits = trimmed
	dec.exp = exp
	return dec
}

// Equal is Decimal(a) == Decimal(b) where an exception (a string Decimal
// refuses) counts as not equal.
func (a Decimal) Equal(b Decimal) bool {
	if a.kind != b.kind || a.kind == decInvalid {
		return false
	}
	if a.kind == decInf {
		return a.neg == b.neg
	}
	if a.digits == "" || b.digits == "" {
		return a.digits == b.digits
	}
	return a.neg == b.neg && a.exp == b.exp && a.digits == b.digits
}
