package recipes

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
)

// The prm800k grader (grade_answer) that veRL's prime_math and mathruler
// (geo3k) both carry, with their small differences as a flavor: an answer
// is right when Hendrycks' normalization makes both texts equal, or
// prm800k's own normalization does, or, element by element for tuples and
// intervals, sympy finds the difference zero (prime_math_sympy.go), with
// two guards: unreduced fractions a/b must match as written, and an
// integer ground truth needs an integer answer.

// graderFlavor says whose copy of the grader runs.
type graderFlavor uint8

const (
	flavorPrime     graderFlavor = iota // verl/utils/reward_score/prime_math
	flavorMathruler                     // mathruler.grader (geo3k)
)

// gradeAnswer is grade_answer(given, groundTruth).
func gradeAnswer(given, groundTruth string, fl graderFlavor, w *pmWork) bool {
	w.step(len(given) + len(groundTruth))
	if mathdNormalize(groundTruth, fl) == mathdNormalize(given, fl) {
		return true
	}
	gtn := prmNormalize(groundTruth, fl, w)
	gn := prmNormalize(given, fl, w)
	if gtn == gn {
		return true
	}
	if gn == "" {
		return false
	}
	gte, ge := splitTuple(gtn, w), splitTuple(gn, w)
	if len(gte) > 1 && (firstRune(gtn) != firstRune(gn) || lastRune(gtn) != lastRune(gn)) || len(gte) != len(ge) {
		return false
	}
	for k := range gte {
		a, b := gte[k], ge[k]
		var ok bool
		switch {
		case isFracText(a) && isFracText(b):
			ok = a == b // unreduced fractions must match as written
		case strIsInt(a, w) != strIsInt(b, w):
			ok = false
		default:
			ok = shouldAllowEval("("+a+")-("+b+")") && sympyEqual(a, b, w)
		}
		if !ok {
			return false
		}
	}
	return true
}

func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }
func lastRune(s string) rune  { r, _ := utf8.DecodeLastRuneInString(s); return r }

// mathdNormalize is math_normalize.normalize_answer: strip, unwrap a whole
// \text{...}, then Hendrycks' strip_string; where that raises, the
// unwrapped text.
func mathdNormalize(s string, fl graderFlavor) string {
	s = pycompat.Strip(s)
	if t, ok := textWrapped(s); ok {
		s = pycompat.Strip(t)
	}
	if out, ok := prmStripString(s, fl); ok {
		return out
	}
	return s
}

// textWrapped is re.search(r"^\\text\{(?P<text>.+?)\}$", s): s is
// "\text{" + text + "}" (before an optional final newline), text not
// empty and without a newline.
func textWrapped(s string) (string, bool) {
	if !strings.HasPrefix(s, `\text{`) {
		return "", false
	}
	body := strings.TrimSuffix(s, "\n")
	if !strings.HasSuffix(body, "}") || len(body) < len(`\text{`)+2 {
		return "", false
	}
	t := body[len(`\text{`) : len(body)-1]
	if strings.IndexByte(t, '\n') >= 0 {
		return "", false
	}
	return t, true
}

