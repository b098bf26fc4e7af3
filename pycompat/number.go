package pycompat

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Python number semantics shared by number_sorting and
// fraction_simplification: numpy's round, float repr, and the parsing rules
// of CPython 3.11's float(str) and int(str).

// NumpyRound is numpy's round(x, d) for a float64 and d >= 0: multiply by
// the float64 power of ten, round half to even keeping the sign, divide.
func NumpyRound(x float64, d int) float64 {
	p := powerOfTen(d)
	return math.RoundToEven(x*p) / p
}

// powerOfTen is numpy's power_of_ten: exact table entries up to 1e8, then
// 1e9 multiplied by ten once per further digit.
func powerOfTen(n int) float64 {
	if n < 9 {
		return math.Pow10(n)
	}
	p := 1e9
	for ; n > 9; n-- {
		p *= 10
		if math.IsInf(p, 1) {
			break
		}
	}
	return p
}

// FloatRepr is Python's repr(float), which str(numpy.float64) equals:
// shortest round-trip digits, positional for decimal exponents in [-4, 16),
// scientific otherwise, ".0" appended to integral positional values.
func FloatRepr(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	if x == 0 {
		if math.Signbit(x) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(x, 'e', -1, 64)
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	epos := strings.IndexByte(s, 'e')
	mant, exp := s[:epos], s[epos+1:]
	e, _ := strconv.Atoi(exp)
	digits := strings.Replace(mant, ".", "", 1)
	if e < -4 || e >= 16 {
		var b strings.Builder
		b.WriteString(sign)
		b.WriteByte(digits[0])
		if len(digits) > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		if e < 0 {
			b.WriteByte('-')
			e = -e
		} else {
			b.WriteByte('+')
		}
		if e < 10 {
			b.WriteByte('0')
		}
		b.WriteString(strconv.Itoa(e))
		return b.String()
	}
	var b strings.Builder
	b.WriteString(sign)
	if e < 0 {
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -e-1))
		b.WriteString(digits)
		return b.String()
	}
	if len(digits) <= e+1 {
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", e+1-len(digits)))
		b.WriteString(".0")
		return b.String()
	}
	b.WriteString(digits[:e+1])
	b.WriteByte('.')
	b.WriteString(digits[e+1:])
	return b.String()
}

// toASCII is CPython's _PyUnicode_TransformDecimalAndSpaceToASCII as
// float() and int() apply it: characters below 127 stay, Unicode
// whitespace becomes ' ', decimal digits become ASCII digits, and anything
// else becomes '?' which ends the string. Bytes that are not valid UTF-8
// count as such other characters.
func toASCII(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	return runesToASCII([]rune(s))
}

// runesToASCII is toASCII over code points (which may include lone
// surrogates, as JSON strings can).
func runesToASCII(rs []rune) string {
	b := make([]byte, 0, len(rs))
	for _, r := range rs {
		switch {
		case r >= 0 && r < 127:
			b = append(b, byte(r))
		case r >= 0xd800 && r <= 0xdfff:
			return string(append(b, '?'))
		case IsSpace(r):
			b = append(b, ' ')
		default:
			d := DecimalValue(r)
			if d < 0 {
				return string(append(b, '?'))
			}
			b = append(b, byte('0'+d))
		}
	}
	return string(b)
}

// isASCIISpace is CPython's Py_ISSPACE.
func isASCIISpace(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}

// ParseFloat is Python's float(s) for a str; ok is false where Python raises
// ValueError.
func ParseFloat(s string) (float64, bool) {
	return floatFromASCII(toASCII(s))
}

// floatFromASCII parses the transformed (ASCII) form of a float() input.
func floatFromASCII(s string) (float64, bool) {
	if strings.IndexByte(s, 0) >= 0 {
		return 0, false
	}
	if strings.IndexByte(s, '_') >= 0 {
		// Each underscore must sit between two ASCII digits.
		var b strings.Builder
		prev := byte(0)
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c == '_' {
				if prev < '0' || prev > '9' {
					return 0, false
				}
			} else {
				if prev == '_' && (c < '0' || c > '9') {
					return 0, false
				}
				b.WriteByte(c)
			}
			prev = c
		}
		if prev == '_' {
			return 0, false
		}
		s = b.String()
	}
	lo, hi := 0, len(s)
	for lo < hi && isASCIISpace(s[lo]) {
		lo++
	}
	for hi > lo && isASCIISpace(s[hi-1]) {
		hi--
	}
	s = s[lo:hi]
	if s == "" {
		return 0, false
	}
	if decimalFloatSyntax(s) {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
				return 0, false
			}
		}
		return x, true
	}
	body, neg := s, false
	if body[0] == '+' || body[0] == '-' {
		neg = body[0] == '-'
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		x := math.NaN()
		if neg {
			x = math.Copysign(x, -1)
		}
		return x, true
	}
	return 0, false
}

// decimalFloatSyntax reports whether s is, in full, what CPython's
// _Py_dg_strtod accepts: [sign] (digits [. [digits]] | . digits)
// [(e|E) [sign] digits].
func decimalFloatSyntax(s string) bool {
	i, n := 0, len(s)
	if i < n && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < n && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < n && s[i] == '.' {
		i++
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		ed := 0
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
			ed++
		}
		if ed == 0 {
			return false
		}
	}
	return i == n
}

// maxStrDigits is CPython's default sys.get_int_max_str_digits().
const maxStrDigits = 4300

// ParseInt is Python's int(s) in base 10 for a str; ok is false where Python
// raises ValueError (including more than 4300 digits).
func ParseInt(s string) (*big.Int, bool) {
	a := toASCII(s)
	lo, hi := 0, len(a)
	for lo < hi && isASCIISpace(a[lo]) {
		lo++
	}
	for hi > lo && isASCIISpace(a[hi-1]) {
		hi--
	}
	a = a[lo:hi]
	neg := false
	if a != "" && (a[0] == '+' || a[0] == '-') {
		neg = a[0] == '-'
		a = a[1:]
	}
	if a == "" || a[0] < '0' || a[0] > '9' {
		return nil, false
	}
	digits := make([]byte, 0, len(a))
	prev := byte(0)
	for i := 0; i < len(a); i++ {
		c := a[i]
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case c == '_' && prev != '_':
		default:
			return nil, false
		}
		prev = c
	}
	if prev == '_' || len(digits) > maxStrDigits {
		return nil, false
	}
	v, ok := new(big.Int).SetString(string(digits), 10)
	if !ok {
		return nil, false
	}
	if neg {
		v.Neg(v)
	}
	return v, true
}
