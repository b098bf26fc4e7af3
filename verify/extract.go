package verify

import (
	"regexp"
	"sort"
	"strings"
)

// TargetKind is what an extraction target looks for.
type TargetKind uint8

// The kinds of extraction targets.
const (
	TargetLatex  TargetKind = iota // LaTeX: \boxed{}, $...$, \[...\], \(...\), bare \frac{a}{b}
	TargetExpr                     // plain numbers and arithmetic: 42, 1,234.5, 3/4, 50%
	TargetString                   // one of a list of strings (multiple-choice letters)
)

// Target is one kind of answer to look for (math-verify's
// LatexExtractionConfig, ExprExtractionConfig, StringExtractionConfig).
type Target struct {
	Kind TargetKind
	// TryWithoutAnchor also takes answers not introduced by "answer" or
	// "final answer is".
	TryWithoutAnchor bool
	// BoxedPriority (LaTeX) is the priority of \boxed{} answers: 0 first,
	// 50 (default) with "final answer ... is", -1 never.
	BoxedPriority int
	// Norm (LaTeX) is the clean-up of extracted answers.
	Norm NormConfig
	// Strings (string targets) are the accepted answers; Lowercase
	// lowercases the found one.
	Strings   []string
	Lowercase bool
}

// DefaultLatexTarget and DefaultExprTarget are math-verify's defaults.
var (
	DefaultLatexTarget  = Target{Kind: TargetLatex, TryWithoutAnchor: true, BoxedPriority: 50, Norm: DefaultNormConfig}
	DefaultExprTarget   = Target{Kind: TargetExpr, TryWithoutAnchor: true}
	DefaultStringTarget = Target{Kind: TargetString, TryWithoutAnchor: true, Strings: []string{"A", "B", "C", "D"}, Lowercase: true}
)

// ExtractConfig says how Parse finds answers in a text.
type ExtractConfig struct {
	// Targets are tried together, by priority, in this order on ties.
	Targets []Target
	// FirstMatchFallback (math-verify's fallback_mode="first_match") adds
	// the text of the first candidate found as a KindText value.
	FirstMatchFallback bool
	// FirstMatchOnly (extraction_mode="first_match") tries only the first
	// candidate of a priority instead of every one until one parses.
	FirstMatchOnly bool
	// Budget bounds the work; zero fields take DefaultBudget's.
	Budget Budget
}

// DefaultExtractConfig is math-verify's parse defaults: LaTeX then plain
// expressions, with the first candidate's text as a fallback value.
var DefaultExtractConfig = ExtractConfig{
	Targets:            []Target{DefaultLatexTarget, DefaultExprTarget},
	FirstMatchFallback: true,
}

// candidate is one place an answer may be.
type candidate struct {
	start, end int
	priority   int
	target     int // index into the config's targets
	order      int // position of the pattern, for stable ties
	extract    func() (*Value, string)
}

