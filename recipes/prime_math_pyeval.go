package recipes

import (
	"math"
	"math/big"
	"strings"
)

// Python's eval() of the text the grader's handle_pi builds ("2\pi" becomes
// "2*3.141592653589793", "\frac{\pi}{2}" becomes "\frac{1*3.14...}{2}"):
// veRL keeps the value when eval succeeds and the text when it raises. The
// arithmetic of int and float literals is reproduced (+ - * / // % **,
// unary signs, the bitwise operators on ints); text Python cannot compile
// (a backslash, two operands side by side) or names it does not define
// fail as in veRL. Anything that might evaluate otherwise (a name the
// grader module defines, brackets, commas, strings, comparisons) is
// pmUndecided.

// pyNum is an int or a float result of eval.
type pyNum struct {
	i     *big.Int // set for an int
	f     float64
	isInt bool
}

// pyEvalFail is eval raising; the value is not used.
type pyEvalFail struct{}

// graderGlobals are names eval could find in the grader module or the
// builtins; text using one is not guessed.
var graderGlobals = map[string]bool{
	"math": true, "re": true, "isclose": true, "N": true, "simplify": true, "parse_latex": true, "parse_expr": true,
	"contextlib": true, "timeout_limit": true, "is_digit": true, "normalize": true, "handle_base": true,
	"handle_pi": true, "math_equal": true, "symbolic_equal": true, "format_intervals": true, "abs": true,
	"int": true, "float": true, "round": true, "min": true, "max": true, "pow": true, "len": true, "sum": true,
	"True": true, "False": true, "None": true, "bool": true, "str": true, "complex": true, "divmod": true,
	"hash": true, "id": true, "ord": true, "chr": true, "hex": true, "oct": true, "bin": true, "eval": true,
	"exec": true, "print": true, "input": true, "open": true, "list": true, "dict": true, "set": true,
	"tuple": true, "range": true, "all": true, "any": true, "type": true, "object": true, "vars": true,
	"dir": true, "globals": true, "locals": true, "iter": true, "next": true, "map": true, "filter": true,
	"zip": true, "sorted": true, "reversed": true, "repr": true, "ascii": true, "format": true,
	"callable": true, "getattr": true, "hasattr": true, "isinstance": true, "issubclass": true,
	"__import__": true, "__name__": true, "__file__": true, "__doc__": true, "__builtins__": true,
	"__spec__": true, "__loader__": true, "__package__": true, "__cached__": true, "breakpoint": true,
	"compile": true, "delattr": true, "setattr": true, "frozenset": true, "bytes": true, "bytearray": true,
	"memoryview": true, "property": true, "staticmethod": true, "classmethod": true, "super": true,
	"slice": true, "enumerate": true, "help": true, "exit": true, "quit": true, "copyright": true,
	"credits": true, "license": true, "Ellipsis": true, "NotImplemented": true, "aiter": true, "anext": true,
}

// pyKeywords make the text something other than arithmetic.
var pyKeywords = map[string]bool{
	"and": true, "or": true, "not": true, "if": true, "else": true, "in": true, "is": true, "lambda": true,
	"for": true, "await": true, "yield": true, "None": true, "True": true, "False": true,
}

// nfkcMayChange reports letters whose NFKC form differs (fullwidth and
// mathematical letters, ligatures, the long s, ...): Python normalizes
// identifiers, so such a name might spell a defined one.
func nfkcMayChange(r rune) bool {
	switch {
	case r == 0xaa || r == 0xb5 || r == 0xba || r == 0x17f:
		return true
	case r >= 0x2070 && r <= 0x218f, r >= 0x3000 && r <= 0x33ff, r >= 0xfb00 && r <= 0xfb4f,
		r >= 0xfe00 && r <= 0xffef, r >= 0x1d400 && r <= 0x1d7ff, r >= 0x1c80 && r <= 0x1dbf:
		return true
	}
	return false
}

type pyTok struct {
	num  *pyNum
	name string
	op   string
}

