package recipes

import (
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The symbolic step of the prm800k grader (prime_math and geo3k):
// sympy.simplify(parse_expr("(gt)-(given)", standard transformations +
// implicit_multiplication_application)) == 0, for the expressions such a
// step meets in answers: numbers, + - * / **, parentheses, sqrt(...), pi,
// symbols of a letter or two, and juxtaposition as multiplication.
//
// The text is read as Python's tokenize module and sympy's transformations
// read it: a number is the longest literal tokenize takes ("07" is 0 then
// 7), a name that is not sympy's is split into one-letter symbols and
// digit runs ("x2" is x*2, "pi2" is p*i*2), a decimal is a Float. Without
// a Float the difference is evaluated exactly (rationals) or, with roots
// or pi, to 320 bits, at three fixed points for the symbols: an identity
// is zero at all of them, as simplify finds it. With a Float, sympy's own
// arithmetic decides: like terms are collected and their coefficients
// added in binary floating point, so 0.5x - x/2 is zero and 0.1+0.2-0.3
// is not; that is reproduced term by term.
//
// What the text holds beyond this (other functions, complex roots,
// factorials, relations, unicode identifiers, more than 15 significant
// digits in a decimal, ...) is not guessed: the item gets StatusError with
// the construct named. Syntax Python rejects, and tuples, lists and sets
// that sympy cannot subtract, are False as in veRL.

// pmUndecided is raised (panic) when an answer holds a construct the port
// does not decide; the rule turns it into StatusError.
type pmUndecided struct{ what string }

// pmOverBudget is raised when a rule's work budget runs out; the rule
// turns it into StatusTimeout.
type pmOverBudget struct{ what string }

func undecided(what string) { panic(pmUndecided{what}) }

// pmWork counts the steps of one scored item.
type pmWork struct{ left int }

// pmStepBudget bounds the work of one item: scans, parses and arithmetic
// all count against it.
const pmStepBudget = 4_000_000

func (w *pmWork) step(n int) {
	w.left -= n
	if w.left < 0 {
		panic(pmOverBudget{"step budget"})
	}
}

// Token kinds of the sympy reader.
const (
	stNum = iota
	stName
	stOp
	stNL // a newline inside the parentheses
)

type sTok struct {
	kind  int
	text  string
	float bool // a Float literal
}

// sympyEqual is are_equal_under_sympy after should_allow_eval passed:
// whether sympy finds "(gt)-(given)" simplifies to 0.
func sympyEqual(gt, given string, w *pmWork) bool {
	expr := "(" + gt + ")-(" + given + ")"
	w.step(len(expr))
	if len(expr) > 4000 {
		panic(pmOverBudget{"an expression over 4000 bytes"})
	}
	expr = strings.ReplaceAll(expr, "^", "**")
	toks, ok := sympyTokens(expr, w)
	if !ok {
		return false
	}
	toks = implicitMul(toks)
	p := &sParser{toks: toks, w: w}
	root, ok := p.parse()
	if !ok {
		return false
	}
	if root.hasFloat() {
		return floatPolyZero(root, w)
	}
	return exactZero(root, w)
}

// sympyTokens splits expr as tokenize does; false where Python would
// reject the text (an assignment, a stray character) or the difference
// could not be taken (a comma or a brace: tuples and sets), which veRL
// scores False.
func sympyTokens(s string, w *pmWork) ([]sTok, bool) {
	var out []sTok
	syntax, container := false, false
	for i := 0; i < len(s); {
		w.step(1)
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '\n':
			// Inside the parentheses a newline is an NL token: it joins the
			// lines but stops implicit multiplication across it.
			out = append(out, sTok{kind: stNL})
			i++
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			n, isF := pyNumberLen(s[i:])
			lit := s[i : i+n]
			if i+n < len(s) && (s[i+n] == 'j' || s[i+n] == 'J' || s[i+n] == '_') {
				undecided("a complex or underscored number literal")
			}
			if n >= 2 && lit[0] == '0' && (lit[1]|0x20 == 'x' || lit[1]|0x20 == 'b' || lit[1]|0x20 == 'o') {
				undecided("a hex, octal or binary literal")
			}
			out = append(out, sTok{kind: stNum, text: lit, float: isF})
			i += n
		case c == '.':
			if i+1 < len(s) && (isASCIILetter(s[i+1]) || s[i+1] == '_' || s[i+1] >= 0x80) {
				undecided("an attribute access")
			}
			syntax = true
			i++
		case isASCIILetter(c) || c == '_' || c >= 0x80:
			j := i
			for j < len(s) {
				if s[j] < 0x80 {
					if !(isASCIILetter(s[j]) || s[j] == '_' || s[j] >= '0' && s[j] <= '9') {
						break
					}
					j++
					continue
				}
				r, n := decodeRune(s[j:])
				if !isPyAlpha(r) {
					break
				}
				j += n
			}
			if j == i {
				// A non-ASCII character that is not a letter: a number-like
				// one may be part of a name to tokenize; others are invalid.
				r, n := decodeRune(s[i:])
				if unicode.IsNumber(r) {
					undecided("a non-ASCII digit")
				}
				syntax = true
				i += n
				continue
			}
			if j < len(s) && s[j] >= 0x80 {
				if r, _ := decodeRune(s[j:]); unicode.IsNumber(r) {
					undecided("a non-ASCII digit in a name")
				}
			}
			out = append(out, sTok{kind: stName, text: s[i:j]})
			i = j
		case c == '*' && i+1 < len(s) && s[i+1] == '*':
			out = append(out, sTok{kind: stOp, text: "**"})
			i += 2
		case c == '+' || c == '-' || c == '*' || c == '/' || c == '(' || c == ')':
			if c == '/' && i+1 < len(s) && s[i+1] == '/' {
				undecided("floor division")
			}
			out = append(out, sTok{kind: stOp, text: s[i : i+1]})
			i++
		case c == ',' || c == '{' || c == '}' || c == '[' || c == ']':
			if c == ']' && i+1 < len(s) && s[i+1] == '[' {
				undecided("an indexed list")
			}
			container = true
			i++
		case c == '%':
			out = append(out, sTok{kind: stOp, text: "%"})
			i++
		case c == '\\':
			if i+1 < len(s) && s[i+1] == '\n' {
				undecided("a line continuation")
			}
			syntax = true
			i++
		case c == '$' || c == '?' || c == '`' || c == ':':
			syntax = true
			i++
		case c == '=':
			if i+1 < len(s) && s[i+1] == '=' || i > 0 && strings.IndexByte("<>!", s[i-1]) >= 0 {
				undecided("a comparison")
			}
			syntax = true // an assignment is a SyntaxError
			i++
		case c == ';':
			syntax = true
			i++
		default:
			undecided("the character " + string(rune(c)))
		}
	}
	if syntax {
		return nil, false
	}
	if container {
		// A tuple, list or set minus anything raises TypeError (veRL:
		// False), unless a comma gives sqrt a second argument.
		if sqrtHasComma(s) {
			undecided("sqrt with two arguments")
		}
		return nil, false
	}
	return out, true
}