// Parse finds the answer in text and parses it. The result is what
// math-verify's parse returns: the parsed value and, with
// FirstMatchFallback, the text of the first candidate as a KindText value;
// empty when nothing was found. An error is returned only for a budget
// overrun (with the values found so far, none).
func Parse(text string, cfg ExtractConfig) (out []Value, err error) {
	defer catch(&err)
	w := newWork(cfg.Budget)
	defer w.release()
	if len(text) > w.b.MaxInputBytes {
		text = text[len(text)-w.b.MaxInputBytes:]
	}
	// Finding the answer may look at each byte a bounded number of times.
	w.b.MaxSteps += 64 * len(text)
	// The priorities in use, lowest first; candidates of a priority are
	// only looked for when no earlier priority gave an answer.
	prios := map[int]bool{0: true, 50: true, 100: true, 200: true, 300: true}
	for _, t := range cfg.Targets {
		if t.Kind == TargetLatex && t.BoxedPriority >= 0 {
			prios[t.BoxedPriority] = true
		}
		if t.Kind == TargetString {
			prios[250] = true
		}
	}
	order := make([]int, 0, len(prios))
	for p := range prios {
		order = append(order, p)
	}
	sort.Ints(order)
	var found *Value
	fallback := ""
	haveFallback := false
	lower := lowerASCII(text)
	for _, prio := range order {
		var cands []candidate
		for ti, t := range cfg.Targets {
			switch t.Kind {
			case TargetLatex:
				cands = append(cands, latexCandidates(text, lower, ti, t, prio, w)...)
			case TargetExpr:
				cands = append(cands, exprCandidates(text, lower, ti, t, prio, w)...)
			case TargetString:
				cands = append(cands, stringCandidates(text, ti, t, prio, w)...)
			}
		}
		sort.SliceStable(cands, func(i, j int) bool {
			a, b := cands[i], cands[j]
			if a.end != b.end {
				return a.end > b.end
			}
			if a.start != b.start {
				return a.start < b.start
			}
			if a.target != b.target {
				return a.target < b.target
			}
			return a.order < b.order
		})
		matched := false
		for _, c := range cands {
			w.step(10)
			v, s := c.extract()
			matched = true
			if s != "" && !haveFallback {
				fallback, haveFallback = s, true
			}
			if v != nil {
				found = v
				break
			}
			if cfg.FirstMatchOnly {
				break
			}
		}
		if found != nil || (matched && cfg.FirstMatchOnly) {
			break
		}
	}
	if found != nil {
		out = append(out, *found)
	}
	if cfg.FirstMatchFallback && haveFallback {
		out = append(out, TextValue(fallback))
	}
	return out, nil
}

// ---- LaTeX environments ----

// env is one LaTeX environment found at a position.
type env struct {
	end     int
	content string
	boxed   bool // the \boxed{.+} form: keep the last box
	percent bool
}

// envAt matches a math environment starting exactly at p: $$...$$,
// \[...\], $...$, \(...\), " [...] ", and (plain only) a bare \frac{a}{b}
// of numbers; boxedOnly requires a \boxed{...} inside.
func envAt(t string, p int, boxedOnly bool, w *work) (env, bool) {
	w.step(1)
	content, end, ok := "", 0, false
	switch {
	case strings.HasPrefix(t[p:], "$$") && !escaped(t, p) && p+3 <= len(t):
		if k := strings.Index(t[p+3:], "$$"); k >= 0 {
			// lazy: the first "$$" after at least one character
			q := p + 3 + k
			for q < len(t) && escaped(t, q) {
				k2 := strings.Index(t[q+1:], "$$")
				if k2 < 0 {
					q = -1
					break
				}
				q = q + 1 + k2
			}
			if q > 0 {
				content, end, ok = t[p+2:q], q+2, true
			}
		}
	case strings.HasPrefix(t[p:], `\[`) && !escaped(t, p):
		q := p + 3
		for ; q+1 < len(t)+1 && q < len(t); q++ {
			if t[q] == '\\' && q+1 < len(t) && t[q+1] == ']' && !escaped(t, q) {
				break
			}
		}
		w.step(q - p)
		if q < len(t) && q > p+2 {
			content, end, ok = t[p+2:q], q+2, true
		}
	}
	if !ok && p < len(t) && t[p] == '$' && !escaped(t, p) && (p == 0 || t[p-1] < '0' || t[p-1] > '9') {
		q := p + 1
		for q < len(t) {
			if t[q] == '\\' && q+1 < len(t) && t[q+1] == '$' {
				q += 2
				continue
			}
			if t[q] == '\n' || t[q] == '$' {
				break
			}
			q++
		}
		w.step(q - p)
		if q < len(t) && t[q] == '$' && q > p+1 {
			content, end, ok = t[p+1:q], q+1, true
		}
	}
	if !ok && strings.HasPrefix(t[p:], `\(`) && !escaped(t, p) {
		q := p + 2
		for q < len(t) && t[q] != '\n' {
			if t[q] == '\\' && q+1 < len(t) && t[q+1] == ')' {
				break
			}
			q++
		}
		w.step(q - p)
		if q+1 < len(t) && t[q] == '\\' && q > p+2 {
			content, end, ok = t[p+2:q], q+2, true
		}
	}
	if !ok && p+1 < len(t) && isSpace(t[p]) && t[p+1] == '[' {
		q := p + 2
		for q < len(t) && t[q] != '\n' && t[q] != '[' && t[q] != ']' {
			q++
		}
		w.step(q - p)
		if q < len(t) && t[q] == ']' && q > p+2 && q+1 < len(t) && isSpace(t[q+1]) {
			content, end, ok = t[p+2:q], q+2, true
		}
	}
	if !ok && !boxedOnly && (strings.HasPrefix(t[p:], `\frac`) || strings.HasPrefix(t[p:], `-\frac`)) {
		if m := bareFrac.FindStringIndex(window(t, p, 128)); m != nil && m[0] == 0 {
			content, end, ok = t[p:p+m[1]], p+m[1], true
		}
	}
	if !ok {
		return env{}, false
	}
	w.step(len(content))
	if boxedOnly && !strings.Contains(content, `\boxed{`) {
		return env{}, false
	}
	e := env{end: end, content: content}
	// trailing spaces and an optional percent sign
	q := end
	for q < len(t) && isSpace(t[q]) {
		q++
	}
	if m := percentAfter.FindStringIndex(window(t, q, 16)); m != nil && m[0] == 0 {
		e.percent = true
		q += m[1]
	}
	e.end = q
	return e, true
}