// pyEval evaluates s as Python's eval would; ok is false where it raises.
func pyEval(s string, w *pmWork) (v pyNum, ok bool) {
	w.step(len(s))
	if strings.ContainsAny(s, "'\"#\r") {
		undecided("eval of text with quotes or comments")
	}
	if strings.Contains(s, "}{") {
		return pyNum{}, false // a display followed by "{": a SyntaxError
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && (i+1 >= len(s) || s[i+1] != '\n') {
			return pyNum{}, false // unexpected character after line continuation
		}
	}
	if k := strings.IndexByte(s, '\n'); k >= 0 {
		// A line break outside brackets between two pieces of text ends
		// the expression early: a SyntaxError.
		if strings.ContainsAny(s, "([{") {
			undecided("eval of text over several lines")
		}
		if strings.TrimSpace(s[:k]) != "" && strings.TrimSpace(s[k:]) != "" {
			return pyNum{}, false
		}
		undecided("eval of text with a line break")
	}
	toks, ok := pyTokens(s)
	if !ok {
		return pyNum{}, false
	}
	p := &pyParser{toks: toks, w: w}
	defer func() {
		if r := recover(); r != nil {
			if _, fail := r.(pyEvalFail); fail {
				v, ok = pyNum{}, false
				return
			}
			panic(r)
		}
	}()
	if len(toks) == 0 {
		return pyNum{}, false
	}
	// A syntax check first: Python compiles the whole text before running it.
	if !p.syntaxOK() {
		return pyNum{}, false
	}
	for _, t := range toks {
		if t.name != "" {
			if graderGlobals[t.name] {
				undecided("eval of a name the grader defines")
			}
			return pyNum{}, false // NameError
		}
	}
	p.i = 0
	return p.or(), true
}

func pyTokens(s string) ([]pyTok, bool) {
	var out []pyTok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			n, isF := pyNumberLen(s[i:])
			lit := s[i : i+n]
			e := i + n
			if e < len(s) && (isASCIILetter(s[e]) || s[e] == '_' || s[e] >= 0x80) {
				j := e
				for j < len(s) && (isASCIILetter(s[j]) || s[j] == '_') {
					j++
				}
				if s[e] == 'j' || s[e] == 'J' || s[e] == '_' || pyKeywords[s[e:j]] || s[e] >= 0x80 {
					undecided("a number literal followed by " + s[e:j])
				}
				return nil, false // invalid decimal literal
			}
			if !isF && len(lit) > 1 && lit[0] == '0' && strings.Trim(lit, "0") != "" {
				return nil, false // leading zeros
			}
			if !isF && e < len(s) && s[e] >= '0' && s[e] <= '9' {
				return nil, false // "0" then digits: leading zeros
			}
			if n >= 2 && lit[0] == '0' && lit[1]|0x20 >= 'a' {
				undecided("a prefixed literal")
			}
			num := &pyNum{isInt: !isF}
			if isF {
				r, ok := new(big.Rat).SetString(lit)
				if !ok {
					undecided("the literal " + lit)
				}
				num.f, _ = r.Float64()
			} else {
				num.i, _ = new(big.Int).SetString(lit, 10)
			}
			out = append(out, pyTok{num: num})
			i = e
		case isASCIILetter(c) || c == '_' || c >= 0x80 && isPyAlpha(firstRune(s[i:])):
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
				if nfkcMayChange(r) {
					undecided("eval of a name NFKC may rewrite")
				}
				j += n
			}
			if pyKeywords[s[i:j]] {
				undecided("eval of a keyword")
			}
			out = append(out, pyTok{name: s[i:j]})
			i = j
		case c >= 0x80:
			return nil, false // invalid character
		case c == '$' || c == '?' || c == '`':
			return nil, false // invalid character
		case c == '.' && !(i+1 < len(s) && (isASCIILetter(s[i+1]) || s[i+1] == '_')):
			return nil, false // a stray "."
		default:
			for _, op := range []string{"**", "//", "<<", ">>", "+", "-", "*", "/", "%", "(", ")", "^", "&", "|", "~"} {
				if strings.HasPrefix(s[i:], op) {
					if (op == "*" || op == "/" || op == "<<" || op == ">>") && i+len(op) < len(s) && s[i+len(op)] == '=' {
						return nil, false // an augmented assignment
					}
					out = append(out, pyTok{op: op})
					i += len(op)
					goto next
				}
			}
			undecided("eval of the character " + string(rune(c)))
		next:
		}
	}
	return out, true
}

