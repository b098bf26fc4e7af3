package reasoninggym

// Helpers shared by the arithmetic ports (basic_arithmetic, chain_sum,
// simple_equations, gcd, lcm): Python integer semantics on math/big values,
// random draws over ranges wider than 64 bits, the divisor list of
// basic_arithmetic, an evaluator for its expressions, and Python's
// Decimal(str) parsing for chain_sum's scorer.

import (
	"errors"
	"math/big"
	"math/bits"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/core"
)

var (
	arithBigOne = big.NewInt(1)
	arithBigTen = big.NewInt(10)
)

// arithPow10 returns 10**n for n >= 0.
func arithPow10(n int) *big.Int {
	return new(big.Int).Exp(arithBigTen, big.NewInt(int64(n)), nil)
}

// arithIntValue is the metadata value of a Python int: an int64 when it
// fits, else the *big.Int itself (which encodes to a JSON number).
func arithIntValue(x *big.Int) any {
	if x.IsInt64() {
		return x.Int64()
	}
	return new(big.Int).Set(x)
}

// arithGetRandBitsBig is random.getrandbits(k) for any k >= 0: 32-bit words
// from least to most significant, the last one cut to the remaining bits.
func arithGetRandBitsBig(r *Random, k int) *big.Int {
	if k <= 64 {
		return new(big.Int).SetUint64(r.GetRandBits(k))
	}
	words := (k-1)/32 + 1
	buf := make([]byte, 4*words) // big-endian for SetBytes
	for i := 0; i < words; i, k = i+1, k-32 {
		w := r.Uint32()
		if k < 32 {
			w >>= uint(32 - k)
		}
		off := 4 * (words - 1 - i)
		buf[off] = byte(w >> 24)
		buf[off+1] = byte(w >> 16)
		buf[off+2] = byte(w >> 8)
		buf[off+3] = byte(w)
	}
	return new(big.Int).SetBytes(buf)
}

// arithRandBelowBig is Random._randbelow(n) for n > 0 of any size.
func arithRandBelowBig(r *Random, n *big.Int) *big.Int {
	if n.IsUint64() {
		return new(big.Int).SetUint64(r.randBelow(n.Uint64()))
	}
	k := n.BitLen()
	for {
		x := arithGetRandBitsBig(r, k)
		if x.Cmp(n) < 0 {
			return x
		}
	}
}

// arithRandIntBig is random.randint(a, b) for integers of any size; a <= b.
func arithRandIntBig(r *Random, a, b *big.Int) *big.Int {
	width := new(big.Int).Sub(b, a)
	width.Add(width, arithBigOne)
	x := arithRandBelowBig(r, width)
	return x.Add(x, a)
}

// arithFloorDiv sets z = x // y (Python floor division); y must be nonzero.
func arithFloorDiv(z, x, y *big.Int) *big.Int {
	var m big.Int
	z.QuoRem(x, y, &m)
	if m.Sign() != 0 && m.Sign() != y.Sign() {
		z.Sub(z, arithBigOne)
	}
	return z
}

// ---------------------------------------------------------------------------
// Divisors in basic_arithmetic's order.

// arithTrialLimit is the largest g whose divisors are found by plain trial
// division (at most 10^4 steps); larger values are factored first, which
// gives the same list much faster.
const arithTrialLimit = 100_000_000

// arithDivisors returns basic_arithmetic's find_common_divisors list for
// g > 0: for each i = 1, 2, ... with i*i <= g that divides g, i and then
// g/i (once when i*i == g).
func arithDivisors(g *big.Int) []*big.Int {
	if g.Sign() <= 0 {
		return nil
	}
	var small []*big.Int
	if g.IsUint64() && g.Uint64() <= arithTrialLimit {
		n := g.Uint64()
		for i := uint64(1); i*i <= n; i++ {
			if n%i == 0 {
				small = append(small, new(big.Int).SetUint64(i))
			}
		}
	} else {
		small = arithSmallDivisors(g)
	}
	out := make([]*big.Int, 0, 2*len(small))
	var sq big.Int
	for _, d := range small {
		out = append(out, d)
		if sq.Mul(d, d).Cmp(g) != 0 {
			out = append(out, new(big.Int).Quo(g, d))
		}
	}
	return out
}

