package reasoninggym

import (
	"errors"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
)

// This file is countdown's score_answer. reasoning-gym evaluates the answer
// with float(sympy.parse_expr(answer)) inside a try block: any exception,
// and any result float() refuses (complex values, zoo), scores 0.01; the
// literal integers of the answer (\b\d+\b) must then be the puzzle's
// numbers (else 0.05), and the value must be np.isclose to the target (1.0,
// else 0.05).
//
// cdEval reproduces parse_expr with the standard transformations for the
// Python arithmetic subset: integer literals (decimal, hex, octal, binary,
// with underscores; more than 4300 digits raise as in Python), float
// literals (sympy Floats, with the precision sympy gives long literals),
// imaginary literals (auto_number's N*I), + - * / // % ** and unary + - ~,
// the Integer bit operators & | ^ << >>, parentheses, postfix ! and !!
// (factorial_notation), == and != over the whole expression, comments,
// line continuations, and newlines inside parentheses. Values follow
// sympy 1.14: exact rationals, Floats rounded at their precision (a zero
// result becomes the exact Zero), exact Gaussian rationals for I, zoo, nan,
// and the ZeroDivisionError/TypeError/ValueError cases, including sympy's
// own quirks (Integer // Rational uses int(rat) - 1 for negative quotients,
// a non-Half Rational // Integer truncates first, Rational / Float rounds
// twice, a Float in (0, 0.5) % 0 is itself, Float == Rational is False).
//
// Known differences, where this returns 0.01:
//   - names (pi, E, sqrt(4), True, x - x + 5, keywords such as "or" and
//     "if"), strings, brackets, commas, attribute access, the comparisons
//     < <= > >=, and == or != inside parentheses: sympy evaluates some of
//     them to numbers;
//   - chained == and != evaluate every operand (Python stops at the first
//     False one, so it does not raise on the rest);
//   - the repeated-decimal notation 0.[3];
//   - non-real values other than Gaussian rationals ((-2)**(1/3), I**I,
//     Float*I products) stay non-real to the end, where sympy may turn
//     them real again;
//   - factorial2 of an irrational value (sympy leaves it unevaluated);
//   - inputs on which Python runs for minutes or exhausts memory: decimal
//     exponents beyond ±2**30 and work beyond cdBudget.
// Approximations (last bits, or huge values):
//   - irrational powers are computed to about 200 bits and rounded as
//     sympy's evalf (powers of Rationals) or mpf_pow (Float powers) do, but
//     sympy keeps them symbolic, so sums and products of them
//     (2**(1/2)*2**(1/2) is exactly 2 there) can differ in the last bits,
//     and so can a later //, % or == on them;
//   - factorials of non-integers are float64 gamma values;
//   - exact values above cdMaxBits bits (about 315,000 digits) continue as
//     53-bit floats, where Python computes them exactly (9**9**9 takes it
//     hours); values beyond big.Float's exponent range (2**(2**31))
//     saturate there, and still convert to ±inf; float literals with an
//     exponent beyond ±100000 have a few rounding errors;
//   - Python raises RecursionError beyond an AST depth that depends on the
//     caller's stack depth; cdMaxDepth is its value for a shallow stack;
//   - Unicode 15 additions (Go's tables) count as digits and letters,
//     which Python 3.11 does not know.

// cdMaxBits bounds the size of exact intermediate values.
const cdMaxBits = 1 << 20

// cdMaxPrec bounds the precision of Floats (sympy gives long float literals
// more precision).
const cdMaxPrec = 1 << 14

// cdMaxDepth is the AST depth at which CPython 3.11 (recursion limit 1000,
// called from a shallow stack) raises RecursionError during compilation.
const cdMaxDepth = 2979

// cdMaxParens is CPython's limit on nested parentheses (the literal's own
// Integer( call counts as one).
const cdMaxParens = 200

// cdBudget bounds the total size of the big-number work of one answer.
const cdBudget = 1 << 30

var errCdPython = errors.New("python exception")

// Score is reasoning-gym's countdown score_answer.
func (t *countdown) Score(answer string, ok bool, e *Entry) float64 {
	if !ok || pycompat.Strip(answer) == "" {
		return 0.01
	}
	val, err := cdEval(answer)
	if err != nil {
		return 0.01
	}
	used, ok := cdExtractInts(answer)
	if !ok {
		return 0.01
	}
	want := cdMetaNumbers(e.Metadata["numbers"])
	if len(used) != len(want) {
		return 0.05
	}
	sort.Strings(used)
	sort.Strings(want)
	for i := range used {
		if used[i] != want[i] {
			return 0.05
		}
	}
	target, ok := cdMetaFloat(e.Metadata["target"])
	if !ok {
		return 0.01
	}
	// np.isclose(a, b, atol=1e-6): |a - b| <= atol + rtol*|b|, rtol 1e-5.
	if math.Abs(val-target) <= 1e-6+1e-5*math.Abs(target) {
		return 1.0
	}
	return 0.05
}

func cdMetaNumbers(v any) []string {
	var out []string
	switch x := v.(type) {
	case []int64:
		for _, n := range x {
			out = append(out, strconv.FormatInt(n, 10))
		}
	case []int:
		for _, n := range x {
			out = append(out, strconv.Itoa(n))
		}
	case []any:
		for _, it := range x {
			switch n := it.(type) {
			case int64:
				out = append(out, strconv.FormatInt(n, 10))
			case int:
				out = append(out, strconv.Itoa(n))
			case float64:
				out = append(out, strconv.FormatFloat(n, 'f', -1, 64))
			}
		}
	}
	return out
}

func cdMetaFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// cdExtractInts is [int(m) for m in re.findall(r"\b\d+\b", s)] as
// canonical decimal strings: the maximal runs of word characters that are
// all decimal digits. ok is false where int() raises (more than 4300
// digits).
func cdExtractInts(s string) ([]string, bool) {
	var out []string
	start, digits := -1, true
	flush := func(end int) bool {
		if start >= 0 && digits {
			run := s[start:end]
			if utf8.RuneCountInString(run) > 4300 {
				return false
			}
			var b strings.Builder
			for _, r := range run {
				b.WriteByte(byte('0' + pycompat.DecimalValue(r)))
			}
			d := strings.TrimLeft(b.String(), "0")
			if d == "" {
				d = "0"
			}
			out = append(out, d)
		}
		start, digits = -1, true
		return true
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				// An invalid byte is not a word character.
				if !flush(i) {
					return nil, false
				}
				continue
			}
		}
		if pycompat.IsWordChar(r) {
			if start < 0 {
				start = i
			}
			if !pycompat.IsDecimal(r) {
				digits = false
			}
		} else if !flush(i) {
			return nil, false
		}
	}
	if !flush(len(s)) {
		return nil, false
	}
	return out, true
}

// cdEval is float(parse_expr(answer)); an error stands for any Python
// exception, including float() refusing the result.
func cdEval(answer string) (float64, error) {
	s := pycompat.Strip(answer)
	toks, err := cdLex(s)
	if err != nil {
		return 0, err
	}
	p := &cdParser{toks: toks, budget: cdBudget}
	v, info, err := p.comparison()
	if err != nil {
		return 0, err
	}
	if p.toks[p.pos].kind != cdTokEOF {
		return 0, errCdPython
	}
	if info.parens > cdMaxParens || info.depth > cdMaxDepth {
		return 0, errCdPython
	}
	return v.float()
}

// ---- tokens ----

const (
	cdTokEOF = iota
	cdTokNum
	cdTokOp
	cdTokBang // one or two '!' right after an atom
	cdTokI    // the I that auto_number appends to an imaginary literal
)

type cdTok struct {
	kind int
	text string
	n    int // cdTokBang: number of '!'
}

func cdIsDigit(c byte) bool { return c >= '0' && c <= '9' }