type pyParser struct {
	toks  []pyTok
	i     int
	w     *pmWork
	depth int
	check bool // syntax check only
}

func (p *pyParser) peekOp() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].op
	}
	return ""
}

func (p *pyParser) syntaxOK() (ok bool) {
	p.check = true
	defer func() {
		p.check = false
		if r := recover(); r != nil {
			if _, fail := r.(pyEvalFail); fail {
				ok = false
				return
			}
			panic(r)
		}
	}()
	p.or()
	return p.i == len(p.toks)
}

func (p *pyParser) binary(next func() pyNum, ops ...string) pyNum {
	v := next()
	for {
		op := p.peekOp()
		found := false
		for _, o := range ops {
			if op == o {
				found = true
			}
		}
		if !found {
			return v
		}
		p.i++
		rhs := next()
		if !p.check {
			v = pyArith(op, v, rhs, p.w)
		}
	}
}

func (p *pyParser) or() pyNum    { return p.binary(p.xor, "|") }
func (p *pyParser) xor() pyNum   { return p.binary(p.and, "^") }
func (p *pyParser) and() pyNum   { return p.binary(p.shift, "&") }
func (p *pyParser) shift() pyNum { return p.binary(p.sum, "<<", ">>") }
func (p *pyParser) sum() pyNum   { return p.binary(p.term, "+", "-") }
func (p *pyParser) term() pyNum  { return p.binary(p.unary, "*", "/", "//", "%") }

func (p *pyParser) unary() pyNum {
	p.w.step(1)
	switch op := p.peekOp(); op {
	case "-", "+", "~":
		p.i++
		p.depth++
		if p.depth > 100 {
			panic(pmOverBudget{"eval nesting"})
		}
		v := p.unary()
		p.depth--
		if p.check {
			return v
		}
		return pyUnary(op, v)
	}
	base := p.atom()
	if p.peekOp() == "**" {
		p.i++
		p.depth++
		if p.depth > 100 {
			panic(pmOverBudget{"eval nesting"})
		}
		e := p.unary()
		p.depth--
		if p.check {
			return base
		}
		return pyArith("**", base, e, p.w)
	}
	return base
}

func (p *pyParser) atom() pyNum {
	if p.i >= len(p.toks) {
		panic(pyEvalFail{})
	}
	t := p.toks[p.i]
	p.i++
	switch {
	case t.num != nil:
		return *t.num
	case t.name != "":
		if p.check {
			return pyNum{isInt: true, i: big.NewInt(1)}
		}
		panic(pyEvalFail{})
	case t.op == "(":
		if p.peekOp() == ")" {
			undecided("eval of an empty tuple")
		}
		p.depth++
		if p.depth > 100 {
			panic(pmOverBudget{"eval nesting"})
		}
		v := p.or()
		p.depth--
		if p.peekOp() != ")" {
			panic(pyEvalFail{})
		}
		p.i++
		return v
	}
	panic(pyEvalFail{})
}

func pyUnary(op string, v pyNum) pyNum {
	switch op {
	case "+":
		return v
	case "-":
		if v.isInt {
			return pyNum{isInt: true, i: new(big.Int).Neg(v.i)}
		}
		return pyNum{f: -v.f}
	}
	if !v.isInt {
		panic(pyEvalFail{}) // ~ on a float
	}
	return pyNum{isInt: true, i: new(big.Int).Not(v.i)}
}

