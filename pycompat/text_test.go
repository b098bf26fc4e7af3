package pycompat

import (
	"reflect"
	"testing"
)

// The expected values below were printed by CPython 3.11 (str.lower,
// str.upper, re.findall(r"\b\w+\b", s), str.splitlines, str.isalnum).

func TestLowerUpper(t *testing.T) {
	lower := [][2]string{{"\u0130stanbul", "i\u0307stanbul"}, {"ΑΣ", "ας"}, {"Σ", "σ"}, {"ΑΣ Α", "ας α"}, {"ΑΣΑ", "ασα"},
		{"Α'Σ", "α'ς"}, {"ΑΣ'", "ας'"}, {"ΑΣ.Β", "ασ.β"}, {"1Σ", "1σ"}, {"HeLLo ÀÉ", "hello àé"}, {"ǅ", "ǆ"}, {"ẞ", "ß"}}
	for _, c := range lower {
		if got := Lower(c[0]); got != c[1] {
			t.Errorf("lower(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	upper := [][2]string{{"ß", "SS"}, {"ﬁre", "FIRE"}, {"ŉ", "ʼN"}, {"straße", "STRASSE"}, {"ǆ", "Ǆ"},
		{"ᾳ", "ΑΙ"}, {"abc", "ABC"}, {"\u0390", "\u0399\u0308\u0301"}, {"éà", "ÉÀ"}}
	for _, c := range upper {
		if got := Upper(c[0]); got != c[1] {
			t.Errorf("upper(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	// Invalid UTF-8 passes through without a panic.
	if got := Lower("A\xffΣ"); got != "a\xffσ" {
		t.Errorf("lower of invalid UTF-8 = %q", got)
	}
}

func TestFindWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"hello_world, ça-va 12ab ½ x² __init__ é\u0301 — 你好 ٣٤",
			[]string{"hello_world", "ça", "va", "12ab", "½", "x²", "__init__", "é", "你好", "٣٤"}},
		{"", nil}, {"   ", nil}, {"a", []string{"a"}}, {"_", []string{"_"}}, {"x.y", []string{"x", "y"}},
	}
	for _, c := range cases {
		if got := FindWords(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("findWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSplitLinesAlnum(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"a\r\nb\x0bc\x1cd\u2028e\n", []string{"a", "b", "c", "d", "e"}}, {"", nil}, {"\n", []string{""}},
		{"a\n\nb", []string{"a", "", "b"}}, {"a\rb\r", []string{"a", "b"}}, {"x\u0085y\x0cz", []string{"x", "y", "z"}},
	}
	for _, c := range cases {
		if got := SplitLines(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitlines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	alnum := map[string]bool{"abc": true, "ab1": true, "a_b": false, "": false, "½": true, "é": true, "a b": false, "٣": true}
	for s, want := range alnum {
		if got := IsAlnum(s); got != want {
			t.Errorf("isalnum(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestReverse(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "a", "sun": "nus", "ab cd!": "!dc ba"} {
		if got := Reverse(in); got != want {
			t.Errorf("Reverse(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Reverse("abç😀"); got != "😀çba" {
		t.Errorf("reverse = %q", got)
	}
}