// cdDigitPart matches [0-9](?:_?[0-9])* at i and returns its end, or i.
func cdDigitPart(s string, i int, ok func(byte) bool) int {
	if i >= len(s) || !ok(s[i]) {
		return i
	}
	j := i + 1
	for j < len(s) {
		if ok(s[j]) {
			j++
		} else if s[j] == '_' && j+1 < len(s) && ok(s[j+1]) {
			j += 2
		} else {
			break
		}
	}
	return j
}

func cdExponent(s string, i int) int {
	if i >= len(s) || (s[i] != 'e' && s[i] != 'E') {
		return i
	}
	j := i + 1
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	if k := cdDigitPart(s, j, cdIsDigit); k > j {
		return k
	}
	return i
}

// cdFloatLen matches Python tokenize's Floatnumber at i (0 if none).
func cdFloatLen(s string, i int) int {
	d := cdDigitPart(s, i, cdIsDigit)
	if d > i && d < len(s) && s[d] == '.' {
		end := cdDigitPart(s, d+1, cdIsDigit)
		return cdExponent(s, end) - i
	}
	if d == i && i < len(s) && s[i] == '.' {
		if end := cdDigitPart(s, i+1, cdIsDigit); end > i+1 {
			return cdExponent(s, end) - i
		}
		return 0
	}
	if d > i {
		if e := cdExponent(s, d); e > d {
			return e - i
		}
	}
	return 0
}

// cdNumberLen matches Python tokenize's Number at i: imaginary, float or
// integer literal, tried in that order. kind is 'j', 'f', 'x' (hex, octal,
// binary) or 'd'.
func cdNumberLen(s string, i int) (int, byte) {
	isJ := func(k int) bool { return k < len(s) && (s[k] == 'j' || s[k] == 'J') }
	if d := cdDigitPart(s, i, cdIsDigit); d > i && isJ(d) {
		return d + 1 - i, 'j'
	}
	if f := cdFloatLen(s, i); f > 0 {
		if isJ(i + f) {
			return f + 1, 'j'
		}
		return f, 'f'
	}
	if i+1 < len(s) && s[i] == '0' {
		var ok func(byte) bool
		switch s[i+1] {
		case 'x', 'X':
			ok = func(c byte) bool { return cdIsDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
		case 'b', 'B':
			ok = func(c byte) bool { return c == '0' || c == '1' }
		case 'o', 'O':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
		}
		if ok != nil {
			j := i + 2
			for j < len(s) {
				if ok(s[j]) {
					j++
				} else if s[j] == '_' && j+1 < len(s) && ok(s[j+1]) {
					j += 2
				} else {
					break
				}
			}
			if j > i+2 {
				return j - i, 'x'
			}
		}
	}
	if i < len(s) && s[i] == '0' {
		j := i + 1
		for j < len(s) {
			if s[j] == '0' {
				j++
			} else if s[j] == '_' && j+1 < len(s) && s[j+1] == '0' {
				j += 2
			} else {
				break
			}
		}
		return j - i, 'd'
	}
	if d := cdDigitPart(s, i, cdIsDigit); d > i {
		return d - i, 'd'
	}
	return 0, 0
}

// cdLex tokenizes the stripped answer as Python's tokenizer and sympy's
// transformations see it, refusing everything outside the supported
// subset.
func cdLex(s string) ([]cdTok, error) {
	var toks []cdTok
	depth := 0
	ended := false    // a newline ended the logical line
	spaced := true    // whitespace (or nothing) since the last token
	lineStart := true // only whitespace so far on this physical line
	indented := false // the first logical line would start indented
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
			spaced = true
			if lineStart && len(toks) == 0 {
				indented = true
			}
			continue
		case c == '#':
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
			continue
		case c == '\\':
			if strings.HasPrefix(s[i+1:], "\n") {
				i += 2
			} else if strings.HasPrefix(s[i+1:], "\r\n") {
				i += 3
			} else if strings.HasPrefix(s[i+1:], "\r") {
				i += 2
			} else {
				return nil, errCdPython
			}
			spaced = true
			continue
		case c == '\n' || c == '\r':
			if depth == 0 && len(toks) > 0 {
				ended = true
			}
			i++
			spaced = true
			lineStart, indented = true, false
			continue
		}
		if ended || indented {
			return nil, errCdPython
		}
		lineStart = false
		if c == '!' && !strings.HasPrefix(s[i:], "!=") {
			n := 0
			for i < len(s) && s[i] == '!' && !strings.HasPrefix(s[i:], "!=") {
				n++
				i++
			}
			if spaced || len(toks) == 0 || n > 2 {
				return nil, errCdPython
			}
			last := toks[len(toks)-1]
			if last.kind != cdTokNum && last.kind != cdTokI && !(last.kind == cdTokOp && last.text == ")") {
				return nil, errCdPython
			}
			toks = append(toks, cdTok{kind: cdTokBang, n: n})
			spaced = false
			continue
		}
		if cdIsDigit(c) || (c == '.' && i+1 < len(s) && cdIsDigit(s[i+1])) {
			n, kind := cdNumberLen(s, i)
			if kind == 'j' {
				// auto_number: Integer(...)*I or Float('...')*I.
				text := s[i : i+n-1]
				kind = 'd'
				if strings.ContainsAny(text, ".eE") {
					kind = 'f'
				}
				toks = append(toks, cdTok{kind: cdTokNum, text: text, n: int(kind)},
					cdTok{kind: cdTokOp, text: "*"}, cdTok{kind: cdTokI})
			} else {
				toks = append(toks, cdTok{kind: cdTokNum, text: s[i : i+n], n: int(kind)})
			}
			i += n
			spaced = false
			continue
		}
		op := ""
		for _, o := range [...]string{"**", "//", "<<", ">>", "==", "!="} {
			if strings.HasPrefix(s[i:], o) {
				op = o
				break
			}
		}
		if op == "" && strings.IndexByte("+-*/%&|^~()", c) >= 0 {
			op = s[i : i+1]
		}
		if op == "" {
			return nil, errCdPython
		}
		// Augmented assignments (+=, **=, ...) and <=, >= are other tokens.
		if i+len(op) < len(s) && s[i+len(op)] == '=' && op != "==" && op != "!=" && op != "(" && op != ")" && op != "~" {
			return nil, errCdPython
		}
		switch op {
		case "(":
			depth++
		case ")":
			depth--
			if depth < 0 {
				return nil, errCdPython
			}
		}
		toks = append(toks, cdTok{kind: cdTokOp, text: op})
		i += len(op)
		spaced = false
	}
	if depth != 0 {
		return nil, errCdPython
	}
	return append(toks, cdTok{kind: cdTokEOF}), nil
}

// ---- parser ----

type cdParser struct {
	toks   []cdTok
	pos    int
	budget int64
	level  int // recursion guard
}

// cdInfo tracks what Python's limits look at: the deepest parenthesis
// level and the AST depth of the transformed source.
type cdInfo struct {
	parens int
	depth  int
}

func (p *cdParser) peekOp(ops ...string) string {
	t := p.toks[p.pos]
	if t.kind != cdTokOp {
		return ""
	}
	for _, o := range ops {
		if t.text == o {
			return o
		}
	}
	return ""
}

func (p *cdParser) enter() error {
	p.level++
	if p.level > cdMaxDepth+8 {
		return errCdPython
	}
	return nil
}

// comparison is the whole expression: operands joined by == and !=,
// which give a Python bool.
func (p *cdParser) comparison() (cdVal, cdInfo, error) {
	v, info, err := p.binary(0)
	if err != nil || p.peekOp("==", "!=") == "" {
		return v, info, err
	}
	result := true
	depth := info.depth
	for {
		op := p.peekOp("==", "!=")
		if op == "" {
			break
		}
		p.pos++
		w, winfo, err := p.binary(0)
		if err != nil {
			return cdVal{}, cdInfo{}, err
		}
		eq := cdEqual(v, w)
		if (op == "==") != eq {
			result = false
		}
		info.parens = max(info.parens, winfo.parens)
		depth = max(depth, winfo.depth)
		v = w
	}
	return cdVal{k: cdBool, b: result}, cdInfo{info.parens, depth + 1}, nil
}

