package recipes

import (
	"encoding/binary"
	"math"
	"math/big"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/llenvs/llenvs-go/pycompat"
)

// veRL's prime_math rule (verl/utils/reward_score/prime_math), for the
// numina_* data sources: compute_score returns (is_correct, format, answer)
// and default_compute_score keeps float(is_correct), so the score is 1.0
// or 0.0.
//
// The answer is cut out of the whole response by match_answer: after the
// last "answer:", "answer is" or "answers are" (case-insensitive), before
// a later "is answer"-style phrase, then the content of the last
// \boxed{...} (or \fbox), then the text before the last ". ", then after
// the last "be ", "is ", "=", ": ", "get " and the like, each in turn. It
// is right when grade_answer (prime_math_grader.go) accepts it, or else
// when math_equal does: numbers within a relative 1e-4 (also against the
// ground truth times 100 or over 100), texts equal ignoring case, spaces
// or brackets, tuples and intervals part by part, and answers with \pi
// evaluated with pi = 3.141592653589793 and with pi = 3.14.
//
// veRL's timeouts: grade_answer's sympy step runs in a child process
// killed after 10 s, which veRL scores False; math_equal's own sympy step
// (symbolic_equal) enters `with timeout_limit(...)`, which is a decorator
// factory, not a context manager, so it raises TypeError at once and
// always returns False; this port returns False there too, without the
// sympy call. Our budget (pmStepBudget steps) replaces the 10 s: an item
// over it is StatusTimeout with score 0.0, which is what veRL gives where
// its own timeout fires. An answer holding a construct the port does not
// model (see prime_math_sympy.go) is StatusError with score 0.0 and the
// construct named in the reason.

func init() { Register("prime_math", primeMathRule) }

// pmRaise is an exception math_equal lets escape (handle_base's float()
// of text, an IndexError): compute_score catches it and scores False.
type pmRaise struct{}

func primeMathRule(solution, groundTruth string) (res Result) {
	w := &pmWork{left: pmStepBudget}
	defer recoverPM(&res)
	answer, found := primeMatchAnswer(solution, w)
	if gradeAnswerOrMathEqual(answer, groundTruth, w) {
		return Result{Score: 1, Status: StatusCorrect}
	}
	if !found {
		return Result{Score: 0, Status: StatusNoAnswer, Reason: `no "answer" phrase, \boxed{} or "is"-style lead-in`}
	}
	return Result{Score: 0, Status: StatusIncorrect}
}

// recoverPM turns the port's panics into statuses.
func recoverPM(res *Result) {
	switch r := recover().(type) {
	case nil:
	case pmUndecided:
		*res = Result{Score: 0, Status: StatusError, Reason: "not decided by this port: " + r.what}
	case pmOverBudget:
		*res = Result{Score: 0, Status: StatusTimeout, Reason: "over budget: " + r.what}
	default:
		panic(r)
	}
}

// gradeAnswerOrMathEqual is compute_score's verdict: grade_answer, then
// math_equal. A grade_answer the port cannot decide still yields True
// when math_equal is True, since veRL returns True either way.
func gradeAnswerOrMathEqual(answer, groundTruth string, w *pmWork) (ok bool) {
	var pending *pmUndecided
	func() {
		defer func() {
			if r := recover(); r != nil {
				if u, isU := r.(pmUndecided); isU {
					pending = &u
					return
				}
				panic(r)
			}
		}()
		ok = gradeAnswer(answer, groundTruth, flavorPrime, w)
	}()
	if ok {
		return true
	}
	if primeMathEqual(answer, groundTruth, w) {
		return true
	}
	if pending != nil {
		panic(*pending)
	}
	return false
}