var (
	bareFrac     = regexp.MustCompile(`^-?\\frac\{-?\d+(?:[.,]\d+)?\}\{-?\d+(?:[.,]\d+)?\}`)
	percentAfter = regexp.MustCompile(`^(?:\\?%|[Pp]ercentage|[Pp]ercent|[Pp]ct)`)
	chainSep     = regexp.MustCompile(`^\s*(?:,?and|,?or|,)\s*`)
)

// maxPlainAnswer bounds the length of a plain number or expression.
const maxPlainAnswer = 256

// window is t from p, at most n bytes: where a pattern anchored at p is
// matched (Go's regexp costs time in the length of what it is given).
func window(t string, p, n int) string {
	if p+n < len(t) {
		return t[p : p+n]
	}
	return t[p:]
}

// mayStartEnv is a quick test of whether an environment can start at p.
func mayStartEnv(t string, p int) bool {
	switch t[p] {
	case '$', '\\', '-':
		return true
	}
	return isSpace(t[p]) && p+1 < len(t) && t[p+1] == '['
}

// escaped reports whether t[p] follows a backslash.
func escaped(t string, p int) bool { return p > 0 && t[p-1] == '\\' }

// envsAt matches an environment at p and up to five more joined by
// commas, "and" or "or".
func envsAt(t string, p int, boxedOnly bool, w *work) ([]env, int, bool) {
	e, ok := envAt(t, p, boxedOnly, w)
	if !ok {
		return nil, 0, false
	}
	envs := []env{e}
	end := e.end
	for k := 0; k < 5; k++ {
		q := end
		if boxedOnly {
			for q < len(t) && isSpace(t[q]) {
				q++
			}
		}
		m := chainSep.FindStringIndex(window(t, q, 64))
		if m == nil {
			break
		}
		next, ok := envAt(t, q+m[1], boxedOnly, w)
		if !ok {
			break
		}
		envs = append(envs, next)
		end = next.end
	}
	return envs, end, true
}

// anchored finds, left to right and without overlaps, an anchor (a
// lowercase ASCII literal, matched in any case) followed (within maxGap
// bytes, shortest first) by what at matches.
func anchored(t, lower, anchor string, maxGap int, w *work, at func(p int) (int, bool)) []struct{ start, end, body int } {
	var out []struct{ start, end, body int }
	pos := 0
	for pos < len(t) {
		k := strings.Index(lower[pos:], anchor)
		if k < 0 {
			break
		}
		s, a := pos+k, pos+k+len(anchor)
		matched := false
		for gap := 0; gap <= maxGap && a+gap <= len(t); gap++ {
			w.step(1)
			if end, ok := at(a + gap); ok {
				out = append(out, struct{ start, end, body int }{s, end, a + gap})
				pos = end
				matched = true
				break
			}
		}
		if !matched {
			pos = s + 1
		}
	}
	return out
}

