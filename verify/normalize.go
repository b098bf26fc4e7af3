package verify

import (
	"regexp"
	"strings"
)

// NormConfig selects the clean-ups applied to an extracted LaTeX answer
// before it is parsed (math-verify's NormalizationConfig).
type NormConfig struct {
	BasicLatex         bool   // drop \displaystyle, $, quotes; \dfrac to \frac; "and"/"or" to commas; percent words
	Units              bool   // drop a trailing \text{...} unit and unit words after a number
	MalformedOperators bool   // \frac12, \sqrt2, sqrt(2), ^(...), a/b
	Nits               bool   // ".5" to "0.5"; "0.5" to \frac{1}{2}
	Boxed              string // "all", "last" or "none": which \boxed{} contents to keep
	Equations          bool   // keep only the last side of a chain a = b = c
}

// DefaultNormConfig is the normalization of DefaultLatexTarget.
var DefaultNormConfig = NormConfig{BasicLatex: true, Units: true, MalformedOperators: true, Nits: true, Boxed: "all"}

// extractBoxed keeps the content of the last \boxed{} (or \fbox{}) of
// text; with mode "all", the contents of every box joined by commas; with
// "last", the last box and the boxes just before it that are close by or
// set apart by a separator (and, or, a comma). A box never closed keeps
// the rest of the text. Without boxes the text is returned unchanged.
func extractBoxed(text, mode string) string {
	var results []string
	cur := len(text)
	maxPos := len(text)
	lastStart := -1
	for {
		b := strings.LastIndex(text[:cur], `\boxed`)
		f := strings.LastIndex(text[:cur], `\fbox`)
		if b < 0 && f < 0 {
			break
		}
		start, cmdEnd := b, b+6
		if f > b {
			start, cmdEnd = f, f+5
		}
		j := cmdEnd
		for j < maxPos && isSpace(text[j]) {
			j++
		}
		if j >= maxPos {
			break
		}
		if text[j] != '{' {
			if len(results) == 0 {
				results = append(results, text[j:])
			}
			break
		}
		end := closeBrace(text, j, maxPos)
		if end < 0 {
			if len(results) == 0 {
				results = append(results, text[j:])
			}
			break
		}
		content := strings.TrimSpace(text[j+1 : end])
		if mode == "last" && lastStart >= 0 {
			prev := ""
			if len(results) > 0 {
				prev = results[len(results)-1]
			}
			between := text[min(end+1, lastStart):lastStart]
			if !(len(between) < 10 || (content != prev && len(between) < 70 && separator.MatchString(between))) {
				break
			}
		}
		if len(results) == 0 || results[len(results)-1] != content {
			results = append(results, content)
		}
		lastStart = start
		maxPos = start
		cur = start
	}
	if len(results) == 0 {
		return text
	}
	for i, j := 0, len(results)-1; i < j; i, j = i+1, j-1 {
		results[i], results[j] = results[j], results[i]
	}
	return strings.Join(results, ",")
}

var separator = regexp.MustCompile(`\b(and|or)\b|,|;`)

