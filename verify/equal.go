package verify

import (
	"errors"
	"math"
	"math/big"
	"sort"
	"strings"
)

// Options are the comparison settings; they mirror the arguments of
// math-verify's verify. The zero value is not the default: start from
// DefaultOptions.
type Options struct {
	// FloatRounding is the number of decimal places both sides are
	// rounded to when either is a decimal number (math-verify's
	// float_rounding).
	FloatRounding int
	// NumericPrecision is the number of significant digits of numeric
	// comparisons (math-verify's numeric_precision); values are compared
	// to within 10^-min(NumericPrecision, 9) of their size.
	NumericPrecision int
	// NonStrict matches the variables of the prediction to the
	// reference's by position (math-verify's strict=False).
	NonStrict bool
	// AllowSetRelation lets a relation in the prediction (1 < x < 2) equal
	// a set in the reference ((1, 2)) (math-verify's allow_set_relation_comp).
	AllowSetRelation bool
	// Budget bounds each comparison; zero fields take DefaultBudget's.
	Budget Budget
}

// DefaultOptions are math-verify's defaults.
var DefaultOptions = Options{FloatRounding: 6, NumericPrecision: 15}

// Reason says why a comparison came out as it did: "equal", "not equal",
// "no answer" (a side had no value), "over budget: ..." or an internal
// error's text.
type Reason string

// Reasons returned by Equal.
const (
	ReasonEqual    Reason = "equal"
	ReasonNotEqual Reason = "not equal"
	ReasonNoAnswer Reason = "no answer"
)

// Equal reports whether any value of gold equals any value of pred (as
// math-verify's verify does with the lists parse returns). gold is the
// reference: the comparison is not symmetric (an assignment x = 3 in the
// reference is compared by its value, an equation in the prediction by
// its right-hand side).
func Equal(gold, pred []Value, opt Options) (bool, Reason) {
	if len(gold) == 0 || len(pred) == 0 {
		return false, ReasonNoAnswer
	}
	var firstErr error
	for _, g := range gold {
		for _, p := range pred {
			eq, err := EqualValues(g, p, opt)
			if eq {
				return true, ReasonEqual
			}
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}
	}
	if firstErr != nil {
		return false, Reason(firstErr.Error())
	}
	return false, ReasonNotEqual
}

// EqualValues compares one reference value with one predicted value under
// opt's budget. A budget overrun or an internal error is returned with
// the verdict false.
func EqualValues(gold, pred Value, opt Options) (eq bool, err error) {
	defer catch(&err)
	c := &comparer{opt: opt, w: newWork(opt.Budget)}
	defer c.w.release()
	if opt.NonStrict {
		pred = renameLike(gold, pred)
	}
	return c.equal(gold, pred), nil
}

// IsBudgetError reports whether err (from EqualValues or Parse) is a
// budget overrun.
func IsBudgetError(err error) bool {
	var be *budgetError
	return errors.As(err, &be)
}

type comparer struct {
	opt Options
	w   *work
}

func isRelation(v Value) bool { return v.Kind == KindRelation }

func isEquation(v Value) bool {
	if v.Kind != KindRelation {
		return false
	}
	for _, o := range v.Ops {
		if o != "=" {
			return false
		}
	}
	return true
}

// isAssignment: an equation whose first left side is made of variables.
func isAssignment(v Value) bool {
	return isEquation(v) && onlySymbolsValue(v.Items[0])
}

func isSetLike(v Value) bool {
	switch v.Kind {
	case KindTuple, KindSet, KindInterval, KindSetOp:
		return true
	}
	return false
}

func lastRHS(v Value) Value { return v.Items[len(v.Items)-1] }