// anchoredIf is anchored when cond holds, else nothing.
func anchoredIf(cond bool, t, lower, anchor string, maxGap int, w *work, at func(p int) (int, bool)) []struct{ start, end, body int } {
	if !cond {
		return nil
	}
	return anchored(t, lower, anchor, maxGap, w, at)
}

// lowerASCII lowercases ASCII letters only, keeping byte offsets.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// skipColonSpace skips an optional ":" and spaces at p.
func skipColonSpace(t string, p int) int {
	if p < len(t) && t[p] == ':' {
		p++
	}
	for p < len(t) && isSpace(t[p]) {
		p++
	}
	return p
}

var (
	reIsAfterGap = regexp.MustCompile(`^\s+is:?\s*`)
	reIHope      = regexp.MustCompile(`^\.?\s?I hope`)
	reIsAfter    = regexp.MustCompile(`^\s+is:?`)
)

func latexCandidates(t, lower string, ti int, cfg Target, only int, w *work) []candidate {
	var out []candidate
	add := func(prio, order, start, end int, envs []env) {
		w.step(1)
		out = append(out, candidate{start: start, end: end, priority: prio, target: ti, order: order,
			extract: func() (*Value, string) { return extractLatex(envs, cfg, w) }})
	}
	envsEnd := func(boxedOnly bool) func(p int) (int, bool) {
		return func(p int) (int, bool) {
			_, end, ok := envsAt(t, p, boxedOnly, w)
			return end, ok
		}
	}
	envsBody := func(p int) []env { e, _, _ := envsAt(t, p, false, w); return e }

	// 0: "final answer is $x$. I hope"
	for _, m := range anchoredIf(only == 0, t, lower, "final answer is", 0, w, func(p int) (int, bool) {
		_, end, ok := envsAt(t, skipColonSpace(t, p), false, w)
		if !ok {
			return 0, false
		}
		if h := reIHope.FindStringIndex(window(t, end, 16)); h != nil {
			return end + h[1], true
		}
		return 0, false
	}) {
		add(0, 0, m.start, m.end, envsBody(skipColonSpace(t, m.body)))
	}
	// 50: "final answer ... is $x$"
	for _, m := range anchoredIf(only == 50, t, lower, "final answer", 100, w, func(p int) (int, bool) {
		is := reIsAfterGap.FindStringIndex(window(t, p, 64))
		if is == nil {
			return 0, false
		}
		return envsEnd(false)(p + is[1])
	}) {
		is := reIsAfterGap.FindStringIndex(window(t, m.body, 64))
		add(50, 1, m.start, m.end, envsBody(m.body+is[1]))
	}
	// 100 / 200: "answer: ... $x$", "answer ... $x$"
	for _, m := range anchoredIf(only == 100, t, lower, "answer:", 50, w, envsEnd(false)) {
		add(100, 2, m.start, m.end, envsBody(m.body))
	}
	for _, m := range anchoredIf(only == 200, t, lower, "answer", 50, w, envsEnd(false)) {
		add(200, 3, m.start, m.end, envsBody(m.body))
	}
	if cfg.TryWithoutAnchor && only == 300 {
		for p := 0; p < len(t); {
			if !mayStartEnv(t, p) {
				p++
				continue
			}
			envs, end, ok := envsAt(t, p, false, w)
			if !ok {
				p++
				continue
			}
			add(300, 4, p, end, envs)
			p = max(end, p+1)
		}
	}
	if cfg.BoxedPriority >= 0 && only == cfg.BoxedPriority && strings.Contains(t, `\boxed{`) {
		for p := 0; p < len(t); {
			if !mayStartEnv(t, p) {
				p++
				continue
			}
			envs, end, ok := envsAt(t, p, true, w)
			if !ok {
				p++
				continue
			}
			add(cfg.BoxedPriority, 5, p, end, envs)
			p = max(end, p+1)
		}
		// \boxed{ to the last closing brace of the text.
		if b := strings.Index(t, `\boxed{`); b >= 0 {
			if last := strings.LastIndexByte(t, '}'); last > b+7 {
				add(cfg.BoxedPriority, 6, b, last+1, []env{{content: t[b : last+1], boxed: true}})
			}
		}
	}
	return out
}