// primeMathEqual is compute_score's try block around math_equal.
func primeMathEqual(answer, groundTruth string, w *pmWork) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, raised := r.(pmRaise); raised {
				ok = false
				return
			}
			panic(r)
		}
	}()
	if strings.Contains(answer, `\pi`) || strings.Contains(groundTruth, `\pi`) {
		// any([...]) of a list: both are computed, and either raising
		// makes the whole verdict False.
		a := mathEqual(pyStr(answer), pyStr(groundTruth), "3.141592653589793", w)
		b := mathEqual(pyStr(answer), pyStr(groundTruth), "3.14", w)
		return a || b
	}
	return mathEqual(pyStr(answer), pyStr(groundTruth), "3.141592653589793", w)
}

// ---------------------------------------------------------------------------
// match_answer

func primeMatchAnswer(s string, w *pmWork) (string, bool) {
	w.step(len(s))
	t := newFolded(s)
	found := false
	// The first seven markers all hold "answer": one search of the whole
	// text settles that none of them is in any part of it (the usual case).
	if index(t.low, "answer") >= 0 {
		for _, m := range []string{"answer:", "answer is", "answers are"} {
			if k := t.rfind(m); k >= 0 {
				found = true
				t = t.from(k + len(m)).strip()
			}
		}
		for _, m := range []string{"is answer", "is the answer", "are answers", "are the answers"} {
			if k := t.rfind(m); k >= 0 {
				found = true
				t = t.to(k).strip()
			}
		}
	}
	if box, ok := primeLastBoxed(t.s); ok && box != "" {
		found = true
		t = newFolded(box)
	}
	if strings.Contains(t.s, ". ") {
		if k := t.rfind(". "); k >= 0 {
			t = t.to(k).strip()
		}
	}
	for _, m := range []string{"be ", "is ", "are ", "=", ": ", "get ", "be\n", "is\n", "are\n", ":\n", "get\n"} {
		if k := t.rfind(m); k >= 0 {
			found = true
			t = t.from(k + len(m)).strip()
		}
	}
	return t.s, found
}

// folded is a text and its copy with ASCII letters in lower case, byte
// for byte, so that match_answer's response.lower().rfind(marker) is a
// search in the copy and every cut is made in both.
//
// Python indexes the lowered text and slices the original with that
// index. Lowering changes the length of only U+0130 (to "i" and U+0307),
// so an answer after one is cut one code point late; no other character
// lowers to an ASCII letter of the markers (U+212A lowers to "k", which
// none has), and the "i" of U+0130 is followed by U+0307, which none
// has, so the ASCII-folded copy finds exactly Python's matches.
//
// Where s holds no U+0130 the two texts have the same code points at the
// same byte offsets, so rfind, from and to use byte offsets; otherwise
// they use Python's code-point indices (with the shift of U+0130).
type folded struct {
	s, low   string
	bytewise bool // indices are byte offsets
}