// arithSmallDivisors returns the divisors d of g with d*d <= g, ascending,
// from g's prime factorisation.
func arithSmallDivisors(g *big.Int) []*big.Int {
	primes := map[string]*big.Int{}
	counts := map[string]int{}
	for _, p := range arithFactor(new(big.Int).Set(g)) {
		k := p.String()
		primes[k] = p
		counts[k]++
	}
	keys := make([]string, 0, len(primes))
	for k := range primes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	divs := []*big.Int{big.NewInt(1)}
	var sq big.Int
	for _, k := range keys {
		p := primes[k]
		n := len(divs)
		for i := 0; i < n; i++ {
			d := divs[i]
			for e := 0; e < counts[k]; e++ {
				d = new(big.Int).Mul(d, p)
				if sq.Mul(d, d).Cmp(g) > 0 {
					break // larger multiples only grow
				}
				divs = append(divs, d)
			}
		}
	}
	sort.Slice(divs, func(i, j int) bool { return divs[i].Cmp(divs[j]) < 0 })
	return divs
}

// arithFactor returns the prime factors of n >= 1 with multiplicity, in no
// particular order.
func arithFactor(n *big.Int) []*big.Int {
	var out []*big.Int
	for _, p := range []int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47} {
		bp := big.NewInt(p)
		var q, m big.Int
		for {
			q.QuoRem(n, bp, &m)
			if m.Sign() != 0 {
				break
			}
			out = append(out, bp)
			n.Set(&q)
		}
	}
	var rec func(n *big.Int)
	rec = func(n *big.Int) {
		if n.Cmp(arithBigOne) == 0 {
			return
		}
		if n.IsUint64() {
			for _, p := range arithFactor64(n.Uint64()) {
				out = append(out, new(big.Int).SetUint64(p))
			}
			return
		}
		if n.ProbablyPrime(20) {
			out = append(out, new(big.Int).Set(n))
			return
		}
		d := arithRhoBig(n)
		rec(d)
		rec(new(big.Int).Quo(n, d))
	}
	rec(n)
	return out
}

// arithRhoBig finds a nontrivial factor of the odd composite n (Pollard's
// rho, Brent's variant).
func arithRhoBig(n *big.Int) *big.Int {
	var x, y, ys, q, t, d big.Int
	for c := int64(1); ; c++ {
		bc := big.NewInt(c)
		f := func(z *big.Int) { z.Mul(z, z).Add(z, bc).Mod(z, n) }
		y.SetInt64(2)
		q.SetInt64(1)
		d.SetInt64(1)
		const m = 128
		for rl := 1; d.Cmp(arithBigOne) == 0; rl *= 2 {
			x.Set(&y)
			for i := 0; i < rl; i++ {
				f(&y)
			}
			for k := 0; k < rl && d.Cmp(arithBigOne) == 0; k += m {
				ys.Set(&y)
				for i := 0; i < m && i < rl-k; i++ {
					f(&y)
					t.Sub(&x, &y).Abs(&t)
					q.Mul(&q, &t).Mod(&q, n)
				}
				d.GCD(nil, nil, &q, n)
			}
		}
		if d.Cmp(n) == 0 {
			for {
				f(&ys)
				t.Sub(&x, &ys).Abs(&t)
				d.GCD(nil, nil, &t, n)
				if d.Cmp(arithBigOne) != 0 {
					break
				}
			}
		}
		if d.Cmp(n) != 0 {
			return new(big.Int).Set(&d)
		}
	}
}

func arithMulMod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, rem := bits.Div64(hi%m, lo, m)
	return rem
}

func arithPowMod(a, e, m uint64) uint64 {
	res := uint64(1) % m
	a %= m
	for e > 0 {
		if e&1 == 1 {
			res = arithMulMod(res, a, m)
		}
		a = arithMulMod(a, a, m)
		e >>= 1
	}
	return res
}

// arithIsPrime64 is a deterministic Miller-Rabin test for 64-bit n.
func arithIsPrime64(n uint64) bool {
	if n < 2 {
		return false
	}
	for _, p := range []uint64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37} {
		if n%p == 0 {
			return n == p
		}
	}
	d, s := n-1, 0
	for d%2 == 0 {
		d /= 2
		s++
	}
	for _, a := range []uint64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37} {
		x := arithPowMod(a, d, n)
		if x == 1 || x == n-1 {
			continue
		}
		composite := true
		for i := 1; i < s; i++ {
			x = arithMulMod(x, x, n)
			if x == n-1 {
				composite = false
				break
			}
		}
		if composite {
			return false
		}
	}
	return true
}

// arithFactor64 returns the prime factors of n >= 1 with multiplicity.
func arithFactor64(n uint64) []uint64 {
	var out []uint64
	for p := uint64(2); p < 1000 && p*p <= n; p++ {
		for n%p == 0 {
			out = append(out, p)
			n /= p
		}
	}
	var rec func(n uint64)
	rec = func(n uint64) {
		if n == 1 {
			return
		}
		if arithIsPrime64(n) {
			out = append(out, n)
			return
		}
		d := arithRho64(n)
		rec(d)
		rec(n / d)
	}
	rec(n)
	return out
}

