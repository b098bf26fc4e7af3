package verify

import (
	"math/big"
	"sort"
	"strings"
)

// op is the operation of an expression node.
type op uint8

const (
	opNum   op = iota // a rational number (rat); float: written as a decimal
	opSym             // a variable (name)
	opConst           // a constant: "pi", "e", "i", "oo"
	opAdd             // sum of args
	opMul             // product of args
	opPow             // args[0] ^ args[1]
	opFunc            // name(args...): sin, log, sqrt is Pow, etc.
	opFact            // args[0]!
	opPct             // args[0] percent: args[0] / 100
	opSet             // a tuple, set or interval inside an expression (val)
)

// Node is an expression: a tree of numbers, variables, constants and
// operations. It is immutable once built.
type Node struct {
	op    op
	float bool // opNum: written with a decimal point or exponent
	rat   *big.Rat
	name  string
	args  []*Node
	val   *Value // opSet
}

func num(r *big.Rat) *Node             { return &Node{op: opNum, rat: r} }
func intNode(n int64) *Node            { return num(new(big.Rat).SetInt64(n)) }
func sym(name string) *Node            { return &Node{op: opSym, name: name} }
func constant(name string) *Node       { return &Node{op: opConst, name: name} }
func fn(name string, a ...*Node) *Node { return &Node{op: opFunc, name: name, args: a} }
func pow(b, e *Node) *Node             { return &Node{op: opPow, args: []*Node{b, e}} }

// add and mul flatten nested sums and products.
func add(a ...*Node) *Node { return flat(opAdd, a) }
func mul(a ...*Node) *Node { return flat(opMul, a) }

func flat(o op, a []*Node) *Node {
	var args []*Node
	for _, x := range a {
		if x.op == o {
			args = append(args, x.args...)
		} else {
			args = append(args, x)
		}
	}
	if len(args) == 1 {
		return args[0]
	}
	return &Node{op: o, args: args}
}

// neg is -x; a number is negated in place of a product with -1.
func neg(x *Node) *Node {
	if x.op == opNum {
		return &Node{op: opNum, float: x.float, rat: new(big.Rat).Neg(x.rat)}
	}
	return mul(intNode(-1), x)
}

// isInt reports whether n is an integer literal (not a decimal).
func (n *Node) isInt() bool { return n.op == opNum && !n.float && n.rat.IsInt() }

// isNumber reports whether n is a number, or a percentage of one
// (math-verify's "atomic" numbers).
func (n *Node) isNumber() bool {
	return n.op == opNum || (n.op == opPct && n.args[0].op == opNum)
}

// isFloat reports whether n is a decimal literal or a percentage of one.
func (n *Node) isFloat() bool {
	return (n.op == opNum && n.float) || (n.op == opPct && n.args[0].op == opNum && n.args[0].float)
}

// symbols adds the variable names in n to set.
func (n *Node) symbols(set map[string]bool) {
	if n == nil {
		return
	}
	if n.op == opSym {
		set[n.name] = true
	}
	for _, a := range n.args {
		a.symbols(set)
	}
	if n.val != nil {
		n.val.symbols(set)
	}
}

// String renders n in a plain, deterministic notation (sums and products
// in the order written).
func (n *Node) String() string {
	var b strings.Builder
	n.write(&b, 0)
	return b.String()
}

func (n *Node) write(b *strings.Builder, prec int) {
	switch n.op {
	case opNum:
		s := n.rat.RatString()
		if n.float {
			s = decimalString(n.rat)
		}
		if prec > 0 && (strings.HasPrefix(s, "-") || strings.Contains(s, "/")) {
			b.WriteString("(" + s + ")")
		} else {
			b.WriteString(s)
		}
	case opSym:
		b.WriteString(n.name)
	case opConst:
		b.WriteString(n.name)
	case opAdd:
		if prec > 1 {
			b.WriteByte('(')
		}
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(" + ")
			}
			a.write(b, 1)
		}
		if prec > 1 {
			b.WriteByte(')')
		}
	case opMul:
		if prec > 2 {
			b.WriteByte('(')
		}
		for i, a := range n.args {
			if i > 0 {
				b.WriteByte('*')
			}
			a.write(b, 2)
		}
		if prec > 2 {
			b.WriteByte(')')
		}
	case opPow:
		if prec > 3 {
			b.WriteByte('(')
		}
		n.args[0].write(b, 4)
		b.WriteString("**")
		n.args[1].write(b, 4)
		if prec > 3 {
			b.WriteByte(')')
		}
	case opFunc:
		b.WriteString(n.name + "(")
		for i, a := range n.args {
			if i > 0 {
				b.WriteString(", ")
			}
			a.write(b, 0)
		}
		b.WriteByte(')')
	case opFact:
		n.args[0].write(b, 4)
		b.WriteByte('!')
	case opPct:
		n.args[0].write(b, 4)
		b.WriteByte('%')
	case opSet:
		b.WriteString(n.val.String())
	}
}

// decimalString renders a rational that came from a decimal literal.
func decimalString(r *big.Rat) string {
	if r.IsInt() {
		return r.RatString() + ".0"
	}
	// Denominators of decimal literals are products of 2s and 5s: at most
	// as many digits as the denominator has.
	prec := len(r.Denom().String())
	s := r.FloatString(prec)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// sortedNames lists a symbol set in order.
func sortedNames(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// equalTree reports whether two trees are the same as written, up to the
// order of the terms of sums and products (math-verify's structural test).
func equalTree(a, b *Node) bool {
	if a.op != b.op || len(a.args) != len(b.args) || a.name != b.name {
		return false
	}
	switch a.op {
	case opNum:
		return a.rat.Cmp(b.rat) == 0
	case opSet:
		return a.val.sameAs(b.val)
	case opAdd, opMul:
		used := make([]bool, len(b.args))
	outer:
		for _, x := range a.args {
			for j, y := range b.args {
				if !used[j] && equalTree(x, y) {
					used[j] = true
					continue outer
				}
			}
			return false
		}
		return true
	}
	for i := range a.args {
		if !equalTree(a.args[i], b.args[i]) {
			return false
		}
	}
	return true
}
