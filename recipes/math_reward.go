package recipes

import (
	"strings"
	"unicode/utf8"
)

// veRL's math_reward rule (verl/utils/reward_score/math_reward.py): the
// last \boxed answer of the whole response (veRL does not clip it) is
// compared with the ground truth after Hendrycks' MATH string
// normalization: 1.0 when the two normalized strings are equal, else 0.0.
//
// The quirks are kept because they decide scores:
//   - If "\boxed " (with a space) occurs anywhere, the answer is the text
//     after its last occurrence up to the next "$", even when a braced
//     \boxed{…} comes later.
//   - Otherwise the last "\boxed" (or, with none, the last "\fbox") is
//     read up to the brace that brings the count of open braces back to
//     zero; a "}" met before any "{" drives the count negative and is not a
//     match. Only "\boxed{" is then accepted: "\fbox{…}", "\boxed\n{…}" and
//     the like fail veRL's assertion, and it scores them 0.0.
//   - Normalization raising an exception (two "\text{ " units, a "\sqrt" or
//     "\frac" with nothing after it) makes veRL compare the raw strings.
//
// Every step is a linear scan or replacement, so megabyte responses are
// fine without a clip.

func init() { Register("math_reward", mathRewardRule) }

func mathRewardRule(solution, groundTruth string) Result {
	boxed, ok := hendrycksLastBoxed(solution)
	if !ok {
		return Result{Score: 0, Status: StatusNoAnswer, Reason: `no \boxed answer`}
	}
	answer, ok := hendrycksRemoveBoxed(boxed)
	if !ok {
		return Result{Score: 0, Status: StatusNoAnswer, Reason: `the last box is not \boxed{...} (veRL scores it 0)`}
	}
	if hendrycksEquiv(answer, groundTruth) {
		return Result{Score: 1, Status: StatusCorrect}
	}
	return Result{Score: 0, Status: StatusIncorrect}
}

// hendrycksLastBoxed is last_boxed_only_string of math_reward.py.
func hendrycksLastBoxed(s string) (string, bool) {
	if k := lastIndex(s, `\boxed `); k >= 0 {
		// The split on "\boxed " keeps the piece after the last one (the
		// separator cannot overlap itself), then the piece before a "$".
		rest := s[k+len(`\boxed `):]
		if d := strings.IndexByte(rest, '$'); d >= 0 {
			rest = rest[:d]
		}
		return `\boxed ` + rest, true
	}
	idx := lastIndex(s, `\boxed`)
	if idx < 0 {
		idx = lastIndex(s, `\fbox`)
		if idx < 0 {
			return "", false
		}
	}
	return closeBraces(s, idx)
}

// closeBraces returns s[idx:] up to and including the "}" at which the
// running count of "{" minus "}" (counted from idx) first returns to zero
// right after a "}"; false if it never does.
func closeBraces(s string, idx int) (string, bool) {
	open := 0
	for i := idx; i < len(s); i++ {
		switch s[i] {
		case '{':
			open++
		case '}':
			open--
			if open == 0 {
				return s[idx : i+1], true
			}
		}
	}
	return "", false
}

// hendrycksRemoveBoxed is remove_boxed of math_reward.py; false where
// veRL's assertions fail.
func hendrycksRemoveBoxed(s string) (string, bool) {
	if strings.Contains(s, `\boxed `) {
		if !strings.HasPrefix(s, `\boxed `) {
			return "", false
		}
		return s[len(`\boxed `):], true
	}
	if !strings.HasPrefix(s, `\boxed{`) || !strings.HasSuffix(s, "}") {
		return "", false
	}
	return s[len(`\boxed{`) : len(s)-1], true
}

// hendrycksEquiv is is_equiv: equal after strip_string, or, when
// normalizing either side raises in Python, equal as given.
func hendrycksEquiv(a, b string) bool {
	na, okA := hendrycksStrip(a)
	if okA {
		if nb, okB := hendrycksStrip(b); okB {
			return na == nb
		}
	}
	return a == b
}

