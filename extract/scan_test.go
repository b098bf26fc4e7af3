package extract

import (
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

// randText builds a random string from pieces.
func randText(r *rand.Rand, pieces []string, max int) string {
	var b strings.Builder
	for n := r.Intn(max + 1); n > 0; n-- {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.String()
}

// TestMatchIterAgreesWithFindAll checks that walking matches from
// positions finds exactly what regexp's FindAll does, context assertions
// and empty matches included.
func TestMatchIterAgreesWithFindAll(t *testing.T) {
	patterns := []string{`(\d+)`, `\b(\w)`, `\B(\d)`, `(?m)^(\w+)$`, `(a*)`, `(?m)(b*)$`, `^`, `$`, `\b`,
		`(?s)(.)`, `(a|ab)(c|bcd)?`, `(?i)(x)(y)?`, `\A(a)`, `(é+)`, `(?m)^`}
	pieces := []string{"a", "b", "c", "d", "x", "Y", " ", "\n", "1", "22", "é", "\xff", "\xe2\x82", "-", "ab", "bcd"}
	r := rand.New(rand.NewSource(1))
	for _, p := range patterns {
		it, err := newMatchIter(p)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(p)
		for i := 0; i < 2000; i++ {
			s := randText(r, pieces, 12)
			all := re.FindAllStringSubmatchIndex(s, -1)
			last, n := it.last(s)
			if n != len(all) {
				t.Fatalf("%s on %q: %d matches, FindAll has %d", p, s, n, len(all))
			}
			if n > 0 && !reflect.DeepEqual(last, all[n-1]) {
				t.Fatalf("%s on %q: last %v, FindAll %v", p, s, last, all[n-1])
			}
		}
	}
}

// TestPatternAnswerScannerAgreesWithRegexp checks the hand scanner of the
// default patterns against the same patterns run through Go's regexp
// with Python's whitespace class.
func TestPatternAnswerScannerAgreesWithRegexp(t *testing.T) {
	scan, err := NewPatternAnswer(nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := newRegexPatternAnswer(DefaultAnswerPatterns, defaultAnswerPatternsGo)
	if err != nil {
		t.Fatal(err)
	}
	if !scan.builtin || ref.builtin {
		t.Fatal("wrong variants")
	}
	pieces := []string{"the", "The", "tHE", " ", "answer", "ANSWER", "is", "Is", "therefore", "Therefore", ",",
		"=", ".", "\n", "3.14", "x", "\u00a0", "\t", "\r", "é", "\u2003", "\x1c", "\x85", "..", ". ", "\n\n", "\xff"}
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 30000; i++ {
		s := randText(r, pieces, 16)
		a, b := scan.Extract(s), ref.Extract(s)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("on %q: scanner %+v, regexp %+v", s, a, b)
		}
	}
}

// TestNumericGrammar checks the numeric scanner against a regexp of its
// grammar on ASCII text, where it can be written without lookahead: a
// digit run D (never split), comma groups only after a run of at most
// three digits, each group exactly three digits.
func TestNumericGrammar(t *testing.T) {
	ex := &Numeric{Strip: true}
	pieces := []string{"0", "1", "23", "456", "7890", ",", ",", ".", "-", " ", "a", "$"}
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 30000; i++ {
		s := randText(r, pieces, 12)
		x := ex.Extract(s)
		want, wantFound := numericReference(s)
		if x.Found != wantFound || x.Answer != want {
			t.Fatalf("on %q: got (%q, %v), want (%q, %v)", s, x.Answer, x.Found, want, wantFound)
		}
	}
}

// numericReference finds the last number the slow way: at each start, the
// longest candidate among all prefixes that fit the grammar.
func numericReference(s string) (string, bool) {
	isD := func(c byte) bool { return c >= '0' && c <= '9' }
	last, found := "", false
	for i := 0; i < len(s); {
		j := i
		if s[j] == '-' {
			j++
		}
		if j >= len(s) || !isD(s[j]) {
			i++
			continue
		}
		k := j
		for k < len(s) && isD(s[k]) {
			k++
		}
		if k-j <= 3 {
			for k+4 <= len(s) && s[k] == ',' && isD(s[k+1]) && isD(s[k+2]) && isD(s[k+3]) && (k+4 == len(s) || !isD(s[k+4])) {
				k += 4
			}
		}
		if k+1 < len(s) && s[k] == '.' && isD(s[k+1]) {
			k++
			for k < len(s) && isD(s[k]) {
				k++
			}
		}
		last, found = strings.ReplaceAll(s[i:k], ",", ""), true
		i = k
	}
	return last, found
}

func TestPyTail(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
		cut  bool
	}{
		{"", 3, "", false},
		{"abc", 3, "abc", false},
		{"abcd", 3, "bcd", true},
		{"éüö", 3, "éüö", false},
		{"aéüö", 3, "éüö", true},
		{"a\xff\xfe", 2, "\xff\xfe", true},
		{"日本語", 1, "語", true},
	} {
		got, cut := pycompat.Tail(c.s, c.n)
		if got != c.want || cut != c.cut {
			t.Errorf("pyTail(%q, %d) = %q, %v", c.s, c.n, got, cut)
		}
	}
}
