package pycompat

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// numberSeeds are answers of the shapes the number parsers meet.
var numberSeeds = []string{
	"42", " -3.5 ", "1_000", "1__0", "_1", "1_", "+.5", "5.", ".", "1e5", "1E-5", "1e", "1e+", "inf", "-Infinity",
	"nan", "-NaN", "0x10", "\u0661\u0662", "\uff11\uff12", "\u00a0 7 \u2003", "1e400", "-1e-400", "9" + strings.Repeat("9", 400),
	strings.Repeat("1", 4301), "12\x0034", "", "   ", "\xff", "3/4", "1,000", "sNaN12", "-0", "0e0", "Infinityx",
}

// FuzzParseFloat checks float(s): what parses prints (repr) and parses back
// to the same value, and Unicode digits and underscores never panic.
func FuzzParseFloat(f *testing.F) {
	for _, s := range numberSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, ok := ParseFloat(s)
		if !ok {
			if x != 0 {
				t.Fatalf("ParseFloat(%q) refused with %v", s, x)
			}
			return
		}
		r := FloatRepr(x)
		y, ok := ParseFloat(r)
		if !ok || (y != x && !(math.IsNaN(x) && math.IsNaN(y))) || math.Signbit(x) != math.Signbit(y) && !math.IsNaN(x) {
			t.Fatalf("ParseFloat(%q) = %v, repr %q parses back as %v, %v", s, x, r, y, ok)
		}
	})
}

// FuzzParseInt checks int(s): a parsed value prints and parses back, and
// has at most 4300 digits.
func FuzzParseInt(f *testing.F) {
	for _, s := range numberSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := ParseInt(s)
		if !ok {
			if n != nil {
				t.Fatalf("ParseInt(%q) refused with %v", s, n)
			}
			return
		}
		txt := n.String()
		if len(strings.TrimPrefix(txt, "-")) > maxStrDigits {
			t.Fatalf("ParseInt(%q) accepted %d digits", s, len(txt))
		}
		m, ok := ParseInt(txt)
		if !ok || m.Cmp(n) != 0 {
			t.Fatalf("ParseInt(%q) = %v does not round-trip: %v %v", s, n, m, ok)
		}
		if x, ok := ParseFloat(s); !ok || (len(txt) < 16 && x != float64(n.Int64())) {
			if !strings.ContainsAny(s, "_") || ok {
				t.Fatalf("int(%q) = %v but float() gives %v, %v", s, n, x, ok)
			}
		}
	})
}

// FuzzParseDecimal checks Decimal(s): parsing never panics, equality is
// reflexive for what is not NaN, and the value does not depend on
// surrounding whitespace.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range numberSeeds {
		f.Add(s)
	}
	f.Add("1e999999999999999999999")
	f.Add("-0.000e-5")
	f.Fuzz(func(t *testing.T, s string) {
		d := ParseDecimal(s)
		if e := ParseDecimal(" " + s + "\n"); d.Equal(e) != e.Equal(d) {
			t.Fatalf("Equal is not symmetric for %q", s)
		}
		if d.Equal(d) {
			if e := ParseDecimal(" " + s + "\t"); !e.Equal(d) {
				t.Fatalf("Decimal(%q) changes with surrounding whitespace", s)
			}
		}
	})
}

// FuzzJSONFloatList checks number_sorting's json.loads + float(): where
// Go's encoding/json reads a list of finite numbers, the scanner reads the
// same numbers.
func FuzzJSONFloatList(f *testing.F) {
	for _, s := range []string{`[1, 2.5, -3e2]`, `["1", "2"]`, `[NaN, Infinity, -Infinity]`, `[]`, ` [ 1 ] `,
		`[1,]`, `[[1]]`, `[null]`, `["\u0031"]`, `["\ud800"]`, `[1e400]`, `[` + strings.Repeat("1,", 100) + `1]`, `{"a": 1}`,
		`[0.1, 0.2, 0.30000000000000004]`, `[true]`, `[9` + strings.Repeat("9", 400) + `]`, `["1_0"]`, `[` + strings.Repeat("[", 5000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		xs, ok := JSONFloatList(s)
		var raw []any
		if json.Unmarshal([]byte(s), &raw) == nil && raw != nil && utf8.ValidString(s) { // "null" is not a list
			want := make([]float64, len(raw))
			for i, v := range raw {
				x, isNum := v.(float64)
				if !isNum {
					return // float() of a str is Python's rule, not JSON's
				}
				want[i] = x
			}
			if !ok || len(xs) != len(want) {
				t.Fatalf("JSONFloatList(%q) = %v, %v; encoding/json reads %v", s, xs, ok, want)
			}
			for i := range want {
				if xs[i] != want[i] {
					t.Fatalf("JSONFloatList(%q)[%d] = %v, want %v", s, i, xs[i], want[i])
				}
			}
		}
	})
}

// FuzzStr checks the str helpers: valid UTF-8 stays valid, Reverse is an
// involution, Len counts code points, Tail keeps a suffix, Strip a
// substring, and Lower/Upper/SplitLines/FindWords never panic.
func FuzzStr(f *testing.F) {
	for _, s := range []string{"", "Hello, World", "\u0130stanbul \u03a3\u03a3", "a\r\nb\u2028c\x1c", "\xff\xfe", "\u00df",
		"  \u00a0x\u3000 ", "word_1 w\u00f6rd"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		valid := utf8.ValidString(s)
		if valid {
			if Reverse(Reverse(s)) != s {
				t.Fatalf("Reverse is not an involution on %q", s)
			}
			if Len(s) != utf8.RuneCountInString(s) {
				t.Fatalf("Len(%q) = %d", s, Len(s))
			}
			for _, out := range []string{Lower(s), Upper(s), Strip(s)} {
				if !utf8.ValidString(out) {
					t.Fatalf("invalid UTF-8 %q from %q", out, s)
				}
			}
		}
		if !strings.Contains(s, Strip(s)) {
			t.Fatalf("Strip(%q) = %q", s, Strip(s))
		}
		if n < 1 {
			n = 1
		}
		tail, cut := Tail(s, n%1000+1)
		if !strings.HasSuffix(s, tail) || cut != (len(tail) < len(s)) {
			t.Fatalf("Tail(%q, %d) = %q, %v", s, n, tail, cut)
		}
		_ = SplitLines(s)
		_ = FindWords(s)
		_ = IsAlnum(s)
	})
}
