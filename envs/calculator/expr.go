package calculator

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Limits of the expression evaluator: every expression is evaluated in
// bounded time and memory whatever the model writes.
const (
	// MaxDepth bounds the nesting of parentheses, unary signs and powers.
	MaxDepth = 32
	// MaxDigits bounds the digits of one number literal.
	MaxDigits = 100
	// MaxBits bounds the numerator and denominator of every intermediate
	// result, in bits (about 1,200 decimal digits).
	MaxBits = 4096
)

// EvalError is an expression the calculator cannot evaluate: a syntax
// error, a division by zero, or a limit exceeded.
type EvalError struct {
	Msg string
}

func (e *EvalError) Error() string { return e.Msg }

var errDivZero = &EvalError{Msg: "division by zero"}

// Eval evaluates an arithmetic expression exactly over the rationals:
// integers and decimals, + - * / (true division), ** or ^ (a power with an
// integer exponent, right-associative, binding tighter than a unary sign
// as in Python), unary + and -, and parentheses. maxLen bounds the
// expression's length in bytes.
func Eval(expr string, maxLen int) (*big.Rat, error) {
	v, err := eval(expr, maxLen)
	if err != nil {
		return nil, err
	}
	return v.rat(), nil
}

// EvalText is Format(Eval(expr, maxLen)).
func EvalText(expr string, maxLen int) (string, error) {
	v, err := eval(expr, maxLen)
	if err != nil {
		return "", err
	}
	return v.text(), nil
}

func eval(expr string, maxLen int) (num, error) {
	if len(expr) > maxLen {
		return num{}, &EvalError{Msg: fmt.Sprintf("expression too long: %d characters (the limit is %d)", len(expr), maxLen)}
	}
	p := parser{src: expr}
	p.skip()
	if p.pos == len(p.src) {
		return num{}, &EvalError{Msg: "empty expression"}
	}
	v, err := p.expr(0)
	if err != nil {
		return num{}, err
	}
	p.skip()
	if p.pos < len(p.src) {
		return num{}, p.errorf("unexpected %s", p.describe())
	}
	return v, nil
}

// Format renders a result: an integer as one, a terminating decimal
// exactly, anything else rounded to 12 decimal places.
func Format(v *big.Rat) string {
	if v.IsInt() {
		return v.Num().String()
	}
	d := new(big.Int).Set(v.Denom())
	places := 0
	for _, f := range []int64{2, 5} {
		q, m := new(big.Int), new(big.Int)
		bf := big.NewInt(f)
		for n := 0; ; n++ {
			q.QuoRem(d, bf, m)
			if m.Sign() != 0 {
				places = max(places, n)
				break
			}
			d.Set(q)
		}
	}
	exact := d.Cmp(big.NewInt(1)) == 0
	if !exact {
		places = 12
	}
	s := v.FloatString(places)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

type parser struct {
	src string
	pos int
}

func (p *parser) skip() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n' || p.src[p.pos] == '\r') {
		p.pos++
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return &EvalError{Msg: fmt.Sprintf("syntax error at position %d: %s", p.pos+1, fmt.Sprintf(format, args...))}
}

// describe names what is at the current position, for an error message.
func (p *parser) describe() string {
	if p.pos >= len(p.src) {
		return "end of expression"
	}
	r := []rune(p.src[p.pos:min(len(p.src), p.pos+4)])
	return fmt.Sprintf("%q", string(r[0]))
}

// peekOp returns the operator at the current position ("**" before "*").
func (p *parser) peekOp() string {
	p.skip()
	if p.pos >= len(p.src) {
		return ""
	}
	if strings.HasPrefix(p.src[p.pos:], "**") {
		return "**"
	}
	switch p.src[p.pos] {
	case '+':
		return "+"
	case '-':
		return "-"
	case '*':
		return "*"
	case '/':
		return "/"
	case '^':
		return "^"
	case '(':
		return "("
	case ')':
		return ")"
	}
	return ""
}

// checkSize refuses a value over MaxBits (a value that fits in an int64
// never is).
func checkSize(v num) error {
	if v.r != nil && (v.r.Num().BitLen() > MaxBits || v.r.Denom().BitLen() > MaxBits) {
		return &EvalError{Msg: fmt.Sprintf("result too large (more than %d bits)", MaxBits)}
	}
	return nil
}

// expr := term (("+" | "-") term)*
func (p *parser) expr(depth int) (num, error) {
	v, err := p.term(depth)
	if err != nil {
		return num{}, err
	}
	for {
		op := p.peekOp()
		if op != "+" && op != "-" {
			return v, nil
		}
		p.pos++
		w, err := p.term(depth)
		if err != nil {
			return num{}, err
		}
		v = add(v, w, op == "-")
		if err := checkSize(v); err != nil {
			return num{}, err
		}
	}
}