func (c *comparer) equal(g, p Value) bool {
	c.w.step(1)
	if g.Kind == KindText || p.Kind == KindText {
		if g.Kind != p.Kind {
			return false
		}
		a, b := strings.TrimSpace(g.Text), strings.TrimSpace(p.Text)
		return a != "" && a == b
	}
	gEq, pEq := isEquation(g), isEquation(p)
	gAssign, pAssign := isAssignment(g), isAssignment(p)
	if gAssign && len(g.Items) > 2 {
		g = Value{Kind: KindRelation, Items: []Value{g.Items[0], lastRHS(g)}, Ops: []string{"="}}
	}
	if pAssign && len(p.Items) > 2 {
		p = Value{Kind: KindRelation, Items: []Value{p.Items[0], lastRHS(p)}, Ops: []string{"="}}
	}
	if pEq && !gEq {
		p = lastRHS(p)
	} else if gAssign && !pEq {
		g = lastRHS(g)
	}
	if isRelation(g) && isSetLike(p) {
		if s, ok := relationAsSet(g, c.w); ok {
			g = s
		} else if eq, ok := c.relationMeetsSet(g, p); ok {
			return eq
		}
	}
	if c.opt.AllowSetRelation && isRelation(p) && isSetLike(g) {
		if s, ok := relationAsSet(p, c.w); ok {
			p = s
		} else if eq, ok := c.relationMeetsSet(p, g); ok {
			return eq
		}
	}
	if g.sameAs(&p) {
		return true
	}
	switch {
	case g.Kind == KindMatrix || p.Kind == KindMatrix:
		// Matrices of one shape, entry by entry; a matrix equals nothing else.
		if g.Kind != p.Kind || g.Rows != p.Rows || g.Cols != p.Cols {
			return false
		}
		for i := range g.Items {
			if !c.equal(g.Items[i], p.Items[i]) {
				return false
			}
		}
		return true
	case isRelation(g) && isRelation(p):
		return c.relations(g, p)
	case isSetLike(g) || isSetLike(p):
		return c.sets(g, p)
	case g.Kind == KindExpr && p.Kind == KindExpr:
		if g.Expr.op == opSym || p.Expr.op == opSym {
			return symbolsMatch(g.Expr, p.Expr)
		}
		return c.exprs(g.Expr, p.Expr)
	}
	return false
}

// symbolsMatch: a variable equals e written as the constant, and a word
// equals the same letters read as a product (\text{ab} and ab).
func symbolsMatch(a, b *Node) bool {
	if a.op != opSym {
		a, b = b, a
	}
	if b.op == opConst && b.name == "e" {
		return a.name == "e"
	}
	if b.op == opMul {
		var s strings.Builder
		for _, f := range b.args {
			switch {
			case f.op == opSym:
				s.WriteString(f.name)
			case f.op == opConst && f.name == "e":
				s.WriteString("e")
			default:
				return false
			}
		}
		return strings.EqualFold(a.name, s.String())
	}
	return false
}

var inverseRel = map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "="}

// relations compares equations and inequalities: the same relation with
// the same difference of sides, the mirrored one, or sides whose
// differences are proportional (the same solutions).
func (c *comparer) relations(g, p Value) bool {
	if len(g.Ops) != len(p.Ops) {
		return false
	}
	if len(g.Ops) > 1 {
		for i := range g.Ops {
			gi := Value{Kind: KindRelation, Items: g.Items[i : i+2], Ops: g.Ops[i : i+1]}
			pi := Value{Kind: KindRelation, Items: p.Items[i : i+2], Ops: p.Ops[i : i+1]}
			if !c.relations(gi, pi) {
				return false
			}
		}
		return true
	}
	for _, it := range append(append([]Value{}, g.Items...), p.Items...) {
		if it.Kind != KindExpr {
			// Sides that are sets or tuples (x = {1, 2}): side by side.
			return g.Ops[0] == p.Ops[0] && c.equal(g.Items[0], p.Items[0]) && c.equal(g.Items[1], p.Items[1])
		}
	}
	gd := add(g.Items[0].Expr, neg(g.Items[1].Expr))
	pd := add(p.Items[0].Expr, neg(p.Items[1].Expr))
	if g.Ops[0] == p.Ops[0] && c.equal(exprValue(gd), exprValue(pd)) {
		return true
	}
	inv, ok := inverseRel[g.Ops[0]]
	if !ok {
		return false
	}
	if inv == p.Ops[0] && c.equal(exprValue(gd), exprValue(neg(pd))) {
		return true
	}
	// Proportional sides: the same solutions.
	ratio, ok := constantRatio(gd, pd, c.w)
	if !ok {
		return false
	}
	switch {
	case g.Ops[0] == "=" && p.Ops[0] == "=":
		return ratio.Sign() != 0
	case g.Ops[0] == p.Ops[0]:
		return ratio.Sign() > 0
	case inv == p.Ops[0]:
		return ratio.Sign() < 0
	}
	return false
}