// extractLatex normalizes and parses the environments of one match.
func extractLatex(envs []env, cfg Target, w *work) (*Value, string) {
	var vals []*Value
	var strs []string
	for _, e := range envs {
		norm := cfg.Norm
		if e.boxed {
			norm.Boxed = "last"
		}
		s := normalizeLatex(e.content, norm)
		strs = append(strs, s)
		v, err := parseLatexAnswer(s, w)
		if err != nil {
			vals = append(vals, nil)
			continue
		}
		if e.percent {
			v = percentOf(v)
		}
		vals = append(vals, &v)
	}
	if len(vals) == 0 {
		return nil, ""
	}
	if len(vals) > 1 {
		all := true
		var items []Value
		for _, v := range vals {
			if v == nil {
				all = false
				break
			}
			if v.Kind == KindSet {
				items = append(items, v.Items...)
			} else {
				items = append(items, *v)
			}
		}
		if all {
			s := makeSet(items)
			s.src = encodeLatex(envs, strs)
			return &s, strings.Join(strs, " and ")
		}
	}
	if vals[0] != nil {
		vals[0].src = encodeLatex(envs[:1], strs[:1])
	}
	return vals[0], strs[0]
}

func percentOf(v Value) Value {
	if v.Kind != KindExpr {
		return v
	}
	return exprValue(&Node{op: opPct, args: []*Node{v.Expr}})
}

// parseLatexAnswer parses a normalized answer; when that fails, the last
// side of an equation chain a = b = c. A budget overrun panics (Parse's
// catch turns it into its error): it ends the search for an answer, so
// that it never passes the turn to a smaller candidate.
func parseLatexAnswer(s string, w *work) (Value, error) {
	v, err := parseAnswer(s, w)
	if err == nil || IsBudgetError(err) {
		if err != nil {
			panic(err)
		}
		return v, nil
	}
	if !strings.ContainsAny(s, ",;") {
		parts := splitEquals(s)
		if len(parts) > 2 {
			v2, err2 := parseAnswer(parts[len(parts)-1], w)
			if err2 == nil {
				return v2, nil
			}
			if IsBudgetError(err2) {
				panic(err2)
			}
		}
	}
	return Value{}, err
}

// splitEquals splits at "=" signs not part of \=, <=, >=, !=.
func splitEquals(s string) []string {
	var parts []string
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '=' && (i == 0 || !strings.ContainsRune(`\<!>`, rune(s[i-1]))) {
			parts = append(parts, s[last:i])
			last = i + 1
		}
	}
	return append(parts, s[last:])
}

// ---- plain expressions and numbers ----

const (
	numberRe   = `(?:(-?[1-9]\d{0,2}(?:[ ,]\d{3})+)(\.\d+)?|(-?\d+)([.,]\d+)|(\.\d+)|(-?\d+))(\s*(?:%|[Pp]ercent|\s*[Pp]ercentage|\s*[Pp]ct))?`
	exprChars  = `[\d.\s+\-*×/^()÷]`
	exprOps    = `[+\-*×/^()÷]`
	exprRe     = `(-?\(?-?\d` + exprChars + `*` + exprOps + exprChars + `+\)?)`
	exprPrefix = `(?:^|\s|=)(?:\*\*)?`
	midPrefix  = `[\s=](?:\*\*)?`
	exprSuffix = `(?:\*\*)?(?:\.|,|:|\s|\)|\$|$)`
	currency   = `[$€£¥₹₽₪₩₫฿₡₢₣₤₥₦₧₨₭₮₯₰₱₲₳₴₵₶₷₸₺₻₼₾₿]`
)

var (
	reExprAnch     = regexp.MustCompile(exprPrefix + exprRe + exprSuffix)
	reNumAnch      = regexp.MustCompile(exprPrefix + currency + `?` + numberRe)
	reExprOrNum    = regexp.MustCompile(`^(?:` + exprPrefix + exprRe + exprSuffix + `|` + exprPrefix + currency + `?` + numberRe + `)`)
	reExprOrNumMid = regexp.MustCompile(`^(?:` + midPrefix + exprRe + exprSuffix + `|` + midPrefix + currency + `?` + numberRe + `)`)
	reEqualsAhead  = regexp.MustCompile(`^\s*=`)
)

