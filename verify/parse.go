package verify

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// parser is a recursive-descent parser of one normalized answer.
type parser struct {
	toks  []token
	pos   int
	w     *work
	depth int
	nodes int
	abs   int // open |...| groups: a "|" closes one instead of opening one
	// noFunc: reading the argument of a function written without
	// brackets (\sin x \cos x), which a further function ends.
	noFunc bool
}

// commaNumber is a whole answer that is one number with thousands
// separators ("1,234,567.5"), read as a number rather than a set.
// decimalLiteral is what parseNumber reads.
var decimalLiteral = regexp.MustCompile(`^-?(\d+(\.\d*)?|\.\d+)$`)

var commaNumber = regexp.MustCompile(`^\s*-?\d{1,3}(,\d{3})+(\.\d+)?\s*$`)

// parseAnswer parses a normalized answer (LaTeX or plain) into a value.
func parseAnswer(s string, w *work) (v Value, err error) {
	defer catch(&err)
	if len(s) > w.b.MaxExprBytes {
		return Value{}, &budgetError{fmt.Sprintf("an answer of %d bytes (the limit is %d)", len(s), w.b.MaxExprBytes)}
	}
	if commaNumber.MatchString(s) {
		t := strings.TrimSpace(strings.ReplaceAll(s, ",", ""))
		n, err := parseNumber(t, w)
		if err != nil {
			return Value{}, err
		}
		return exprValue(n), nil
	}
	toks, err := lex(s, w)
	if err != nil {
		return Value{}, err
	}
	p := &parser{toks: toks, w: w}
	v, err = p.top()
	if err != nil {
		return Value{}, err
	}
	if p.peek().kind != tEOF {
		return Value{}, fmt.Errorf("unexpected %q at byte %d", p.peek().text, p.peek().pos)
	}
	return v, nil
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}
func (p *parser) is(kind tokKind, text string) bool {
	t := p.toks[p.pos]
	return t.kind == kind && t.text == text
}
func (p *parser) accept(kind tokKind, text string) bool {
	if p.is(kind, text) {
		p.pos++
		return true
	}
	return false
}
func (p *parser) expect(kind tokKind, text string) error {
	if !p.accept(kind, text) {
		t := p.peek()
		if t.kind == tEOF {
			return fmt.Errorf("expected %q at the end", text)
		}
		return fmt.Errorf("expected %q, got %q at byte %d", text, t.text, t.pos)
	}
	return nil
}

func (p *parser) enter() {
	p.depth++
	if p.depth > p.w.b.MaxDepth {
		panic(&budgetError{fmt.Sprintf("nesting deeper than %d", p.w.b.MaxDepth)})
	}
}
func (p *parser) leave() { p.depth-- }

func (p *parser) node(n *Node) *Node {
	p.nodes++
	if p.nodes > p.w.b.MaxNodes {
		panic(&budgetError{fmt.Sprintf("an expression of more than %d nodes", p.w.b.MaxNodes)})
	}
	p.w.step(1)
	return n
}

// top: elements separated by commas and semicolons.
func (p *parser) top() (Value, error) {
	groups, err := p.elementGroups(func() bool { return p.peek().kind == tEOF })
	if err != nil {
		return Value{}, err
	}
	// "x = 1, 2" and "(x, y) = (5, 8), (8, 5)" assign the whole list, as
	// math-verify reads them: x = {1, 2}.
	if len(groups) == 1 && len(groups[0]) > 1 && isAssignment(groups[0][0]) && len(groups[0][0].Items) == 2 {
		rest := groups[0][1:]
		plain := true
		for _, v := range rest {
			if v.Kind == KindRelation {
				plain = false
			}
		}
		if plain {
			a := groups[0][0]
			set := makeSet(append([]Value{a.Items[1]}, rest...))
			return Value{Kind: KindRelation, Items: []Value{a.Items[0], set}, Ops: []string{"="}}, nil
		}
	}
	return setOrTuple(groups), nil
}