// constantRatio finds c with b = c·a for two polynomials in the same
// variables (constant denominators only).
func constantRatio(a, b *Node, w *work) (*big.Rat, bool) {
	sa, sb := map[string]bool{}, map[string]bool{}
	a.symbols(sa)
	b.symbols(sb)
	if len(sa) == 0 || len(sa) != len(sb) {
		return nil, false
	}
	for k := range sa {
		if !sb[k] {
			return nil, false
		}
	}
	ra, ok1 := toRatFn(a, w)
	rb, ok2 := toRatFn(b, w)
	if !ok1 || !ok2 || len(ra.den) != 1 || len(rb.den) != 1 || ra.den[""] == nil || rb.den[""] == nil {
		return nil, false
	}
	pa := ra.num.mul(constPoly(new(big.Rat).Inv(ra.den[""])), w)
	pb := rb.num.mul(constPoly(new(big.Rat).Inv(rb.den[""])), w)
	if len(pa) == 0 || len(pa) != len(pb) {
		return nil, false
	}
	var ratio *big.Rat
	for k, va := range pa {
		vb, ok := pb[k]
		if !ok {
			return nil, false
		}
		r := new(big.Rat).Quo(vb, va)
		if ratio == nil {
			ratio = r
		} else if ratio.Cmp(r) != 0 {
			return nil, false
		}
	}
	return ratio, true
}

// relationAsSet turns a relation on one variable with constant bounds
// (x > 2, 1 < x <= 3, x = 4) into the set of its solutions.
func relationAsSet(v Value, w *work) (Value, bool) {
	var name string
	lo, hi := constant("oo"), constant("oo")
	lo = neg(lo)
	loOpen, hiOpen := true, true
	for i, op := range v.Ops {
		l, r := v.Items[i], v.Items[i+1]
		if l.Kind != KindExpr || r.Kind != KindExpr {
			return Value{}, false
		}
		var varLeft bool
		switch {
		case l.Expr.op == opSym && !hasSymbols(r.Expr):
			varLeft = true
			if name != "" && name != l.Expr.name {
				return Value{}, false
			}
			name = l.Expr.name
		case r.Expr.op == opSym && !hasSymbols(l.Expr):
			if name != "" && name != r.Expr.name {
				return Value{}, false
			}
			name = r.Expr.name
		default:
			return Value{}, false
		}
		bound := r.Expr
		if !varLeft {
			bound = l.Expr
			op = inverseRel[op]
			if op == "" {
				return Value{}, false
			}
		}
		switch op {
		case "=":
			if len(v.Ops) == 1 {
				return Value{Kind: KindSet, Items: []Value{exprValue(bound)}}, true
			}
			return Value{}, false
		case "<", "<=":
			hi, hiOpen = bound, op == "<"
		case ">", ">=":
			lo, loOpen = bound, op == ">"
		default:
			return Value{}, false
		}
	}
	return Value{Kind: KindInterval, Items: []Value{exprValue(lo), exprValue(hi)}, LeftOpen: loOpen, RightOpen: hiOpen}, true
}

// relationMeetsSet compares the solutions of a relation that
// relationAsSet cannot read as one interval (|x| > 2, x^2 = 4, x != 1)
// with a set of reals; ok is false when either is not one the real line
// can hold.
func (c *comparer) relationMeetsSet(rel, set Value) (eq, ok bool) {
	a, ok := relationRealSet(rel, c.w)
	if !ok {
		return false, false
	}
	b, ok := valueRealSet(set, c.w)
	if !ok {
		return false, false
	}
	return a.equal(b), true
}