// sqrtHasComma reports whether a comma sits directly inside the
// parentheses of a sqrt call.
func sqrtHasComma(s string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], "sqrt(")
		if k < 0 {
			return false
		}
		j := i + k + len("sqrt(")
		depth := 1
		for ; j < len(s) && depth > 0; j++ {
			switch s[j] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ',':
				if depth == 1 {
					return true
				}
			}
		}
		i += k + 1
	}
}

// pyNumberLen is the length of the number literal tokenize reads at the
// start of s and whether it is a float (a point or an exponent).
func pyNumberLen(s string) (int, bool) {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	exponent := func(i int) int {
		if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
			j := i + 1
			if j < len(s) && (s[j] == '+' || s[j] == '-') {
				j++
			}
			if k := digits(j); k > j {
				return k
			}
		}
		return i
	}
	if s[0] == '.' {
		return exponent(digits(1)), true
	}
	i := digits(0)
	if i < len(s) && s[i] == '.' {
		return exponent(digits(i + 1)), true
	}
	if e := exponent(i); e > i {
		return e, true
	}
	// Decnumber: "0" followed by more zeros, or a nonzero digit run.
	if s[0] == '0' {
		j := 1
		for j < len(s) && s[j] == '0' {
			j++
		}
		return j, false
	}
	return i, false
}

func significantDigits(lit string) int {
	n := 0
	for i := 0; i < len(lit) && lit[i] != 'e' && lit[i] != 'E'; i++ {
		if lit[i] >= '0' && lit[i] <= '9' {
			n++
		}
	}
	return n
}

// sympyGlobalNames are the short lowercase names parse_expr finds in its
// namespace (from sympy import *, the builtins) with at most two letters,
// the only ones should_allow_eval lets through; pi and sqrt are modelled.
var sympyGlobalNames = map[string]bool{
	"ff": true, "fu": true, "id": true, "im": true, "jn": true, "li": true, "ln": true, "oo": true,
	"re": true, "rf": true, "yn": true, "if": true, "in": true, "is": true, "or": true, "as": true,
	"E": true, "I": true, "N": true, "O": true, "Q": true, "S": true,
}