// toFloat is float(int) in Python: OverflowError past the double range.
func (v pyNum) toFloat() float64 {
	if !v.isInt {
		return v.f
	}
	f, _ := new(big.Float).SetInt(v.i).Float64()
	if math.IsInf(f, 0) {
		panic(pyEvalFail{})
	}
	return f
}

func pyArith(op string, a, b pyNum, w *pmWork) pyNum {
	w.step(1)
	if a.isInt && b.isInt {
		return pyIntArith(op, a.i, b.i, w)
	}
	switch op {
	case "|", "^", "&", "<<", ">>":
		panic(pyEvalFail{}) // unsupported operand types for floats
	}
	x, y := a.toFloat(), b.toFloat()
	var r float64
	switch op {
	case "+":
		r = x + y
	case "-":
		r = x - y
	case "*":
		r = x * y
	case "/":
		if y == 0 {
			panic(pyEvalFail{})
		}
		r = x / y
	case "//", "%":
		if y == 0 {
			panic(pyEvalFail{})
		}
		mod := math.Mod(x, y)
		if mod != 0 && (y < 0) != (mod < 0) {
			mod += y
		}
		if op == "%" {
			r = mod
		} else {
			r = math.Floor((x - mod) / y)
		}
	case "**":
		if x == 0 && y < 0 {
			panic(pyEvalFail{}) // ZeroDivisionError
		}
		if x < 0 && y != math.Trunc(y) {
			undecided("a complex power")
		}
		r = math.Pow(x, y)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			panic(pyEvalFail{}) // OverflowError
		}
	}
	return pyNum{f: r}
}

func pyIntArith(op string, x, y *big.Int, w *pmWork) pyNum {
	w.step((x.BitLen() + y.BitLen()) / 64)
	r := new(big.Int)
	switch op {
	case "+":
		r.Add(x, y)
	case "-":
		r.Sub(x, y)
	case "*":
		r.Mul(x, y)
	case "/":
		if y.Sign() == 0 {
			panic(pyEvalFail{})
		}
		f, _ := new(big.Rat).SetFrac(x, y).Float64()
		if math.IsInf(f, 0) {
			panic(pyEvalFail{})
		}
		return pyNum{f: f}
	case "//", "%":
		if y.Sign() == 0 {
			panic(pyEvalFail{})
		}
		q, m := new(big.Int).DivMod(x, y, new(big.Int))
		// Python floors; DivMod is Euclidean (m >= 0).
		if m.Sign() != 0 && y.Sign() < 0 {
			m.Add(m, y)
			q.Add(q, big.NewInt(1))
		}
		if op == "%" {
			return pyNum{isInt: true, i: m}
		}
		return pyNum{isInt: true, i: q}
	case "**":
		if y.Sign() < 0 {
			return pyArith("**", pyNum{f: pyNum{isInt: true, i: x}.toFloat()}, pyNum{f: pyNum{isInt: true, i: y}.toFloat()}, w)
		}
		if !y.IsInt64() || int64(x.BitLen())*y.Int64() > 1<<20 {
			panic(pmOverBudget{"an integer power over 2^20 bits"})
		}
		w.step(int(int64(x.BitLen()) * y.Int64() / 64))
		r.Exp(x, y, nil)
	case "&":
		r.And(x, y)
	case "|":
		r.Or(x, y)
	case "^":
		r.Xor(x, y)
	case "<<", ">>":
		if y.Sign() < 0 {
			panic(pyEvalFail{})
		}
		if !y.IsInt64() || y.Int64() > 1<<20 {
			if op == ">>" {
				return pyNum{isInt: true, i: big.NewInt(int64(-boolInt(x.Sign() < 0)))}
			}
			panic(pmOverBudget{"a shift over 2^20 bits"})
		}
		if op == "<<" {
			r.Lsh(x, uint(y.Int64()))
		} else {
			r.Rsh(x, uint(y.Int64()))
		}
	}
	return pyNum{isInt: true, i: r}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
