package recipes

import (
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
)

// veRL's math_dapo rule (verl/utils/reward_score/math_dapo.py,
// compute_score with strict_box_verify=False and no pause tokens). It
// returns a dict {"score": 1.0 or -1.0, "acc": bool, "pred": str}.
//
// Only the last 300 code points of the response are read. The answer is
// what the last match of `(?i)Answer\s*:\s*([^\n]+)` captures (the
// Minerva format), normalized by normalize_final_answer and compared with
// the equally normalized ground truth. When there is no such line (or it
// normalizes to "[INVALID]", veRL's marker for none), the last \boxed{…}
// in the final 100 of those code points is compared with the ground truth
// as given, without normalization. With neither, pred is "[INVALID]" and
// the verdict is whether the ground truth normalizes to "[INVALID]".
//
// Python's regular expressions are reproduced by hand: \s and str.strip()
// are Unicode whitespace (pycompat.IsSpace, which includes \v and
// U+001C..U+001F, unlike RE2's \s), "(?i)" lets "s" match U+017F, "." stops
// only at "\n", and "[^{]" does match "\n".

func init() { Register("math_dapo", mathDapoRule) }

const (
	dapoClip    = 300 // code points of the response veRL keeps
	dapoBoxClip = 100 // code points of those the \boxed fallback reads
	dapoInvalid = "[INVALID]"
)

func mathDapoRule(solution, groundTruth string) Result {
	s, _ := pycompat.Tail(solution, dapoClip)
	found := false

	pred := dapoInvalid
	if line, ok := minervaAnswer(s); ok {
		found = true
		pred = normalizeFinalAnswer(line)
	}
	correct := pred == normalizeFinalAnswer(groundTruth)

	if pred == dapoInvalid {
		tail, _ := pycompat.Tail(s, dapoBoxClip)
		if boxed, ok := lastBracedBox(tail); ok {
			found = true
			pred = boxed[len(`\boxed{`) : len(boxed)-1]
			correct = pred == groundTruth
		}
	}

	res := Result{Score: -1, Dict: true, Acc: correct, Pred: pred, Status: StatusIncorrect}
	switch {
	case correct:
		res.Score, res.Status = 1, StatusCorrect
	case !found:
		res.Status, res.Reason = StatusNoAnswer, `no "Answer:" line in the last 300 characters and no \boxed{} in the last 100`
	}
	return res
}

// lastBracedBox is math_dapo.py's last_boxed_only_string: the last
// "\boxed{" up to the brace that closes it.
func lastBracedBox(s string) (string, bool) {
	idx := lastIndex(s, `\boxed{`)
	if idx < 0 {
		return "", false
	}
	return closeBraces(s, idx)
}

// minervaAnswer returns what the last match of
// `(?i)Answer\s*:\s*([^\n]+)` in s captures.
//
// A match can only start at a case-insensitive "answer", which cannot
// overlap itself, so the occurrences are tried left to right and a match
// resumes the search at its end, as re.findall does. After the colon the
// greedy \s* takes the whole run of whitespace when a character follows
// it; when the run reaches the end of s, Python backtracks to the last
// character of the run that is not "\n", and the capture is that one
// character.
func minervaAnswer(s string) (string, bool) {
	last, found := "", false
	for i := 0; i < len(s); {
		n := matchAnswerWord(s[i:])
		if n == 0 {
			i++
			continue
		}
		j := skipSpace(s, i+n)
		if j >= len(s) || s[j] != ':' {
			i += n
			continue
		}
		run := j + 1
		k := skipSpace(s, run)
		if k < len(s) {
			e := strings.IndexByte(s[k:], '\n')
			if e < 0 {
				e = len(s)
			} else {
				e += k
			}
			last, found = s[k:e], true
			i = e
			continue
		}
		// The whitespace run ends the string: back off to its last
		// character that is not a newline.
		m := k
		for m > run {
			r, w := utf8.DecodeLastRuneInString(s[run:m])
			if r != '\n' {
				last, found = s[m-w:m], true
				break
			}
			m -= w
		}
		break // nothing is left to search after the end of s
	}
	return last, found
}

// matchAnswerWord returns the length in bytes of a case-insensitive
// "answer" at the start of s, as Python's re matches it under IGNORECASE
// (the only non-ASCII code point it accepts is U+017F for "s"), or 0.
func matchAnswerWord(s string) int {
	const word = "answer"
	i := 0
	for _, c := range []byte(word) {
		if i >= len(s) {
			return 0
		}
		b := s[i] | 0x20 // ASCII letters to lower case; other bytes fail below
		switch {
		case b == c && s[i] < utf8.RuneSelf:
			i++
		case c == 's' && strings.HasPrefix(s[i:], "\u017f"):
			i += len("\u017f")
		default:
			return 0
		}
	}
	return i
}

