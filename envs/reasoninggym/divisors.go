package reasoninggym

import (
	"math/big"
	"math/bits"
	"sort"
)

// basic_arithmetic's divisor lists, and the prime factorisation (trial
// division, Miller-Rabin, Pollard's rho) that makes them fast for large
// values. gcd64 also serves the gcd task.

// trialDivisionLimit is the largest g whose divisors are found by plain
// trial division (at most 10^4 steps); larger values are factored first,
// which gives the same list much faster.
const trialDivisionLimit = 100_000_000

// commonDivisors returns basic_arithmetic's find_common_divisors list for
// g > 0: for each i = 1, 2, ... with i*i <= g that divides g, i and then
// g/i (once when i*i == g).
func commonDivisors(g *big.Int) []*big.Int {
	if g.Sign() <= 0 {
		return nil
	}
	var small []*big.Int
	if g.IsUint64() && g.Uint64() <= trialDivisionLimit {
		n := g.Uint64()
		for i := uint64(1); i*i <= n; i++ {
			if n%i == 0 {
				small = append(small, new(big.Int).SetUint64(i))
			}
		}
	} else {
		small = smallDivisors(g)
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

// smallDivisors returns the divisors d of g with d*d <= g, ascending,
// from g's prime factorisation.
func smallDivisors(g *big.Int) []*big.Int {
	primes := map[string]*big.Int{}
	counts := map[string]int{}
	for _, p := range primeFactors(new(big.Int).Set(g)) {
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

// primeFactors returns the prime factors of n >= 1 with multiplicity, in no
// particular order.
func primeFactors(n *big.Int) []*big.Int {
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
		if n.Cmp(bigOne) == 0 {
			return
		}
		if n.IsUint64() {
			for _, p := range primeFactors64(n.Uint64()) {
				out = append(out, new(big.Int).SetUint64(p))
			}
			return
		}
		if n.ProbablyPrime(20) {
			out = append(out, new(big.Int).Set(n))
			return
		}
		d := pollardRho(n)
		rec(d)
		rec(new(big.Int).Quo(n, d))
	}
	rec(n)
	return out
}

// pollardRho finds a nontrivial factor of the odd composite n (Pollard's
// rho, Brent's variant).
func pollardRho(n *big.Int) *big.Int {
	var x, y, ys, q, t, d big.Int
	for c := int64(1); ; c++ {
		bc := big.NewInt(c)
		f := func(z *big.Int) { z.Mul(z, z).Add(z, bc).Mod(z, n) }
		y.SetInt64(2)
		q.SetInt64(1)
		d.SetInt64(1)
		const m = 128
		for rl := 1; d.Cmp(bigOne) == 0; rl *= 2 {
			x.Set(&y)
			for i := 0; i < rl; i++ {
				f(&y)
			}
			for k := 0; k < rl && d.Cmp(bigOne) == 0; k += m {
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
				if d.Cmp(bigOne) != 0 {
					break
				}
			}
		}
		if d.Cmp(n) != 0 {
			return new(big.Int).Set(&d)
		}
	}
}

// mulMod64 is a*b mod m without overflow.
func mulMod64(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, rem := bits.Div64(hi%m, lo, m)
	return rem
}

// powMod64 is a**e mod m.
func powMod64(a, e, m uint64) uint64 {
	res := uint64(1) % m
	a %= m
	for e > 0 {
		if e&1 == 1 {
			res = mulMod64(res, a, m)
		}
		a = mulMod64(a, a, m)
		e >>= 1
	}
	return res
}

// isPrime64 is a deterministic Miller-Rabin test for 64-bit n.
func isPrime64(n uint64) bool {
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
		x := powMod64(a, d, n)
		if x == 1 || x == n-1 {
			continue
		}
		composite := true
		for i := 1; i < s; i++ {
			x = mulMod64(x, x, n)
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

// primeFactors64 returns the prime factors of n >= 1 with multiplicity.
func primeFactors64(n uint64) []uint64 {
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
		if isPrime64(n) {
			out = append(out, n)
			return
		}
		d := pollardRho64(n)
		rec(d)
		rec(n / d)
	}
	rec(n)
	return out
}

// gcd64 is the greatest common divisor of a and b (Euclid).
func gcd64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// pollardRho64 finds a nontrivial factor of the composite n, which has no
// prime factor below 1000 (Pollard's rho, Brent's variant).
func pollardRho64(n uint64) uint64 {
	for c := uint64(1); ; c++ {
		f := func(z uint64) uint64 {
			z = mulMod64(z, z, n) + c
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
					q = mulMod64(q, diff, n)
				}
				d = gcd64(q, n)
			}
		}
		if d == n {
			for {
				ys = f(ys)
				diff := x - ys
				if ys > x {
					diff = ys - x
				}
				d = gcd64(diff, n)
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
