package recipes

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// pylatexenc's LatexNodes2Text().latex_to_text, which the prm800k grader
// applies to an answer holding a backslash, for the LaTeX answers carry:
// \frac{a}{b} is "a/b" (no parentheses, so \frac{1+2}{3} reads 1+2/3),
// \sqrt[n]{x} is "√(x)", groups lose their braces, \pi and the other
// symbols become their Unicode characters, \text-like macros keep their
// argument, \left and \right vanish, and a control word swallows the
// whitespace after it. A macro or construct outside this table is not
// guessed (pmUndecided): pylatexenc knows hundreds, some with odd output.

// latexSymbols are control words without arguments and their text.
var latexSymbols = map[string]string{
	"pi": "π", "infty": "∞", "cdot": "·", "times": "×", "cup": "∪", "cap": "∩", "circ": "∘",
	"le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "pm": "±", "mp": "∓", "neq": "≠", "approx": "≈",
	"dots": "…", "ldots": "…", "cdots": "⋯", "in": "∈", "angle": "∠", "alpha": "α", "beta": "β",
	"gamma": "γ", "delta": "δ", "theta": "θ", "lambda": "λ", "mu": "μ", "sigma": "σ", "omega": "ω",
	"rho": "ρ", "tau": "τ", "sin": "sin", "cos": "cos", "tan": "tan", "log": "log", "ln": "ln",
	"exp": "exp", "div": "÷", "quad": "  ", "qquad": "    ", "left": "", "right": "", "displaystyle": "",
	"cong": "≅", "perp": "⊥", "parallel": "∥", "to": "→", "rightarrow": "→", "emptyset": "∅",
	"sim": "∼", "equiv": "≡",
}

// latexContentMacros keep their one argument as it is.
var latexContentMacros = map[string]bool{
	"text": true, "mathrm": true, "textbf": true, "textit": true, "emph": true, "boxed": true,
	"overline": true, "operatorname": true, "underline": true,
}

// latexControlSymbols are backslash + one non-letter character.
var latexControlSymbols = map[byte]string{
	'%': "%", '$': "$", '{': "{", '}': "}", ',': " ", ';': " ", ':': " ", '!': "", ' ': " ",
	'\\': "\n", '#': "#", '_': "_", '&': "&", '|': "",
}

type latexReader struct {
	s string
	i int
	w *pmWork
	b *strings.Builder
}

// latexToText is latex_to_text for the supported subset.
func latexToText(s string, w *pmWork) string {
	r := &latexReader{s: s, w: w, b: &strings.Builder{}}
	r.b.Grow(len(s))
	r.nodes(false, 0)
	return r.b.String()
}

// latexRaise is pylatexenc raising (\sqrt with no argument at the end of
// the text); _parse_latex then keeps the answer as it was.
type latexRaise struct{}

// nodes renders until the end of s or, inGroup, the closing brace. Like
// pylatexenc, an unclosed group ends with the text and a stray "}" is
// dropped.
func (r *latexReader) nodes(inGroup bool, depth int) {
	if depth > 100 {
		panic(pmOverBudget{"LaTeX nesting"})
	}
	for r.i < len(r.s) {
		r.w.step(1)
		c := r.s[r.i]
		switch c {
		case '}':
			r.i++
			if inGroup {
				return
			}
		case '{':
			r.i++
			r.nodes(true, depth+1)
		case '\\':
			r.macro(depth)
		case '$', '%', '&', '~':
			undecided("the LaTeX character " + string(rune(c)))
		default:
			r.b.WriteByte(c)
			r.i++
		}
	}
}