// skipSpace returns the index after the run of Python whitespace at s[i:].
func skipSpace(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !pycompat.IsSpace(r) {
			break
		}
		i += w
	}
	return i
}

// The replacements of normalize_final_answer, in its order: first the
// substitutions, then the expressions it deletes.
var (
	dapoSubs = [][2]string{
		{"an ", ""}, {"a ", ""}, {".$", "$"}, {`\$`, ""}, {`\ `, ""}, {" ", ""},
		{"mbox", "text"}, {`,\text{and}`, ","}, {`\text{and}`, ","}, {`\text{m}`, `\text{}`},
	}
	dapoRemoved = []string{
		"square", "ways", "integers", "dollars", "mph", "inches", "hours", "km", "units",
		`\ldots`, "sue", "points", "feet", "minutes", "digits", "cents", "degrees", "cm",
		"gm", "pounds", "meters", "meals", "edges", "students", "childrentickets",
		"multiples", `\text{s}`, `\text{.}`, "\\text{\ns}", `\text{}^2`, `\text{}^3`,
		"\\text{\n}", `\text{}`, `\mathrm{th}`, `^\circ`, `^{\circ}`, `\;`, `,\!`, "{,}",
		`"`, `\dots`,
	}
)

// normalizeFinalAnswer is math_dapo.py's normalize_final_answer.
func normalizeFinalAnswer(s string) string {
	if k := strings.LastIndexByte(s, '='); k >= 0 {
		s = s[k+1:]
	}
	// Each pair applies to the output of the previous one (a single
	// strings.Replacer would apply them all in one pass, which differs).
	// A pattern holding a byte s lacks cannot occur in it: the set of s's
	// bytes skips most of the ~50 scans (it only grows by what a
	// substitution writes).
	var have byteSet
	have.addAll(s)
	for _, p := range dapoSubs {
		if have.hasAll(p[0]) {
			if t := strings.ReplaceAll(s, p[0], p[1]); t != s {
				s = t
				have.addAll(p[1])
			}
		}
	}
	for _, e := range dapoRemoved {
		if have.hasAll(e) {
			s = strings.ReplaceAll(s, e, "")
		}
	}
	s = firstDollarPairPerLine(s)
	s = unwrapLazy(s, `\text{`)
	s = unwrapLazy(s, `\textbf{`)
	s = unwrapLazy(s, `\overline{`)
	s = unwrapBoxedGreedy(s)
	s = braceFracArgs(s)
	s = braceSqrtArg(s)
	s = strings.ReplaceAll(s, "$", "")
	if t := strings.ReplaceAll(s, ",", ""); t != s && pyIsDigit(t) {
		s = t
	}
	return pycompat.Strip(s)
}

// firstDollarPairPerLine is re.sub(r"(.*?)(\$)(.*?)(\$)(.*)", "$\\3$", s):
// "." does not cross a newline, so each line holding two or more "$"
// becomes "$" + the text between its first two "$" + "$"; other lines
// stay as they are.
func firstDollarPairPerLine(s string) string {
	if strings.Count(s, "$") < 2 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		line, rest, nl := strings.Cut(s, "\n")
		if i := strings.IndexByte(line, '$'); i >= 0 {
			if j := strings.IndexByte(line[i+1:], '$'); j >= 0 {
				line = line[i : i+1+j+1]
			}
		}
		b.WriteString(line)
		if nl {
			b.WriteByte('\n')
		}
		s = rest
	}
	return b.String()
}

// unwrapLazy is re.sub(open + "(.*?)}", "\\1", s) for a literal opener
// ending in "{" that cannot overlap itself: each opener with a "}" later
// on its line is replaced, with that first "}", by the text between.
func unwrapLazy(s, open string) string {
	if !strings.Contains(s, open) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	i := 0
	for {
		k := strings.Index(s[i:], open)
		if k < 0 {
			break
		}
		k += i
		body := k + len(open)
		end := lineEnd(s, body)
		c := strings.IndexByte(s[body:end], '}')
		if c < 0 {
			// No match here; a later opener on this line has no "}" either.
			b.WriteString(s[i:end])
			i = end
			continue
		}
		b.WriteString(s[i:k])
		b.WriteString(s[body : body+c])
		i = body + c + 1
	}
	b.WriteString(s[i:])
	return b.String()
}