// prmStripString is math_normalize._strip_string; false where it raises.
// The flavors differ only in what they remove as percent signs.
func prmStripString(s string, fl graderFlavor) (string, bool) {
	t := newTextEdit(s)
	t.replaceAll("\n", "")
	t.replaceAll(`\!`, "")
	t.replaceAll(`\\`, `\`)
	t.replaceAll("tfrac", "frac")
	t.replaceAll("dfrac", "frac")
	t.replaceAll(`\left`, "")
	t.replaceAll(`\right`, "")
	t.replaceAll(`^{\circ}`, "")
	t.replaceAll(`^\circ`, "")
	t.replaceAll(`\$`, "")
	if t.contains(`\text{ `) {
		if strings.Count(t.s, `\text{ `) != 1 {
			return "", false
		}
		t.set(t.s[:strings.Index(t.s, `\text{ `)])
	}
	if fl == flavorPrime {
		t.replaceAll(`\\%`, "")
		t.replaceAll(`\%`, "")
	} else {
		t.replaceAll(`\%`, "")
		t.replaceAll(`%`, "")
	}
	t.replaceAll(" .", " 0.")
	t.replaceAll("{.", "{0.")
	s = t.s
	if s == "" {
		return s, true
	}
	if s[0] == '.' {
		s = "0" + s
	}
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

// The units _normalize removes, in its order (mathruler lacks "liter").
var (
	prmUnits      = []string{"degree", "cm", "centimeter", "meter", "mile", "second", "minute", "hour", "day", "week", "month", "year", "foot", "feet", "inch", "yard", "liter"}
	mathrulerUnit = prmUnits[:len(prmUnits)-1]
)

// prmNormalize is grader._normalize.
func prmNormalize(s string, fl graderFlavor, w *pmWork) string {
	w.step(len(s))
	if t, ok := textWrapped(s); ok {
		s = t
	}
	t := newTextEdit(s)
	t.replaceAll(`\%`, "%")
	t.replaceAll(`\$`, "$")
	t.replaceAll("$", "")
	t.replaceAll("%", "")
	t.replaceAll(" or ", " , ")
	t.replaceAll(" and ", " , ")
	t.replaceAll("million", "*10^6")
	t.replaceAll("billion", "*10^9")
	t.replaceAll("trillion", "*10^12")
	units := prmUnits
	if fl == flavorMathruler {
		units = mathrulerUnit
	}
	for _, u := range units {
		if t.contains(u) {
			t.set(removeUnit(t.s, u))
		}
	}
	s = t.s
	s = removeCirc(s)
	if len(s) > 0 && s[0] == '{' && s[len(s)-1] == '}' {
		s = s[1 : len(s)-1]
	}
	s = removeThinSpaceCommas(s)
	if f, ok := pycompat.ParseFloat(s); ok && isNearInt(f) {
		s = floatIntString(math.RoundToEven(f))
	}
	if strings.IndexByte(s, '\\') >= 0 {
		s = parseLatexText(s, w)
	}
	s = dropSpaceAfterMinus(s)
	s = injectMixedNumbers(s)
	if fl == flavorMathruler {
		s = strings.ReplaceAll(s, " ", "")
		s = strings.ReplaceAll(s, "{", "")
		s = strings.ReplaceAll(s, "}", "")
	}
	s = pycompat.Lower(s)
	if strIsInt(s, w) {
		f, _ := pycompat.ParseFloat(strings.ReplaceAll(s, ",", ""))
		s = floatIntString(math.Trunc(f)) // int() truncates
	}
	return s
}

// parseLatexText is _parse_latex: \tfrac and \dfrac become \frac, a space
// goes before each \frac (for mixed numbers), pylatexenc renders the text
// and a few of its characters are renamed for sympy.
func parseLatexText(orig string, w *pmWork) (out string) {
	defer func() {
		if r := recover(); r != nil {
			if _, raised := r.(latexRaise); raised {
				out = orig // contextlib.suppress keeps the text
				return
			}
			panic(r)
		}
	}()
	s := strings.ReplaceAll(orig, `\tfrac`, `\frac`)
	s = strings.ReplaceAll(s, `\dfrac`, `\frac`)
	s = strings.ReplaceAll(s, `\frac`, ` \frac`)
	s = latexToText(s, w)
	s = latexRenamer.Replace(s)
	return pycompat.Strip(s)
}

// The renames are applied one after another in veRL; none of the
// replacements holds another's pattern, so one pass is the same.
var latexRenamer = strings.NewReplacer("√", "sqrt", "π", "pi", "∞", "inf", "∪", "U", "·", "*", "×", "*")

// removeUnit is re.sub(unit + r"(es)?(s)? *(\^[0-9]+)?", "", s).
func removeUnit(s, unit string) string {
	var b strings.Builder
	i := 0
	for {
		k := strings.Index(s[i:], unit)
		if k < 0 {
			break
		}
		k += i
		b.WriteString(s[i:k])
		e := k + len(unit)
		if strings.HasPrefix(s[e:], "es") {
			e += 2
		}
		if e < len(s) && s[e] == 's' {
			e++
		}
		for e < len(s) && s[e] == ' ' {
			e++
		}
		if e+1 < len(s) && s[e] == '^' && s[e+1] >= '0' && s[e+1] <= '9' {
			e += 2
			for e < len(s) && s[e] >= '0' && s[e] <= '9' {
				e++
			}
		}
		i = e
	}
	b.WriteString(s[i:])
	return b.String()
}

// removeCirc is re.sub(r"\^ *\\circ", "", s).
func removeCirc(s string) string {
	if !strings.Contains(s, `\circ`) {
		return s
	}
	var b strings.Builder
	i := 0
	for j := 0; j < len(s); j++ {
		if s[j] != '^' {
			continue
		}
		e := j + 1
		for e < len(s) && s[e] == ' ' {
			e++
		}
		if strings.HasPrefix(s[e:], `\circ`) {
			b.WriteString(s[i:j])
			i = e + len(`\circ`)
			j = i - 1
		}
	}
	b.WriteString(s[i:])
	return b.String()
}

// removeThinSpaceCommas is re.sub(",\\\\! *", "", s).
func removeThinSpaceCommas(s string) string {
	if !strings.Contains(s, `,\!`) {
		return s
	}
	var b strings.Builder
	i := 0
	for {
		k := strings.Index(s[i:], `,\!`)
		if k < 0 {
			break
		}
		k += i
		b.WriteString(s[i:k])
		e := k + 3
		for e < len(s) && s[e] == ' ' {
			e++
		}
		i = e
	}
	b.WriteString(s[i:])
	return b.String()
}

// dropSpaceAfterMinus is re.sub("- *", "-", s).
func dropSpaceAfterMinus(s string) string {
	if !strings.Contains(s, "- ") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if s[i] == '-' {
			for i+1 < len(s) && s[i+1] == ' ' {
				i++
			}
		}
	}
	return b.String()
}

// injectMixedNumbers is re.sub(r"([0-9]) +([0-9])", r"\1+\2", s): a
// match consumes both digits, so "1 2 3" becomes "1+2 3".
func injectMixedNumbers(s string) string {
	if !strings.Contains(s, " ") {
		return s
	}
	var b strings.Builder
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= '0' && c <= '9' {
			e := i + 1
			for e < len(s) && s[e] == ' ' {
				e++
			}
			if e > i+1 && e < len(s) && s[e] >= '0' && s[e] <= '9' {
				b.WriteByte(c)
				b.WriteByte('+')
				b.WriteByte(s[e])
				i = e + 1
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// isNearInt is _is_int: within 1e-7 of round(x); false for inf and nan,
// where int() raises.
func isNearInt(f float64) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	return math.Abs(f-math.RoundToEven(f)) <= 1e-7
}

// floatIntString is str(int(x)) for an integral float.
func floatIntString(f float64) string {
	if f == 0 {
		return "0"
	}
	if math.Abs(f) < 1e15 {
		return strconv.Itoa(int(f))
	}
	i, _ := new(big.Float).SetFloat64(f).Int(nil)
	return i.String()
}

// strIsInt is _str_is_int.
func strIsInt(s string, w *pmWork) bool {
	f, ok := pycompat.ParseFloat(stripProperCommas(s, w))
	return ok && isNearInt(f)
}

// stripProperCommas is _strip_properly_formatted_commas: re.sub of
// r"(\d)(,)(\d\d\d)($|\D)" by r"\1\3\4" until nothing changes.
func stripProperCommas(s string, w *pmWork) string {
	if !mayStripComma(s) {
		return s
	}
	for {
		w.step(len(s))
		next := stripCommasOnce(s)
		if next == s {
			return s
		}
		s = next
	}
}

// mayStripComma says whether some comma of s sits between bytes that can
// belong to decimal digits (an ASCII digit, or any byte of a multi-byte
// character): where none does, the pattern cannot match.
func mayStripComma(s string) bool {
	digitish := func(c byte) bool { return c-'0' < 10 || c >= 0x80 }
	for i := 0; ; i++ {
		k := strings.IndexByte(s[i:], ',')
		if k < 0 {
			return false
		}
		i += k
		if i > 0 && i+1 < len(s) && digitish(s[i-1]) && digitish(s[i+1]) {
			return true
		}
	}
}

func stripCommasOnce(s string) string {
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	i := 0
	for i < len(rs) {
		if i+4 < len(rs) && pycompat.IsDecimal(rs[i]) && rs[i+1] == ',' &&
			pycompat.IsDecimal(rs[i+2]) && pycompat.IsDecimal(rs[i+3]) && pycompat.IsDecimal(rs[i+4]) {
			e := i + 5
			switch {
			case e == len(rs) || (e == len(rs)-1 && rs[e] == '\n'):
				// "$" matches: nothing more is consumed.
			case !pycompat.IsDecimal(rs[e]):
				e++ // \D consumes one character
			default:
				b.WriteRune(rs[i])
				i++
				continue
			}
			b.WriteRune(rs[i])
			for _, r := range rs[i+2 : e] {
				b.WriteRune(r)
			}
			i = e
			continue
		}
		b.WriteRune(rs[i])
		i++
	}
	return b.String()
}

// fracPattern is _is_frac's pattern; Python's "$" also matches before a
// final newline, handled in isFracText.
var fracPattern = regexp.MustCompile(`^-?[0-9]+.?/0*[1-9][0-9]*.?$`)

func isFracText(s string) bool {
	if strings.IndexByte(s, '/') < 0 {
		return false
	}
	return fracPattern.MatchString(s) || strings.HasSuffix(s, "\n") && fracPattern.MatchString(s[:len(s)-1])
}

// splitTuple is split_tuple.
func splitTuple(s string, w *pmWork) []string {
	s = stripProperCommas(s, w)
	if s == "" {
		return nil
	}
	first, last := firstRune(s), lastRune(s)
	if utf8.RuneCountInString(s) > 2 && strings.ContainsRune("()[]", first) && strings.ContainsRune("()[]", last) {
		inner := s[utf8.RuneLen(first) : len(s)-utf8.RuneLen(last)]
		if !strings.ContainsAny(inner, "()[]") {
			parts := strings.Split(inner, ",")
			for k := range parts {
				parts[k] = pycompat.Strip(parts[k])
			}
			return parts
		}
	}
	return []string{s}
}

// shouldAllowEval is should_allow_eval: at most two distinct letters
// (after dropping "sqrt" and "frac"), no "^{" or "^(", and no exponent of
// two or more digits or followed by another "^".
func shouldAllowEval(expr string) bool {
	t := strings.ReplaceAll(strings.ReplaceAll(expr, "sqrt", ""), "frac", "")
	var seen [2]rune
	n := 0
	for _, r := range t {
		if !isPyAlpha(r) || (n > 0 && seen[0] == r) || (n > 1 && seen[1] == r) {
			continue
		}
		if n == 2 {
			return false
		}
		seen[n] = r
		n++
	}
	if strings.Contains(expr, "^{") || strings.Contains(expr, "^(") {
		return false
	}
	for i := 0; i < len(expr); i++ {
		if expr[i] != '^' {
			continue
		}
		j := i + 1
		for j < len(expr) && expr[j] >= '0' && expr[j] <= '9' {
			j++
		}
		if j-i-1 >= 2 || (j > i+1 && j < len(expr) && expr[j] == '^') {
			return false
		}
	}
	return true
}
