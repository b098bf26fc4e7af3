package pycompat

import "unicode/utf8"

// This file reads texts as Python sees the str they encode. Texts cross
// the C ABI as Python's "surrogatepass" encoding writes them (WTF-8): a
// lone surrogate U+D800..U+DFFF is the three bytes ED A0..BF 80..BF, which
// Go's utf8 package reads as three invalid bytes (utf8.RuneError of width
// 1 each). Python sees one code point, neither a space, a digit, a letter
// nor punctuation; the helpers here do too, so that counting characters,
// keeping the last n of them or stepping over one never splits a
// surrogate. Any other invalid byte stays one code point of its own.

// surrogateAt reports whether s holds a surrogatepass-encoded surrogate at
// byte offset i.
func surrogateAt(s string, i int) bool {
	return i >= 0 && i+3 <= len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF &&
		s[i+2] >= 0x80 && s[i+2] <= 0xBF
}

// DecodeRune is utf8.DecodeRuneInString that reads a surrogatepass-encoded
// surrogate as one code point: its value (U+D800..U+DFFF) and width 3.
func DecodeRune(s string) (rune, int) {
	if len(s) > 0 && s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	if surrogateAt(s, 0) {
		return rune(s[0]&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	return utf8.DecodeRuneInString(s)
}

// DecodeLastRune is utf8.DecodeLastRuneInString that reads a
// surrogatepass-encoded surrogate as one code point, as DecodeRune does.
func DecodeLastRune(s string) (rune, int) {
	if n := len(s); n >= 3 && surrogateAt(s, n-3) {
		return DecodeRune(s[n-3:])
	}
	return utf8.DecodeLastRuneInString(s)
}

// hasSurrogate reports whether s may hold a surrogatepass-encoded
// surrogate (it holds a byte 0xED).
func hasSurrogate(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0xED {
			return true
		}
	}
	return false
}

// intoSurrogate is how far byte offset i of s is into a
// surrogatepass-encoded surrogate: 1 or 2, or 0 when it is not inside one.
func intoSurrogate(s string, i int) int {
	switch {
	case i >= 1 && surrogateAt(s, i-1):
		return 1
	case i >= 2 && surrogateAt(s, i-2):
		return 2
	}
	return 0
}

// CodePointStart is byte offset i of s, moved back to the first byte of
// the surrogatepass-encoded surrogate it falls inside, if any.
func CodePointStart(s string, i int) int { return i - intoSurrogate(s, i) }

// CodePointEnd is byte offset i of s, moved past the last byte of the
// surrogatepass-encoded surrogate it falls inside, if any.
func CodePointEnd(s string, i int) int {
	if k := intoSurrogate(s, i); k > 0 {
		return i + 3 - k
	}
	return i
}

// CodePointSpan widens the byte span [lo, hi) of s so that neither end
// falls inside a surrogatepass-encoded surrogate (as Go's regexp, which
// reads its bytes as three code points, can leave them): a start inside
// one moves to its first byte, an end inside one past its last. An empty
// span inside one moves to its first byte.
func CodePointSpan(s string, lo, hi int) (int, int) {
	if lo < 0 || hi < lo {
		return lo, hi
	}
	if lo == hi {
		lo = CodePointStart(s, lo)
		return lo, lo
	}
	return CodePointStart(s, lo), CodePointEnd(s, hi)
}