func exprCandidates(t, lower string, ti int, cfg Target, only int, w *work) []candidate {
	var out []candidate
	add := func(prio, order, start, end int, body string) {
		w.step(1)
		out = append(out, candidate{start: start, end: end, priority: prio, target: ti, order: order,
			extract: func() (*Value, string) { return extractExpr(body, w) }})
	}
	exprAt := func(p int) (int, bool) {
		m := exprOrNumAt(t, p)
		if m == nil {
			return 0, false
		}
		return p + m[1], true
	}
	for _, m := range anchoredIf(only == 0, t, lower, "final answer is", 0, w, func(p int) (int, bool) {
		p = skipColonSpace(t, p)
		end, ok := exprAt(p)
		if !ok {
			return 0, false
		}
		if h := reIHope.FindStringIndex(window(t, end, 16)); h != nil {
			return end + h[1], true
		}
		return 0, false
	}) {
		body := skipColonSpace(t, m.body)
		end, _ := exprAt(body)
		add(0, 0, m.start, m.end, t[body:end])
	}
	for _, m := range anchoredIf(only == 50, t, lower, "final answer", 100, w, func(p int) (int, bool) {
		is := reIsAfter.FindStringIndex(window(t, p, 64))
		if is == nil {
			return 0, false
		}
		return exprAt(p + is[1])
	}) {
		add(50, 1, m.start, m.end, t[m.body:m.end])
	}
	// "answer" ... "= x" or "answer" ... "x" (not followed by "=").
	answerAt := func(p int) (int, bool) {
		// an "=" within 100 characters: the last one whose value follows
		limit := min(len(t), p+101)
		line := t[p:limit]
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
		}
		for k := len(line) - 1; k >= 0; k-- {
			if line[k] != '=' {
				continue
			}
			q := p + k + 1
			for q < len(t) && isSpace(t[q]) && t[q] != '\n' {
				q++
			}
			if end, ok := exprAt(q); ok && reEqualsAhead.FindStringIndex(window(t, end, 64)) == nil {
				return end, true
			}
		}
		for gap := 0; gap <= 50 && p+gap <= len(t); gap++ {
			if p+gap > p && t[p+gap-1] == '\n' {
				break
			}
			if end, ok := exprAt(p + gap); ok && reEqualsAhead.FindStringIndex(window(t, end, 64)) == nil {
				return end, true
			}
		}
		return 0, false
	}
	for _, m := range anchoredIf(only == 100, t, lower, "answer:", 0, w, answerAt) {
		add(100, 2, m.start, m.end, lastExprBefore(t, m.body, m.end))
	}
	for _, m := range anchoredIf(only == 200, t, lower, "answer", 0, w, answerAt) {
		add(200, 3, m.start, m.end, lastExprBefore(t, m.body, m.end))
	}
	if cfg.TryWithoutAnchor && only == 300 {
		for _, loc := range reExprAnch.FindAllStringIndex(t, -1) {
			add(300, 4, loc[0], loc[1], t[loc[0]:loc[1]])
		}
		for _, loc := range reNumAnch.FindAllStringIndex(t, -1) {
			add(300, 5, loc[0], loc[1], t[loc[0]:loc[1]])
		}
	}
	return out
}

// exprOrNumAt matches a number or expression starting at p: at the start
// of the text, or with the space or "=" before it at p.
func exprOrNumAt(t string, p int) []int {
	if p == 0 {
		return reExprOrNum.FindStringIndex(window(t, 0, maxPlainAnswer))
	}
	return reExprOrNumMid.FindStringIndex(window(t, p, maxPlainAnswer))
}

// lastExprBefore is the expression or number ending at end, found after
// body.
func lastExprBefore(t string, body, end int) string {
	for p := body; p < end; p++ {
		m := exprOrNumAt(t, p)
		if m != nil && p+m[1] == end {
			return t[p:end]
		}
	}
	return t[body:end]
}