// unwrapBoxedGreedy is re.sub(r"(\\boxed\{)(.*)(\})", "\\2", s): the first
// "\boxed{" of a line with a "}" after it, through the last "}" of that
// line, becomes the text between.
func unwrapBoxedGreedy(s string) string {
	const open = `\boxed{`
	if !strings.Contains(s, open) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	i := 0
	for {
		k := strings.Index(s[i:], open)
		if k < 0 {
			break
		}
		k += i
		body := k + len(open)
		end := lineEnd(s, body)
		c := strings.LastIndexByte(s[body:end], '}')
		if c < 0 {
			b.WriteString(s[i:end])
			i = end
			continue
		}
		b.WriteString(s[i:k])
		b.WriteString(s[body : body+c])
		i = body + c + 1
	}
	b.WriteString(s[i:])
	return b.String()
}

// lineEnd is the index of the first "\n" at or after i, or len(s).
func lineEnd(s string, i int) int {
	if e := strings.IndexByte(s[i:], '\n'); e >= 0 {
		return i + e
	}
	return len(s)
}

// braceFracArgs is re.sub(r"(frac)([^{])(.)", "frac{\\2}{\\3}", s): the
// two code points after "frac" get braces when the first is not "{" (it
// may be a newline) and the second is not a newline.
func braceFracArgs(s string) string {
	if !strings.Contains(s, "frac") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	i := 0
	for {
		k := strings.Index(s[i:], "frac")
		if k < 0 {
			break
		}
		k += i
		p := k + len("frac")
		r1, n1 := utf8.DecodeRuneInString(s[p:])
		if n1 == 0 || r1 == '{' {
			b.WriteString(s[i : k+1])
			i = k + 1
			continue
		}
		r2, n2 := utf8.DecodeRuneInString(s[p+n1:])
		if n2 == 0 || r2 == '\n' {
			b.WriteString(s[i : k+1])
			i = k + 1
			continue
		}
		b.WriteString(s[i:p])
		b.WriteByte('{')
		b.WriteString(s[p : p+n1])
		b.WriteString("}{")
		b.WriteString(s[p+n1 : p+n1+n2])
		b.WriteByte('}')
		i = p + n1 + n2
	}
	b.WriteString(s[i:])
	return b.String()
}

// braceSqrtArg is re.sub(r"(sqrt)([^{])", "sqrt{\\2}", s).
func braceSqrtArg(s string) string {
	if !strings.Contains(s, "sqrt") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	i := 0
	for {
		k := strings.Index(s[i:], "sqrt")
		if k < 0 {
			break
		}
		k += i
		p := k + len("sqrt")
		r1, n1 := utf8.DecodeRuneInString(s[p:])
		if n1 == 0 || r1 == '{' {
			b.WriteString(s[i : k+1])
			i = k + 1
			continue
		}
		b.WriteString(s[i:p])
		b.WriteByte('{')
		b.WriteString(s[p : p+n1])
		b.WriteByte('}')
		i = p + n1
	}
	b.WriteString(s[i:])
	return b.String()
}

// pyIsDigit is Python's str.isdigit(): non-empty and every code point a
// decimal digit or another Numeric_Type=Digit character (superscripts,
// circled digits, ...).
func pyIsDigit(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && w == 1) || !(pycompat.IsDecimal(r) || isOtherDigit(r)) {
			return false
		}
		i += w
	}
	return true
}

// otherDigits are the ranges of code points for which CPython 3.11
// (Unicode 14.0) has str.isdigit() true but str.isdecimal() false.
var otherDigits = [][2]rune{
	{0xb2, 0xb3}, {0xb9, 0xb9}, {0x1369, 0x1371}, {0x19da, 0x19da}, {0x2070, 0x2070},
	{0x2074, 0x2079}, {0x2080, 0x2089}, {0x2460, 0x2468}, {0x2474, 0x247c}, {0x2488, 0x2490},
	{0x24ea, 0x24ea}, {0x24f5, 0x24fd}, {0x24ff, 0x24ff}, {0x2776, 0x277e}, {0x2780, 0x2788},
	{0x278a, 0x2792}, {0x10a40, 0x10a43}, {0x10e60, 0x10e68}, {0x11052, 0x1105a}, {0x1f100, 0x1f10a},
}

func isOtherDigit(r rune) bool {
	if r < 0xb2 {
		return false
	}
	for _, g := range otherDigits {
		if r >= g[0] && r <= g[1] {
			return true
		}
	}
	return false
}