// implicitMul splits names as split_symbols does and inserts the "*" of
// implicit multiplication between juxtaposed operands.
func implicitMul(toks []sTok) []sTok {
	var split []sTok
	for _, t := range toks {
		if t.kind != stName || t.text == "sqrt" || t.text == "pi" {
			split = append(split, t)
			continue
		}
		name := t.text
		if sympyGlobalNames[name] {
			undecided("the sympy name " + name)
		}
		if utf8.RuneCountInString(name) == 1 || strings.Contains(name, "_") || name == "mu" || name == "nu" || name == "xi" {
			split = append(split, t)
			continue
		}
		// split_symbols: one symbol per letter, a number per digit run.
		for i := 0; i < len(name); {
			if name[i] >= '0' && name[i] <= '9' {
				j := i
				for j < len(name) && name[j] >= '0' && name[j] <= '9' {
					j++
				}
				split = append(split, sTok{kind: stNum, text: name[i:j]})
				i = j
				continue
			}
			_, n := utf8.DecodeRuneInString(name[i:])
			if sympyGlobalNames[name[i:i+n]] {
				undecided("the sympy name " + name[i:i+n])
			}
			split = append(split, sTok{kind: stName, text: name[i : i+n]})
			i += n
		}
	}
	out := make([]sTok, 0, len(split)*2)
	for k, t := range split {
		if t.kind == stNL {
			continue
		}
		if k > 0 {
			prev := split[k-1]
			operand := prev.kind == stNum || (prev.kind == stName && prev.text != "sqrt") || (prev.kind == stOp && prev.text == ")")
			next := t.kind == stNum || t.kind == stName || (t.kind == stOp && t.text == "(")
			if operand && next {
				out = append(out, sTok{kind: stOp, text: "*"})
			}
		}
		if t.kind == stName && t.text == "sqrt" && (k+1 >= len(split) || split[k+1].kind != stOp || split[k+1].text != "(") {
			undecided("sqrt without parentheses")
		}
		out = append(out, t)
	}
	return out
}

// sNode is a parsed expression.
type sNode struct {
	op   byte // 'n' number, 's' symbol, 'p' pi, 'r' sqrt, '+', '-', '*', '/', '^', 'u' negation
	text string
	flt  bool
	a, b *sNode
}

func (n *sNode) hasFloat() bool {
	if n == nil {
		return false
	}
	return n.flt || n.a.hasFloat() || n.b.hasFloat()
}

type sParser struct {
	toks  []sTok
	i     int
	w     *pmWork
	depth int
}

func (p *sParser) peek() string {
	if p.i < len(p.toks) && p.toks[p.i].kind == stOp {
		return p.toks[p.i].text
	}
	return ""
}

// parse reads the whole token list; false on a syntax error.
func (p *sParser) parse() (n *sNode, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, syn := r.(sSyntax); syn {
				n, ok = nil, false
				return
			}
			panic(r)
		}
	}()
	n = p.expr()
	if p.i != len(p.toks) {
		panic(sSyntax{})
	}
	return n, true
}

type sSyntax struct{}

func (p *sParser) expr() *sNode {
	p.depth++
	if p.depth > 200 {
		panic(pmOverBudget{"expression depth"})
	}
	defer func() { p.depth-- }()
	n := p.term()
	for op := p.peek(); op == "+" || op == "-"; op = p.peek() {
		p.i++
		n = &sNode{op: op[0], a: n, b: p.term()}
	}
	return n
}

func (p *sParser) term() *sNode {
	n := p.factor()
	for op := p.peek(); op == "*" || op == "/" || op == "%"; op = p.peek() {
		p.i++
		n = &sNode{op: op[0], a: n, b: p.factor()}
	}
	return n
}

func (p *sParser) factor() *sNode {
	p.w.step(1)
	switch p.peek() {
	case "-":
		p.i++
		return &sNode{op: 'u', a: p.factor()}
	case "+":
		p.i++
		return p.factor()
	}
	base := p.atom()
	if p.peek() == "**" {
		p.i++
		p.depth++
		if p.depth > 200 {
			panic(pmOverBudget{"expression depth"})
		}
		e := p.factor()
		p.depth--
		return &sNode{op: '^', a: base, b: e}
	}
	return base
}