// cdLevels lists the binary operator precedence levels, loosest first.
var cdLevels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%"}}

func (p *cdParser) binary(level int) (cdVal, cdInfo, error) {
	if level == len(cdLevels) {
		return p.unary()
	}
	v, info, err := p.binary(level + 1)
	if err != nil {
		return cdVal{}, cdInfo{}, err
	}
	for {
		op := p.peekOp(cdLevels[level]...)
		if op == "" {
			return v, info, nil
		}
		p.pos++
		w, winfo, err := p.binary(level + 1)
		if err != nil {
			return cdVal{}, cdInfo{}, err
		}
		if v, err = p.apply(op, v, w); err != nil {
			return cdVal{}, cdInfo{}, err
		}
		info = cdInfo{max(info.parens, winfo.parens), max(info.depth, winfo.depth) + 1}
		if info.depth > cdMaxDepth {
			return cdVal{}, cdInfo{}, errCdPython
		}
	}
}

func (p *cdParser) unary() (cdVal, cdInfo, error) {
	if err := p.enter(); err != nil {
		return cdVal{}, cdInfo{}, err
	}
	defer func() { p.level-- }()
	if op := p.peekOp("+", "-", "~"); op != "" {
		p.pos++
		v, info, err := p.unary()
		if err != nil {
			return cdVal{}, cdInfo{}, err
		}
		info.depth++
		switch op {
		case "-":
			v = cdNeg(v)
		case "~":
			if !v.isInt() {
				return cdVal{}, cdInfo{}, errCdPython
			}
			n := new(big.Int).Not(v.q.Num())
			v = cdRatInt(n)
		}
		return v, info, nil
	}
	return p.power()
}

func (p *cdParser) power() (cdVal, cdInfo, error) {
	v, info, err := p.primary()
	if err != nil {
		return cdVal{}, cdInfo{}, err
	}
	if p.peekOp("**") == "" {
		return v, info, nil
	}
	p.pos++
	w, winfo, err := p.unary()
	if err != nil {
		return cdVal{}, cdInfo{}, err
	}
	if v, err = p.pow(v, w); err != nil {
		return cdVal{}, cdInfo{}, err
	}
	return v, cdInfo{max(info.parens, winfo.parens), max(info.depth, winfo.depth) + 1}, nil
}

func (p *cdParser) primary() (cdVal, cdInfo, error) {
	var (
		v    cdVal
		info cdInfo
		err  error
	)
	t := p.toks[p.pos]
	switch {
	case t.kind == cdTokNum:
		p.pos++
		v, err = cdLiteral(t.text, byte(t.n))
		info = cdInfo{parens: 1, depth: 2}
	case t.kind == cdTokI:
		p.pos++
		v = cdGauss(cdRatI64(0), cdRatI64(1))
		info = cdInfo{depth: 1}
	case t.kind == cdTokOp && t.text == "(":
		p.pos++
		if p.peekOp(")") != "" {
			return cdVal{}, cdInfo{}, errCdPython // () is a tuple
		}
		v, info, err = p.binary(0)
		if err == nil && p.peekOp(")") == "" {
			err = errCdPython
		}
		p.pos++
		info.parens++
	default:
		return cdVal{}, cdInfo{}, errCdPython
	}
	if err != nil {
		return cdVal{}, cdInfo{}, err
	}
	if t := p.toks[p.pos]; t.kind == cdTokBang {
		p.pos++
		if t.n == 1 {
			v, err = p.factorial(v)
		} else {
			v, err = cdFactorial2(v)
		}
		info.parens++
		info.depth++
	}
	return v, info, err
}

// ---- values ----

const (
	cdQ    = iota // exact rational (sympy Integer/Rational)
	cdF           // sympy Float (or a real value sympy keeps symbolic)
	cdZoo         // complex infinity
	cdNaN         // nan
	cdCplx        // a non-real value not tracked exactly
	cdG           // re + im*I with re, im real (cdQ or cdF) and im nonzero
	cdBool        // a Python bool from == or !=
)

type cdVal struct {
	k      int
	q      *big.Rat
	f      *big.Float
	b      bool
	re, im *cdVal // cdG
}

// cdGauss builds re + im*I, which is real when im is zero.
func cdGauss(re, im cdVal) cdVal {
	if im.k == cdQ && im.q.Sign() == 0 {
		return re
	}
	if (re.k != cdQ && re.k != cdF) || (im.k != cdQ && im.k != cdF) {
		return cdVal{k: cdCplx}
	}
	return cdVal{k: cdG, re: &re, im: &im}
}

// parts splits a real or complex value into its real and imaginary parts.
func (v cdVal) parts() (cdVal, cdVal) {
	if v.k == cdG {
		return *v.re, *v.im
	}
	return v, cdRatI64(0)
}

// cdGaussOp applies op to values of which at least one is complex, part by
// part with the real operations (sympy keeps I exact).
func (p *cdParser) gaussOp(op string, a, b cdVal) (cdVal, error) {
	ar, ai := a.parts()
	br, bi := b.parts()
	var re, im cdVal
	var err error
	step := func(f func(x, y cdVal) (cdVal, error), x, y cdVal) cdVal {
		if err != nil {
			return cdVal{}
		}
		var v cdVal
		v, err = f(x, y)
		return v
	}
	switch op {
	case "+":
		re, im = step(p.add, ar, br), step(p.add, ai, bi)
	case "*":
		re = step(p.add, step(p.mul, ar, br), cdNeg(step(p.mul, ai, bi)))
		im = step(p.add, step(p.mul, ar, bi), step(p.mul, ai, br))
	case "/":
		// (ar + ai I)(br - bi I) / (br^2 + bi^2)
		den := step(p.add, step(p.mul, br, br), step(p.mul, bi, bi))
		nr := step(p.add, step(p.mul, ar, br), step(p.mul, ai, bi))
		ni := step(p.add, step(p.mul, ai, br), cdNeg(step(p.mul, ar, bi)))
		re, im = step(p.div, nr, den), step(p.div, ni, den)
	}
	if err != nil {
		return cdVal{}, err
	}
	return cdGauss(re, im), nil
}

func cdRat(q *big.Rat) cdVal    { return cdVal{k: cdQ, q: q} }
func cdRatInt(n *big.Int) cdVal { return cdVal{k: cdQ, q: new(big.Rat).SetInt(n)} }
func cdRatI64(n int64) cdVal    { return cdVal{k: cdQ, q: big.NewRat(n, 1)} }
func cdFloat(f *big.Float) cdVal {
	return cdVal{k: cdF, f: f}
}

func (v cdVal) isInt() bool { return v.k == cdQ && v.q.IsInt() }
func (v cdVal) isZero() bool {
	return (v.k == cdQ && v.q.Sign() == 0) || (v.k == cdF && v.f.Sign() == 0)
}
func (v cdVal) sign() int {
	switch v.k {
	case cdQ:
		return v.q.Sign()
	case cdF:
		return v.f.Sign()
	}
	return 0
}

// rat is the exact value of a finite real value. A Float too far from 1
// (beyond 2**cdMaxBits) is refused rather than expanded.
func (v cdVal) rat() (*big.Rat, error) {
	if v.k == cdQ {
		return v.q, nil
	}
	if v.f.Sign() != 0 {
		if e := v.f.MantExp(nil); e > cdMaxBits || e < -cdMaxBits {
			return nil, errCdPython
		}
	}
	r, _ := v.f.Rat(nil)
	return r, nil
}