// elementGroups parses "a, b; c, d" up to a token that done accepts.
func (p *parser) elementGroups(done func() bool) ([][]Value, error) {
	var groups [][]Value
	var cur []Value
	for {
		if done() {
			if len(cur) == 0 && len(groups) == 0 {
				return nil, fmt.Errorf("empty answer")
			}
			return append(groups, cur), nil
		}
		els, err := p.element()
		if err != nil {
			return nil, err
		}
		cur = append(cur, els...)
		switch {
		case p.accept(tPunc, ","):
		case p.accept(tPunc, ";"):
			groups = append(groups, cur)
			cur = nil
		case done():
		default:
			t := p.peek()
			return nil, fmt.Errorf("unexpected %q at byte %d", t.text, t.pos)
		}
	}
}

// setOrTuple turns top-level element groups into one value: a single
// element is itself, several are a set (of tuples, for groups of several).
func setOrTuple(groups [][]Value) Value {
	if len(groups) == 1 {
		if len(groups[0]) == 1 {
			return groups[0][0]
		}
		return makeSet(groups[0])
	}
	single := true
	for _, g := range groups {
		if len(g) != 1 {
			single = false
		}
	}
	items := make([]Value, len(groups))
	for i, g := range groups {
		if single {
			items[i] = g[0]
		} else {
			items[i] = Value{Kind: KindTuple, Items: g}
		}
	}
	return makeSet(items)
}

// makeSet builds a finite set, dropping repeated elements.
func makeSet(items []Value) Value {
	var out []Value
outer:
	for i := range items {
		for j := range out {
			if out[j].sameAs(&items[i]) {
				continue outer
			}
		}
		out = append(out, items[i])
	}
	return Value{Kind: KindSet, Items: out}
}

var relOps = map[string]string{
	"=": "=", "<": "<", ">": ">", "<=": "<=", ">=": ">=", "!=": "!=",
	`\le`: "<=", `\leq`: "<=", `\leqslant`: "<=", `\ge`: ">=", `\geq`: ">=", `\geqslant`: ">=",
	`\lt`: "<", `\gt`: ">", `\ne`: "!=", `\neq`: "!=", `\in`: "in", `\approx`: "approx", `\equiv`: "=",
}

