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

	"github.com/llenvs/llenvs-go/pycompat"
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
// reasoning_gym.utils.compute_decimal_reward.

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
	if pycompat.ParseDecimal(a).Equal(pycompat.ParseDecimal(o)) {
		return 1
	}
	if strings.Contains(a, o) {
		la := pycompat.Len(a)
		if la == 0 {
			return 0
		}
		return float64(pycompat.Len(o)) / float64(la)
	}
	return 0
}