func (v cdVal) float() (float64, error) {
	switch v.k {
	case cdQ:
		f, _ := v.q.Float64()
		return f, nil
	case cdF:
		f, _ := v.f.Float64()
		return f, nil
	case cdNaN:
		return math.NaN(), nil
	case cdBool:
		if v.b {
			return 1, nil
		}
		return 0, nil
	}
	return 0, errCdPython
}

func cdRatBits(q *big.Rat) int { return q.Num().BitLen() + q.Denom().BitLen() }

// toFloat rounds a real value to a Float of precision prec.
func (v cdVal) toFloat(prec uint) *big.Float {
	if v.k == cdF {
		return new(big.Float).SetPrec(prec).Set(v.f)
	}
	return new(big.Float).SetPrec(prec).SetRat(v.q)
}

// cdFinite turns a Float result into a value. sympy's mpf has no exponent
// limit; a result beyond big.Float's exponent range (2**(2**31)) saturates
// there, which still converts to an infinite float.
func cdFinite(f *big.Float) (cdVal, error) {
	if f.IsInf() {
		prec := f.Prec()
		if prec == 0 {
			prec = 53
		}
		sat := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), big.MaxExp-1)
		if f.Signbit() {
			sat.Neg(sat)
		}
		return cdFloat(sat), nil
	}
	return cdFloat(f), nil
}

// cdFloatRes is Float._new: a Float operation whose result is exactly zero
// gives sympy's exact Zero.
func cdFloatRes(f *big.Float) (cdVal, error) {
	if f.Sign() == 0 {
		return cdRatI64(0), nil
	}
	return cdFinite(f)
}

// exact wraps an exact result, continuing as a float when it is too big.
func (p *cdParser) exact(q *big.Rat) (cdVal, error) {
	bits := cdRatBits(q)
	p.budget -= int64(bits)
	if p.budget < 0 {
		return cdVal{}, errCdPython
	}
	if bits > cdMaxBits {
		return cdFinite(new(big.Float).SetPrec(53).SetRat(q))
	}
	return cdRat(q), nil
}

func (p *cdParser) charge(bits int) error {
	p.budget -= int64(bits)
	if p.budget < 0 {
		return errCdPython
	}
	return nil
}

func cdPrec(a, b cdVal) uint {
	var prec uint
	if a.k == cdF {
		prec = a.f.Prec()
	}
	if b.k == cdF {
		prec = max(prec, b.f.Prec())
	}
	return prec
}

func cdNeg(v cdVal) cdVal {
	switch v.k {
	case cdG:
		return cdGauss(cdNeg(*v.re), cdNeg(*v.im))
	case cdQ:
		return cdRat(new(big.Rat).Neg(v.q))
	case cdF:
		return cdFloat(new(big.Float).Neg(v.f))
	}
	return v
}

func (p *cdParser) apply(op string, a, b cdVal) (cdVal, error) {
	if a.k == cdBool || b.k == cdBool {
		return cdVal{}, errCdPython
	}
	switch op {
	case "+":
		return p.add(a, b)
	case "-":
		return p.add(a, cdNeg(b))
	case "*":
		return p.mul(a, b)
	case "/":
		return p.div(a, b)
	case "//":
		return p.floorDiv(a, b)
	case "%":
		return p.mod(a, b)
	}
	return p.bitwise(op, a, b)
}

func (p *cdParser) add(a, b cdVal) (cdVal, error) {
	switch {
	case a.k == cdNaN || b.k == cdNaN || (a.k == cdZoo && b.k == cdZoo):
		return cdVal{k: cdNaN}, nil
	case a.k == cdZoo || b.k == cdZoo:
		return cdVal{k: cdZoo}, nil
	case a.k == cdCplx || b.k == cdCplx:
		return cdVal{k: cdCplx}, nil
	case a.k == cdG || b.k == cdG:
		return p.gaussOp("+", a, b)
	case a.k == cdQ && b.k == cdQ:
		if err := p.charge(cdRatBits(a.q) + cdRatBits(b.q)); err != nil {
			return cdVal{}, err
		}
		return p.exact(new(big.Rat).Add(a.q, b.q))
	}
	prec := cdPrec(a, b)
	return cdFloatRes(new(big.Float).SetPrec(prec).Add(a.toFloat(prec), b.toFloat(prec)))
}

func (p *cdParser) mul(a, b cdVal) (cdVal, error) {
	switch {
	case a.k == cdNaN || b.k == cdNaN:
		return cdVal{k: cdNaN}, nil
	case a.k == cdZoo || b.k == cdZoo:
		if a.isZero() || b.isZero() {
			return cdVal{k: cdNaN}, nil
		}
		return cdVal{k: cdZoo}, nil
	case a.k == cdCplx || b.k == cdCplx:
		if a.isZero() || b.isZero() {
			return cdRatI64(0), nil
		}
		return cdVal{k: cdCplx}, nil
	case a.k == cdG || b.k == cdG:
		if a.isZero() || b.isZero() {
			return cdRatI64(0), nil
		}
		return p.gaussOp("*", a, b)
	case a.k == cdQ && b.k == cdQ:
		if err := p.charge(cdRatBits(a.q) + cdRatBits(b.q)); err != nil {
			return cdVal{}, err
		}
		if cdRatBits(a.q)+cdRatBits(b.q) > 2*cdMaxBits {
			return cdFinite(new(big.Float).SetPrec(53).Mul(a.toFloat(64), b.toFloat(64)))
		}
		return p.exact(new(big.Rat).Mul(a.q, b.q))
	}
	prec := cdPrec(a, b)
	return cdFloatRes(new(big.Float).SetPrec(prec).Mul(a.toFloat(prec), b.toFloat(prec)))
}

func (p *cdParser) div(a, b cdVal) (cdVal, error) {
	switch {
	case a.k == cdNaN || b.k == cdNaN:
		return cdVal{k: cdNaN}, nil
	case a.k == cdZoo:
		if b.k == cdZoo {
			return cdVal{k: cdNaN}, nil
		}
		return cdVal{k: cdZoo}, nil
	case b.k == cdZoo:
		return cdRatI64(0), nil
	case b.isZero():
		if b.k == cdF && a.k == cdF {
			return cdVal{}, errCdPython // Float / Float(0) raises
		}
		if a.isZero() {
			return cdVal{k: cdNaN}, nil
		}
		return cdVal{k: cdZoo}, nil
	case a.k == cdCplx || b.k == cdCplx:
		if a.isZero() {
			return a, nil
		}
		return cdVal{k: cdCplx}, nil
	case a.k == cdG || b.k == cdG:
		if a.isZero() {
			return a, nil
		}
		return p.gaussOp("/", a, b)
	case a.k == cdQ && b.k == cdQ:
		if err := p.charge(cdRatBits(a.q) + cdRatBits(b.q)); err != nil {
			return cdVal{}, err
		}
		if cdRatBits(a.q)+cdRatBits(b.q) > 2*cdMaxBits {
			return cdFinite(new(big.Float).SetPrec(53).Quo(a.toFloat(64), b.toFloat(64)))
		}
		return p.exact(new(big.Rat).Quo(a.q, b.q))
	}
	prec := cdPrec(a, b)
	if a.k == cdQ {
		// Rational.__truediv__(Float) is self*(1/other): two roundings.
		inv := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).SetInt64(1), b.f)
		return cdFloatRes(new(big.Float).SetPrec(prec).Mul(a.toFloat(prec), inv))
	}
	return cdFloatRes(new(big.Float).SetPrec(prec).Quo(a.toFloat(prec), b.toFloat(prec)))
}