func arithGCD64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// arithRho64 finds a nontrivial factor of the composite n, which has no
// prime factor below 1000 (Pollard's rho, Brent's variant).
func arithRho64(n uint64) uint64 {
	for c := uint64(1); ; c++ {
		f := func(z uint64) uint64 {
			z = arithMulMod(z, z, n) + c
			if z >= n || z < c {
				z -= n
			}
			return z
		}
		var x, ys uint64
		y, q, d := uint64(2), uint64(1), uint64(1)
		const m = 128
		for rl := 1; d == 1; rl *= 2 {
			x = y
			for i := 0; i < rl; i++ {
				y = f(y)
			}
			for k := 0; k < rl && d == 1; k += m {
				ys = y
				for i := 0; i < m && i < rl-k; i++ {
					y = f(y)
					diff := x - y
					if y > x {
						diff = y - x
					}
					q = arithMulMod(q, diff, n)
				}
				d = arithGCD64(q, n)
			}
		}
		if d == n {
			for {
				ys = f(ys)
				diff := x - ys
				if ys > x {
					diff = ys - x
				}
				d = arithGCD64(diff, n)
				if d != 1 {
					break
				}
			}
		}
		if d != n {
			return d
		}
	}
}

// ---------------------------------------------------------------------------
// Python expression evaluation.

var errArithZeroDiv = errors.New("ZeroDivisionError: integer division or modulo by zero")

// arithEvalFloorDiv is eval(s.replace("/", "//")) for the expressions
// basic_arithmetic builds: integer literals, unary and binary + and -, *,
// / (taken as Python's floor division //), parentheses and spaces, with
// Python's precedence and arbitrary-size integers.
func arithEvalFloorDiv(s string) (*big.Int, error) {
	p := arithExprParser{s: s}
	v, err := p.expr()
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.i != len(p.s) {
		return nil, errors.New("SyntaxError: unexpected text in expression " + s)
	}
	return v, nil
}

type arithExprParser struct {
	s     string
	i     int
	depth int
}

func (p *arithExprParser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *arithExprParser) peek() byte {
	p.skip()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *arithExprParser) expr() (*big.Int, error) {
	v, err := p.term()
	if err != nil {
		return nil, err
	}
	for {
		c := p.peek()
		if c != '+' && c != '-' {
			return v, nil
		}
		p.i++
		w, err := p.term()
		if err != nil {
			return nil, err
		}
		if c == '+' {
			v.Add(v, w)
		} else {
			v.Sub(v, w)
		}
	}
}

func (p *arithExprParser) term() (*big.Int, error) {
	v, err := p.factor()
	if err != nil {
		return nil, err
	}
	for {
		c := p.peek()
		if c != '*' && c != '/' {
			return v, nil
		}
		p.i++
		if c == '/' && p.i < len(p.s) && p.s[p.i] == '/' {
			p.i++ // an explicit //
		}
		w, err := p.factor()
		if err != nil {
			return nil, err
		}
		if c == '*' {
			v.Mul(v, w)
		} else {
			if w.Sign() == 0 {
				return nil, errArithZeroDiv
			}
			arithFloorDiv(v, v, w)
		}
	}
}

func (p *arithExprParser) factor() (*big.Int, error) {
	c := p.peek()
	switch {
	case c == '+' || c == '-':
		p.i++
		p.depth++
		if p.depth > 100000 {
			return nil, errors.New("RecursionError: expression nested too deeply")
		}
		v, err := p.factor()
		p.depth--
		if err != nil {
			return nil, err
		}
		if c == '-' {
			v.Neg(v)
		}
		return v, nil
	case c == '(':
		p.i++
		p.depth++
		if p.depth > 100000 {
			return nil, errors.New("RecursionError: expression nested too deeply")
		}
		v, err := p.expr()
		p.depth--
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, errors.New("SyntaxError: '(' was never closed")
		}
		p.i++
		return v, nil
	case c >= '0' && c <= '9':
		j := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		v, ok := new(big.Int).SetString(p.s[j:p.i], 10)
		if !ok {
			return nil, errors.New("SyntaxError: bad integer literal")
		}
		return v, nil
	}
	return nil, errors.New("SyntaxError: invalid syntax")
}

// ---------------------------------------------------------------------------
// Python Decimal(str) and reasoning_gym.utils.compute_decimal_reward.

// arithDecimalZeros are the code points with Unicode decimal value 0 in the
// Unicode 14.0 database of CPython 3.11 (the first of ten consecutive
// digits 0..9 each); Decimal() maps any such digit to its ASCII value.
var arithDecimalZeros = []rune{
	0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66,
	0xCE6, 0xD66, 0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810,
	0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620,
	0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30,
	0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650,
	0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60,
	0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140,
	0x1E2F0, 0x1E950, 0x1FBF0,
}

