package verify

import (
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// realSet is a subset of the real line, held as its breakpoints (in
// ascending order) and whether each piece belongs to it: in[0] is the
// gap before pts[0], in[1] the point pts[0], in[2] the gap after it, and
// so on; len(in) == 2*len(pts)+1. It is how a relation on one variable
// (1 <= |z| <= 3/2, x^2 >= 4, x != 1) meets the intervals and unions that
// describe its solutions: math-verify turns such a relation into a sympy
// set and compares the sets, and so do we, numerically.
type realSet struct {
	pts []float64
	in  []bool
}

// nearReal is the tolerance of breakpoints: the same point to within
// 10^-9 of its size.
func nearReal(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// contains reports whether x is in s.
func (s realSet) contains(x float64) bool {
	for i, p := range s.pts {
		if nearReal(x, p) {
			return s.in[2*i+1]
		}
		if x < p {
			return s.in[2*i]
		}
	}
	return s.in[2*len(s.pts)]
}

// buildRealSet makes the set of the reals for which member holds, given
// every point where membership may change.
func buildRealSet(points []float64, member func(float64) bool, w *work) realSet {
	sort.Float64s(points)
	var pts []float64
	for _, p := range points {
		if math.IsInf(p, 0) || math.IsNaN(p) {
			continue
		}
		if len(pts) == 0 || !nearReal(pts[len(pts)-1], p) {
			pts = append(pts, p)
		}
	}
	in := make([]bool, 0, 2*len(pts)+1)
	for i := 0; i <= len(pts); i++ {
		w.step(1)
		var sample float64
		switch {
		case len(pts) == 0:
			sample = 0.5
		case i == 0:
			sample = pts[0] - math.Max(1, math.Abs(pts[0]))
		case i == len(pts):
			sample = pts[i-1] + math.Max(1, math.Abs(pts[i-1]))
		default:
			sample = (pts[i-1] + pts[i]) / 2
		}
		in = append(in, member(sample))
		if i < len(pts) {
			in = append(in, member(pts[i]))
		}
	}
	// Drop the breakpoints where nothing changes.
	out := realSet{in: []bool{in[0]}}
	for i, p := range pts {
		pt, after := in[2*i+1], in[2*i+2]
		if pt == out.in[len(out.in)-1] && pt == after {
			continue
		}
		out.pts = append(out.pts, p)
		out.in = append(out.in, pt, after)
	}
	return out
}

func (s realSet) equal(o realSet) bool {
	if len(s.pts) != len(o.pts) {
		return false
	}
	for i := range s.pts {
		if !nearReal(s.pts[i], o.pts[i]) {
			return false
		}
	}
	for i := range s.in {
		if s.in[i] != o.in[i] {
			return false
		}
	}
	return true
}

// valueRealSet reads an interval, a finite set of real numbers, the real
// line, or unions, intersections and differences of those as a realSet.
func valueRealSet(v Value, w *work) (realSet, bool) {
	w.step(1)
	switch v.Kind {
	case KindInterval:
		if v.Items[0].Kind != KindExpr || v.Items[1].Kind != KindExpr {
			return realSet{}, false
		}
		lo, ok1 := realConst(v.Items[0].Expr, w)
		hi, ok2 := realConst(v.Items[1].Expr, w)
		if !ok1 || !ok2 || lo > hi {
			return realSet{}, false
		}
		member := func(x float64) bool {
			switch {
			case nearReal(x, lo):
				return !v.LeftOpen && !math.IsInf(lo, 0)
			case nearReal(x, hi):
				return !v.RightOpen && !math.IsInf(hi, 0)
			}
			return lo < x && x < hi
		}
		return buildRealSet([]float64{lo, hi}, member, w), true
	case KindSet:
		pts := make([]float64, 0, len(v.Items))
		for _, it := range v.Items {
			if it.Kind != KindExpr {
				return realSet{}, false
			}
			x, ok := realConst(it.Expr, w)
			if !ok || math.IsInf(x, 0) {
				return realSet{}, false
			}
			pts = append(pts, x)
		}
		member := func(x float64) bool {
			for _, p := range pts {
				if nearReal(x, p) {
					return true
				}
			}
			return false
		}
		return buildRealSet(pts, member, w), true
	case KindExpr:
		if v.Expr.op == opSym && v.Expr.name == `\mathbb{R}` {
			return realSet{in: []bool{true}}, true
		}
	case KindSetOp:
		acc, ok := valueRealSet(v.Items[0], w)
		if !ok {
			return realSet{}, false
		}
		for i, op := range v.Ops {
			next, ok := valueRealSet(v.Items[i+1], w)
			if !ok {
				return realSet{}, false
			}
			a, b := acc, next
			var member func(float64) bool
			switch op {
			case "cup":
				member = func(x float64) bool { return a.contains(x) || b.contains(x) }
			case "cap":
				member = func(x float64) bool { return a.contains(x) && b.contains(x) }
			case "setminus":
				member = func(x float64) bool { return a.contains(x) && !b.contains(x) }
			default:
				return realSet{}, false
			}
			acc = buildRealSet(append(append([]float64{}, a.pts...), b.pts...), member, w)
		}
		return acc, true
	}
	return realSet{}, false
}

// relationRealSet is the set of real solutions of a relation chain in one
// variable whose sides are rational functions of it, possibly with
// absolute values of polynomials (|x - 1| <= 3, 1 <= |z| <= 3/2,
// (x-1)(x-3) < 0, x^2 = 4, x != 1). ok is false for anything else.
func relationRealSet(v Value, w *work) (realSet, bool) {
	if v.Kind != KindRelation {
		return realSet{}, false
	}
	names := map[string]bool{}
	for _, it := range v.Items {
		if it.Kind != KindExpr || hasInfinity(it.Expr) {
			return realSet{}, false
		}
		it.Expr.symbols(names)
	}
	if len(names) != 1 {
		return realSet{}, false
	}
	var name string
	for k := range names {
		name = k
	}
	var points []float64
	for i := range v.Ops {
		d := add(v.Items[i].Expr, neg(v.Items[i+1].Expr))
		pts, ok := criticalPoints(d, name, w)
		if !ok {
			return realSet{}, false
		}
		points = append(points, pts...)
	}
	member := func(x float64) bool {
		env := map[string]complex128{name: complex(x, 0)}
		for i, op := range v.Ops {
			l, ok1 := complexValue(v.Items[i].Expr, env, w)
			r, ok2 := complexValue(v.Items[i+1].Expr, env, w)
			if !ok1 || !ok2 || math.Abs(imag(l)) > 1e-12 || math.Abs(imag(r)) > 1e-12 {
				return false // undefined there (a pole, a root of a negative number)
			}
			a, b := real(l), real(r)
			tol := 1e-9 * math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
			same := math.Abs(a-b) <= tol
			var holds bool
			switch op {
			case "=":
				holds = same
			case "!=":
				holds = !same
			case "<":
				holds = a < b && !same
			case "<=":
				holds = a < b || same
			case ">":
				holds = a > b && !same
			case ">=":
				holds = a > b || same
			}
			if !holds {
				return false
			}
		}
		return true
	}
	return buildRealSet(points, member, w), true
}

// criticalPoints lists the real points where d (a function of the one
// variable name) may change sign: the roots of its numerator and
// denominator, with each |g| read as g or -g between the roots of g.
func criticalPoints(d *Node, name string, w *work) ([]float64, bool) {
	var absNodes []*Node
	collectAbs(d, &absNodes)
	if len(absNodes) > 4 {
		return nil, false
	}
	var kinks []float64
	for _, a := range absNodes {
		if len(a.args) != 1 || hasAbs(a.args[0]) {
			return nil, false
		}
		roots, ok := polyRoots(a.args[0], name, w)
		if !ok {
			return nil, false
		}
		kinks = append(kinks, roots...)
	}
	sort.Float64s(kinks)
	out := append([]float64{}, kinks...)
	// One region between consecutive kinks at a time: there each |g| is
	// ±g and d is a rational function.
	bounds := append(append([]float64{math.Inf(-1)}, kinks...), math.Inf(1))
	for i := 0; i+1 < len(bounds); i++ {
		lo, hi := bounds[i], bounds[i+1]
		var sample float64
		switch {
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			sample = 0.5
		case math.IsInf(lo, -1):
			sample = hi - 1
		case math.IsInf(hi, 1):
			sample = lo + 1
		default:
			sample = (lo + hi) / 2
		}
		signs := map[*Node]bool{}
		for _, a := range absNodes {
			g, ok := complexValue(a.args[0], map[string]complex128{name: complex(sample, 0)}, w)
			if !ok {
				return nil, false
			}
			signs[a] = real(g) < 0
		}
		r, ok := toRatFn(replaceAbs(d, signs), w)
		if !ok {
			return nil, false
		}
		for _, p := range []poly{r.num, r.den} {
			roots, ok := roots(p, name, w)
			if !ok {
				return nil, false
			}
			for _, x := range roots {
				if x >= lo-1e-9*math.Max(1, math.Abs(lo)) && x <= hi+1e-9*math.Max(1, math.Abs(hi)) {
					out = append(out, x)
				}
			}
		}
	}
	return out, true
}

func collectAbs(n *Node, out *[]*Node) {
	if n.op == opFunc && n.name == "abs" {
		*out = append(*out, n)
		return
	}
	for _, a := range n.args {
		collectAbs(a, out)
	}
}

func hasAbs(n *Node) bool {
	var found []*Node
	collectAbs(n, &found)
	return len(found) > 0
}

// replaceAbs is n with each |g| in negate read as -g and the others as g.
func replaceAbs(n *Node, negate map[*Node]bool) *Node {
	if neg1, ok := negate[n]; ok {
		if neg1 {
			return neg(n.args[0])
		}
		return n.args[0]
	}
	if len(n.args) == 0 {
		return n
	}
	c := *n
	c.args = make([]*Node, len(n.args))
	for i, a := range n.args {
		c.args[i] = replaceAbs(a, negate)
	}
	return &c
}

// polyRoots is roots of the numerator of n.
func polyRoots(n *Node, name string, w *work) ([]float64, bool) {
	r, ok := toRatFn(n, w)
	if !ok {
		return nil, false
	}
	return roots(r.num, name, w)
}

// roots lists the real roots of p, a polynomial in the one variable name
// with rational coefficients: the rational roots exactly (by the rational
// root theorem), then those of what is left when it is of degree two or
// less. ok is false for anything else.
func roots(p poly, name string, w *work) ([]float64, bool) {
	coef, ok := univariate(p, name)
	if !ok {
		return nil, false
	}
	if len(coef) > 13 {
		return nil, false
	}
	// Integer coefficients.
	lcm := big.NewInt(1)
	for _, c := range coef {
		if c != nil {
			g := new(big.Int).GCD(nil, nil, lcm, c.Denom())
			lcm.Mul(lcm, new(big.Int).Quo(c.Denom(), g))
		}
	}
	ints := make([]*big.Int, len(coef))
	for i, c := range coef {
		ints[i] = new(big.Int)
		if c != nil {
			x := new(big.Rat).Mul(c, new(big.Rat).SetInt(lcm))
			ints[i].Set(x.Num())
		}
	}
	var out []float64
	// x = 0 as a root, as often as it divides.
	for len(ints) > 1 && ints[0].Sign() == 0 {
		out = append(out, 0)
		ints = ints[1:]
	}
	for len(ints) > 1 {
		root, ok := rationalRoot(ints, w)
		if !ok {
			break
		}
		f, _ := root.Float64()
		out = append(out, f)
		ints = deflate(ints, root)
	}
	switch len(ints) {
	case 1:
		if ints[0].Sign() == 0 {
			return nil, false // zero everywhere: no points to go by
		}
	default:
		return nil, false
	case 2:
		a, _ := new(big.Rat).SetFrac(ints[0], ints[1]).Float64()
		out = append(out, -a)
	case 3:
		a, _ := new(big.Float).SetInt(ints[2]).Float64()
		b, _ := new(big.Float).SetInt(ints[1]).Float64()
		c, _ := new(big.Float).SetInt(ints[0]).Float64()
		disc := b*b - 4*a*c
		if disc >= 0 {
			s := math.Sqrt(disc)
			out = append(out, (-b-s)/(2*a), (-b+s)/(2*a))
		}
	}
	return out, true
}

// univariate is p's coefficients by degree; nil for a missing term.
func univariate(p poly, name string) ([]*big.Rat, bool) {
	prefix := strings.TrimSuffix(atomKey(name), "1")
	var coef []*big.Rat
	for k, c := range p {
		deg := 0
		if k != "" {
			if !strings.HasPrefix(k, prefix) || strings.Contains(k, "*") {
				return nil, false
			}
			d, err := strconv.Atoi(k[len(prefix):])
			if err != nil || d < 0 || d > 12 {
				return nil, false
			}
			deg = d
		}
		for len(coef) <= deg {
			coef = append(coef, nil)
		}
		coef[deg] = c
	}
	if len(coef) == 0 {
		coef = []*big.Rat{nil}
	}
	return coef, true
}

// rationalRoot finds a rational root p/q of the integer polynomial c (by
// degree), p dividing c[0] and q the leading coefficient; only small
// coefficients are tried.
func rationalRoot(c []*big.Int, w *work) (*big.Rat, bool) {
	a0, an := new(big.Int).Abs(c[0]), new(big.Int).Abs(c[len(c)-1])
	if !a0.IsInt64() || !an.IsInt64() || a0.Int64() > 1_000_000 || an.Int64() > 1_000_000 || a0.Sign() == 0 {
		return nil, false
	}
	ps, qs := divisors(a0.Int64(), w), divisors(an.Int64(), w)
	for _, p := range ps {
		for _, q := range qs {
			for _, s := range []int64{1, -1} {
				w.step(len(c))
				r := big.NewRat(s*p, q)
				if evalIntPoly(c, r).Sign() == 0 {
					return r, true
				}
			}
		}
	}
	return nil, false
}

func divisors(n int64, w *work) []int64 {
	var out []int64
	for d := int64(1); d*d <= n; d++ {
		w.step(1)
		if n%d == 0 {
			out = append(out, d)
			if d*d != n {
				out = append(out, n/d)
			}
		}
	}
	return out
}

func evalIntPoly(c []*big.Int, x *big.Rat) *big.Rat {
	acc := new(big.Rat)
	for i := len(c) - 1; i >= 0; i-- {
		acc.Mul(acc, x)
		acc.Add(acc, new(big.Rat).SetInt(c[i]))
	}
	return acc
}

// deflate divides c by (x - r), r = p/q, keeping integer coefficients: it
// divides by (q x - p).
func deflate(c []*big.Int, r *big.Rat) []*big.Int {
	p, q := r.Num(), r.Denom()
	n := len(c) - 1
	out := make([]*big.Int, n)
	// Synthetic division by (q x - p), from the top.
	rem := new(big.Int).Set(c[n])
	for i := n - 1; i >= 0; i-- {
		out[i] = new(big.Int).Quo(rem, q)
		rem = new(big.Int).Add(c[i], new(big.Int).Mul(out[i], p))
	}
	return out
}
