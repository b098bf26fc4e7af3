package reasoninggym

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/envs/reasoninggym/internal/sympyeval"
	"github.com/llenvs/llenvs-go/pycompat"
)

// Score is reasoning-gym's countdown score_answer. reasoning-gym evaluates
// the answer with float(sympy.parse_expr(answer)) inside a try block: any
// exception, and any result float() refuses (complex values, zoo), scores
// 0.01; the literal integers of the answer (\b\d+\b) must then be the
// puzzle's numbers (else 0.05), and the value must be np.isclose to the
// target (1.0, else 0.05). sympyeval.Eval is the float(parse_expr(...)).
func (t *countdown) Score(answer string, ok bool, e *Entry) float64 {
	if !ok || pycompat.Strip(answer) == "" {
		return 0.01
	}
	val, err := sympyeval.Eval(answer)
	if err != nil {
		return 0.01
	}
	used, ok := answerIntegers(answer)
	if !ok {
		return 0.01
	}
	want := metadataNumbers(e.Metadata["numbers"])
	if len(used) != len(want) {
		return 0.05
	}
	sort.Strings(used)
	sort.Strings(want)
	for i := range used {
		if used[i] != want[i] {
			return 0.05
		}
	}
	target, ok := metadataFloat(e.Metadata["target"])
	if !ok {
		return 0.01
	}
	// np.isclose(a, b, atol=1e-6): |a - b| <= atol + rtol*|b|, rtol 1e-5.
	if math.Abs(val-target) <= 1e-6+1e-5*math.Abs(target) {
		return 1.0
	}
	return 0.05
}

// metadataNumbers is the numbers metadata as canonical decimal strings,
// whether it holds Go ints (a generated item) or JSON numbers (an item
// decoded from JSON).
func metadataNumbers(v any) []string {
	var out []string
	switch x := v.(type) {
	case []int64:
		for _, n := range x {
			out = append(out, strconv.FormatInt(n, 10))
		}
	case []int:
		for _, n := range x {
			out = append(out, strconv.Itoa(n))
		}
	case []any:
		for _, it := range x {
			switch n := it.(type) {
			case int64:
				out = append(out, strconv.FormatInt(n, 10))
			case int:
				out = append(out, strconv.Itoa(n))
			case float64:
				out = append(out, strconv.FormatFloat(n, 'f', -1, 64))
			}
		}
	}
	return out
}

// metadataFloat is the target metadata as a float64, from a Go int or a
// JSON number.
func metadataFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// answerIntegers is [int(m) for m in re.findall(r"\b\d+\b", s)] as
// canonical decimal strings: the maximal runs of word characters that are
// all decimal digits. ok is false where int() raises (more than 4300
// digits).
func answerIntegers(s string) ([]string, bool) {
	var out []string
	start, digits := -1, true
	flush := func(end int) bool {
		if start >= 0 && digits {
			run := s[start:end]
			if utf8.RuneCountInString(run) > 4300 {
				return false
			}
			var b strings.Builder
			for _, r := range run {
				b.WriteByte(byte('0' + pycompat.DecimalValue(r)))
			}
			d := strings.TrimLeft(b.String(), "0")
			if d == "" {
				d = "0"
			}
			out = append(out, d)
		}
		start, digits = -1, true
		return true
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				// An invalid byte is not a word character.
				if !flush(i) {
					return nil, false
				}
				continue
			}
		}
		if pycompat.IsWordChar(r) {
			if start < 0 {
				start = i
			}
			if !pycompat.IsDecimal(r) {
				digits = false
			}
		} else if !flush(i) {
			return nil, false
		}
	}
	if !flush(len(s)) {
		return nil, false
	}
	return out, true
}