func newFolded(s string) folded {
	// Eight bytes at a time: one pass finds whether s is ASCII and the
	// word of its first upper-case letter; the lowered copy, when one is
	// needed, is one allocation and a second pass from that word.
	var high uint64
	upper := -1
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		high |= w
		if upper < 0 && upperMask(w) != 0 {
			upper = i
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		high |= uint64(c)
		if upper < 0 && c-'A' < 26 {
			upper = i &^ 7
		}
	}
	bytewise := high&0x8080808080808080 == 0 || !strings.Contains(s, "\u0130")
	if upper < 0 {
		return folded{s, s, bytewise}
	}
	b := make([]byte, len(s))
	copy(b, s[:upper])
	i = upper
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		binary.LittleEndian.PutUint64(b[i:], w+upperMask(w)>>2)
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c-'A' < 26 {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return folded{s, unsafe.String(&b[0], len(b)), bytewise}
}

// upperMask has the top bit set in each byte of w that is an ASCII
// upper-case letter. The bytes are cut to seven bits first so that no
// sum carries into its neighbour; a byte of 0x80 and above is excluded.
func upperMask(w uint64) uint64 {
	const ones = 0x0101010101010101
	low7 := w & (0x7f * ones)
	atLeastA := low7 + (0x80-'A')*ones
	pastZ := low7 + (0x80-'Z'-1)*ones
	return atLeastA &^ pastZ &^ w & (0x80 * ones)
}

// rfind is the index Python's rfind gives in the lowered text (a byte
// offset where the text is bytewise).
func (t folded) rfind(marker string) int {
	k := lastIndex(t.low, marker)
	if k < 0 || t.bytewise {
		return k
	}
	return cpCount(t.s[:k]) + strings.Count(t.s[:k], "\u0130")
}

func (t folded) from(cp int) folded {
	k := max(0, min(cp, len(t.s)))
	if !t.bytewise {
		k = cpOffset(t.s, cp)
	}
	return folded{t.s[k:], t.low[k:], t.bytewise}
}

func (t folded) to(cp int) folded {
	k := max(0, min(cp, len(t.s)))
	if !t.bytewise {
		k = cpOffset(t.s, cp)
	}
	return folded{t.s[:k], t.low[:k], t.bytewise}
}

func (t folded) strip() folded {
	a := len(t.s) - len(strings.TrimLeftFunc(t.s, pycompat.IsSpace))
	b := len(strings.TrimRightFunc(t.s, pycompat.IsSpace))
	if a >= b {
		return folded{}
	}
	return folded{t.s[a:b], t.low[a:b], t.bytewise}
}

// cpCount counts code points, an invalid byte as one (as pycompat.Lower keeps them).
func cpCount(s string) int { return utf8.RuneCountInString(s) }

// cpOffset is the byte offset of code point n of s (len(s) past the end).
func cpOffset(s string, n int) int {
	if n <= 0 {
		return 0
	}
	if pycompat.IsASCII(s) {
		return min(n, len(s))
	}
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

func cpSliceFrom(s string, n int) string { return s[cpOffset(s, n):] }
func cpSliceTo(s string, n int) string   { return s[:cpOffset(s, n)] }

// primeLastBoxed is _last_boxed_only_string: the last "\boxed" (or
// "\fbox"), read from its first "{" to the brace that brings the count
// back to zero, stripped.
func primeLastBoxed(s string) (string, bool) {
	idx := strings.LastIndex(s, `\boxed`)
	if idx < 0 {
		if idx = strings.LastIndex(s, `\fbox`); idx < 0 {
			return "", false
		}
	}
	open, left := 0, -1
	for i := idx; i < len(s); i++ {
		switch s[i] {
		case '{':
			open++
			if left < 0 {
				left = i
			}
		case '}':
			open--
			if open == 0 {
				if left < 0 {
					return "", false
				}
				return pycompat.Strip(s[left+1 : i]), true
			}
		}
	}
	return "", false
}

// ---------------------------------------------------------------------------
// math_equal

// pyValue is a Python value math_equal handles: a str, or the int of
// handle_base, or what eval returned in handle_pi.
type pyValue struct {
	s    string
	num  *pyNum
	isSt bool
}

func pyStr(s string) pyValue { return pyValue{s: s, isSt: true} }

// str is Python's str() of the value.
func (v pyValue) str() string {
	if v.isSt {
		return v.s
	}
	if v.num.isInt {
		return v.num.i.String()
	}
	return pycompat.FloatRepr(v.num.f)
}

// mathEqual is grader.math_equal with include_percentage and a relative
// tolerance of 1e-4; pi is the text handle_pi puts for \pi.
func mathEqual(pred, ref pyValue, pi string, w *pmWork) bool {
	w.step(1)
	pred = meNormalize(pred, pi, w)
	ref = meNormalize(ref, pi, w)
	if pred.isSt && utf8.RuneCountInString(pred.s) > 1000 {
		pred.s = cpSliceTo(pred.s, 1000)
	}
	if pred.isSt && ref.isSt {
		if pycompat.Lower(pycompat.Strip(pred.s)) == pycompat.Lower(pycompat.Strip(ref.s)) {
			return true
		}
		if strings.ReplaceAll(pred.s, " ", "") == strings.ReplaceAll(ref.s, " ", "") {
			return true
		}
	}
	if p, ok := isDigitValue(pred); ok {
		if r, ok := isDigitValue(ref); ok {
			for _, item := range [3]float64{r / 100, r, r * 100} {
				if pyIsClose(item, p, 1e-4) {
					return true
				}
			}
			return false
		}
	}
	if pred.isSt && pred.s == "" {
		return false
	}
	refS := pycompat.Strip(ref.str())
	predS := formatIntervals(pycompat.Strip(pred.str()))

	ps, rs := predS, refS
	if strings.HasPrefix(predS, "[") && strings.HasSuffix(predS, "]") && !strings.HasPrefix(refS, "(") ||
		strings.HasPrefix(predS, "(") && strings.HasSuffix(predS, ")") && !strings.HasPrefix(refS, "[") {
		ps = strings.Trim(ps, "[]()")
		rs = strings.Trim(rs, "[]()")
	}
	if meBrackets.Replace(ps) == meBrackets.Replace(rs) {
		return true
	}

	if predS != "" && refS != "" && strings.IndexByte("([", predS[0]) >= 0 && strings.IndexByte(")]", predS[len(predS)-1]) >= 0 &&
		predS[0] == refS[0] && predS[len(predS)-1] == refS[len(refS)-1] {
		pp := strings.Split(inner(predS), ",")
		rp := strings.Split(inner(refS), ",")
		if len(pp) == len(rp) && allParts(pp, rp, false, w) {
			return true
		}
	}
	if strings.Contains(predS, ",") && strings.Contains(refS, ",") {
		pp := strings.Split(predS, ",")
		rp := strings.Split(refS, ",")
		if len(pp) == len(rp) {
			return allParts(pp, rp, true, w)
		}
	}
	if strings.HasPrefix(predS, "Point") {
		if refS == "" {
			panic(pmRaise{}) // reference[0] raises IndexError
		}
		if refS[0] == '(' && refS[len(refS)-1] == ')' {
			k := strings.IndexByte(predS, '(')
			body := predS[k+1:]
			if len(body) > 0 {
				body = body[:len(body)-lastRuneLen(body)]
			}
			pp := strings.Split(body, ",")
			rp := strings.Split(inner(refS), ",")
			if len(pp) == len(rp) && allParts(pp, rp, false, w) {
				return true
			}
		}
	}
	if strings.Contains(refS, `\begin{pmatrix}`) {
		if strings.HasPrefix(predS, "Matrix") {
			undecided("a sympy Matrix answer")
		} else if strings.HasPrefix(predS, "[") && strings.HasSuffix(predS, "]") {
			// eval(prediction) outside any try: raising ends compute_score with False.
			if strings.IndexByte(predS, '\\') >= 0 {
				panic(pmRaise{})
			}
			undecided("a list answer to a matrix")
		}
	}
	// symbolic_equal: always False in veRL 0.9.1 (see the file comment).
	return false
}

// meBrackets drops the braces and parentheses math_equal ignores.
var meBrackets = strings.NewReplacer("{", "", "}", "", "(", "", ")", "")

func lastRuneLen(s string) int { _, n := utf8.DecodeLastRuneInString(s); return n }

// inner is s[1:-1] in code points.
func inner(s string) string {
	_, a := utf8.DecodeRuneInString(s)
	if len(s) <= a {
		return ""
	}
	return s[a : len(s)-lastRuneLen(s)]
}

// allParts is all([math_equal(p, r) ...]): every pair is compared (a
// raise in any one escapes), strip says whether the parts are stripped.
func allParts(pp, rp []string, strip bool, w *pmWork) bool {
	all := true
	for k := range pp {
		p, r := pp[k], rp[k]
		if strip {
			p, r = pycompat.Strip(p), pycompat.Strip(r)
		}
		if !mathEqual(pyStr(p), pyStr(r), "3.141592653589793", w) {
			all = false
		}
	}
	return all
}

// meNormalize is grader.normalize.
func meNormalize(v pyValue, pi string, w *pmWork) pyValue {
	if !v.isSt {
		return v
	}
	s := v.s
	if len(s) >= 2 && s[0] == '$' {
		if r, _ := utf8.DecodeRuneInString(s[1:]); pycompat.IsDecimal(r) {
			return pyStr(s[1:])
		}
	}
	if isPercentNumber(s) {
		return pyStr(strings.ReplaceAll(strings.ReplaceAll(s, `\%`, ""), "%", ""))
	}
	if k := strings.IndexByte(s, '_'); k >= 0 {
		f, ok := pycompat.ParseFloat(s[:k])
		if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
			panic(pmRaise{}) // float() or int() raises
		}
		n := pyNum{isInt: true}
		n.i, _ = pyIntOfFloat(f)
		return pyValue{num: &n}
	}
	if strings.Contains(s, `\pi`) {
		s = replacePi(s, pi)
		if n, ok := pyEval(s, w); ok {
			return pyValue{num: &n}
		}
		return pyStr(s)
	}
	return v
}

// replacePi is handle_pi's loop: "\pi" becomes "*pi" after a digit and
// "1*pi" elsewhere.
func replacePi(s, pi string) string {
	var b strings.Builder
	for {
		k := strings.Index(s, `\pi`)
		if k < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:k])
		prev, _ := utf8.DecodeLastRuneInString(s[:k])
		if k > 0 && (pycompat.IsDecimal(prev) || isOtherDigit(prev)) {
			b.WriteString("*" + pi)
		} else {
			b.WriteString("1*" + pi)
		}
		s = s[k+3:]
	}
}