// cdFloor is sympy's floor of a value.
func (p *cdParser) floor(v cdVal) (cdVal, error) {
	switch v.k {
	case cdQ, cdF:
		r, err := v.rat()
		if err != nil {
			return cdVal{}, err
		}
		if err := p.charge(cdRatBits(r)); err != nil {
			return cdVal{}, err
		}
		return p.exact(new(big.Rat).SetInt(cdFloorRat(r)))
	case cdG:
		// floor(re + im*I) = floor(re) + floor(im)*I
		re, err := p.floor(*v.re)
		if err != nil {
			return cdVal{}, err
		}
		im, err := p.floor(*v.im)
		if err != nil {
			return cdVal{}, err
		}
		return cdGauss(re, im), nil
	}
	return v, nil
}

func cdFloorRat(r *big.Rat) *big.Int {
	// Euclidean division by the positive denominator is floor division.
	return new(big.Int).Div(r.Num(), r.Denom())
}

func (p *cdParser) floorDiv(a, b cdVal) (cdVal, error) {
	half := big.NewRat(1, 2)
	switch {
	case a.k == cdNaN || b.k == cdNaN:
		return cdVal{k: cdNaN}, nil
	case a.k == cdG || b.k == cdG:
		if b.isZero() && a.k == cdQ {
			return cdVal{}, errCdPython
		}
		q, err := p.div(a, b)
		if err != nil {
			return cdVal{}, err
		}
		return p.floor(q)
	case a.isInt():
		// Integer.__floordiv__, and Number.__divmod__ for a non-Integer b.
		switch {
		case b.k == cdZoo:
			return cdRatI64(0), nil
		case b.k == cdCplx:
			if a.isZero() {
				return a, nil
			}
			return cdVal{k: cdCplx}, nil
		case b.isZero():
			return cdVal{}, errCdPython
		}
		r, err := b.rat()
		if err != nil {
			return cdVal{}, err
		}
		if err := p.charge(cdRatBits(a.q) + cdRatBits(r)); err != nil {
			return cdVal{}, err
		}
		rat := new(big.Rat).Quo(a.q, r)
		if b.isInt() {
			return p.exact(new(big.Rat).SetInt(cdFloorRat(rat)))
		}
		// w = int(rat) if rat >= 0 else int(rat) - 1, then one step up
		// when self - other*w equals other as a Float (a Rational
		// remainder never equals a Float in sympy).
		w := new(big.Int).Quo(rat.Num(), rat.Denom())
		if rat.Sign() < 0 {
			w.Sub(w, big.NewInt(1))
		}
		if b.k == cdF {
			prec := b.f.Prec()
			prod := new(big.Float).SetPrec(prec).Mul(b.f, new(big.Float).SetPrec(prec).SetInt(w))
			rem := new(big.Float).SetPrec(prec).Sub(new(big.Float).SetPrec(prec).SetRat(a.q), prod)
			if rem.Cmp(b.f) == 0 {
				w.Add(w, big.NewInt(1))
			}
		}
		return p.exact(new(big.Rat).SetInt(w))
	case a.k == cdQ && b.isInt() && a.q.Cmp(half) != 0:
		// Integer.__rfloordiv__ takes precedence (Integer subclasses
		// Rational): Integer(a), truncated, floor-divided by b. S.Half
		// is a class of its own, so 1/2 takes the generic path.
		if b.isZero() {
			return cdVal{}, errCdPython
		}
		t := new(big.Int).Quo(a.q.Num(), a.q.Denom())
		return p.exact(new(big.Rat).SetInt(cdFloorRat(new(big.Rat).SetFrac(t, b.q.Num()))))
	case a.k == cdF && b.k == cdF && b.isZero():
		return cdVal{}, errCdPython
	}
	// Expr.__floordiv__: floor(a / b).
	q, err := p.div(a, b)
	if err != nil {
		return cdVal{}, err
	}
	return p.floor(q)
}

func (p *cdParser) mod(a, b cdVal) (cdVal, error) {
	switch {
	case b.isZero():
		if a.k == cdF && b.k == cdQ && a.f.Sign() > 0 && a.f.MantExp(nil) < 0 {
			// mpf_mod returns s unchanged when t's exponent (zero's is 0)
			// exceeds s's top bit, before it would divide by zero.
			return a, nil
		}
		return cdVal{}, errCdPython
	case a.k == cdNaN || b.k == cdNaN || a.k == cdZoo || b.k == cdZoo:
		return cdVal{k: cdNaN}, nil
	case a.k == cdCplx || b.k == cdCplx || a.k == cdG || b.k == cdG:
		if a.isZero() || (a.k == cdG && cdEqual(a, b)) {
			return cdRatI64(0), nil
		}
		return cdVal{k: cdCplx}, nil
	}
	ra, err := a.rat()
	if err != nil {
		return cdVal{}, err
	}
	rb, err := b.rat()
	if err != nil {
		return cdVal{}, err
	}
	if err := p.charge(2 * (cdRatBits(ra) + cdRatBits(rb))); err != nil {
		return cdVal{}, err
	}
	if a.k == cdF && b.k == cdF {
		// Float % Float is 0 when the rounded quotient is an integer.
		prec := cdPrec(a, b)
		q := new(big.Float).SetPrec(prec).Quo(a.f, b.f)
		if q.IsInt() {
			return cdFloat(new(big.Float).SetPrec(prec)), nil
		}
	}
	n := cdFloorRat(new(big.Rat).Quo(ra, rb))
	r := new(big.Rat).Sub(ra, new(big.Rat).Mul(rb, new(big.Rat).SetInt(n)))
	if a.k == cdQ && b.k == cdQ {
		return p.exact(r)
	}
	f := new(big.Float).SetPrec(cdPrec(a, b)).SetRat(r)
	if (a.k == cdF && b.k == cdF) || (a.k == cdF && b.isInt()) {
		// mpf_mod through Float._new.
		return cdFloatRes(f)
	}
	// Float(Rational remainder, precision): a zero stays a Float.
	return cdFinite(f)
}

func (p *cdParser) bitwise(op string, a, b cdVal) (cdVal, error) {
	if !a.isInt() || !b.isInt() {
		return cdVal{}, errCdPython
	}
	x, y := a.q.Num(), b.q.Num()
	if err := p.charge(x.BitLen() + y.BitLen()); err != nil {
		return cdVal{}, err
	}
	z := new(big.Int)
	switch op {
	case "&":
		z.And(x, y)
	case "|":
		z.Or(x, y)
	case "^":
		z.Xor(x, y)
	case "<<", ">>":
		if y.Sign() < 0 {
			return cdVal{}, errCdPython // negative shift count
		}
		if op == ">>" {
			if !y.IsInt64() || y.Int64() > int64(x.BitLen()) {
				if x.Sign() < 0 {
					return cdRatI64(-1), nil
				}
				return cdRatI64(0), nil
			}
			return cdRatInt(z.Rsh(x, uint(y.Int64()))), nil
		}
		if x.Sign() == 0 {
			return cdRatI64(0), nil
		}
		if !y.IsInt64() || y.Int64()+int64(x.BitLen()) > cdMaxBits {
			if !y.IsInt64() || y.Int64() > math.MaxInt32 {
				return cdVal{}, errCdPython
			}
			f := new(big.Float).SetPrec(53).SetInt(x)
			return cdFinite(f.SetMantExp(f, int(y.Int64())))
		}
		return cdRatInt(z.Lsh(x, uint(y.Int64()))), nil
	}
	return cdRatInt(z), nil
}

// cdEqual is sympy's == on two values: same kind and same value (a Float
// never equals a Rational in sympy 1.13+).
func cdEqual(a, b cdVal) bool {
	if a.k != b.k {
		return false
	}
	switch a.k {
	case cdQ:
		return a.q.Cmp(b.q) == 0
	case cdF:
		return a.f.Cmp(b.f) == 0
	case cdZoo, cdNaN:
		return true
	case cdG:
		return cdEqual(*a.re, *b.re) && cdEqual(*a.im, *b.im)
	}
	return false
}