func (p *parser) relOp() (string, bool) {
	t := p.peek()
	key := t.text
	if t.kind == tCmd {
		key = `\` + t.text
	} else if t.kind != tPunc {
		return "", false
	}
	op, ok := relOps[key]
	if ok {
		p.pos++
	}
	return op, ok
}

// element: a relation chain or a set expression; "a \pm b" gives two.
func (p *parser) element() ([]Value, error) {
	p.enter()
	defer p.leave()
	first, err := p.setExpr()
	if err != nil {
		return nil, err
	}
	items := []Value{first}
	var ops []string
	for {
		op, ok := p.relOp()
		if !ok {
			break
		}
		v, err := p.setExpr()
		if err != nil {
			return nil, err
		}
		switch op {
		case "approx":
			// x \approx 3.14 is 3.14; 3.14159 \approx 3.14 keeps the exact side.
			if len(items) == 1 && onlySymbolsValue(items[0]) {
				items = []Value{v}
			}
			continue
		case "in":
			op = "="
		}
		items = append(items, v)
		ops = append(ops, op)
	}
	if len(ops) == 0 {
		// items[0] is first, or what "x \approx 3.14" stands for.
		return expandPM(items[0], p.w), nil
	}
	return []Value{{Kind: KindRelation, Items: items, Ops: ops}}, nil
}

// expandPM turns an expression with ± into the values it stands for.
func expandPM(v Value, w *work) []Value {
	if v.Kind != KindExpr || !hasPM(v.Expr) {
		return []Value{v}
	}
	alts := pmAlternatives(v.Expr, w)
	out := make([]Value, len(alts))
	for i, a := range alts {
		out[i] = exprValue(a)
	}
	return out
}

func hasPM(n *Node) bool {
	if n.op == opFunc && n.name == "pm" {
		return true
	}
	for _, a := range n.args {
		if hasPM(a) {
			return true
		}
	}
	return false
}

// pmAlternatives lists the expressions with each ± read as + and as −
// (the − one first for a leading ±, as "±2" is {-2, 2}).
func pmAlternatives(n *Node, w *work) []*Node {
	w.step(1)
	if n.op == opFunc && n.name == "pm" {
		if len(n.args) == 1 {
			var out []*Node
			for _, b := range pmAlternatives(n.args[0], w) {
				out = append(out, neg(b), b)
			}
			return out
		}
		var out []*Node
		for _, a := range pmAlternatives(n.args[0], w) {
			for _, b := range pmAlternatives(n.args[1], w) {
				out = append(out, add(a, b), add(a, neg(b)))
			}
		}
		if len(out) > 16 {
			panic(&budgetError{"more than 16 ± alternatives"})
		}
		return out
	}
	if len(n.args) == 0 {
		return []*Node{n}
	}
	alts := [][]*Node{{}}
	for _, a := range n.args {
		sub := pmAlternatives(a, w)
		var next [][]*Node
		for _, prefix := range alts {
			for _, s := range sub {
				row := append(append([]*Node(nil), prefix...), s)
				next = append(next, row)
			}
		}
		if len(next) > 16 {
			panic(&budgetError{"more than 16 ± alternatives"})
		}
		alts = next
	}
	out := make([]*Node, len(alts))
	for i, args := range alts {
		c := *n
		c.args = args
		out[i] = &c
	}
	return out
}

// onlySymbolsValue reports whether v is made of variables only: an
// expression onlySymbols accepts, or a tuple of them ((p, q), which reads
// as an open interval).
func onlySymbolsValue(v Value) bool {
	switch v.Kind {
	case KindExpr:
		return onlySymbols(v.Expr)
	case KindInterval:
		if !v.LeftOpen || !v.RightOpen {
			return false
		}
	case KindTuple:
	default:
		return false
	}
	for _, it := range v.Items {
		if !onlySymbolsValue(it) {
			return false
		}
	}
	return len(v.Items) > 0
}

// onlySymbols reports whether n is made of variables only (x, xy, x/y,
// |AB|, sin x): math-verify's test for the left side of an assignment
// accepts any operation whose operands are all variables.
func onlySymbols(n *Node) bool {
	switch n.op {
	case opSym:
		return true
	case opFunc:
		if len(n.args) == 0 || n.name == "pm" {
			return false
		}
		for _, a := range n.args {
			if !onlySymbols(a) {
				return false
			}
		}
		return true
	case opSet:
		return onlySymbolsValue(*n.val)
	case opMul, opAdd:
		for _, a := range n.args {
			if !onlySymbols(a) {
				return false
			}
		}
		return true
	case opPow:
		return onlySymbols(n.args[0]) && n.args[1].op == opNum && n.args[1].rat.Cmp(big.NewRat(-1, 1)) == 0
	}
	return false
}

var setOps = map[string]string{"cup": "cup", "cap": "cap", "setminus": "setminus", "backslash": "setminus"}

// setExpr: terms joined by \cup, \cap, \setminus.
func (p *parser) setExpr() (Value, error) {
	first, err := p.exprValue()
	if err != nil {
		return Value{}, err
	}
	v := first
	for {
		t := p.peek()
		op, ok := setOps[t.text]
		if t.kind != tCmd || !ok {
			break
		}
		p.pos++
		next, err := p.exprValue()
		if err != nil {
			return Value{}, err
		}
		if v.Kind == KindSetOp && v.Ops[0] == op {
			v.Items = append(v.Items, next)
			v.Ops = append(v.Ops, op)
		} else {
			v = Value{Kind: KindSetOp, Items: []Value{v, next}, Ops: []string{op}}
		}
	}
	return v, nil
}

// exprValue parses an expression; a tuple, set or interval on its own is
// that value.
func (p *parser) exprValue() (Value, error) {
	n, err := p.expr()
	if err != nil {
		return Value{}, err
	}
	if hasMatrix(n) {
		return matrixValue(n, p.w)
	}
	if n.op == opSet {
		return *n.val, nil
	}
	if err := noSets(n); err != nil {
		return Value{}, err
	}
	return exprValue(n), nil
}

func noSets(n *Node) error {
	if n.op == opSet {
		return fmt.Errorf("a %s inside arithmetic: %s", n.val.Kind, n.val)
	}
	for _, a := range n.args {
		if err := noSets(a); err != nil {
			return err
		}
	}
	return nil
}

// expr: terms joined by + - \pm \mp.
func (p *parser) expr() (*Node, error) {
	p.enter()
	defer p.leave()
	var left *Node
	if p.accept(tCmd, "pm") || p.accept(tCmd, "mp") {
		r, err := p.mulExpr()
		if err != nil {
			return nil, err
		}
		left = p.node(fn("pm", r))
	} else {
		var err error
		if left, err = p.mulExpr(); err != nil {
			return nil, err
		}
	}
	for {
		switch {
		case p.accept(tPunc, "+"):
			r, err := p.mulExpr()
			if err != nil {
				return nil, err
			}
			left = p.node(add(left, r))
		case p.accept(tPunc, "-"):
			r, err := p.mulExpr()
			if err != nil {
				return nil, err
			}
			left = p.node(add(left, neg(r)))
		case p.accept(tCmd, "pm"), p.accept(tCmd, "mp"):
			r, err := p.mulExpr()
			if err != nil {
				return nil, err
			}
			left = p.node(fn("pm", left, r))
		default:
			return left, nil
		}
	}
}

// mulExpr: factors joined by * / \cdot \times \div and ":".
func (p *parser) mulExpr() (*Node, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		mulOp := (t.kind == tPunc && t.text == "*") || (t.kind == tCmd && (t.text == "cdot" || t.text == "times" || t.text == "ast"))
		divOp := (t.kind == tPunc && (t.text == "/" || t.text == ":")) || (t.kind == tCmd && (t.text == "div" || t.text == "over"))
		modOp := t.kind == tCmd && (t.text == "bmod" || t.text == "mod")
		if !mulOp && !divOp && !modOp {
			return left, nil
		}
		p.pos++
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		switch {
		case mulOp:
			left = p.node(mul(left, r))
		case modOp:
			left = p.node(fn("mod", left, r))
		default:
			left = p.node(divide(left, r))
		}
	}
}

// divide is a/b: a rational number when both are integers.
func divide(a, b *Node) *Node {
	if a.isInt() && b.isInt() && b.rat.Sign() != 0 {
		return num(new(big.Rat).Quo(a.rat, b.rat))
	}
	return mul(a, pow(b, intNode(-1)))
}

// unary: signs, then factors written side by side (implicit products).
func (p *parser) unary() (*Node, error) {
	p.enter()
	defer p.leave()
	if p.noFunc {
		// an argument's own brackets and braces read as usual
		defer func(saved bool) { p.noFunc = saved }(p.noFunc)
	}
	if p.accept(tPunc, "+") {
		return p.unary()
	}
	if p.accept(tPunc, "-") {
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return p.node(neg(x)), nil
	}
	var items []*Node
	for {
		x, err := p.postfix()
		if err != nil {
			return nil, err
		}
		items = append(items, x)
		if !p.startsFactor() {
			break
		}
	}
	// Right to left, as written: 2\frac{1}{2} is the mixed number 5/2.
	res := items[len(items)-1]
	for i := len(items) - 2; i >= 0; i-- {
		l := items[i]
		if l.isInt() && res.op == opNum && !res.float && res.rat.Sign() > 0 {
			q := new(big.Rat).SetInt(res.rat.Denom())
			whole := new(big.Rat).Mul(l.rat, q)
			if l.rat.Sign() < 0 {
				whole.Sub(whole, new(big.Rat).SetInt(res.rat.Num()))
			} else {
				whole.Add(whole, new(big.Rat).SetInt(res.rat.Num()))
			}
			res = num(whole.Quo(whole, q))
			continue
		}
		res = p.node(mul(l, res))
	}
	return res, nil
}

// startsFactor reports whether the next token can begin a factor of an
// implicit product.
func (p *parser) startsFactor() bool {
	t := p.peek()
	switch t.kind {
	case tNum, tLet, tText:
		return true
	case tPunc:
		switch t.text {
		case "(", "[":
			return true
		case "|":
			return p.abs == 0
		}
		return false
	case tCmd:
		switch t.text {
		case "cdot", "times", "div", "pm", "mp", "cup", "cap", "setminus", "le", "leq", "ge", "geq", "lt", "gt", "ne", "neq",
			"in", "approx", "equiv", "circ", "degree", "%", "rfloor", "rceil", "rangle", "}", "right", "bmod", "mod", "over",
			"leqslant", "geqslant", "ast", "backslash", "cdots", "ldots", "dots", "to", "rightarrow", "implies", "quad":
			return false
		}
		if _, isFunc := funcNames[t.text]; isFunc && p.noFunc {
			return false
		}
		return !strings.HasPrefix(t.text, "end:")
	}
	return false
}

// postfix: a power followed by !, %, degree marks.
func (p *parser) postfix() (*Node, error) {
	x, err := p.power()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.accept(tPunc, "!"):
			x = p.node(&Node{op: opFact, args: []*Node{x}})
		case p.accept(tPunc, "%"), p.accept(tCmd, "%"):
			x = p.node(&Node{op: opPct, args: []*Node{x}})
		case p.accept(tCmd, "circ"), p.accept(tCmd, "degree"):
		case p.is(tPunc, "'"):
			p.pos++
		default:
			return x, nil
		}
	}
}

// power: base ^ exponent, left to right; a degree sign is dropped.
func (p *parser) power() (*Node, error) {
	x, err := p.atom()
	if err != nil {
		return nil, err
	}
	for p.accept(tPunc, "^") {
		// ^\circ and ^{\circ} mark degrees, which are dropped.
		if p.accept(tCmd, "circ") || p.accept(tCmd, "degree") {
			continue
		}
		if p.is(tPunc, "{") && p.toks[p.pos+1].kind == tCmd && (p.toks[p.pos+1].text == "circ" || p.toks[p.pos+1].text == "degree") &&
			p.toks[p.pos+2].kind == tPunc && p.toks[p.pos+2].text == "}" {
			p.pos += 3
			continue
		}
		e, err := p.exponent()
		if err != nil {
			return nil, err
		}
		x = p.node(pow(x, e))
	}
	return x, nil
}

// exponent: a braced expression or a single atom (x^2y is x^2 y).
func (p *parser) exponent() (*Node, error) {
	if p.accept(tPunc, "{") {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		return e, p.expect(tPunc, "}")
	}
	if p.accept(tPunc, "-") {
		e, err := p.atom()
		if err != nil {
			return nil, err
		}
		return neg(e), nil
	}
	// 2^10 takes the whole number, as it is usually meant.
	return p.atom()
}

var funcNames = map[string]string{
	"sin": "sin", "cos": "cos", "tan": "tan", "cot": "cot", "sec": "sec", "csc": "csc",
	"arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
	"ln": "log", "log": "log", "lg": "log10", "exp": "exp", "max": "max", "min": "min", "gcd": "gcd", "lcm": "lcm",
	"operatorname{lcm}": "lcm", "deg": "deg", "arg": "arg", "det": "det", "sgn": "sign",
}

var greek = map[string]bool{
	"alpha": true, "beta": true, "gamma": true, "delta": true, "epsilon": true, "varepsilon": true, "zeta": true, "eta": true,
	"theta": true, "vartheta": true, "iota": true, "kappa": true, "lambda": true, "mu": true, "nu": true, "xi": true,
	"rho": true, "sigma": true, "tau": true, "upsilon": true, "phi": true, "varphi": true, "chi": true, "psi": true,
	"omega": true, "Gamma": true, "Delta": true, "Theta": true, "Lambda": true, "Xi": true, "Pi": true, "Sigma": true,
	"Phi": true, "Psi": true, "Omega": true, "ell": true,
}

// atom: a number, variable, constant, bracket group, fraction, root or
// function application.
func (p *parser) atom() (*Node, error) {
	p.enter()
	defer p.leave()
	t := p.next()
	switch t.kind {
	case tEOF:
		return nil, fmt.Errorf("unexpected end of the answer")
	case tNum:
		n, err := parseNumber(t.text, p.w)
		if err != nil {
			return nil, err
		}
		return p.node(n), nil
	case tLet:
		name := strings.ToLower(t.text)
		var n *Node
		if name == "e" {
			n = constant("e")
		} else {
			n = sym(name)
		}
		if sub, ok, err := p.subscript(); err != nil {
			return nil, err
		} else if ok {
			n = sym(name + "_" + sub)
		}
		return p.node(n), nil
	case tText:
		return p.textAtom(t.text)
	case tPunc:
		switch t.text {
		case "(", "[":
			return p.bracket(t.text)
		case "{":
			return p.braceGroup()
		case "|":
			p.abs++
			x, err := p.expr()
			p.abs--
			if err != nil {
				return nil, err
			}
			if err := p.expect(tPunc, "|"); err != nil {
				return nil, err
			}
			return p.node(fn("abs", x)), nil
		}
		return nil, fmt.Errorf("unexpected %q at byte %d", t.text, t.pos)
	case tCmd:
		return p.command(t)
	}
	return nil, fmt.Errorf("unexpected %q", t.text)
}

// subscript reads _x or _{...} after a variable as part of its name.
func (p *parser) subscript() (string, bool, error) {
	if !p.accept(tPunc, "_") {
		return "", false, nil
	}
	if p.accept(tPunc, "{") {
		start := p.pos
		depth := 1
		for depth > 0 {
			t := p.next()
			switch {
			case t.kind == tEOF:
				return "", false, fmt.Errorf("subscript not closed")
			case t.kind == tPunc && t.text == "{":
				depth++
			case t.kind == tPunc && t.text == "}":
				depth--
			}
		}
		var b strings.Builder
		for _, t := range p.toks[start : p.pos-1] {
			b.WriteString(t.text)
		}
		return "{" + b.String() + "}", true, nil
	}
	t := p.next()
	if t.kind == tEOF {
		return "", false, fmt.Errorf("subscript missing")
	}
	return t.text, true, nil
}

// textAtom reads \text{...}: a number, or a word read as a variable.
func (p *parser) textAtom(content string) (*Node, error) {
	c := strings.TrimSpace(content)
	if c == "" {
		return nil, fmt.Errorf("empty \\text{}")
	}
	if n, err := parseNumber(strings.ReplaceAll(c, ",", ""), p.w); err == nil {
		return p.node(n), nil
	}
	name := lowerKeepInvalid(strings.NewReplacer(" ", "", "(", "", ")", "").Replace(c))
	pct := false
	if strings.HasSuffix(name, `\%`) {
		name, pct = strings.TrimSuffix(name, `\%`), true
	}
	n := p.node(sym(name))
	if pct {
		n = &Node{op: opPct, args: []*Node{n}}
	}
	return n, nil
}

// braceGroup reads {...}: a group, or a set when it has commas.
func (p *parser) braceGroup() (*Node, error) {
	if p.accept(tPunc, "}") {
		return nil, fmt.Errorf("empty braces")
	}
	groups, err := p.elementGroups(func() bool { return p.is(tPunc, "}") })
	if err != nil {
		return nil, err
	}
	if err := p.expect(tPunc, "}"); err != nil {
		return nil, err
	}
	v := setOrTuple(groups)
	if v.Kind == KindExpr {
		return v.Expr, nil
	}
	return p.node(&Node{op: opSet, val: &v}), nil
}

// bracket reads (...) or [...]: a group, an interval or a tuple.
func (p *parser) bracket(open string) (*Node, error) {
	closers := func() bool { return p.is(tPunc, ")") || p.is(tPunc, "]") }
	groups, err := p.elementGroups(closers)
	if err != nil {
		return nil, err
	}
	close := p.next()
	if close.kind != tPunc || (close.text != ")" && close.text != "]") {
		return nil, fmt.Errorf("bracket %q is not closed", open)
	}
	var items []Value
	for _, g := range groups {
		items = append(items, g...)
	}
	if len(groups) == 1 && len(items) == 1 {
		if items[0].Kind == KindExpr {
			return items[0].Expr, nil
		}
		v := items[0]
		return p.node(&Node{op: opSet, val: &v}), nil
	}
	if len(items) == 2 && items[0].Kind == KindExpr && items[1].Kind == KindExpr {
		lo, hi := items[0].Expr, items[1].Expr
		lopen, ropen := open == "(", close.text == ")"
		v := Value{Kind: KindInterval, Items: items, LeftOpen: lopen, RightOpen: ropen}
		// An interval that would be empty is read as a pair.
		if c, ok := compareConst(lo, hi, p.w); ok && ((lopen && ropen && c >= 0) || (!lopen && !ropen && c > 0)) {
			v = Value{Kind: KindTuple, Items: items}
		}
		return p.node(&Node{op: opSet, val: &v}), nil
	}
	v := Value{Kind: KindTuple, Items: items}
	return p.node(&Node{op: opSet, val: &v}), nil
}

// braced reads a required {...} argument.
func (p *parser) braced() (*Node, error) {
	if !p.accept(tPunc, "{") {
		// \frac12 style: a single token.
		t := p.peek()
		if t.kind == tNum && len(t.text) > 0 {
			p.pos++
			n, err := parseNumber(t.text[:1], p.w)
			if err != nil {
				return nil, err
			}
			if len(t.text) > 1 {
				// Put the rest of the digits back as their own token.
				p.pos--
				p.toks[p.pos] = token{tNum, t.text[1:], t.pos + 1}
			}
			return p.node(n), nil
		}
		return p.atom()
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	return x, p.expect(tPunc, "}")
}

// funcArg reads the argument of a function: (...), {...} or a factor.
func (p *parser) funcArg() ([]*Node, error) {
	if p.is(tPunc, "(") || p.is(tPunc, "{") {
		closer := ")"
		if p.next().text == "{" {
			closer = "}"
		}
		var args []*Node
		for {
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			args = append(args, x)
			if !p.accept(tPunc, ",") {
				break
			}
		}
		return args, p.expect(tPunc, closer)
	}
	saved := p.noFunc
	p.noFunc = true
	x, err := p.unary()
	p.noFunc = saved
	if err != nil {
		return nil, err
	}
	return []*Node{x}, nil
}

func (p *parser) command(t token) (*Node, error) {
	name := t.text
	switch name {
	case "pi":
		return p.node(constant("pi")), nil
	case "infty", "infin":
		return p.node(constant("oo")), nil
	case "e":
		return p.node(constant("e")), nil
	case "imath":
		return p.node(sym("i")), nil
	case "frac", "dfrac", "tfrac", "cfrac":
		a, err := p.braced()
		if err != nil {
			return nil, err
		}
		b, err := p.braced()
		if err != nil {
			return nil, err
		}
		return p.node(divide(a, b)), nil
	case "binom", "dbinom", "tbinom":
		a, err := p.braced()
		if err != nil {
			return nil, err
		}
		b, err := p.braced()
		if err != nil {
			return nil, err
		}
		return p.node(fn("binomial", a, b)), nil
	case "sqrt":
		var index *Node
		if p.accept(tPunc, "[") {
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expect(tPunc, "]"); err != nil {
				return nil, err
			}
			index = x
		}
		x, err := p.braced()
		if err != nil {
			return nil, err
		}
		if index == nil {
			return p.node(pow(x, num(big.NewRat(1, 2)))), nil
		}
		return p.node(pow(x, divide(intNode(1), index))), nil
	case "{", "lbrace":
		groups, err := p.elementGroups(func() bool { return p.is(tCmd, "}") || p.is(tCmd, "rbrace") })
		if err != nil {
			return nil, err
		}
		p.next()
		var items []Value
		for _, g := range groups {
			items = append(items, g...)
		}
		v := makeSet(items)
		return p.node(&Node{op: opSet, val: &v}), nil
	case "langle":
		groups, err := p.elementGroups(func() bool { return p.is(tCmd, "rangle") })
		if err != nil {
			return nil, err
		}
		p.next()
		v := Value{Kind: KindTuple, Items: groups[0]}
		return p.node(&Node{op: opSet, val: &v}), nil
	case "emptyset", "varnothing":
		v := Value{Kind: KindSet}
		return p.node(&Node{op: opSet, val: &v}), nil
	case "lfloor", "lceil":
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		closer, f := "rfloor", "floor"
		if name == "lceil" {
			closer, f = "rceil", "ceiling"
		}
		if err := p.expect(tCmd, closer); err != nil {
			return nil, err
		}
		return p.node(fn(f, x)), nil
	case "lvert", "vert", "|":
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if !p.accept(tCmd, "rvert") && !p.accept(tCmd, "vert") && !p.accept(tCmd, "|") {
			return nil, fmt.Errorf("absolute value not closed")
		}
		return p.node(fn("abs", x)), nil
	case "boxed", "fbox", "mathbf", "boldsymbol", "bm", "hat", "bar", "overline", "vec", "tilde", "widetilde", "mathit", "underline":
		x, err := p.braced()
		if err != nil {
			return nil, err
		}
		return x, nil
	case "%":
		return nil, fmt.Errorf("unexpected %%")
	}
	if env, ok := strings.CutPrefix(name, "begin:"); ok {
		return p.matrix(env)
	}
	if strings.HasPrefix(name, "mathbb:") {
		return p.node(sym(`\mathbb{` + strings.TrimPrefix(name, "mathbb:") + `}`)), nil
	}
	if greek[name] {
		n := sym(strings.ToLower(name))
		if sub, ok, err := p.subscript(); err != nil {
			return nil, err
		} else if ok {
			n = sym(n.name + "_" + sub)
		}
		return p.node(n), nil
	}
	if f, ok := funcNames[name]; ok {
		var base, power *Node
		if f == "log" && name == "log" && p.accept(tPunc, "_") {
			b, err := p.braced()
			if err != nil {
				return nil, err
			}
			base = b
		}
		if p.accept(tPunc, "^") {
			e, err := p.exponent()
			if err != nil {
				return nil, err
			}
			power = e
		}
		args, err := p.funcArg()
		if err != nil {
			return nil, err
		}
		if base != nil {
			args = append(args, base)
		}
		n := p.node(fn(f, args...))
		if power != nil {
			if power.op == opNum && power.rat.Cmp(big.NewRat(-1, 1)) == 0 {
				return nil, fmt.Errorf("inverse function notation \\%s^{-1} is not supported", name)
			}
			n = p.node(pow(n, power))
		}
		return n, nil
	}
	return nil, fmt.Errorf("unsupported command \\%s", name)
}

// lowerKeepInvalid is strings.ToLower except that bytes that are not
// UTF-8 (a lone surrogate written with Python's "surrogatepass") are kept
// as they are, not turned into U+FFFD: \text{} of two different such
// bytes must not become the same variable.
func lowerKeepInvalid(s string) string {
	if utf8.ValidString(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteByte(s[i])
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
		i += size
	}
	return b.String()
}

// parseNumber reads a decimal literal exactly.
func parseNumber(s string, w *work) (*Node, error) {
	if len(s) > w.b.MaxBits/3 {
		panic(&budgetError{fmt.Sprintf("a number of more than %d digits", w.b.MaxBits/3)})
	}
	if !decimalLiteral.MatchString(s) {
		return nil, fmt.Errorf("not a number: %q", s)
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("not a number: %q", s)
	}
	return &Node{op: opNum, rat: r, float: strings.ContainsAny(s, ".eE")}, nil
}
