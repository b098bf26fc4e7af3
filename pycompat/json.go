package pycompat

import (
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// JSONFloatList is what number_sorting's scorer does with an answer after
// replacing quotes: json.loads (CPython 3.11, strict), then float() of every
// element of the resulting list. ok is false whenever Python would end up
// raising or would not get a list: invalid JSON, a top-level value that is
// not a list, or an element float() refuses (null, a nested list or object,
// an int too large for a float, a string that is not a float literal).
// Every such case scores 0, so the first failure decides.
func JSONFloatList(s string) ([]float64, bool) {
	p := jsonScanner{s: s}
	p.ws()
	if p.i >= len(s) || s[p.i] != '[' {
		return nil, false
	}
	p.i++
	p.ws()
	out := []float64{}
	if p.i < len(s) && s[p.i] == ']' {
		p.i++
	} else {
		for {
			x, ok := p.scalar()
			if !ok {
				return nil, false
			}
			out = append(out, x)
			p.ws()
			if p.i >= len(s) {
				return nil, false
			}
			if s[p.i] == ']' {
				p.i++
				break
			}
			if s[p.i] != ',' {
				return nil, false
			}
			p.i++
			p.ws()
		}
	}
	p.ws()
	if p.i != len(s) {
		return nil, false
	}
	return out, true
}

type jsonScanner struct {
	s string
	i int
}

// ws skips JSON whitespace: space, tab, newline, carriage return.
func (p *jsonScanner) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonScanner) lit(word string) bool {
	if len(p.s)-p.i >= len(word) && p.s[p.i:p.i+len(word)] == word {
		p.i += len(word)
		return true
	}
	return false
}

// scalar scans one list element and converts it as float() would.
func (p *jsonScanner) scalar() (float64, bool) {
	if p.i >= len(p.s) {
		return 0, false
	}
	switch p.s[p.i] {
	case '"':
		rs, ok := p.str()
		if !ok {
			return 0, false
		}
		return floatFromASCII(runesToASCII(rs))
	case 't':
		return 1, p.lit("true")
	case 'f':
		return 0, p.lit("false")
	case 'N':
		return math.NaN(), p.lit("NaN")
	case 'I':
		return math.Inf(1), p.lit("Infinity")
	case '-':
		if p.lit("-Infinity") {
			return math.Inf(-1), true
		}
	}
	// null, nested containers and anything else: float() fails or the
	// JSON is invalid.
	return p.number()
}

// number scans a JSON number the way CPython's scanner does and converts it
// with float(): Python float parsing for fractions and exponents, exact
// int-to-float rounding (OverflowError when too large) for integers.
func (p *jsonScanner) number() (float64, bool) {
	s, start, i := p.s, p.i, p.i
	n := len(s)
	if i < n && s[i] == '-' {
		i++
	}
	if i >= n {
		return 0, false
	}
	switch {
	case s[i] >= '1' && s[i] <= '9':
		i++
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	case s[i] == '0':
		i++
	default:
		return 0, false
	}
	isFloat := false
	if i+1 < n && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		isFloat = true
		i += 2
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < n && (s[j] == '+' || s[j] == '-') {
			j++
		}
		d := j
		for j < n && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j > d {
			isFloat = true
			i = j
		}
	}
	p.i = i
	num := s[start:i]
	if isFloat {
		x, err := strconv.ParseFloat(num, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
				return 0, false
			}
		}
		return x, true
	}
	digits := len(num)
	if num[0] == '-' {
		digits--
	}
	if digits > maxStrDigits {
		return 0, false
	}
	if digits <= 15 {
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			return 0, false
		}
		return float64(v), true
	}
	v, ok := new(big.Int).SetString(num, 10)
	if !ok {
		return 0, false
	}
	x, _ := new(big.Float).SetInt(v).Float64()
	if math.IsInf(x, 0) {
		return 0, false
	}
	return x, true
}

// str scans a JSON string (strict: no raw control characters) into code
// points, joining \u surrogate pairs and keeping lone surrogates.
func (p *jsonScanner) str() ([]rune, bool) {
	s := p.s
	i := p.i + 1
	var out []rune
	for {
		if i >= len(s) {
			return nil, false
		}
		c := s[i]
		switch {
		case c == '"':
			p.i = i + 1
			return out, true
		case c < 0x20:
			return nil, false
		case c == '\\':
			if i+1 >= len(s) {
				return nil, false
			}
			e := s[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, rune(e))
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				u, ok := hex4(s, i)
				if !ok {
					return nil, false
				}
				i += 4
				if u >= 0xd800 && u <= 0xdbff && i+6 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
					u2, ok := hex4(s, i+2)
					if !ok {
						return nil, false
					}
					if u2 >= 0xdc00 && u2 <= 0xdfff {
						u = 0x10000 + (u-0xd800)<<10 + (u2 - 0xdc00)
						i += 6
					}
				}
				out = append(out, u)
			default:
				return nil, false
			}
		case c < utf8.RuneSelf:
			out = append(out, rune(c))
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			out = append(out, r)
			i += size
		}
	}
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var v rune
	for k := 0; k < 4; k++ {
		c := s[i+k]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | rune(d)
	}
	return v, true
}
