package codetests

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

// StdoutMatches is prime_code's comparison of a standard-input program's
// output with the expected one: equal once stripped, or line by line
// stripped, or with empty lines dropped, or, line for line, as numbers
// within numpy.allclose's default tolerances (unless every pair is
// digits only).
func StdoutMatches(output, want string) bool {
	lines := pycompat.SplitLines(output)
	wantStripped := pycompat.Strip(want)
	if pycompat.Strip(strings.Join(lines, "\n")) == wantStripped {
		return true
	}
	stripped := make([]string, len(lines))
	for k, l := range lines {
		stripped[k] = pycompat.Strip(l)
	}
	if pycompat.Strip(strings.Join(stripped, "\n")) == wantStripped {
		return true
	}
	if len(lines) == 1 && lines[0] == want {
		return true
	}
	var wantLines []string
	for _, w := range strings.Split(want, "\n") {
		if w != "" {
			wantLines = append(wantLines, pycompat.Strip(w))
		}
	}
	if equalLines(lines, wantLines) {
		return true
	}
	var kept []string
	for _, l := range lines {
		if l != "" {
			kept = append(kept, l)
		}
	}
	if equalLines(kept, wantLines) {
		return true
	}
	if len(kept) != len(wantLines) {
		return false
	}
	allDigits := true
	for k := range kept {
		if !isDigits(kept[k]) || !isDigits(wantLines[k]) {
			allDigits = false
			break
		}
	}
	if allDigits {
		return false
	}
	for k := range kept {
		a, okA := pycompat.ParseFloat(kept[k])
		b, okB := pycompat.ParseFloat(wantLines[k])
		if !okA || !okB {
			return false
		}
		if a == b {
			continue
		}
		if !(math.Abs(a-b) <= 1e-8+1e-5*math.Abs(b)) {
			return false
		}
	}
	return true
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// isDigits is Python's str.isdigit for what float() could read: a
// non-empty run of decimal digits. (Other Unicode digits, which isdigit
// also accepts, make float() fail, so the comparison ends false either way.)
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !pycompat.IsDecimal(r) {
			return false
		}
	}
	return true
}

// ReturnedMatches is the comparison of a call-based test: the JSON the
// harness wrote of the returned value equals the expected JSON, or its
// first element when that is a non-empty list. Values compare as Python
// compares what json.loads gives (1 == 1.0 == true; NaN equals nothing).
func ReturnedMatches(output, expected string) bool {
	got, ok := decodeJSON(output)
	if !ok {
		return false
	}
	want, ok := decodeJSON(expected)
	if !ok {
		return false
	}
	if pyEqual(got, want) {
		return true
	}
	list, isList := want.([]any)
	return isList && len(list) > 0 && pyEqual(got, list[0])
}

// The non-finite numbers Python's json reads and encoding/json does not.
var nonFinite = map[string]float64{"NaN": math.NaN(), "Infinity": math.Inf(1), "-Infinity": math.Inf(-1)}

func decodeJSON(s string) (any, bool) {
	s = strings.TrimSpace(s)
	if v, ok := nonFinite[s]; ok {
		return v, true
	}
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		if bytes.Contains([]byte(s), []byte("NaN")) || strings.Contains(s, "Infinity") {
			return decodeNonFinite(s)
		}
		return nil, false
	}
	if d.More() {
		return nil, false
	}
	return v, true
}

// decodeNonFinite reads JSON with NaN or Infinity in it by quoting them
// first (strings that hold them stay strings: a quoted token is skipped).
func decodeNonFinite(s string) (any, bool) {
	var b strings.Builder
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			b.WriteByte(c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			b.WriteByte(c)
			continue
		}
		matched := false
		for _, tok := range []string{"-Infinity", "Infinity", "NaN"} {
			if strings.HasPrefix(s[i:], tok) {
				b.WriteString(`{"\u0000nonfinite":"` + tok + `"}`)
				i += len(tok) - 1
				matched = true
				break
			}
		}
		if !matched {
			b.WriteByte(c)
		}
	}
	d := json.NewDecoder(strings.NewReader(b.String()))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil || d.More() {
		return nil, false
	}
	return restoreNonFinite(v), true
}

func restoreNonFinite(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if tok, ok := x["\u0000nonfinite"].(string); ok && len(x) == 1 {
			return nonFinite[tok]
		}
		for k, e := range x {
			x[k] = restoreNonFinite(e)
		}
	case []any:
		for k, e := range x {
			x[k] = restoreNonFinite(e)
		}
	}
	return v
}

// pyEqual is Python's == on decoded JSON values.
func pyEqual(a, b any) bool {
	if na, ok := number(a); ok {
		nb, ok := number(b)
		return ok && na.equal(nb)
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k := range x {
			if !pyEqual(x[k], y[k]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !pyEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// pyNumber is a JSON number or bool as Python holds it: an exact int, or
// a float.
type pyNumber struct {
	i       *big.Int
	f       float64
	isFloat bool
}

func number(v any) (pyNumber, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return pyNumber{i: big.NewInt(1)}, true
		}
		return pyNumber{i: big.NewInt(0)}, true
	case float64:
		return pyNumber{f: x, isFloat: true}, true
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if i, ok := new(big.Int).SetString(s, 10); ok {
				return pyNumber{i: i}, true
			}
		}
		f, ok := pycompat.ParseFloat(s)
		return pyNumber{f: f, isFloat: true}, ok
	}
	return pyNumber{}, false
}

// equal compares exactly, as Python compares int and float (no rounding
// of the int).
func (a pyNumber) equal(b pyNumber) bool {
	switch {
	case !a.isFloat && !b.isFloat:
		return a.i.Cmp(b.i) == 0
	case a.isFloat && b.isFloat:
		return a.f == b.f
	case a.isFloat:
		return floatEqualsInt(a.f, b.i)
	default:
		return floatEqualsInt(b.f, a.i)
	}
}

func floatEqualsInt(f float64, i *big.Int) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return false
	}
	bf := new(big.Float).SetFloat64(f)
	fi, _ := bf.Int(nil)
	return fi.Cmp(i) == 0
}
