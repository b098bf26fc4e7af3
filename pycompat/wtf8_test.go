package pycompat

import (
	"testing"
	"unicode/utf8"
)

// Lone surrogates as Python's "surrogatepass" encoding writes them.
const (
	surD800 = "\xed\xa0\x80"
	surDBFF = "\xed\xaf\xbf"
	surDC00 = "\xed\xb0\x80"
	surDFFF = "\xed\xbf\xbf"
)

func TestDecodeRuneWTF8(t *testing.T) {
	tests := []struct {
		name          string
		s             string
		first, last   rune
		wFirst, wLast int
	}{
		{"ascii", "ab", 'a', 'b', 1, 1},
		{"D800", surD800, 0xD800, 0xD800, 3, 3},
		{"DBFF then x", surDBFF + "x", 0xDBFF, 'x', 3, 1},
		{"x then DC00", "x" + surDC00, 'x', 0xDC00, 1, 3},
		{"DFFF", surDFFF, 0xDFFF, 0xDFFF, 3, 3},
		{"pair of lone surrogates", surD800 + surDC00, 0xD800, 0xDC00, 3, 3},
		{"valid three bytes", "\u20ac", 0x20AC, 0x20AC, 3, 3},
		{"ED 9F BF is U+D7FF", "\xed\x9f\xbf", 0xD7FF, 0xD7FF, 3, 3},
		{"truncated surrogate", "\xed\xa0", utf8.RuneError, utf8.RuneError, 1, 1},
		{"surrogate lead, bad tail", "\xed\xa0A", utf8.RuneError, 'A', 1, 1},
		{"stray continuation", "\x80", utf8.RuneError, utf8.RuneError, 1, 1},
		{"empty", "", utf8.RuneError, utf8.RuneError, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r, w := DecodeRune(tt.s); r != tt.first || w != tt.wFirst {
				t.Errorf("DecodeRune(%q) = %U, %d; want %U, %d", tt.s, r, w, tt.first, tt.wFirst)
			}
			if r, w := DecodeLastRune(tt.s); r != tt.last || w != tt.wLast {
				t.Errorf("DecodeLastRune(%q) = %U, %d; want %U, %d", tt.s, r, w, tt.last, tt.wLast)
			}
		})
	}
}

func TestLenTailStripWTF8(t *testing.T) {
	tests := []struct {
		name      string
		s         string
		length    int // Python's len()
		n         int
		tail      string
		truncated bool
	}{
		{"one surrogate", surD800, 1, 1, surD800, false},
		{"surrogate last", "ab" + surD800, 3, 2, "b" + surD800, true},
		{"surrogate first", surD800 + "ab", 3, 2, "ab", true},
		{"keep the surrogate whole", "a" + surDFFF + "b", 3, 2, surDFFF + "b", true},
		{"two surrogates", surD800 + surDC00, 2, 1, surDC00, true},
		{"mixed non-ASCII", "é" + surD800 + "€", 3, 2, surD800 + "€", true},
		{"truncated surrogate is two bytes", "a\xed\xa0", 3, 2, "\xed\xa0", true},
		{"ascii", "abc", 3, 2, "bc", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Len(tt.s); got != tt.length {
				t.Errorf("Len(%q) = %d, want %d", tt.s, got, tt.length)
			}
			if got, cut := Tail(tt.s, tt.n); got != tt.tail || cut != tt.truncated {
				t.Errorf("Tail(%q, %d) = %q, %v; want %q, %v", tt.s, tt.n, got, cut, tt.tail, tt.truncated)
			}
			// A surrogate is not whitespace: strip keeps it, at either end.
			if got := Strip(" " + tt.s + "\n"); got != tt.s {
				t.Errorf("Strip gave %q, want %q", got, tt.s)
			}
		})
	}
}

func TestCodePointSpan(t *testing.T) {
	s := "a" + surD800 + "b" // bytes: a | ED A0 80 | b
	tests := []struct {
		lo, hi, wantLo, wantHi int
	}{
		{0, 1, 0, 1},
		{1, 4, 1, 4},
		{2, 3, 1, 4}, // the middle byte alone: the whole surrogate
		{3, 4, 1, 4},
		{1, 2, 1, 4},
		{0, 2, 0, 4},
		{3, 5, 1, 5},
		{4, 5, 4, 5},
		{2, 2, 1, 1}, // empty inside: moved to the start
		{5, 5, 5, 5},
	}
	for _, tt := range tests {
		if lo, hi := CodePointSpan(s, tt.lo, tt.hi); lo != tt.wantLo || hi != tt.wantHi {
			t.Errorf("CodePointSpan(%q, %d, %d) = %d, %d; want %d, %d", s, tt.lo, tt.hi, lo, hi, tt.wantLo, tt.wantHi)
		}
	}
	// Bytes that are not a surrogate are not widened over.
	if lo, hi := CodePointSpan("\xed\xa0", 1, 2); lo != 1 || hi != 2 {
		t.Errorf("truncated surrogate widened to %d, %d", lo, hi)
	}
}
