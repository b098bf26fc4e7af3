package sympyeval

import (
	"math/big"
)

// parser evaluates the tokens as it parses them, by recursive descent in
// Python's precedence: there is no tree, only values.
type parser struct {
	toks   []token
	pos    int
	budget int64 // big-number work left, in bits (see charge and exact)
	level  int   // recursion guard
}

// nesting tracks what Python's limits look at: the deepest parenthesis
// level and the AST depth of the transformed source.
type nesting struct {
	parens int
	depth  int
}

// peekOp returns the next token when it is one of the operators ops, else "".
func (p *parser) peekOp(ops ...string) string {
	t := p.toks[p.pos]
	if t.kind != tokOp {
		return ""
	}
	for _, o := range ops {
		if t.text == o {
			return o
		}
	}
	return ""
}

// enter counts one level of recursion, refusing inputs nested deeper than
// Python compiles.
func (p *parser) enter() error {
	p.level++
	if p.level > maxASTDepth+8 {
		return errNoValue
	}
	return nil
}

// comparison is the whole expression: operands joined by == and !=,
// which give a Python bool.
func (p *parser) comparison() (value, nesting, error) {
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
			return value{}, nesting{}, err
		}
		eq := equal(v, w)
		if (op == "==") != eq {
			result = false
		}
		info.parens = max(info.parens, winfo.parens)
		depth = max(depth, winfo.depth)
		v = w
	}
	return value{k: kindBool, b: result}, nesting{info.parens, depth + 1}, nil
}

// binaryLevels lists the binary operator precedence levels, loosest first.
var binaryLevels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%"}}

// binary parses the left-associative operators of binaryLevels[level]
// and tighter ones.
func (p *parser) binary(level int) (value, nesting, error) {
	if level == len(binaryLevels) {
		return p.unary()
	}
	v, info, err := p.binary(level + 1)
	if err != nil {
		return value{}, nesting{}, err
	}
	for {
		op := p.peekOp(binaryLevels[level]...)
		if op == "" {
			return v, info, nil
		}
		p.pos++
		w, winfo, err := p.binary(level + 1)
		if err != nil {
			return value{}, nesting{}, err
		}
		if v, err = p.apply(op, v, w); err != nil {
			return value{}, nesting{}, err
		}
		info = nesting{max(info.parens, winfo.parens), max(info.depth, winfo.depth) + 1}
		if info.depth > maxASTDepth {
			return value{}, nesting{}, errNoValue
		}
	}
}

// unary parses the prefix operators + - ~.
func (p *parser) unary() (value, nesting, error) {
	if err := p.enter(); err != nil {
		return value{}, nesting{}, err
	}
	defer func() { p.level-- }()
	if op := p.peekOp("+", "-", "~"); op != "" {
		p.pos++
		v, info, err := p.unary()
		if err != nil {
			return value{}, nesting{}, err
		}
		info.depth++
		switch op {
		case "-":
			v = neg(v)
		case "~":
			if !v.isInt() {
				return value{}, nesting{}, errNoValue
			}
			n := new(big.Int).Not(v.q.Num())
			v = integer(n)
		}
		return v, info, nil
	}
	return p.power()
}

// power parses a ** b, which binds tighter than a unary minus on its left
// and looser on its right (-2**-2 is -(2**(-2))).
func (p *parser) power() (value, nesting, error) {
	v, info, err := p.primary()
	if err != nil {
		return value{}, nesting{}, err
	}
	if p.peekOp("**") == "" {
		return v, info, nil
	}
	p.pos++
	w, winfo, err := p.unary()
	if err != nil {
		return value{}, nesting{}, err
	}
	if v, err = p.pow(v, w); err != nil {
		return value{}, nesting{}, err
	}
	return v, nesting{max(info.parens, winfo.parens), max(info.depth, winfo.depth) + 1}, nil
}

// primary parses a literal, I or a parenthesised expression, with an
// optional postfix ! or !!.
func (p *parser) primary() (value, nesting, error) {
	var (
		v    value
		info nesting
		err  error
	)
	t := p.toks[p.pos]
	switch {
	case t.kind == tokNumber:
		p.pos++
		v, err = literal(t.text, byte(t.n))
		info = nesting{parens: 1, depth: 2}
	case t.kind == tokImagUnit:
		p.pos++
		v = gaussian(smallInt(0), smallInt(1))
		info = nesting{depth: 1}
	case t.kind == tokOp && t.text == "(":
		p.pos++
		if p.peekOp(")") != "" {
			return value{}, nesting{}, errNoValue // () is a tuple
		}
		v, info, err = p.binary(0)
		if err == nil && p.peekOp(")") == "" {
			err = errNoValue
		}
		p.pos++
		info.parens++
	default:
		return value{}, nesting{}, errNoValue
	}
	if err != nil {
		return value{}, nesting{}, err
	}
	if t := p.toks[p.pos]; t.kind == tokBang {
		p.pos++
		if t.n == 1 {
			v, err = p.factorial(v)
		} else {
			v, err = factorial2(v)
		}
		info.parens++
		info.depth++
	}
	return v, info, err
}
