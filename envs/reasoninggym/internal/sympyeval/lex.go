package sympyeval

import (
	"strings"
)

// Token kinds.
const (
	tokEOF = iota
	tokNumber
	tokOp
	tokBang     // one or two '!' right after an atom
	tokImagUnit // the I that auto_number appends to an imaginary literal
)

// token is one lexical unit of the answer.
type token struct {
	kind int
	text string // tokNumber: the literal; tokOp: the operator
	n    int    // tokBang: number of '!'; tokNumber: the literal's kind ('d', 'f' or 'x', see numberLen)
}

// isDigit reports whether c is an ASCII decimal digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitPart matches [0-9](?:_?[0-9])* at i and returns its end, or i.
func digitPart(s string, i int, ok func(byte) bool) int {
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

// exponentEnd matches a float literal's exponent ([eE][+-]?digits) at i
// and returns its end, or i.
func exponentEnd(s string, i int) int {
	if i >= len(s) || (s[i] != 'e' && s[i] != 'E') {
		return i
	}
	j := i + 1
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	if k := digitPart(s, j, isDigit); k > j {
		return k
	}
	return i
}

// floatLen matches Python tokenize's Floatnumber at i (0 if none).
func floatLen(s string, i int) int {
	d := digitPart(s, i, isDigit)
	if d > i && d < len(s) && s[d] == '.' {
		end := digitPart(s, d+1, isDigit)
		return exponentEnd(s, end) - i
	}
	if d == i && i < len(s) && s[i] == '.' {
		if end := digitPart(s, i+1, isDigit); end > i+1 {
			return exponentEnd(s, end) - i
		}
		return 0
	}
	if d > i {
		if e := exponentEnd(s, d); e > d {
			return e - i
		}
	}
	return 0
}

// numberLen matches Python tokenize's Number at i: imaginary, float or
// integer literal, tried in that order. kind is 'j', 'f', 'x' (hex, octal,
// binary) or 'd'.
func numberLen(s string, i int) (int, byte) {
	isJ := func(k int) bool { return k < len(s) && (s[k] == 'j' || s[k] == 'J') }
	if d := digitPart(s, i, isDigit); d > i && isJ(d) {
		return d + 1 - i, 'j'
	}
	if f := floatLen(s, i); f > 0 {
		if isJ(i + f) {
			return f + 1, 'j'
		}
		return f, 'f'
	}
	if i+1 < len(s) && s[i] == '0' {
		var ok func(byte) bool
		switch s[i+1] {
		case 'x', 'X':
			ok = func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
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
	if d := digitPart(s, i, isDigit); d > i {
		return d - i, 'd'
	}
	return 0, 0
}

// lex tokenizes the stripped answer as Python's tokenizer and sympy's
// transformations see it, refusing everything outside the supported
// subset.
func lex(s string) ([]token, error) {
	var toks []token
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
				return nil, errNoValue
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
			return nil, errNoValue
		}
		lineStart = false
		if c == '!' && !strings.HasPrefix(s[i:], "!=") {
			n := 0
			for i < len(s) && s[i] == '!' && !strings.HasPrefix(s[i:], "!=") {
				n++
				i++
			}
			if spaced || len(toks) == 0 || n > 2 {
				return nil, errNoValue
			}
			last := toks[len(toks)-1]
			if last.kind != tokNumber && last.kind != tokImagUnit && !(last.kind == tokOp && last.text == ")") {
				return nil, errNoValue
			}
			toks = append(toks, token{kind: tokBang, n: n})
			spaced = false
			continue
		}
		if isDigit(c) || (c == '.' && i+1 < len(s) && isDigit(s[i+1])) {
			n, kind := numberLen(s, i)
			if kind == 'j' {
				// auto_number: Integer(...)*I or Float('...')*I.
				text := s[i : i+n-1]
				kind = 'd'
				if strings.ContainsAny(text, ".eE") {
					kind = 'f'
				}
				toks = append(toks, token{kind: tokNumber, text: text, n: int(kind)},
					token{kind: tokOp, text: "*"}, token{kind: tokImagUnit})
			} else {
				toks = append(toks, token{kind: tokNumber, text: s[i : i+n], n: int(kind)})
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
			return nil, errNoValue
		}
		// Augmented assignments (+=, **=, ...) and <=, >= are other tokens.
		if i+len(op) < len(s) && s[i+len(op)] == '=' && op != "==" && op != "!=" && op != "(" && op != ")" && op != "~" {
			return nil, errNoValue
		}
		switch op {
		case "(":
			depth++
		case ")":
			depth--
			if depth < 0 {
				return nil, errNoValue
			}
		}
		toks = append(toks, token{kind: tokOp, text: op})
		i += len(op)
		spaced = false
	}
	if depth != 0 {
		return nil, errNoValue
	}
	return append(toks, token{kind: tokEOF}), nil
}