// arithDecimalValue is Py_UNICODE_TODECIMAL: r's decimal digit value or -1.
func arithDecimalValue(r rune) int {
	i := sort.Search(len(arithDecimalZeros), func(i int) bool { return arithDecimalZeros[i] > r })
	if i == 0 {
		return -1
	}
	if d := r - arithDecimalZeros[i-1]; d < 10 {
		return int(d)
	}
	return -1
}

// Limits of the context Decimal(str) converts under (libmpdec's maximum
// context on 64-bit): a finite value whose adjusted exponent is above
// arithDecEmax or whose exponent is below arithDecEtiny is an error.
const (
	arithDecEmax  = 999999999999999999
	arithDecEtiny = -1999999999999999997
	arithDecSat   = int64(1) << 62 // exponent saturation, far beyond both
)

const (
	arithDecInvalid = iota // conversion error (or a NaN: never equal)
	arithDecFinite
	arithDecInf
)

// arithDecimal is a parsed Decimal reduced to what equality needs.
type arithDecimal struct {
	kind   int
	neg    bool
	digits string // finite: coefficient without leading/trailing zeros, "" for zero
	exp    int64  // finite: exponent of the last digit of digits
}

// arithParseDecimal parses s as Python's Decimal(s) does: surrounding
// Unicode whitespace stripped, every '_' removed, Unicode decimal digits
// accepted, then the decimal string grammar (sign, digits with an optional
// point, optional exponent; Inf/Infinity; NaN/sNaN with a payload).
func arithParseDecimal(s string) arithDecimal {
	s = core.PyStrip(s)
	buf := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		switch {
		case r == '_':
		case r > 0 && r <= 127:
			buf = append(buf, byte(r))
		case core.PyIsSpace(r):
			buf = append(buf, ' ')
		default:
			d := arithDecimalValue(r)
			if d < 0 || (r == utf8.RuneError && w == 1) {
				return arithDecimal{}
			}
			buf = append(buf, byte('0'+d))
		}
	}
	b := buf
	var dec arithDecimal
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		dec.neg = b[0] == '-'
		b = b[1:]
	}
	lower := strings.ToLower(string(b[:min(len(b), 9)]))
	switch {
	case strings.HasPrefix(lower, "nan") || strings.HasPrefix(lower, "snan"):
		return arithDecimal{} // NaN compares unequal (sNaN raises): same outcome
	case strings.HasPrefix(lower, "inf"):
		if len(b) == 3 || (len(b) == 8 && lower == "infinity") {
			dec.kind = arithDecInf
			return dec
		}
		return arithDecimal{}
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
		return arithDecimal{}
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
			if exp <= arithDecSat/10 {
				exp = exp*10 + int64(b[i]-'0')
			} else {
				exp = arithDecSat
			}
			i++
		}
		if i == j {
			return arithDecimal{}
		}
		exp = min(exp, arithDecSat)
		if eneg {
			exp = -exp
		}
	}
	if i != len(b) {
		return arithDecimal{}
	}
	exp -= int64(len(frac))
	coef := strings.TrimLeft(string(intPart)+string(frac), "0")
	ndigits := int64(max(len(coef), 1))
	if exp+ndigits-1 > arithDecEmax || exp < arithDecEtiny {
		return arithDecimal{}
	}
	trimmed := strings.TrimRight(coef, "0")
	exp += int64(len(coef) - len(trimmed))
	dec.kind = arithDecFinite
	dec.digits = trimmed
	dec.exp = exp
	return dec
}

// arithDecimalEqual is Decimal(a) == Decimal(b) where an exception counts as
// not equal.
func arithDecimalEqual(a, b arithDecimal) bool {
	if a.kind != b.kind || a.kind == arithDecInvalid {
		return false
	}
	if a.kind == arithDecInf {
		return a.neg == b.neg
	}
	if a.digits == "" || b.digits == "" {
		return a.digits == b.digits
	}
	return a.neg == b.neg && a.exp == b.exp && a.digits == b.digits
}

// arithDecimalReward is reasoning_gym.utils.compute_decimal_reward(answer,
// oracle, strip_commas=True): 1.0 when the comma-free answer and oracle are
// equal Decimals, else len(oracle)/len(answer) (code points, commas
// removed) when the oracle occurs in the answer, else 0.0.
func arithDecimalReward(answer string, ok bool, oracle string) float64 {
	if !ok || answer == "" {
		return 0
	}
	a := strings.ReplaceAll(answer, ",", "")
	o := strings.ReplaceAll(oracle, ",", "")
	if arithDecimalEqual(arithParseDecimal(a), arithParseDecimal(o)) {
		return 1
	}
	if strings.Contains(a, o) {
		la := core.PyLen(a)
		if la == 0 {
			return 0
		}
		return float64(core.PyLen(o)) / float64(la)
	}
	return 0
}