func (p *sParser) atom() *sNode {
	if p.i >= len(p.toks) {
		panic(sSyntax{})
	}
	t := p.toks[p.i]
	p.i++
	switch t.kind {
	case stNum:
		return &sNode{op: 'n', text: t.text, flt: t.float}
	case stName:
		switch t.text {
		case "pi":
			return &sNode{op: 'p'}
		case "sqrt":
			if p.peek() != "(" {
				panic(sSyntax{})
			}
			p.i++
			if p.peek() == ")" {
				undecided("sqrt()")
			}
			arg := p.expr()
			if p.peek() != ")" {
				panic(sSyntax{})
			}
			p.i++
			return &sNode{op: 'r', a: arg}
		}
		return &sNode{op: 's', text: t.text}
	}
	if t.text == "(" {
		if p.peek() == ")" {
			// "()" is an empty tuple: arithmetic on it raises.
			panic(sSyntax{})
		}
		n := p.expr()
		if p.peek() != ")" {
			panic(sSyntax{})
		}
		p.i++
		return n
	}
	panic(sSyntax{})
}

// ---------------------------------------------------------------------------
// Exact evaluation (no Float literal): rationals, or 320-bit floats once a
// root or pi enters, at fixed points for the symbols.

const sPrec = 320

// sVal is a number met while evaluating: exact, approximate, or sympy's
// zoo/nan (undef).
type sVal struct {
	r     *big.Rat
	f     *big.Float
	undef bool
}

func (v sVal) float() *big.Float {
	if v.f != nil {
		return v.f
	}
	return new(big.Float).SetPrec(sPrec).SetRat(v.r)
}

// samplePoint is the value of symbol j at point k (symbols in order of
// first appearance): distinct rationals of mixed sign, three points, so
// that a false identity vanishing at all of them is not a worry.
func samplePoint(k, j int) *big.Rat {
	num := int64(37 + 29*j + 13*k)
	if (j+k)%2 == 1 {
		num = -num
	}
	return big.NewRat(num, int64(11+6*j+5*k))
}

const samplePoints = 3

func exactZero(root *sNode, w *pmWork) bool {
	syms := map[string]int{}
	collectSymbols(root, syms)
	for k := 0; k < samplePoints; k++ {
		v := evalExact(root, syms, k, w)
		switch {
		case v.undef:
			if len(syms) == 0 {
				return false // zoo or nan, not 0
			}
			continue
		case v.r != nil:
			if v.r.Sign() != 0 {
				return false
			}
		default:
			if !nearZero(v.f) {
				return false
			}
		}
	}
	return true
}

// nearZero is the cut for 320-bit evaluation: an identity with roots or pi
// evaluates to within rounding (about 2^-300) of zero; no answer a model
// writes differs from its reference by less than 2^-200.
func nearZero(f *big.Float) bool {
	if f.Sign() == 0 {
		return true
	}
	return f.MantExp(nil) < -200
}

func collectSymbols(n *sNode, syms map[string]int) {
	if n == nil {
		return
	}
	if n.op == 's' {
		if _, ok := syms[n.text]; !ok {
			syms[n.text] = len(syms)
		}
	}
	collectSymbols(n.a, syms)
	collectSymbols(n.b, syms)
}

var piFloat, _ = new(big.Float).SetPrec(sPrec).SetString("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196")

func evalExact(n *sNode, syms map[string]int, k int, w *pmWork) sVal {
	w.step(1)
	switch n.op {
	case '%':
		undecided("sympy's Mod")
	case 'n':
		r, ok := new(big.Rat).SetString(n.text)
		if !ok {
			undecided("the number " + n.text)
		}
		return sVal{r: r}
	case 's':
		return sVal{r: samplePoint(k, syms[n.text])}
	case 'p':
		return sVal{f: piFloat}
	case 'u':
		v := evalExact(n.a, syms, k, w)
		if v.undef {
			return v
		}
		if v.r != nil {
			return sVal{r: new(big.Rat).Neg(v.r)}
		}
		return sVal{f: new(big.Float).SetPrec(sPrec).Neg(v.f)}
	case 'r':
		return sqrtVal(evalExact(n.a, syms, k, w), w)
	case '^':
		return powVal(evalExact(n.a, syms, k, w), evalExact(n.b, syms, k, w), w)
	}
	a, b := evalExact(n.a, syms, k, w), evalExact(n.b, syms, k, w)
	if a.undef || b.undef {
		return sVal{undef: true}
	}
	w.step(ratSize(a) + ratSize(b))
	if a.r != nil && b.r != nil {
		r := new(big.Rat)
		switch n.op {
		case '+':
			r.Add(a.r, b.r)
		case '-':
			r.Sub(a.r, b.r)
		case '*':
			r.Mul(a.r, b.r)
		case '/':
			if b.r.Sign() == 0 {
				return sVal{undef: true}
			}
			r.Quo(a.r, b.r)
		}
		return sVal{r: r}
	}
	x, y := a.float(), b.float()
	f := new(big.Float).SetPrec(sPrec)
	switch n.op {
	case '+':
		f.Add(x, y)
	case '-':
		f.Sub(x, y)
	case '*':
		f.Mul(x, y)
	case '/':
		if b.r != nil && b.r.Sign() == 0 {
			return sVal{undef: true}
		}
		if nearZero(y) {
			undecided("a division by an expression that may be zero")
		}
		f.Quo(x, y)
	}
	return sVal{f: f}
}

