package reasoninggym

import (
	"errors"
	"math/big"
)

// errZeroDivision is Python's exception for x // 0.
var errZeroDivision = errors.New("ZeroDivisionError: integer division or modulo by zero")

// evalFloorDiv is eval(s.replace("/", "//")) for the expressions
// basic_arithmetic builds: integer literals, unary and binary + and -, *,
// / (taken as Python's floor division //), parentheses and spaces, with
// Python's precedence and arbitrary-size integers.
func evalFloorDiv(s string) (*big.Int, error) {
	p := floorDivParser{s: s}
	v, err := p.expr()
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.i != len(p.s) {
		return nil, errors.New("SyntaxError: unexpected text in expression " + s)
	}
	return v, nil
}

// floorDivParser is a recursive-descent evaluator over s from position i;
// depth bounds the nesting as Python's recursion limit does.
type floorDivParser struct {
	s     string
	i     int
	depth int
}

// skip moves past spaces and tabs.
func (p *floorDivParser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// peek is the next non-blank byte, 0 at the end.
func (p *floorDivParser) peek() byte {
	p.skip()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// expr parses terms joined by + and -.
func (p *floorDivParser) expr() (*big.Int, error) {
	v, err := p.term()
	if err != nil {
		return nil, err
	}
	for {
		c := p.peek()
		if c != '+' && c != '-' {
			return v, nil
		}
		p.i++
		w, err := p.term()
		if err != nil {
			return nil, err
		}
		if c == '+' {
			v.Add(v, w)
		} else {
			v.Sub(v, w)
		}
	}
}

// term parses factors joined by *, / and //, all but * as floor division.
func (p *floorDivParser) term() (*big.Int, error) {
	v, err := p.factor()
	if err != nil {
		return nil, err
	}
	for {
		c := p.peek()
		if c != '*' && c != '/' {
			return v, nil
		}
		p.i++
		if c == '/' && p.i < len(p.s) && p.s[p.i] == '/' {
			p.i++ // an explicit //
		}
		w, err := p.factor()
		if err != nil {
			return nil, err
		}
		if c == '*' {
			v.Mul(v, w)
		} else {
			if w.Sign() == 0 {
				return nil, errZeroDivision
			}
			floorDiv(v, v, w)
		}
	}
}

// factor parses a signed factor, a parenthesised expression or an integer.
func (p *floorDivParser) factor() (*big.Int, error) {
	c := p.peek()
	switch {
	case c == '+' || c == '-':
		p.i++
		p.depth++
		if p.depth > 100000 {
			return nil, errors.New("RecursionError: expression nested too deeply")
		}
		v, err := p.factor()
		p.depth--
		if err != nil {
			return nil, err
		}
		if c == '-' {
			v.Neg(v)
		}
		return v, nil
	case c == '(':
		p.i++
		p.depth++
		if p.depth > 100000 {
			return nil, errors.New("RecursionError: expression nested too deeply")
		}
		v, err := p.expr()
		p.depth--
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, errors.New("SyntaxError: '(' was never closed")
		}
		p.i++
		return v, nil
	case c >= '0' && c <= '9':
		j := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		v, ok := new(big.Int).SetString(p.s[j:p.i], 10)
		if !ok {
			return nil, errors.New("SyntaxError: bad integer literal")
		}
		return v, nil
	}
	return nil, errors.New("SyntaxError: invalid syntax")
}
