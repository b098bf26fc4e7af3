package verify

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a lexical token of an answer.
type tokKind uint8

const (
	tEOF  tokKind = iota
	tNum          // digits, optionally with a decimal point
	tLet          // one letter
	tCmd          // \name or \c (text: the name without the backslash)
	tText         // \text{...}: the content
	tPunc         // one character or operator: + - * / ^ _ ( ) [ ] { } | , ; = < > ! % ' : and "**", "<=", ">=", "!="
)

type token struct {
	kind tokKind
	text string
	pos  int
}

// spacing commands and decorations that carry no meaning.
var ignoredCmds = map[string]bool{
	",": true, ";": true, ":": true, "!": true, " ": true, "quad": true, "qquad": true,
	"big": true, "Big": true, "bigg": true, "Bigg": true, "bigl": true, "bigr": true, "Bigl": true, "Bigr": true,
	"biggl": true, "biggr": true, "Biggl": true, "Biggr": true, "left": true, "right": true, "middle": true,
	"displaystyle": true, "textstyle": true, "limits": true, "nolimits": true, "mathstrut": true,
	"hfill": true, "cr": false, "enspace": true, "thinspace": true, "medspace": true, "thickspace": true, "negthinspace": true,
}

// unicode operators written as their LaTeX or ASCII forms.
var unicodeOps = map[rune]string{
	'−': "-", '–': "-", '×': `\times`, '÷': `\div`, '·': `\cdot`, '⋅': `\cdot`, '≤': `\le`, '≥': `\ge`, '≠': `\ne`,
	'π': `\pi`, '∞': `\infty`, '√': `\sqrt`, '∪': `\cup`, '∩': `\cap`, '∈': `\in`, '±': `\pm`, '°': `\circ`,
	'≈': `\approx`, '∓': `\mp`, '⋯': `\cdots`, '…': `\ldots`,
}

// lex splits s into tokens. Braces of \text{...} must balance.
func lex(s string, w *work) ([]token, error) {
	var toks []token
	envs := 0 // open \begin{...} environments: a \\ in one ends a row
	i := 0
	for i < len(s) {
		w.step(1)
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '~':
			i++
		case c >= '0' && c <= '9' || (c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9'):
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j < len(s) && s[j] == '.' && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9' {
				j++
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
			}
			toks = append(toks, token{tNum, s[i:j], i})
			i = j
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			toks = append(toks, token{tLet, s[i : i+1], i})
			i++
		case c == '\\':
			j := i + 1
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
				j++
			}
			if j == i+1 {
				if j >= len(s) {
					return nil, fmt.Errorf("a lone backslash at the end")
				}
				_, size := utf8.DecodeRuneInString(s[j:])
				name := s[j : j+size]
				i = j + size
				if ignoredCmds[name] {
					continue
				}
				if name == "\\" { // a line break, or the end of a row of a matrix
					if envs > 0 {
						toks = append(toks, token{tPunc, `\\`, i})
					} else {
						toks = append(toks, token{tPunc, ",", i})
					}
					continue
				}
				toks = append(toks, token{tCmd, name, i})
				continue
			}
			name := s[i+1 : j]
			// \quadx is \quad and x, as TeX reads it only when the rest
			// is not a command of its own.
			for _, sp := range []string{"qquad", "quad"} {
				if len(name) > len(sp) && strings.HasPrefix(name, sp) {
					j = i + 1 + len(sp)
					name = sp
					break
				}
			}
			switch name {
			case "text", "textrm", "textbf", "textit", "textnormal", "mbox", "mathrm", "mathit", "mathbf", "operatorname", "textup", "mathsf", "texttt":
				k := j
				for k < len(s) && s[k] == ' ' {
					k++
				}
				if k >= len(s) || s[k] != '{' {
					i = j
					continue
				}
				end := matchBrace(s, k)
				if end < 0 {
					return nil, fmt.Errorf("\\%s{ is not closed", name)
				}
				content := s[k+1 : end]
				if name == "operatorname" {
					toks = append(toks, token{tCmd, strings.TrimSpace(content), i})
				} else {
					toks = append(toks, token{tText, content, i})
				}
				i = end + 1
				continue
			case "begin", "end":
				// \begin{pmatrix} is one token, "begin:pmatrix"; an array's
				// column spec is skipped.
				k := j
				for k < len(s) && s[k] == ' ' {
					k++
				}
				if k < len(s) && s[k] == '{' {
					end := matchBrace(s, k)
					if end < 0 {
						return nil, fmt.Errorf("\\%s{ is not closed", name)
					}
					env := strings.TrimSpace(s[k+1 : end])
					toks = append(toks, token{tCmd, name + ":" + env, i})
					i = end + 1
					if name == "begin" {
						envs++
						if env == "array" {
							for i < len(s) && s[i] == ' ' {
								i++
							}
							if i < len(s) && s[i] == '{' {
								if e := matchBrace(s, i); e > 0 {
									i = e + 1
								}
							}
						}
					} else if envs > 0 {
						envs--
					}
					continue
				}
			case "mathbb", "mathcal":
				k := j
				for k < len(s) && s[k] == ' ' {
					k++
				}
				if k < len(s) && s[k] == '{' {
					end := matchBrace(s, k)
					if end < 0 {
						return nil, fmt.Errorf("\\%s{ is not closed", name)
					}
					toks = append(toks, token{tCmd, "mathbb:" + strings.TrimSpace(s[k+1:end]), i})
					i = end + 1
					continue
				}
			}
			i = j
			if ignoredCmds[name] {
				continue
			}
			toks = append(toks, token{tCmd, name, i})
		case c == '*' && i+1 < len(s) && s[i+1] == '*':
			toks = append(toks, token{tPunc, "^", i})
			i += 2
		case (c == '<' || c == '>' || c == '!') && i+1 < len(s) && s[i+1] == '=':
			toks = append(toks, token{tPunc, s[i : i+2], i})
			i += 2
		case strings.IndexByte("+-*/^_()[]{}|,;=<>!%':&", c) >= 0:
			toks = append(toks, token{tPunc, s[i : i+1], i})
			i++
		case c == '$' || c == '"' || c == '?':
			i++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if rep, ok := unicodeOps[r]; ok {
				if rep[0] == '\\' {
					toks = append(toks, token{tCmd, rep[1:], i})
				} else {
					toks = append(toks, token{tPunc, rep, i})
				}
				i += size
				continue
			}
			if r == utf8.RuneError && size == 1 {
				return nil, fmt.Errorf("invalid UTF-8 at byte %d", i)
			}
			return nil, fmt.Errorf("unexpected character %q", r)
		default:
			return nil, fmt.Errorf("unexpected character %q", c)
		}
	}
	toks = append(toks, token{tEOF, "", len(s)})
	return toks, nil
}

// matchBrace returns the index of the brace closing the one at s[open],
// or -1.
func matchBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // skip the escaped character
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