func ratSize(v sVal) int {
	if v.r == nil {
		return sPrec / 64
	}
	return (v.r.Num().BitLen() + v.r.Denom().BitLen()) / 64
}

func sqrtVal(v sVal, w *pmWork) sVal {
	if v.undef {
		return v
	}
	if v.r != nil {
		if v.r.Sign() < 0 {
			undecided("the square root of a negative number")
		}
		num, den := new(big.Int).Sqrt(v.r.Num()), new(big.Int).Sqrt(v.r.Denom())
		if new(big.Int).Mul(num, num).Cmp(v.r.Num()) == 0 && new(big.Int).Mul(den, den).Cmp(v.r.Denom()) == 0 {
			return sVal{r: new(big.Rat).SetFrac(num, den)}
		}
	}
	f := v.float()
	if f.Sign() < 0 {
		undecided("the square root of a negative number")
	}
	w.step(sPrec)
	return sVal{f: new(big.Float).SetPrec(sPrec).Sqrt(f)}
}

func powVal(b, e sVal, w *pmWork) sVal {
	if b.undef || e.undef {
		return sVal{undef: true}
	}
	if e.r == nil {
		undecided("an irrational exponent")
	}
	if !e.r.IsInt() {
		if e.r.Denom().Cmp(big.NewInt(2)) != 0 {
			undecided("a fractional exponent")
		}
		b = sqrtVal(b, w)
		e = sVal{r: new(big.Rat).Mul(e.r, big.NewRat(2, 1))}
	}
	if !e.r.Num().IsInt64() || e.r.Num().Int64() > 4096 || e.r.Num().Int64() < -4096 {
		panic(pmOverBudget{"an exponent over 4096"})
	}
	n := e.r.Num().Int64()
	neg := n < 0
	if neg {
		n = -n
	}
	if b.r != nil {
		if b.r.Sign() == 0 && neg {
			return sVal{undef: true}
		}
		bits := int64(b.r.Num().BitLen() + b.r.Denom().BitLen())
		if bits*n > 1<<20 {
			panic(pmOverBudget{"a power over 2^20 bits"})
		}
		w.step(int(bits * n / 64))
		num := new(big.Int).Exp(b.r.Num(), big.NewInt(n), nil)
		den := new(big.Int).Exp(b.r.Denom(), big.NewInt(n), nil)
		r := new(big.Rat).SetFrac(num, den)
		if neg {
			r.Inv(r)
		}
		return sVal{r: r}
	}
	res := new(big.Float).SetPrec(sPrec).SetInt64(1)
	x := new(big.Float).SetPrec(sPrec).Set(b.f)
	for m := n; m > 0; m >>= 1 {
		w.step(sPrec / 16)
		if m&1 == 1 {
			res.Mul(res, x)
		}
		x.Mul(x, x)
	}
	if neg {
		if nearZero(res) {
			undecided("a negative power of an expression that may be zero")
		}
		res.Quo(new(big.Float).SetPrec(sPrec).SetInt64(1), res)
	}
	return sVal{f: res}
}

// Float arithmetic as sympy does it: sums of terms coefficient * basis
// (symbols, pi, one square root of a square-free integer), like terms
// collected, coefficients exact until a Float meets them. A Float carries
// its binary precision (53 bits for up to 15 digits, more for longer
// literals, as sympy's Float of a string sets it); a rational meeting a
// Float is rounded to the Float's precision first, and each operation
// rounds to nearest, ties to even, as mpmath does.

type sCoef struct {
	r *big.Rat   // exact, when f is nil
	f *big.Float // a sympy Float, with its precision
}

func (c sCoef) isZero() bool {
	if c.f != nil {
		return c.f.Sign() == 0
	}
	return c.r.Sign() == 0
}