// isPercentNumber is re.match(r"^\d+(\.\d+)?%$") or the same with "\%".
func isPercentNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) {
			r, w := utf8.DecodeRuneInString(s[i:])
			if !pycompat.IsDecimal(r) {
				break
			}
			i += w
			n++
		}
		return n
	}
	if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		save := i
		i++
		if digits() == 0 {
			i = save
		}
	}
	rest := s[i:]
	return rest == "%" || rest == "%\n" || rest == `\%` || rest == "\\%\n"
}

// isDigitValue is grader.is_digit: float() of str(s) without "{,}" or,
// when it has none, without commas.
func isDigitValue(v pyValue) (float64, bool) {
	s := v.str()
	if strings.Contains(s, "{,}") {
		return pycompat.ParseFloat(strings.ReplaceAll(s, "{,}", ""))
	}
	return pycompat.ParseFloat(strings.ReplaceAll(s, ",", ""))
}

// pyIsClose is math.isclose(a, b, rel_tol=tol).
func pyIsClose(a, b, tol float64) bool {
	if a == b {
		return true
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	d := math.Abs(a - b)
	return d <= math.Abs(tol*b) || d <= math.Abs(tol*a)
}

// formatIntervals is format_intervals: sympy's Interval(...) text as
// brackets.
func formatIntervals(s string) string {
	t := strings.TrimSuffix(s, "\n")
	if strings.IndexByte(t, '\n') >= 0 || !strings.HasSuffix(t, ")") {
		return s
	}
	for _, f := range [...][3]string{{"Interval(", "[", "]"}, {"Interval.Ropen(", "[", ")"}, {"Interval.Lopen(", "(", "]"}, {"Interval.open(", "(", ")"}} {
		if strings.HasPrefix(t, f[0]) && len(t) >= len(f[0])+1 {
			return f[1] + t[len(f[0]):len(t)-1] + f[2]
		}
	}
	return s
}

// pyIntOfFloat is int(f) for a finite float: truncated toward zero.
func pyIntOfFloat(f float64) (*big.Int, bool) {
	i, _ := new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
	return i, true
}
