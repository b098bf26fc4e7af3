package verify

import (
	"fmt"
	"strings"
)

// Encode renders a value returned by Parse as a compact string that
// Decode turns back into the same value: how it was found (the
// normalized LaTeX, the plain expression or number, or the text), not
// its internal form. It is what crosses the C ABI and what Python pickles.
// A value not made by Parse (or ParseReference) cannot be encoded.
func Encode(v Value) (string, error) {
	if v.Kind == KindText {
		return "T" + v.Text, nil
	}
	if v.src == "" {
		return "", fmt.Errorf("verify: a %s value not made by Parse cannot be encoded", v.Kind)
	}
	return v.src, nil
}

// Decode reads a value written by Encode, under budget b.
func Decode(s string, b Budget) (v Value, err error) {
	defer catch(&err)
	w := newWork(b)
	defer w.release()
	if len(s) > w.b.MaxInputBytes {
		return Value{}, &budgetError{fmt.Sprintf("an encoded value of %d bytes", len(s))}
	}
	if s == "" {
		return Value{}, fmt.Errorf("verify: empty encoded value")
	}
	body := s[1:]
	switch s[0] {
	case 'T':
		return TextValue(body), nil
	case 'X':
		v, err := parseAnswer(plainExpr(body), w)
		if err != nil {
			return Value{}, err
		}
		v.src = s
		return v, nil
	case 'N':
		if body == "" {
			break
		}
		n, err := parseNumber(body[1:], w)
		if err != nil {
			return Value{}, err
		}
		if body[0] == '%' {
			n = &Node{op: opPct, args: []*Node{n}}
		}
		v := exprValue(n)
		v.src = s
		return v, nil
	case 'L':
		parts := strings.Split(body, "\x1f")
		var items []Value
		for _, p := range parts {
			if p == "" {
				return Value{}, fmt.Errorf("verify: malformed encoded value %q", s)
			}
			v, err := parseLatexAnswer(p[1:], w)
			if err != nil {
				return Value{}, err
			}
			if p[0] == '%' {
				v = percentOf(v)
			}
			items = append(items, v)
		}
		if len(items) == 1 {
			items[0].src = s
			return items[0], nil
		}
		var flat []Value
		for _, it := range items {
			if it.Kind == KindSet {
				flat = append(flat, it.Items...)
			} else {
				flat = append(flat, it)
			}
		}
		v := makeSet(flat)
		v.src = s
		return v, nil
	}
	return Value{}, fmt.Errorf("verify: malformed encoded value %q (it must come from Encode)", s)
}

// encodeLatex records the normalized LaTeX of the environments a value
// came from, with their percent signs.
func encodeLatex(envs []env, strs []string) string {
	var b strings.Builder
	b.WriteByte('L')
	for i, s := range strs {
		if i > 0 {
			b.WriteByte('\x1f')
		}
		if envs[i].percent {
			b.WriteByte('%')
		} else {
			b.WriteByte('-')
		}
		b.WriteString(s)
	}
	return b.String()
}