func exactCoef(n, d int64) sCoef { return sCoef{r: big.NewRat(n, d)} }

// floatAt is c as an mpf of prec bits.
func (c sCoef) floatAt(prec uint) *big.Float {
	if c.f != nil {
		if c.f.Prec() == prec {
			return c.f
		}
		return new(big.Float).SetPrec(prec).Set(c.f)
	}
	return new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).SetRat(c.r)
}

func precOf(a, b sCoef) uint {
	var p uint
	if a.f != nil {
		p = a.f.Prec()
	}
	if b.f != nil && b.f.Prec() > p {
		p = b.f.Prec()
	}
	return p
}

func newFloat(prec uint) *big.Float { return new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven) }

func coefAdd(a, b sCoef) sCoef {
	if a.f == nil && b.f == nil {
		return sCoef{r: new(big.Rat).Add(a.r, b.r)}
	}
	p := precOf(a, b)
	return sCoef{f: newFloat(p).Add(a.floatAt(p), b.floatAt(p))}
}

func coefMul(a, b sCoef) sCoef {
	if a.f == nil && b.f == nil {
		return sCoef{r: new(big.Rat).Mul(a.r, b.r)}
	}
	p := precOf(a, b)
	return sCoef{f: newFloat(p).Mul(a.floatAt(p), b.floatAt(p))}
}

// coefInv is 1/c (Pow(c, -1)); a zero Float or rational is zoo.
func coefInv(c sCoef) sCoef {
	if c.isZero() {
		undecided("a division by zero next to a Float")
	}
	if c.f == nil {
		return sCoef{r: new(big.Rat).Inv(c.r)}
	}
	p := c.f.Prec()
	return sCoef{f: newFloat(p).Quo(newFloat(p).SetInt64(1), c.f)}
}

// coefPowInt is mpf_pow_int: the exact power, rounded once.
func coefPowInt(c sCoef, n int64) sCoef {
	if c.f == nil {
		num := new(big.Int).Exp(c.r.Num(), big.NewInt(n), nil)
		den := new(big.Int).Exp(c.r.Denom(), big.NewInt(n), nil)
		return sCoef{r: new(big.Rat).SetFrac(num, den)}
	}
	p := c.f.Prec()
	if int64(c.f.MinPrec())*n >= 1000 {
		undecided("a large power of a Float")
	}
	exact := new(big.Float).SetPrec(uint(int64(c.f.MinPrec())*n + 8)).SetInt64(1)
	for k := int64(0); k < n; k++ {
		exact.Mul(exact, c.f)
	}
	return sCoef{f: newFloat(p).Set(exact)}
}

// sBasis is a product of symbol powers, a power of pi and sqrt(rad).
type sBasis struct {
	syms string // canonical "x^2*y^-1"
	pi   int
	rad  int64 // 1 when none
}

var oneBasis = sBasis{rad: 1}

type sPoly map[sBasis]sCoef

func floatPolyZero(root *sNode, w *pmWork) bool {
	p := polyOf(root, w)
	for _, c := range p {
		if !c.isZero() {
			return false
		}
	}
	return true
}

func constPoly(c sCoef) sPoly { return sPoly{oneBasis: c} }

// number is the coefficient of a term-free constant, if p is one.
func (p sPoly) number() (sCoef, bool) {
	if len(p) == 0 {
		return exactCoef(0, 1), true
	}
	c, ok := p[oneBasis]
	return c, ok && len(p) == 1
}

// floatLiteral is sympy's Float of a decimal literal: its value rounded
// to dps_to_prec(max(15, digits)) bits.
func floatLiteral(lit string) sCoef {
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		undecided("the number " + lit)
	}
	mant := lit
	if k := strings.IndexAny(mant, "eE"); k >= 0 {
		mant = mant[:k]
	}
	digits := strings.TrimLeft(strings.ReplaceAll(mant, ".", ""), "0")
	if digits == "" {
		digits = "0"
	}
	dps := len(digits)
	if !strings.Contains(lit, ".") && r.IsInt() {
		if n := len(strings.TrimPrefix(r.Num().String(), "-")); n > dps {
			dps = n
		}
	}
	if dps < 15 {
		dps = 15
	}
	prec := uint(math.Round(float64(dps+1) * 3.3219280948873626))
	return sCoef{f: newFloat(prec).SetRat(r)}
}