// ---- literals ----

// cdLiteral is auto_number: Integer(text), Float('text') or
// Float/Integer(text)*I for imaginary literals.
func cdLiteral(text string, kind byte) (cdVal, error) {
	clean := strings.ReplaceAll(text, "_", "")
	switch kind {
	case 'x':
		n, ok := new(big.Int).SetString(clean, 0)
		if !ok {
			return cdVal{}, errCdPython
		}
		return cdRatInt(n), nil
	case 'd':
		if strings.Trim(clean, "0") != "" && len(clean) > 4300 {
			return cdVal{}, errCdPython // int max str digits
		}
		if len(clean) > 1 && clean[0] == '0' && strings.Trim(clean, "0") != "" {
			return cdVal{}, errCdPython // leading zeros (from an imaginary literal)
		}
		n, ok := new(big.Int).SetString(clean, 10)
		if !ok {
			return cdVal{}, errCdPython
		}
		return cdRatInt(n), nil
	}
	return cdFloatLiteral(clean)
}

// cdFloatLiteral is sympy's Float of a decimal string: the exact decimal
// value rounded to the precision of its digit count (at least 15 digits).
func cdFloatLiteral(s string) (cdVal, error) {
	mant, exp := s, int64(0)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.ParseInt(s[i+1:], 10, 64)
		if err != nil {
			if len(strings.TrimLeft(s[i+1:], "+-0")) > 18 {
				return cdVal{}, errCdPython
			}
			return cdVal{}, errCdPython
		}
		exp = e
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	digits := intPart + frac
	exp -= int64(len(frac))
	coef, ok := new(big.Int).SetString("0"+digits, 10)
	if !ok {
		return cdVal{}, errCdPython
	}
	// The Decimal's digit count, as sympy's _decimal_to_Rational_prec sees it.
	dps := len(strings.TrimLeft(digits, "0"))
	if dps == 0 {
		dps = 1
	}
	if !strings.Contains(s, ".") && coef.Sign() != 0 && exp >= 0 {
		// An integer-valued literal without a point: at least as many
		// digits as the integer has.
		dps = max(dps, len(coef.String())+int(min(exp, 1<<20)))
	}
	dps = max(dps, 15)
	prec := uint(math.Round(float64(dps+1) * 3.3219280948873626))
	prec = min(max(prec, 1), cdMaxPrec)
	if coef.Sign() == 0 {
		return cdFloat(new(big.Float).SetPrec(prec)), nil
	}
	if exp >= -100000 && exp <= 100000 {
		ten := new(big.Int).Exp(big.NewInt(10), big.NewInt(cdAbs64(exp)), nil)
		q := new(big.Rat).SetInt(coef)
		if exp >= 0 {
			q.Mul(q, new(big.Rat).SetInt(ten))
		} else {
			q.Quo(q, new(big.Rat).SetInt(ten))
		}
		return cdFloat(new(big.Float).SetPrec(prec).SetRat(q)), nil
	}
	// Far out of range: approximate 10**exp by repeated squaring.
	if exp > 1<<30 || exp < -(1<<30) {
		return cdVal{}, errCdPython
	}
	work := prec + 64
	p := new(big.Float).SetPrec(work).SetInt64(1)
	base := new(big.Float).SetPrec(work).SetInt64(10)
	for e := cdAbs64(exp); e > 0; e >>= 1 {
		if e&1 == 1 {
			p.Mul(p, base)
		}
		base.Mul(base, base)
		if p.IsInf() || base.IsInf() {
			return cdVal{}, errCdPython
		}
	}
	c := new(big.Float).SetPrec(work).SetInt(coef)
	if exp >= 0 {
		c.Mul(c, p)
	} else {
		c.Quo(c, p)
	}
	return cdFinite(new(big.Float).SetPrec(prec).Set(c))
}

func cdAbs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// ---- powers ----

func (p *cdParser) pow(a, b cdVal) (cdVal, error) {
	if a.k == cdBool || b.k == cdBool {
		return cdVal{}, errCdPython
	}
	switch {
	case b.k == cdQ && b.q.Sign() == 0:
		return cdRatI64(1), nil
	case b.k == cdF && b.f.Sign() == 0:
		if a.k == cdZoo || a.k == cdNaN {
			return cdVal{k: cdNaN}, nil
		}
		if a.k == cdF {
			return cdFloat(new(big.Float).SetPrec(a.f.Prec()).SetInt64(1)), nil
		}
		return cdRatI64(1), nil
	case a.k == cdNaN || b.k == cdNaN || b.k == cdZoo:
		return cdVal{k: cdNaN}, nil
	case a.k == cdZoo:
		if b.k == cdCplx || b.k == cdG {
			return cdVal{k: cdCplx}, nil
		}
		if b.sign() > 0 {
			return cdVal{k: cdZoo}, nil
		}
		return cdRatI64(0), nil
	case b.k == cdCplx || b.k == cdG:
		if a.isZero() {
			return cdVal{k: cdNaN}, nil
		}
		if a.k == cdQ && a.q.Cmp(big.NewRat(1, 1)) == 0 {
			return a, nil
		}
		return cdVal{k: cdCplx}, nil
	case a.k == cdCplx:
		return cdVal{k: cdCplx}, nil
	case a.k == cdG:
		// Integer powers of an exact complex value stay exact.
		var n *big.Int
		if b.isInt() {
			n = b.q.Num()
		} else if b.k == cdF && b.f.IsInt() && b.f.MantExp(nil) <= 62 {
			n, _ = b.f.Int(nil)
		}
		if n == nil || !n.IsInt64() || cdAbs64(n.Int64()) > 4096 {
			return cdVal{k: cdCplx}, nil
		}
		v, err := p.gaussPow(a, n.Int64())
		if err != nil || b.k != cdF {
			return v, err
		}
		// A Float exponent gives Float parts.
		re, im := v.parts()
		toF := func(x cdVal) (cdVal, error) {
			if x.k == cdQ {
				return cdFloatRes(new(big.Float).SetPrec(b.f.Prec()).SetRat(x.q))
			}
			return x, nil
		}
		if re, err = toF(re); err != nil {
			return cdVal{}, err
		}
		if im, err = toF(im); err != nil {
			return cdVal{}, err
		}
		return cdGauss(re, im), nil
	}
	// Both real and finite, b nonzero.
	if a.isZero() {
		if b.sign() < 0 {
			return cdVal{k: cdZoo}, nil
		}
		return a, nil
	}
	if a.k == cdQ && a.q.Cmp(big.NewRat(1, 1)) == 0 {
		return a, nil
	}
	if b.isInt() {
		return p.powInt(a, b.q.Num())
	}
	if b.k == cdF && b.f.IsInt() {
		// An integer-valued Float exponent: a real result, as a Float.
		if b.f.MantExp(nil) > 62 {
			// Far too big to matter exactly (and even, as the mantissa
			// ends in zero bits).
			prec := cdPrec(a, b)
			return cdFinite(cdPowReal(new(big.Float).Abs(a.toFloat(prec)), b.f, prec))
		}
		n, _ := b.f.Int(nil)
		v, err := p.powInt(a, n)
		if err != nil || v.k != cdQ {
			return v, err
		}
		return cdFinite(new(big.Float).SetPrec(b.f.Prec()).SetRat(v.q))
	}
	if a.sign() < 0 {
		// (-x)**(p/2) = x**(p/2) * I**p, exact when x is a perfect square.
		if a.k == cdQ && b.k == cdQ && b.q.Denom().Cmp(big.NewInt(2)) == 0 {
			if v, ok, err := p.powRoot(new(big.Rat).Neg(a.q), b.q); err != nil || ok {
				if err != nil || v.k != cdQ {
					return cdVal{k: cdCplx}, err
				}
				unit, err := p.gaussPow(cdGauss(cdRatI64(0), cdRatI64(1)), new(big.Int).Mod(b.q.Num(), big.NewInt(4)).Int64())
				if err != nil {
					return cdVal{}, err
				}
				return p.mul(v, unit)
			}
		}
		return cdVal{k: cdCplx}, nil
	}
	if a.k == cdQ && b.k == cdQ {
		if v, ok, err := p.powRoot(a.q, b.q); ok || err != nil {
			return v, err
		}
		// An irrational power stays symbolic; float() evaluates it with
		// evalf: 57 bits rounded down, then rounded to 53.
		if err := p.charge(cdRatBits(a.q) + cdRatBits(b.q) + 1<<16); err != nil {
			return cdVal{}, err
		}
		x := new(big.Float).SetPrec(200).SetRat(a.q)
		y := new(big.Float).SetPrec(200).SetRat(b.q)
		v := cdPowReal(x, y, 200)
		v = new(big.Float).SetPrec(57).SetMode(big.ToZero).Set(v)
		return cdFinite(new(big.Float).SetPrec(53).Set(v))
	}
	// Float powers: base and exponent rounded to the Float precision,
	// then mpf_pow, correctly rounded.
	prec := cdPrec(a, b)
	if err := p.charge(int(prec) * 1024); err != nil {
		return cdVal{}, err
	}
	v := cdPowReal(a.toFloat(prec), b.toFloat(prec), prec+96)
	return cdFinite(new(big.Float).SetPrec(prec).Set(v))
}