// closeBrace finds the brace closing text[open] before limit (braces
// counted without escapes, as written).
func closeBrace(text string, open, limit int) int {
	depth := 1
	for i := open + 1; i < limit; i++ {
		switch text[i] {
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

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

var (
	reRemove = regexp.MustCompile(`\\mathrm\{th\}|\\!\s*|\\text\s*\{\s*\}|\\\$|\$|\\displaystyle`)
	// quotes not escaped by a backslash
	reQuote    = regexp.MustCompile(`(^|[^\\])["']+`)
	reCommaBr  = regexp.MustCompile(`\s*\{\s*,\s*\}`)
	reAndOr    = regexp.MustCompile(`(^|[^a-zA-Z])(,?\s*(?:and|or))([^a-zA-Z]|$)`)
	reAndOrTxt = regexp.MustCompile(`,?\s*\\text\{\s*(?:and|or)\s*\}`)
	reBSSpace  = regexp.MustCompile(`(^|[^\\])\\\s`)
	reDots     = regexp.MustCompile(`,?\\ldots`)
	rePercent  = regexp.MustCompile(`\\text\{(?:percentage|percent|pct)\}|\s*\b(?:percentage|percent|pct)\b`)
	reInf      = regexp.MustCompile(`(^|[^\\])inf(inity)?`)
	reDblSlash = regexp.MustCompile(`\\\\([a-zA-Z])`)
	reLeftDot  = regexp.MustCompile(`\\(?:left|right)\.`)
	// text styles read as \text, so that a unit in \textbf{} or \mathrm{} is dropped as one in \text{}
	reTextStyle = regexp.MustCompile(`\\math(?:rm|it|bf)|\\text(?:normal|bf|it|rm)`)

	reUnitText = regexp.MustCompile(`\\(?:text|mbox)\{.*\}(?:\^\d|\{\^\d\})?$`)
	reUnits    = regexp.MustCompile(`(\d|\}|\s)\s*(?:` + strings.Join(unitWords, "|") + `)(?:s|es)?\s*$`)
	reEqSplit  = regexp.MustCompile(`=`)

	reMalPow   = regexp.MustCompile(`\^\s?\(([^)]*)\)`)
	reMalSqrt  = regexp.MustCompile(`(^|[^\\])sqrt\s?\(([^)]*)\)`)
	reSlashInt = regexp.MustCompile(`^(-?\d+)/(-?\d+)$`)
)

// unitWords are words read as units after a number at the end of an
// answer ("5 cm", "12 apples", "3 hours") and dropped.
var unitWords = []string{
	"acre", "apple", "bag", "ball", "book", "box", "candie", "car", "cent", "centimeter", "cm", "coin", "cookie",
	"cup", "day", "degree", "deg", "dollar", "dozen", "egg", "feet", "foot", "ft", "gallon", "gal", "gm", "gram",
	"hectare", "hour", "hr", "inch", "kg", "kilogram", "kilometer", "km", "kmh", "kmph", "liter", "litre", "lb",
	"meter", "metre", "mile", "minute", "min", "ml", "mm", "month", "mph", "ounce", "oz", "page", "people", "person",
	"pound", "point", "second", "sec", "sq", "square", "student", "ton", "unit", "week", "yard", "year", "yr",
	"m", "g", "s", "h", "l", "t", "cc", "rs", "mt", "mtr",
}

// normalizeLatex applies the clean-ups of cfg to an extracted answer.
func normalizeLatex(text string, cfg NormConfig) string {
	if cfg.Boxed == "all" || cfg.Boxed == "last" {
		text = extractBoxed(text, cfg.Boxed)
	}
	if cfg.BasicLatex {
		text = strings.NewReplacer(`\mathrm{T}`, "T", `\mathrm{d}`, "d", `{\rm d}`, "d").Replace(text)
		if strings.Contains(text, `\left.`) || strings.Contains(text, `\right.`) {
			text = reLeftDot.ReplaceAllString(text, "")
		}
		if strings.ContainsAny(text, "$!") || strings.Contains(text, `\text`) || strings.Contains(text, `\mathrm`) || strings.Contains(text, `\displaystyle`) {
			text = reRemove.ReplaceAllString(text, "")
		}
		if strings.Contains(text, `\math`) || strings.Contains(text, `\text`) {
			text = reTextStyle.ReplaceAllString(text, `\text`)
		}
		if strings.ContainsAny(text, `"'`) {
			text = reQuote.ReplaceAllString(text, "$1")
		}
		text = strings.NewReplacer(" .", " 0.", "{.", "{0.", `~=`, `\approx`).Replace(text)
		if strings.Contains(text, ",") {
			text = reCommaBr.ReplaceAllString(text, ",")
		}
		hasAndOr := strings.Contains(text, "and") || strings.Contains(text, "or")
		if hasAndOr && strings.Contains(text, `\text`) {
			text = reAndOrTxt.ReplaceAllString(text, ",")
		}
		for i := 0; hasAndOr && i < 2; i++ { // overlapping matches ("1 and 2 and 3")
			text = reAndOr.ReplaceAllString(text, "$1,$3")
		}
		if strings.Contains(text, `\`) {
			text = reBSSpace.ReplaceAllString(text, "$1 ")
		}
		if strings.Contains(text, `\ldots`) {
			text = reDots.ReplaceAllString(text, " ")
		}
		if strings.Contains(text, "pct") || strings.Contains(text, "percent") {
			text = rePercent.ReplaceAllString(text, `\%`)
		}
		if !strings.Contains(text, "inf") {
			// nothing to replace
		} else {
			text = reInf.ReplaceAllStringFunc(text, func(m string) string {
				if strings.HasSuffix(m, "infinity") {
					return strings.TrimSuffix(m, "infinity") + `\infty`
				}
				return strings.TrimSuffix(m, "inf") + `\infty`
			})
		}
		text = strings.ReplaceAll(text, " sqrt", `\sqrt`)
		text = strings.NewReplacer("\n", " ", "\t", " ").Replace(text)
		if strings.Contains(text, `\\`) && !strings.Contains(text, "matrix") {
			text = reDblSlash.ReplaceAllString(text, `\$1`)
		}
	}
	if cfg.Equations && !strings.ContainsAny(text, ",;") {
		parts := reEqSplit.Split(text, -1)
		if len(parts) > 2 {
			text = parts[len(parts)-1]
		}
	}
	if cfg.Units {
		if !strings.Contains(text, `\text`) && !strings.Contains(text, `\mbox`) {
			// no unit text
		} else if loc := unitTextStart(text); loc >= 0 {
			if t := strings.TrimSpace(text[:loc]); t != "" {
				text = t
			}
		}
		for i := 0; i < 2 && endsWithLetter(text); i++ {
			t := reUnits.ReplaceAllString(text, "$1")
			if t != "" && t != text {
				text = t
			}
		}
	}
	if cfg.Nits {
		if strings.HasPrefix(text, ".") {
			text = "0" + text
		}
		if text == "0.5" {
			text = `\frac{1}{2}`
		}
	}
	if cfg.MalformedOperators {
		if strings.Contains(text, "^") {
			text = reMalPow.ReplaceAllString(text, "^{$1}")
		}
		if strings.Contains(text, "sqrt") {
			text = reMalSqrt.ReplaceAllString(text, `$1\sqrt{$2}`)
		}
		if !strings.Contains(text, "/") {
			// not a/b
		} else if m := reSlashInt.FindStringSubmatch(text); m != nil {
			text = `\frac{` + m[1] + `}{` + m[2] + `}`
		}
	}
	return strings.TrimSpace(text)
}

// unitTextStart is where a trailing \text{...} unit starts: the first
// \text{ or \mbox{ from which the text runs to a closing brace at the end.
func unitTextStart(text string) int {
	loc := reUnitText.FindStringIndex(text)
	if loc == nil {
		return -1
	}
	return loc[0]
}

// endsWithLetter reports whether text ends with a letter (after spaces),
// as a unit word does.
func endsWithLetter(text string) bool {
	t := strings.TrimRight(text, " \t\n")
	if t == "" {
		return false
	}
	c := t[len(t)-1]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