var (
	reNumOnly  = regexp.MustCompile(`^` + exprPrefix + currency + `?` + numberRe + `$`)
	reExprOnly = regexp.MustCompile(`^` + exprPrefix + exprRe + exprSuffix + `$`)
)

var reTrailingDot = regexp.MustCompile(`(\d)\.(\D|$)`)

// plainExpr prepares a plain expression for the parser: "37." is 37.0.
func plainExpr(s string) string {
	s = strings.NewReplacer("\n", " ", "×", "*", "÷", "/").Replace(s)
	for i := 0; i < 2; i++ {
		s = reTrailingDot.ReplaceAllString(s, "${1}.0$2")
	}
	return s
}

// extractExpr reads a matched plain number or expression.
func extractExpr(s string, w *work) (*Value, string) {
	if m := reExprOnly.FindStringSubmatch(s); m != nil {
		expr := m[1]
		v, err := parseAnswer(plainExpr(expr), w)
		if IsBudgetError(err) {
			panic(err) // as in parseLatexAnswer: the search ends here
		}
		if err != nil || v.Kind != KindExpr {
			return nil, expr
		}
		v.src = "X" + expr
		return &v, expr
	}
	m := reNumOnly.FindStringSubmatch(s)
	if m == nil {
		return nil, strings.TrimSpace(s)
	}
	integer := firstNonEmpty(m[1], m[3], m[6])
	decimal := firstNonEmpty(m[2], m[4], m[5])
	integer = strings.NewReplacer(",", "", " ", "").Replace(integer)
	negative := strings.HasPrefix(integer, "-")
	integer = strings.TrimLeft(strings.TrimPrefix(integer, "-"), "0")
	if integer == "" {
		integer = "0"
	}
	if negative {
		integer = "-" + integer
	}
	decimal = strings.ReplaceAll(decimal, ",", ".")
	numStr := integer + decimal
	n, err := parseNumber(numStr, w)
	if err != nil {
		return nil, numStr
	}
	if m[7] != "" {
		n = &Node{op: opPct, args: []*Node{n}}
	}
	v := exprValue(n)
	v.src = "N-" + numStr
	if m[7] != "" {
		v.src = "N%" + numStr
	}
	return &v, numStr
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// ---- literal strings ----

func stringCandidates(t string, ti int, cfg Target, only int, w *work) []candidate {
	if len(cfg.Strings) == 0 {
		return nil
	}
	keys := make([]string, len(cfg.Strings))
	for i, s := range cfg.Strings {
		keys[i] = regexp.QuoteMeta(s)
	}
	key := `(` + strings.Join(keys, "|") + `)`
	suffix := `(?:\*\*)?(?:\.|,|:|\s|$)`
	pats := []struct {
		re   string
		prio int
	}{
		{`(?i:final answer is):?\s*` + key + `\.?\s?I hope`, 0},
		{`(?i:final answer.{0,100}?)\s+is:?\s*` + key, 50},
		{`(?i:answer):.{0,50}?(?:^|\s)(?:\*\*)?` + key + suffix, 100},
		{`(?i:answer).{0,50}?(?:^|\s)(?:\*\*)?` + key + suffix, 200},
	}
	if cfg.TryWithoutAnchor {
		pats = append(pats, struct {
			re   string
			prio int
		}{`^(?:\*\*)?` + key + suffix, 250}, struct {
			re   string
			prio int
		}{`(?:^|\s)(?:\*\*)?` + key + suffix, 300})
	}
	var out []candidate
	for order, p := range pats {
		if p.prio != only {
			continue
		}
		re := regexp.MustCompile(p.re)
		for _, m := range re.FindAllStringSubmatchIndex(t, -1) {
			w.step(1)
			found := t[m[2]:m[3]]
			out = append(out, candidate{start: m[0], end: m[1], priority: p.prio, target: ti, order: order,
				extract: func() (*Value, string) {
					s := found
					if cfg.Lowercase {
						s = strings.ToLower(s)
					}
					v := TextValue(s)
					return &v, found
				}})
		}
	}
	return out
}