func polyOf(n *sNode, w *pmWork) sPoly {
	w.step(1)
	switch n.op {
	case '%':
		undecided("sympy's Mod")
	case 'n':
		if n.flt {
			return constPoly(floatLiteral(n.text))
		}
		r, ok := new(big.Rat).SetString(n.text)
		if !ok {
			undecided("the number " + n.text)
		}
		return constPoly(sCoef{r: r})
	case 's':
		return sPoly{{syms: n.text + "^1", rad: 1}: exactCoef(1, 1)}
	case 'p':
		return sPoly{{pi: 1, rad: 1}: exactCoef(1, 1)}
	case 'u':
		return polyScale(polyOf(n.a, w), exactCoef(-1, 1))
	case '+':
		return polyAdd(polyOf(n.a, w), polyOf(n.b, w), w)
	case '-':
		return polyAdd(polyOf(n.a, w), polyScale(polyOf(n.b, w), exactCoef(-1, 1)), w)
	case '*':
		return polyMul(polyOf(n.a, w), polyOf(n.b, w), w)
	case '/':
		a, b := polyOf(n.a, w), polyOf(n.b, w)
		if ca, ok := a.number(); ok {
			if cb, ok := b.number(); ok {
				return constPoly(numberQuo(ca, cb))
			}
		}
		return polyMul(a, polyInv(b), w)
	case 'r':
		return polySqrt(polyOf(n.a, w))
	case '^':
		return polyPow(polyOf(n.a, w), polyOf(n.b, w), w)
	}
	undecided("an operator next to a Float")
	return nil
}

// numberQuo is a/b of two sympy numbers: a Float divided directly, a
// rational by a Float as self*(1/other), as sympy's Rational does.
func numberQuo(a, b sCoef) sCoef {
	if b.isZero() {
		undecided("a division by zero next to a Float")
	}
	switch {
	case a.f == nil && b.f == nil:
		return sCoef{r: new(big.Rat).Quo(a.r, b.r)}
	case a.f != nil:
		p := precOf(a, b)
		return sCoef{f: newFloat(p).Quo(a.f, b.floatAt(p))}
	default:
		return coefMul(a, coefInv(b))
	}
}

func polyPow(b, e sPoly, w *pmWork) sPoly {
	c, ok := e.number()
	if !ok {
		undecided("a symbolic exponent next to a Float")
	}
	var k int64
	switch {
	case c.f == nil:
		if !c.r.IsInt() || !c.r.Num().IsInt64() {
			undecided("a fractional exponent next to a Float")
		}
		k = c.r.Num().Int64()
	default:
		// Integer**Float evaluates: the base at the Float's precision, then
		// mpf_pow_int when the exponent is a whole number.
		if !c.f.IsInt() {
			undecided("a fractional Float exponent")
		}
		cb, ok := b.number()
		kk, _ := c.f.Int64()
		if !ok || kk < 0 || kk > 64 {
			undecided("a Float exponent of an expression")
		}
		p := precOf(cb, c)
		return constPoly(coefPowInt(sCoef{f: cb.floatAt(p)}, kk))
	}
	if k > 64 || k < -64 {
		undecided("a large exponent next to a Float")
	}
	if len(b) == 1 {
		for basis, coef := range b {
			if k < 0 {
				inv := polyInv(b)
				for bb, cc := range inv {
					basis, coef = bb, cc
				}
				k = -k
			}
			return polyPowTerm(basis, coef, k, w)
		}
	}
	if k < 0 {
		undecided("a negative power of a sum next to a Float")
	}
	out := constPoly(exactCoef(1, 1))
	for ; k > 0; k-- {
		out = polyMul(out, b, w)
	}
	return out
}

// polyPowTerm is (coef*basis)^k: sympy raises the coefficient once.
func polyPowTerm(basis sBasis, coef sCoef, k int64, w *pmWork) sPoly {
	if k == 0 {
		return constPoly(exactCoef(1, 1))
	}
	out := sPoly{oneBasis: exactCoef(1, 1)}
	for i := int64(0); i < k; i++ {
		out = polyMul(out, sPoly{basis: exactCoef(1, 1)}, w)
	}
	return polyScale(out, coefPowInt(coef, k))
}

func polyScale(p sPoly, c sCoef) sPoly {
	out := make(sPoly, len(p))
	for b, x := range p {
		if y := coefMul(x, c); !y.isZero() {
			out[b] = y
		}
	}
	return out
}

func polyAdd(a, b sPoly, w *pmWork) sPoly {
	out := make(sPoly, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		w.step(1)
		if u, ok := out[k]; ok {
			s := coefAdd(u, v)
			if s.isZero() {
				delete(out, k) // sympy drops a term whose coefficient is zero
			} else {
				out[k] = s
			}
		} else {
			out[k] = v
		}
	}
	return out
}