// cdLn2 returns log(2) to prec bits.
func cdLn2(prec uint) *big.Float {
	third := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), new(big.Float).SetPrec(prec).SetInt64(3))
	return cdAtanh2(third, prec)
}

// cdAtanh2 is 2*atanh(z) for |z| <= 1/3 by its power series.
func cdAtanh2(z *big.Float, prec uint) *big.Float {
	sum := new(big.Float).SetPrec(prec).Set(z)
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	pw := new(big.Float).SetPrec(prec).Set(z)
	term := new(big.Float).SetPrec(prec)
	for k := int64(3); ; k += 2 {
		pw.Mul(pw, z2)
		term.Quo(pw, new(big.Float).SetPrec(prec).SetInt64(k))
		if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-int(prec)-4 {
			break
		}
		sum.Add(sum, term)
	}
	return sum.Mul(sum, big.NewFloat(2))
}

// cdLog is log(x) for x > 0 to about prec bits.
func cdLog(x *big.Float, prec uint) *big.Float {
	m := new(big.Float).SetPrec(prec)
	e := x.MantExp(m) // x = m * 2**e, m in [0.5, 1)
	one := new(big.Float).SetPrec(prec).SetInt64(1)
	num := new(big.Float).SetPrec(prec).Sub(m, one)
	den := new(big.Float).SetPrec(prec).Add(m, one)
	res := cdAtanh2(num.Quo(num, den), prec)
	if e != 0 {
		l2 := cdLn2(prec)
		res.Add(res, l2.Mul(l2, new(big.Float).SetPrec(prec).SetInt64(int64(e))))
	}
	return res
}

// cdExp is exp(t) to about prec bits, for |t| within big.Float's exponent
// range (the caller checks).
func cdExp(t *big.Float, prec uint) *big.Float {
	tf, _ := t.Float64()
	kf := math.Round(tf / math.Ln2)
	work := prec + 16 + uint(cdBitLen(int64(math.Abs(kf))))
	l2 := cdLn2(work)
	r := new(big.Float).SetPrec(work).Sub(new(big.Float).SetPrec(work).Set(t),
		l2.Mul(l2, new(big.Float).SetPrec(work).SetInt64(int64(kf))))
	// exp(r) = exp(r / 2**8) ** (2**8)
	const halvings = 8
	r.SetMantExp(r, -halvings)
	sum := new(big.Float).SetPrec(work).SetInt64(1)
	term := new(big.Float).SetPrec(work).SetInt64(1)
	for n := int64(1); n < 100000; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(work).SetInt64(n))
		if term.Sign() == 0 || term.MantExp(nil) < -int(work)-4 {
			break
		}
		sum.Add(sum, term)
	}
	for i := 0; i < halvings; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(kf))
}

func cdBitLen(x int64) int {
	n := 0
	for x > 0 {
		n++
		x >>= 1
	}
	return n
}

// cdPowReal is x**y for x > 0 to about prec bits; beyond big.Float's
// exponent range it gives an infinity (saturated by cdFinite) or zero.
func cdPowReal(x, y *big.Float, prec uint) *big.Float {
	yf, _ := y.Float64()
	mant := new(big.Float)
	e := x.MantExp(mant)
	mf, _ := mant.Float64()
	lg := yf * (math.Log2(mf) + float64(e)) // log2 of the result
	if lg > float64(math.MaxInt32)-64 {
		return new(big.Float).SetInf(false)
	}
	if lg < -float64(math.MaxInt32)+64 {
		return new(big.Float).SetPrec(prec)
	}
	work := prec + 32 + uint(cdBitLen(int64(math.Abs(lg))+1))
	l := cdLog(new(big.Float).SetPrec(work).Set(x), work)
	l.Mul(l, new(big.Float).SetPrec(work).Set(y))
	return cdExp(l, work)
}

// gaussPow raises an exact complex value to a small integer power.
func (p *cdParser) gaussPow(a cdVal, n int64) (cdVal, error) {
	res := cdRatI64(1)
	base := a
	var err error
	for e := cdAbs64(n); e > 0; e >>= 1 {
		if e&1 == 1 {
			if res, err = p.mul(res, base); err != nil {
				return cdVal{}, err
			}
		}
		if e > 1 {
			if base, err = p.mul(base, base); err != nil {
				return cdVal{}, err
			}
		}
	}
	if n < 0 {
		return p.div(cdRatI64(1), res)
	}
	return res, nil
}

// powInt raises a nonzero real value to an integer power exactly (a Float
// result is the exact power rounded to the Float's precision).
func (p *cdParser) powInt(a cdVal, n *big.Int) (cdVal, error) {
	r, err := a.rat()
	if err != nil {
		return cdVal{}, err
	}
	bits := int64(cdRatBits(r))
	if !n.IsInt64() || cdAbs64(n.Int64()) > cdMaxBits || bits*cdAbs64(n.Int64()) > cdMaxBits {
		// Too big to compute exactly: continue as a float.
		prec := uint(53)
		if a.k == cdF {
			prec = a.f.Prec()
		}
		if !n.IsInt64() || cdAbs64(n.Int64()) > 1<<40 {
			nf, _ := new(big.Float).SetInt(n).Float64()
			f := cdPowReal(new(big.Float).Abs(a.toFloat(prec)), big.NewFloat(nf), prec)
			if a.sign() < 0 && n.Bit(0) == 1 {
				f.Neg(f)
			}
			return cdFinite(f)
		}
		return cdFinite(cdPowFloatInt(a.toFloat(prec+64), n.Int64(), prec))
	}
	if err := p.charge(int(bits * cdAbs64(n.Int64()))); err != nil {
		return cdVal{}, err
	}
	e := new(big.Int).Abs(n)
	num := new(big.Int).Exp(r.Num(), e, nil)
	den := new(big.Int).Exp(r.Denom(), e, nil)
	var q *big.Rat
	if n.Sign() < 0 {
		q = new(big.Rat).SetFrac(den, num)
	} else {
		q = new(big.Rat).SetFrac(num, den)
	}
	if a.k == cdF {
		return cdFinite(new(big.Float).SetPrec(a.f.Prec()).SetRat(q))
	}
	return p.exact(q)
}