// term := unary (("*" | "/") unary)*
func (p *parser) term(depth int) (num, error) {
	v, err := p.unary(depth)
	if err != nil {
		return num{}, err
	}
	for {
		op := p.peekOp()
		if op != "*" && op != "/" {
			return v, nil
		}
		p.pos++
		w, err := p.unary(depth)
		if err != nil {
			return num{}, err
		}
		if op == "*" {
			v = mul(v, w)
		} else {
			if w.sign() == 0 {
				return num{}, errDivZero
			}
			v = quo(v, w)
		}
		if err := checkSize(v); err != nil {
			return num{}, err
		}
	}
}

// unary := ("+" | "-") unary | power
func (p *parser) unary(depth int) (num, error) {
	if depth > MaxDepth {
		return num{}, &EvalError{Msg: fmt.Sprintf("expression nested too deeply (more than %d levels)", MaxDepth)}
	}
	switch p.peekOp() {
	case "+":
		p.pos++
		return p.unary(depth + 1)
	case "-":
		p.pos++
		v, err := p.unary(depth + 1)
		if err != nil {
			return num{}, err
		}
		return neg(v), nil
	}
	return p.power(depth)
}

// power := atom (("**" | "^") unary)?
func (p *parser) power(depth int) (num, error) {
	base, err := p.atom(depth)
	if err != nil {
		return num{}, err
	}
	op := p.peekOp()
	if op != "**" && op != "^" {
		return base, nil
	}
	p.pos += len(op)
	exp, err := p.unary(depth + 1)
	if err != nil {
		return num{}, err
	}
	v, err := pow(base.rat(), exp.rat())
	if err != nil {
		return num{}, err
	}
	return bigNum(v), nil
}

// pow raises base to an integer exponent, refusing results over MaxBits
// before computing them.
func pow(base, exp *big.Rat) (*big.Rat, error) {
	if !exp.IsInt() {
		return nil, &EvalError{Msg: "the exponent of a power must be an integer"}
	}
	e := exp.Num()
	if base.Sign() == 0 {
		if e.Sign() < 0 {
			return nil, errDivZero
		}
		if e.Sign() == 0 {
			return big.NewRat(1, 1), nil
		}
		return new(big.Rat), nil
	}
	one := base.Num().CmpAbs(big.NewInt(1)) == 0 && base.IsInt()
	if one { // ±1 to any power
		if base.Sign() < 0 && e.Bit(0) == 1 {
			return big.NewRat(-1, 1), nil
		}
		return big.NewRat(1, 1), nil
	}
	bits := max(base.Num().BitLen(), base.Denom().BitLen())
	if !e.IsInt64() || abs64(e.Int64())*int64(bits-1) > MaxBits {
		return nil, &EvalError{Msg: fmt.Sprintf("result too large (more than %d bits)", MaxBits)}
	}
	n := abs64(e.Int64())
	numer := new(big.Int).Exp(base.Num(), big.NewInt(n), nil)
	den := new(big.Int).Exp(base.Denom(), big.NewInt(n), nil)
	if e.Sign() < 0 {
		numer, den = den, numer
	}
	v := new(big.Rat).SetFrac(numer, den)
	return v, checkSize(bigNum(v))
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// atom := number | "(" expr ")"
func (p *parser) atom(depth int) (num, error) {
	p.skip()
	if p.pos >= len(p.src) {
		return num{}, p.errorf("expected a number or '(', got end of expression")
	}
	c := p.src[p.pos]
	if c == '(' {
		p.pos++
		v, err := p.expr(depth + 1)
		if err != nil {
			return num{}, err
		}
		if p.peekOp() != ")" {
			return num{}, p.errorf("expected ')', got %s", p.describe())
		}
		p.pos++
		return v, nil
	}
	if c >= '0' && c <= '9' || c == '.' {
		return p.number()
	}
	return num{}, p.errorf("expected a number or '(', got %s", p.describe())
}

// number := digits ["." digits] | "." digits
func (p *parser) number() (num, error) {
	start := p.pos
	digits, dots := 0, 0
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c >= '0' && c <= '9' {
			digits++
		} else if c == '.' {
			dots++
		} else {
			break
		}
		p.pos++
	}
	lit := p.src[start:p.pos]
	if dots > 1 || digits == 0 {
		p.pos = start
		return num{}, p.errorf("malformed number %q", lit)
	}
	if digits > MaxDigits {
		p.pos = start
		return num{}, p.errorf("number with more than %d digits", MaxDigits)
	}
	if dots == 0 && digits <= 18 { // an int64: no string parsing nor normalising by big.Rat
		n, _ := strconv.ParseInt(lit, 10, 64)
		return smallNum(n), nil
	}
	v, ok := new(big.Rat).SetString(lit)
	if !ok {
		p.pos = start
		return num{}, p.errorf("malformed number %q", lit)
	}
	return bigNum(v), nil
}

// errorMessage is the message of an evaluation error for the model.
func errorMessage(err error, expr string) string {
	var ee *EvalError
	if errors.As(err, &ee) && len(expr) <= 200 {
		return fmt.Sprintf("%s (in %q)", ee.Msg, expr)
	}
	return err.Error()
}