func polyMul(a, b sPoly, w *pmWork) sPoly {
	if len(a)*len(b) > 4096 {
		panic(pmOverBudget{"a product of over 4096 terms"})
	}
	out := sPoly{}
	for ka, va := range a {
		for kb, vb := range b {
			w.step(2)
			basis, factor := basisMul(ka, kb)
			c := coefMul(va, vb)
			if factor != 1 {
				c = coefMul(c, exactCoef(factor, 1))
			}
			if u, ok := out[basis]; ok {
				c = coefAdd(u, c)
			}
			out[basis] = c
		}
	}
	for k, v := range out {
		if v.isZero() {
			delete(out, k)
		}
	}
	return out
}

// basisMul multiplies two bases; sqrt(a)*sqrt(b) = g*sqrt(ab/g^2).
func basisMul(a, b sBasis) (sBasis, int64) {
	factor := int64(1)
	rad := a.rad * b.rad
	if a.rad != 1 && b.rad != 1 {
		if a.rad > 1<<30 || b.rad > 1<<30 {
			undecided("a large square root next to a Float")
		}
		g := gcd64(a.rad, b.rad)
		factor = g
		rad = (a.rad / g) * (b.rad / g)
	}
	return sBasis{syms: symsMul(a.syms, b.syms, 1), pi: a.pi + b.pi, rad: rad}, factor
}

func gcd64(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// symsMul combines canonical symbol products, the second raised to sign.
func symsMul(a, b string, sign int) string {
	if b == "" && sign == 1 {
		return a
	}
	if a == "" && sign == 1 {
		return b
	}
	pow := map[string]int{}
	var names []string
	add := func(s string, k int) {
		if s == "" {
			return
		}
		for _, f := range strings.Split(s, "*") {
			name, e, _ := strings.Cut(f, "^")
			n, _ := strconv.Atoi(e)
			if _, ok := pow[name]; !ok {
				names = append(names, name)
			}
			pow[name] += n * k
		}
	}
	add(a, 1)
	add(b, sign)
	sort.Strings(names)
	var sb strings.Builder
	for _, name := range names {
		if pow[name] == 0 {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('*')
		}
		sb.WriteString(name)
		sb.WriteByte('^')
		sb.WriteString(strconv.Itoa(pow[name]))
	}
	return sb.String()
}

// polyInv is 1/p for a single term (sympy's Pow(p, -1)).
func polyInv(p sPoly) sPoly {
	if len(p) != 1 {
		if len(p) == 0 {
			undecided("a division by zero next to a Float")
		}
		undecided("a division by a sum next to a Float")
	}
	for b, c := range p {
		ic := coefInv(c)
		if b.rad != 1 {
			// 1/sqrt(r) = sqrt(r)/r
			ic = coefMul(ic, exactCoef(1, b.rad))
		}
		return sPoly{{syms: symsMul("", b.syms, -1), pi: -b.pi, rad: b.rad}: ic}
	}
	return nil
}

// polySqrt is sqrt of a constant single term: a rational gets its square
// factors taken out, a Float its root at its precision.
func polySqrt(p sPoly) sPoly {
	c, ok := p.number()
	if !ok {
		undecided("the square root of an expression next to a Float")
	}
	if c.isZero() {
		return sPoly{}
	}
	if c.f != nil {
		if c.f.Sign() < 0 {
			undecided("the square root of a negative number")
		}
		return constPoly(sCoef{f: newFloat(c.f.Prec()).Sqrt(c.f)})
	}
	if c.r.Sign() < 0 {
		undecided("the square root of a negative number")
	}
	// sqrt(n/d) = sqrt(n*d)/d
	nd := new(big.Int).Mul(c.r.Num(), c.r.Denom())
	if !nd.IsInt64() || nd.Int64() > 1e12 {
		undecided("the square root of a large number next to a Float")
	}
	out, rad := squareFree(nd.Int64())
	return sPoly{{rad: rad}: {r: new(big.Rat).SetFrac(big.NewInt(out), c.r.Denom())}}
}

// squareFree writes n as out^2 * rad with rad square-free.
func squareFree(n int64) (out, rad int64) {
	out, rad = 1, 1
	for f := int64(2); f*f <= n; f++ {
		for n%(f*f) == 0 {
			n /= f * f
			out *= f
		}
		if n%f == 0 {
			n /= f
			rad *= f
		}
	}
	return out, rad * n
}