func (r *latexReader) macro(depth int) {
	r.i++ // the backslash
	if r.i >= len(r.s) {
		return // pylatexenc drops a trailing backslash
	}
	c := r.s[r.i]
	if !isASCIILetter(c) {
		out, ok := latexControlSymbols[c]
		if !ok {
			undecided(`the LaTeX control symbol \` + string(rune(c)))
		}
		r.i++
		r.b.WriteString(out)
		return
	}
	j := r.i
	for j < len(r.s) && isASCIILetter(r.s[j]) {
		j++
	}
	name := r.s[r.i:j]
	r.i = j
	r.skipSpace()
	if out, ok := latexSymbols[name]; ok {
		r.b.WriteString(out)
		return
	}
	switch {
	case latexContentMacros[name]:
		if a, ok := r.arg(depth); ok {
			r.b.WriteString(a)
		}
	case name == "frac":
		// With an argument missing at the end of the text pylatexenc's
		// format fails and it writes the format itself, then the
		// argument it did read.
		a, ok := r.arg(depth)
		if !ok {
			r.b.WriteString("%s/%s")
			return
		}
		b, ok := r.arg(depth)
		if !ok {
			r.b.WriteString("%s/%s" + a)
			return
		}
		r.b.WriteString(a + "/" + b)
	case name == "sqrt":
		if r.i < len(r.s) && r.s[r.i] == '[' {
			// The optional index is dropped.
			k := strings.IndexByte(r.s[r.i:], ']')
			if k < 0 || strings.ContainsAny(r.s[r.i:r.i+k], "{}\\") {
				undecided(`an unusual \sqrt index`)
			}
			r.i += k + 1
			r.skipSpace()
		}
		a, ok := r.arg(depth)
		if !ok {
			panic(latexRaise{})
		}
		r.b.WriteString("√(" + a + ")")
	case name == "begin":
		r.environment(depth)
	case !latexKnownNames[name]:
		// Unknown to pylatexenc: nothing, and what follows renders as text.
	default:
		undecided(`the LaTeX macro \` + name)
	}
}

// environment renders \begin{pmatrix}...\end{pmatrix} as pylatexenc does:
// "[ a b; c d ]".
func (r *latexReader) environment(depth int) {
	const open, end = "{pmatrix}", `\end{pmatrix}`
	if !strings.HasPrefix(r.s[r.i:], open) {
		undecided("a LaTeX environment other than pmatrix")
	}
	body := r.s[r.i+len(open):]
	k := strings.Index(body, end)
	if k < 0 || strings.Contains(body[:k], `\begin`) {
		undecided("an unclosed or nested pmatrix")
	}
	r.i += len(open) + k + len(end)
	rows := strings.Split(body[:k], `\\`)
	out := make([]string, 0, len(rows))
	for _, row := range rows {
		cells := strings.Split(row, "&")
		for c := range cells {
			cells[c] = strings.TrimSpace(latexToText(cells[c], r.w))
			if cells[c] == "" {
				undecided("an empty pmatrix cell")
			}
		}
		out = append(out, strings.Join(cells, " "))
	}
	r.b.WriteString("[ " + strings.Join(out, "; ") + " ]")
}

// skipSpace drops the whitespace after a control word, as TeX does.
func (r *latexReader) skipSpace() {
	for r.i < len(r.s) && (r.s[r.i] == ' ' || r.s[r.i] == '\t' || r.s[r.i] == '\n') {
		r.i++
	}
}

// arg renders one macro argument: a group, a macro or one character; a
// "}" stands for an empty argument (and is left for the enclosing group);
// false at the end of the text.
func (r *latexReader) arg(depth int) (string, bool) {
	r.skipSpace()
	if r.i >= len(r.s) {
		return "", false
	}
	saved := r.b
	r.b = &strings.Builder{}
	switch c := r.s[r.i]; c {
	case '}':
	case '{':
		r.i++
		r.nodes(true, depth+1)
	case '\\':
		r.macro(depth + 1)
	case '$', '%', '&', '~':
		undecided("an odd LaTeX macro argument")
	default:
		_, n := utf8.DecodeRuneInString(r.s[r.i:])
		r.b.WriteString(r.s[r.i : r.i+n])
		r.i += n
	}
	out := r.b.String()
	r.b = saved
	return out, true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func decodeRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }

// isPyAlpha is str.isalpha() for one code point.
func isPyAlpha(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r)
}