// hendrycksStrip is strip_string; false where Python raises.
func hendrycksStrip(s string) (string, bool) {
	s = strings.ReplaceAll(s, "\n", "")
	s = strings.ReplaceAll(s, `\!`, "")
	s = strings.ReplaceAll(s, `\\`, `\`)
	s = strings.ReplaceAll(s, "tfrac", "frac")
	s = strings.ReplaceAll(s, "dfrac", "frac")
	s = strings.ReplaceAll(s, `\left`, "")
	s = strings.ReplaceAll(s, `\right`, "")
	s = strings.ReplaceAll(s, `^{\circ}`, "")
	s = strings.ReplaceAll(s, `^\circ`, "")
	s = strings.ReplaceAll(s, `\$`, "")

	// Units: only "\text{ " (with a space) marks them; the part before it
	// is kept, and more than one such marker is an assertion error.
	if k := strings.Index(s, `\text{ `); k >= 0 {
		if strings.Count(s, `\text{ `) != 1 {
			return "", false
		}
		s = s[:k]
	}

	s = strings.ReplaceAll(s, `\\%`, "")
	s = strings.ReplaceAll(s, `\%`, "")
	s = strings.ReplaceAll(s, " .", " 0.")
	s = strings.ReplaceAll(s, "{.", "{0.")
	if s == "" {
		return s, true
	}
	if s[0] == '.' {
		s = "0" + s
	}

	// "k = 5" becomes "5" when there is exactly one "=" and at most two
	// code points before it.
	if k := strings.IndexByte(s, '='); k >= 0 && strings.Count(s, "=") == 1 && utf8.RuneCountInString(s[:k]) <= 2 {
		s = s[k+1:]
	}

	var ok bool
	if s, ok = hendrycksFixSqrt(s); !ok {
		return "", false
	}
	s = strings.ReplaceAll(s, " ", "")
	if s, ok = hendrycksFixFracs(s); !ok {
		return "", false
	}
	if s == "0.5" {
		s = `\frac{1}{2}`
	}
	return hendrycksFixSlash(s), true
}

// hendrycksFixSqrt braces the first code point after a "\sqrt" that is
// not followed by "{"; a "\sqrt" at the very end raises in Python (false).
func hendrycksFixSqrt(s string) (string, bool) {
	if !strings.Contains(s, `\sqrt`) {
		return s, true
	}
	parts := strings.Split(s, `\sqrt`)
	var b strings.Builder
	b.Grow(len(s) + 2*len(parts))
	b.WriteString(parts[0])
	for _, p := range parts[1:] {
		if p == "" {
			return "", false
		}
		b.WriteString(`\sqrt`)
		if p[0] == '{' {
			b.WriteString(p)
			continue
		}
		_, n := utf8.DecodeRuneInString(p)
		b.WriteByte('{')
		b.WriteString(p[:n])
		b.WriteByte('}')
		b.WriteString(p[n:])
	}
	return b.String(), true
}

// hendrycksFixFracs braces the numerator and denominator of "\frac12"
// style fractions. As in Python, a piece after "\frac" that is empty
// raises (false), and a piece of one code point (checked in order, so
// only if no earlier piece raised) returns the input unchanged.
func hendrycksFixFracs(s string) (string, bool) {
	parts := strings.Split(s, `\frac`)
	if len(parts) == 1 {
		return s, true
	}
	var b strings.Builder
	b.Grow(len(s) + 4*len(parts))
	b.WriteString(parts[0])
	for _, p := range parts[1:] {
		b.WriteString(`\frac`)
		if p == "" {
			return "", false
		}
		if p[0] == '{' {
			b.WriteString(p)
			continue
		}
		_, na := utf8.DecodeRuneInString(p)
		if na == len(p) {
			return s, true
		}
		a := p[:na]
		_, nb := utf8.DecodeRuneInString(p[na:])
		second, rest := p[na:na+nb], p[na+nb:]
		b.WriteByte('{')
		b.WriteString(a)
		b.WriteByte('}')
		if second != "{" {
			b.WriteByte('{')
			b.WriteString(second)
			b.WriteByte('}')
		} else {
			b.WriteString(second)
		}
		b.WriteString(rest)
	}
	return b.String(), true
}

// pyIntMaxStrDigits is CPython's default limit on the digits int() reads
// from a str (sys.get_int_max_str_digits()); past it int() raises.
const pyIntMaxStrDigits = 4300

// hendrycksFixSlash turns "a/b" into "\frac{a}{b}" when both sides are
// integers that Python's int() reads and prints back unchanged: "0" or an
// optional "-" and digits without a leading zero, at most 4300 digits.
func hendrycksFixSlash(s string) string {
	k := strings.IndexByte(s, '/')
	if k < 0 || strings.Count(s, "/") != 1 {
		return s
	}
	a, b := s[:k], s[k+1:]
	if !canonicalPyInt(a) || !canonicalPyInt(b) {
		return s
	}
	return `\frac{` + a + `}{` + b + `}`
}

// canonicalPyInt reports whether str(int(s)) == s in CPython 3.11 without
// int() raising.
func canonicalPyInt(s string) bool {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > pyIntMaxStrDigits {
		return false
	}
	if digits[0] == '0' {
		// "0" prints as itself; "-0" prints as "0", "07" as "7".
		return s == "0"
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}