func hasSymbols(n *Node) bool {
	set := map[string]bool{}
	n.symbols(set)
	return len(set) > 0
}

// sets compares tuples, sets and intervals; a plain value is a set of one.
func (c *comparer) sets(g, p Value) bool {
	a, b := g, p
	if !isSetLike(a) {
		a = Value{Kind: KindSet, Items: []Value{g}}
	}
	if !isSetLike(b) {
		b = Value{Kind: KindSet, Items: []Value{p}}
	}
	if a.Kind == KindInterval && b.Kind == KindInterval {
		return c.intervals(a, b)
	}
	if a.sameAs(&b) {
		return true
	}
	if a.Kind == KindSetOp && b.Kind == KindSetOp {
		return c.setOps(a, b)
	}
	finite := func(v Value) bool { return v.Kind == KindSet || v.Kind == KindTuple }
	if finite(a) && finite(b) {
		return c.elements(a, b)
	}
	if a.Kind == KindInterval && finite(b) && a.LeftOpen && a.RightOpen && len(b.Items) == 2 {
		return c.elements(Value{Kind: KindTuple, Items: a.Items}, b)
	}
	if b.Kind == KindInterval && finite(a) && b.LeftOpen && b.RightOpen && len(a.Items) == 2 {
		return c.elements(a, Value{Kind: KindTuple, Items: b.Items})
	}
	return false
}

func (c *comparer) intervals(a, b Value) bool {
	return a.LeftOpen == b.LeftOpen && a.RightOpen == b.RightOpen &&
		c.equal(a.Items[0], b.Items[0]) && c.equal(a.Items[1], b.Items[1])
}

