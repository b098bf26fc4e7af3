package verify

import (
	"strings"
)

// Kind is what a Value is.
type Kind uint8

// The kinds of values.
const (
	KindExpr     Kind = iota // a number or an expression (Value.Expr)
	KindRelation             // a chain of relations: Items[0] Ops[0] Items[1] ...
	KindTuple                // an ordered tuple (Items)
	KindSet                  // a finite set (Items, duplicates removed when parsed)
	KindInterval             // Items[0] to Items[1], LeftOpen/RightOpen
	KindSetOp                // Items[0] Ops[0] Items[1] ... with ops "cup", "cap", "setminus"
	KindText                 // a string compared as written (Value.Text)
	KindMatrix               // a Rows x Cols matrix (Items, row by row)
)

var kindNames = [...]string{"expression", "relation", "tuple", "set", "interval", "set operation", "text", "matrix"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Value is a parsed answer.
type Value struct {
	Kind                Kind
	Expr                *Node    // KindExpr
	Items               []Value  // the parts of relations, tuples, sets, intervals and set operations
	Ops                 []string // KindRelation: "=", "<", "<=", ">", ">=", "!="; KindSetOp: "cup", "cap", "setminus"
	LeftOpen, RightOpen bool     // KindInterval
	Rows, Cols          int      // KindMatrix
	Text                string   // KindText: the string; other kinds: the normalized source, when known

	src string // how Parse found it, for Encode
}

func exprValue(n *Node) Value { return Value{Kind: KindExpr, Expr: n} }

// TextValue is a value compared as a string (math-verify's fallback).
func TextValue(s string) Value { return Value{Kind: KindText, Text: s} }

// String renders v in a plain notation.
func (v Value) String() string {
	switch v.Kind {
	case KindExpr:
		if v.Expr == nil {
			return ""
		}
		return v.Expr.String()
	case KindText:
		return v.Text
	case KindRelation:
		var b strings.Builder
		for i, it := range v.Items {
			if i > 0 {
				b.WriteString(" " + v.Ops[i-1] + " ")
			}
			b.WriteString(it.String())
		}
		return b.String()
	case KindTuple, KindSet:
		parts := make([]string, len(v.Items))
		for i, it := range v.Items {
			parts[i] = it.String()
		}
		if v.Kind == KindSet {
			return "{" + strings.Join(parts, ", ") + "}"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case KindInterval:
		l, r := "[", "]"
		if v.LeftOpen {
			l = "("
		}
		if v.RightOpen {
			r = ")"
		}
		return l + v.Items[0].String() + ", " + v.Items[1].String() + r
	case KindSetOp:
		var b strings.Builder
		for i, it := range v.Items {
			if i > 0 {
				b.WriteString(" " + v.Ops[i-1] + " ")
			}
			b.WriteString(it.String())
		}
		return b.String()
	case KindMatrix:
		var b strings.Builder
		b.WriteString("Matrix([")
		for r := 0; r < v.Rows; r++ {
			if r > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('[')
			for c := 0; c < v.Cols; c++ {
				if c > 0 {
					b.WriteString(", ")
				}
				b.WriteString(v.Items[r*v.Cols+c].String())
			}
			b.WriteByte(']')
		}
		b.WriteString("])")
		return b.String()
	}
	return ""
}

func (v *Value) symbols(set map[string]bool) {
	if v.Expr != nil {
		v.Expr.symbols(set)
	}
	for i := range v.Items {
		v.Items[i].symbols(set)
	}
}

// sameAs is structural equality of two values.
func (v *Value) sameAs(o *Value) bool {
	if v.Kind != o.Kind || len(v.Items) != len(o.Items) || v.LeftOpen != o.LeftOpen || v.RightOpen != o.RightOpen ||
		v.Rows != o.Rows || v.Cols != o.Cols {
		return false
	}
	switch v.Kind {
	case KindExpr:
		return equalTree(v.Expr, o.Expr)
	case KindText:
		return v.Text == o.Text
	}
	for i := range v.Ops {
		if v.Ops[i] != o.Ops[i] {
			return false
		}
	}
	for i := range v.Items {
		if !v.Items[i].sameAs(&o.Items[i]) {
			return false
		}
	}
	return true
}
