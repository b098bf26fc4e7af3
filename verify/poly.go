package verify

import (
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// poly is a polynomial with exact rational coefficients: monomial key ->
// coefficient. A key is "" for the constant term, else factors
// "name^k" sorted and joined by "*". Atoms that are not variables
// (π, √2, sin x) are named by their rendering, so an identity found
// here holds whatever they stand for.
type poly map[string]*big.Rat

// ratFunc is num/den.
type ratFn struct{ num, den poly }

func constPoly(r *big.Rat) poly {
	if r.Sign() == 0 {
		return poly{}
	}
	return poly{"": new(big.Rat).Set(r)}
}

func (p poly) add(q poly, w *work) poly {
	out := make(poly, len(p)+len(q))
	for k, v := range p {
		out[k] = new(big.Rat).Set(v)
	}
	for k, v := range q {
		w.step(1)
		if c, ok := out[k]; ok {
			c.Add(c, v)
			if c.Sign() == 0 {
				delete(out, k)
			}
		} else {
			out[k] = new(big.Rat).Set(v)
		}
	}
	return out
}

func (p poly) mul(q poly, w *work) poly {
	out := make(poly)
	for k1, v1 := range p {
		for k2, v2 := range q {
			w.step(1)
			k := mulKeys(k1, k2)
			c := new(big.Rat).Mul(v1, v2)
			w.bits(c.Num().BitLen() + c.Denom().BitLen())
			if old, ok := out[k]; ok {
				old.Add(old, c)
				if old.Sign() == 0 {
					delete(out, k)
				}
			} else {
				out[k] = c
			}
		}
	}
	return out
}

// mulKeys multiplies two monomials.
func mulKeys(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	exps := map[string]int{}
	for _, key := range []string{a, b} {
		for _, f := range strings.Split(key, "*") {
			i := strings.LastIndexByte(f, '^')
			k, _ := strconv.Atoi(f[i+1:])
			exps[f[:i]] += k
		}
	}
	names := make([]string, 0, len(exps))
	for n := range exps {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "^" + strconv.Itoa(exps[n])
	}
	return strings.Join(parts, "*")
}

func (p poly) isZero() bool { return len(p) == 0 }

// toRatFn puts n in rational-function form.
func toRatFn(n *Node, w *work) (ratFn, bool) {
	w.step(1)
	one := constPoly(big.NewRat(1, 1))
	switch n.op {
	case opNum:
		return ratFn{constPoly(n.rat), one}, true
	case opSym:
		return ratFn{poly{atomKey(n.name): big.NewRat(1, 1)}, one}, true
	case opConst:
		if n.name == "pi" || n.name == "e" {
			return ratFn{poly{atomKey("#" + n.name): big.NewRat(1, 1)}, one}, true
		}
		return ratFn{}, false
	case opPct:
		r, ok := toRatFn(n.args[0], w)
		if !ok {
			return ratFn{}, false
		}
		return ratFn{r.num, r.den.mul(constPoly(hundred), w)}, true
	case opAdd:
		acc := ratFn{poly{}, one}
		for _, a := range n.args {
			r, ok := toRatFn(a, w)
			if !ok {
				return ratFn{}, false
			}
			acc = ratFn{acc.num.mul(r.den, w).add(r.num.mul(acc.den, w), w), acc.den.mul(r.den, w)}
		}
		return acc, true
	case opMul:
		acc := ratFn{one, one}
		for _, a := range n.args {
			r, ok := toRatFn(a, w)
			if !ok {
				return ratFn{}, false
			}
			acc = ratFn{acc.num.mul(r.num, w), acc.den.mul(r.den, w)}
		}
		if acc.den.isZero() {
			return ratFn{}, false
		}
		return acc, true
	case opPow:
		if e := n.args[1]; e.op == opNum && e.rat.IsInt() && e.rat.Num().IsInt64() && abs64(e.rat.Num().Int64()) <= 64 {
			k := e.rat.Num().Int64()
			b, ok := toRatFn(n.args[0], w)
			if !ok {
				return ratFn{}, false
			}
			acc := ratFn{one, one}
			for i := int64(0); i < abs64(k); i++ {
				acc = ratFn{acc.num.mul(b.num, w), acc.den.mul(b.den, w)}
			}
			if k < 0 {
				acc = ratFn{acc.den, acc.num}
			}
			if acc.den.isZero() {
				return ratFn{}, false
			}
			return acc, true
		}
	}
	// Anything else: a rational constant, or an opaque atom.
	if r, ok := ratValue(n, w); ok {
		return ratFn{constPoly(r), one}, true
	}
	if n.op == opConst {
		return ratFn{}, false
	}
	return ratFn{poly{atomKey("#" + n.String()): big.NewRat(1, 1)}, one}, true
}

func atomKey(name string) string {
	return strings.NewReplacer("*", "·", "^", "ˆ").Replace(name) + "^1"
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// sameRatFn reports whether a and b are the same rational function.
func sameRatFn(a, b *Node, w *work) (equal, ok bool) {
	ra, ok1 := toRatFn(a, w)
	rb, ok2 := toRatFn(b, w)
	if !ok1 || !ok2 {
		return false, false
	}
	d := ra.num.mul(rb.den, w).add(rb.num.mul(ra.den, w).scale(-1), w)
	return d.isZero(), true
}

func (p poly) scale(k int64) poly {
	out := make(poly, len(p))
	r := big.NewRat(k, 1)
	for key, v := range p {
		out[key] = new(big.Rat).Mul(v, r)
	}
	return out
}

// numericSame compares a and b at random points of their variables:
// equal when they agree at every point where both are defined, and at
// least at half of the points.
func numericSame(a, b *Node, w *work) (equal, decided bool) {
	set := map[string]bool{}
	a.symbols(set)
	b.symbols(set)
	names := sortedNames(set)
	if len(names) == 0 {
		va, ok1 := complexValue(a, nil, w)
		vb, ok2 := complexValue(b, nil, w)
		if !ok1 || !ok2 {
			return false, false
		}
		return nearlyEqual(va, vb), true
	}
	rng := rand.New(rand.NewPCG(0x5eed, uint64(len(names))))
	const points = 6
	agree := 0
	for k := 0; k < points; k++ {
		env := make(map[string]complex128, len(names))
		for _, n := range names {
			x := 0.5 + 2*rng.Float64()
			if rng.IntN(2) == 0 {
				x = -x
			}
			env[n] = complex(x, 0)
		}
		va, ok1 := complexValue(a, env, w)
		vb, ok2 := complexValue(b, env, w)
		if !ok1 || !ok2 {
			continue
		}
		if !nearlyEqual(va, vb) {
			return false, true
		}
		agree++
	}
	if agree*2 < points {
		return false, false
	}
	return true, true
}

// nearlyEqual is equality of two computed values, relative to their size.
func nearlyEqual(a, b complex128) bool {
	scale := math.Max(1, math.Max(cmplxAbs(a), cmplxAbs(b)))
	return cmplxAbs(a-b) <= 1e-9*scale
}

func cmplxAbs(v complex128) float64 { return math.Hypot(real(v), imag(v)) }