// setOps compares unions (or intersections) whose parts match in any order.
func (c *comparer) setOps(a, b Value) bool {
	if len(a.Items) != len(b.Items) {
		return false
	}
	for i := range a.Ops {
		if a.Ops[i] != b.Ops[i] {
			return false
		}
	}
	if a.Ops[0] != "cup" && a.Ops[0] != "cap" {
		for i := range a.Items {
			if !c.equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	}
	used := make([]bool, len(b.Items))
outer:
	for _, x := range a.Items {
		for j, y := range b.Items {
			if !used[j] && c.equal(x, y) {
				used[j] = true
				continue outer
			}
		}
		return false
	}
	return true
}

// elements compares two finite sets or tuples element by element: a
// reference set is compared in sorted order, a reference tuple in the
// order written.
func (c *comparer) elements(a, b Value) bool {
	if len(a.Items) != len(b.Items) {
		return false
	}
	ai, bi := a.Items, b.Items
	if a.Kind == KindSet {
		ai, bi = c.sorted(ai), c.sorted(bi)
	}
	for i := range ai {
		if !c.equal(ai[i], bi[i]) {
			return false
		}
	}
	return true
}

type sortItem struct {
	v       Value
	numeric bool
	x       float64
	s       string
}

// sorted orders elements: numbers by value first, then the rest by text.
func (c *comparer) sorted(items []Value) []Value {
	keyed := make([]sortItem, len(items))
	for i, it := range items {
		keyed[i] = sortItem{v: it, s: it.String()}
		if it.Kind == KindExpr {
			if x, ok := realConst(it.Expr, c.w); ok {
				keyed[i].numeric, keyed[i].x = true, x
			}
		} else if it.Kind == KindRelation && isAssignment(it) {
			if r := lastRHS(it); r.Kind == KindExpr {
				if x, ok := realConst(r.Expr, c.w); ok {
					keyed[i].numeric, keyed[i].x = true, x
				}
			}
		}
	}
	sort.SliceStable(keyed, func(i, j int) bool {
		a, b := keyed[i], keyed[j]
		if a.numeric != b.numeric {
			return a.numeric
		}
		if a.numeric && a.x != b.x {
			return a.x < b.x
		}
		return a.s < b.s
	})
	out := make([]Value, len(items))
	for i, k := range keyed {
		out[i] = k.v
	}
	return out
}

// exprs compares two expressions: numbers by value (decimals after
// rounding), then as rational functions, then numerically.
func (c *comparer) exprs(a, b *Node) bool {
	if a.isNumber() || b.isNumber() {
		if a.isFloat() || b.isFloat() {
			ra, ok1 := c.rounded(a)
			rb, ok2 := c.rounded(b)
			if ok1 && ok2 && ra.Cmp(rb) == 0 {
				return true
			}
		} else if pctOfInt(a) && pctOfInt(b) {
			if stripPct(a).rat.Cmp(stripPct(b).rat) == 0 {
				return true
			}
		}
	}
	if hasInfinity(a) || hasInfinity(b) {
		return false
	}
	ra, ok1 := ratValue(a, c.w)
	rb, ok2 := ratValue(b, c.w)
	if ok1 && ok2 {
		return ra.Cmp(rb) == 0
	}
	if eq, ok := sameRatFn(a, b, c.w); ok && eq {
		return true
	}
	eq, decided := numericSame(a, b, c.w)
	return decided && eq
}

func hasInfinity(n *Node) bool {
	if n.op == opConst && n.name == "oo" {
		return true
	}
	for _, a := range n.args {
		if hasInfinity(a) {
			return true
		}
	}
	return false
}

func pctOfInt(n *Node) bool { return stripPct(n).isInt() }

func stripPct(n *Node) *Node {
	if n.op == opPct {
		return n.args[0]
	}
	return n
}

// rounded is n's value rounded to FloatRounding decimals (half to even),
// as an integer count of 10^-FloatRounding.
func (c *comparer) rounded(n *Node) (*big.Int, bool) {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(c.opt.FloatRounding, 0))), nil)
	if r, ok := ratValue(n, c.w); ok {
		x := new(big.Rat).Mul(r, new(big.Rat).SetInt(scale))
		q, m := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
		// round half to even
		twice := new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2))
		switch cmp := twice.Cmp(x.Denom()); {
		case cmp > 0, cmp == 0 && q.Bit(0) == 1:
			if x.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
		return q, true
	}
	v, ok := realConst(n, c.w)
	if !ok || math.IsInf(v, 0) {
		return nil, false
	}
	f, _ := new(big.Float).SetInt(scale).Float64()
	r := math.RoundToEven(v * f)
	if math.IsInf(r, 0) || math.Abs(r) > 1e300 {
		return nil, false
	}
	bi, _ := big.NewFloat(r).Int(nil)
	return bi, true
}

// renameLike renames the variables of pred to gold's, in sorted order,
// when both have as many.
func renameLike(gold, pred Value) Value {
	gs, ps := map[string]bool{}, map[string]bool{}
	gold.symbols(gs)
	pred.symbols(ps)
	if len(gs) != len(ps) || len(gs) == 0 {
		return pred
	}
	gn, pn := sortedNames(gs), sortedNames(ps)
	m := make(map[string]string, len(pn))
	for i := range pn {
		m[pn[i]] = gn[i]
	}
	return renameValue(pred, m)
}

func renameValue(v Value, m map[string]string) Value {
	out := v
	if v.Expr != nil {
		out.Expr = renameNode(v.Expr, m)
	}
	if v.Items != nil {
		out.Items = make([]Value, len(v.Items))
		for i := range v.Items {
			out.Items[i] = renameValue(v.Items[i], m)
		}
	}
	return out
}

func renameNode(n *Node, m map[string]string) *Node {
	c := *n
	if n.op == opSym {
		if to, ok := m[n.name]; ok {
			c.name = to
		}
		return &c
	}
	if n.val != nil {
		v := renameValue(*n.val, m)
		c.val = &v
	}
	if n.args != nil {
		c.args = make([]*Node, len(n.args))
		for i, a := range n.args {
			c.args[i] = renameNode(a, m)
		}
	}
	return &c
}
