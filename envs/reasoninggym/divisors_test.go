package reasoninggym

import (
	"math/big"
	"math/rand"
	"testing"
)

func TestCommonDivisorsMatchTrialDivision(t *testing.T) {
	naive := func(g uint64) []uint64 {
		var out []uint64
		for i := uint64(1); i*i <= g; i++ {
			if g%i == 0 {
				out = append(out, i)
				if i*i != g {
					out = append(out, g/i)
				}
			}
		}
		return out
	}
	rng := rand.New(rand.NewSource(1))
	values := []uint64{1, 2, 4, 12, 36, 97, 99999989, 100000007, 1 << 40, 999983 * 999983, 999983 * 1000003,
		2 * 3 * 5 * 7 * 11 * 13 * 17 * 19 * 23 * 29, 1000003 * 1000003 * 7, 123456789012, 600851475143}
	for i := 0; i < 300; i++ {
		values = append(values, uint64(rng.Int63n(1<<40))+1)
	}
	for _, g := range values {
		want := naive(g)
		got := commonDivisors(new(big.Int).SetUint64(g))
		if len(got) != len(want) {
			t.Fatalf("divisors(%d): %d entries, want %d", g, len(got), len(want))
		}
		for i := range want {
			if !got[i].IsUint64() || got[i].Uint64() != want[i] {
				t.Fatalf("divisors(%d)[%d] = %v, want %d", g, i, got[i], want[i])
			}
		}
	}
}

func TestCommonDivisorsBig(t *testing.T) {
	// 2^70 * 3 * 1000003^2: beyond 64 bits, checked by multiplying back.
	g := new(big.Int).Lsh(big.NewInt(3), 70)
	p := big.NewInt(1000003)
	g.Mul(g, p).Mul(g, p)
	divs := commonDivisors(g)
	if want := 71 * 2 * 3; len(divs) != want { // number of divisors of g
		t.Fatalf("got %d divisors, want %d", len(divs), want)
	}
	var prev big.Int
	var m, q big.Int
	for i := 0; i < len(divs); i += 2 {
		d := divs[i]
		if d.Cmp(&prev) <= 0 {
			t.Fatalf("small divisors not ascending at %d: %v", i, d)
		}
		prev.Set(d)
		q.QuoRem(g, d, &m)
		if m.Sign() != 0 || q.Cmp(divs[i+1]) != 0 {
			t.Fatalf("pair %d: %v, %v", i, d, divs[i+1])
		}
	}
}