// powRoot is a positive rational to a non-integer rational power when the
// result is rational (sympy evaluates perfect powers exactly).
func (p *cdParser) powRoot(a, b *big.Rat) (cdVal, bool, error) {
	den := b.Denom()
	if !den.IsInt64() || den.Int64() > 4096 {
		return cdVal{}, false, nil
	}
	k := den.Int64()
	rn, ok1 := cdNthRoot(a.Num(), k)
	rd, ok2 := cdNthRoot(a.Denom(), k)
	if !ok1 || !ok2 {
		return cdVal{}, false, nil
	}
	v, err := p.powInt(cdRat(new(big.Rat).SetFrac(rn, rd)), b.Num())
	return v, true, err
}

// cdNthRoot returns the exact k-th root of n >= 1, if it is an integer,
// by Newton's iteration from an overestimate.
func cdNthRoot(n *big.Int, k int64) (*big.Int, bool) {
	if n.Cmp(big.NewInt(1)) == 0 {
		return big.NewInt(1), true
	}
	bl := int64(n.BitLen())
	if k >= bl {
		return nil, false // 1 < root < 2
	}
	// Overestimate from the top 64 bits: 2**(log2(n)/k) * (1 + 2**-30).
	shift := max(bl-64, 0)
	top, _ := new(big.Float).SetInt(new(big.Int).Rsh(n, uint(shift))).Float64()
	lg := (math.Log2(top) + float64(shift)) / float64(k)
	ip := math.Floor(lg)
	x := new(big.Int)
	m := math.Exp2(lg-ip) * (1 + 1.0/(1<<30))
	if ip >= 52 {
		x.SetUint64(uint64(m * (1 << 52)))
		x.Lsh(x, uint(ip-52))
	} else {
		x.SetUint64(uint64(m*math.Exp2(ip)) + 1)
	}
	x.Add(x, big.NewInt(1))
	kk := big.NewInt(k)
	km1 := big.NewInt(k - 1)
	t := new(big.Int)
	y := new(big.Int)
	for i := 0; i < 10000; i++ {
		// y = ((k-1) x + n / x**(k-1)) / k
		t.Exp(x, km1, nil)
		t.Quo(n, t)
		y.Mul(x, km1)
		y.Add(y, t)
		y.Quo(y, kk)
		if y.Cmp(x) >= 0 {
			break
		}
		x, y = y, x
	}
	if t.Exp(x, kk, nil).Cmp(n) == 0 {
		return x, true
	}
	return nil, false
}

// cdPowFloatInt is a**n by repeated squaring in floating point.
func cdPowFloatInt(a *big.Float, n int64, prec uint) *big.Float {
	work := a.Prec()
	res := new(big.Float).SetPrec(work).SetInt64(1)
	base := new(big.Float).SetPrec(work).Set(a)
	for e := cdAbs64(n); e > 0; e >>= 1 {
		if e&1 == 1 {
			res.Mul(res, base)
		}
		if res.IsInf() || base.IsInf() {
			return new(big.Float).SetInf(false)
		}
		if e > 1 {
			base.Mul(base, base)
		}
	}
	if n < 0 {
		if res.Sign() == 0 {
			return new(big.Float).SetInf(false)
		}
		res.Quo(new(big.Float).SetPrec(work).SetInt64(1), res)
	}
	return new(big.Float).SetPrec(prec).Set(res)
}

// ---- factorials ----

func (p *cdParser) factorial(v cdVal) (cdVal, error) {
	if v.isZero() {
		return cdRatI64(1), nil
	}
	switch v.k {
	case cdNaN:
		return v, nil
	case cdZoo, cdCplx, cdG:
		return cdVal{k: cdCplx}, nil
	case cdQ:
		if v.q.IsInt() {
			n := v.q.Num()
			if n.Sign() < 0 {
				return cdVal{k: cdZoo}, nil
			}
			if !n.IsInt64() || n.Int64() > 60000 {
				nf, _ := new(big.Float).SetInt(n).Float64()
				return cdFinite(cdGammaBig(nf + 1))
			}
			if err := p.charge(int(n.Int64()) * 17); err != nil {
				return cdVal{}, err
			}
			return p.exact(new(big.Rat).SetInt(new(big.Int).MulRange(1, n.Int64())))
		}
	case cdF:
		if v.f.IsInt() && v.f.Sign() < 0 {
			return cdVal{}, errCdPython // gamma function pole
		}
		if v.f.IsInt() && v.f.Cmp(big.NewFloat(60000)) <= 0 {
			// Integer-valued: the exact factorial, rounded.
			n, _ := v.f.Int64()
			if err := p.charge(int(n) * 17); err != nil {
				return cdVal{}, err
			}
			return cdFinite(new(big.Float).SetPrec(v.f.Prec()).SetInt(new(big.Int).MulRange(1, n)))
		}
	}
	var x float64
	if v.k == cdF {
		x, _ = v.f.Float64()
	} else {
		x, _ = v.q.Float64()
	}
	prec := uint(53)
	if v.k == cdF {
		prec = v.f.Prec()
	}
	g := cdGammaBig(x + 1)
	return cdFinite(new(big.Float).SetPrec(prec).Set(g))
}

// cdGammaBig is gamma(x) as a big.Float, through lgamma when it overflows
// a float64.
func cdGammaBig(x float64) *big.Float {
	if g := math.Gamma(x); !math.IsInf(g, 0) && !math.IsNaN(g) && (g != 0 || x > 0) {
		return new(big.Float).SetPrec(53).SetFloat64(g)
	}
	lg, sign := math.Lgamma(x)
	l2 := lg / math.Ln2
	if math.IsInf(l2, 0) || math.IsNaN(l2) || math.Abs(l2) > math.MaxInt32-64 {
		return new(big.Float).SetInf(false)
	}
	ip := math.Floor(l2)
	res := new(big.Float).SetPrec(53).SetFloat64(float64(sign) * math.Exp2(l2-ip))
	return res.SetMantExp(res, int(ip))
}

// cdFactorial2 is sympy's factorial2: defined for nonnegative integers
// and negative odd integers only.
func cdFactorial2(v cdVal) (cdVal, error) {
	switch v.k {
	case cdZoo, cdCplx, cdG:
		return cdVal{k: cdCplx}, nil
	case cdQ:
		if !v.q.IsInt() {
			return cdVal{}, errCdPython
		}
		n := v.q.Num()
		if !n.IsInt64() || cdAbs64(n.Int64()) > 100000 {
			if n.Sign() > 0 && n.IsInt64() && n.Int64() <= 1<<40 {
				// n!! ~ sqrt(2^n * gamma(n/2+1)^2 ...): approximate via lgamma.
				k := float64(n.Int64())
				lg, _ := math.Lgamma(k/2 + 1)
				l2 := (k/2)*1 + lg/math.Ln2
				if int64(k)%2 == 1 {
					l2 += 0.5*math.Log2(2/math.Pi) + 0 // odd: n!! = 2^(n/2) gamma(n/2+1) sqrt(2/pi)
				}
				ip := math.Floor(l2)
				res := new(big.Float).SetPrec(53).SetFloat64(math.Exp2(l2 - ip))
				return cdFinite(res.SetMantExp(res, int(ip)))
			}
			return cdVal{}, errCdPython
		}
		m := n.Int64()
		if m < 0 {
			if m%2 == 0 {
				return cdVal{}, errCdPython
			}
			// (2k-1)!! for negative odd n: n!! = (n+2)!! / (n+2).
			r := big.NewRat(1, 1)
			for k := int64(-1); k > m; k -= 2 {
				r.Quo(r, big.NewRat(k, 1))
			}
			return cdRat(r), nil
		}
		res := big.NewInt(1)
		for k := m; k > 1; k -= 2 {
			res.Mul(res, big.NewInt(k))
		}
		return cdRatInt(res), nil
	}
	return cdVal{}, errCdPython
}
