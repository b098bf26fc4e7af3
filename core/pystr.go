package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// PyIsSpace reports whether Python's str.isspace() is true for r: Go's
// unicode.IsSpace plus the information separators U+001C..U+001F.
func PyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// PyStrip is Python's str.strip() with no arguments.
func PyStrip(s string) string {
	return strings.TrimFunc(s, PyIsSpace)
}

// PyLen is Python's len() of the str whose UTF-8 encoding is s: the number
// of code points.
func PyLen(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return utf8.RuneCountInString(s)
		}
	}
	return len(s)
}

// IndexFold returns the index of the first ASCII-case-insensitive
// occurrence of the lowercase ASCII needle in s at or after from, or -1.
// It runs in linear time: the next position of each case of the needle's
// first byte is remembered rather than searched for again.
func IndexFold(s, needle string, from int) int {
	if len(needle) == 0 {
		return from
	}
	first := needle[0]
	upper := first
	if first >= 'a' && first <= 'z' {
		upper = first - 32
	}
	nextFirst, nextUpper := -2, -2 // -2: not searched yet; -1: none left
	last := len(s) - len(needle)
	for i := from; i <= last; {
		if nextFirst != -1 && nextFirst < i {
			nextFirst = indexByteFrom(s, first, i)
		}
		if upper != first && nextUpper != -1 && nextUpper < i {
			nextUpper = indexByteFrom(s, upper, i)
		}
		j := nextFirst
		if upper != first && nextUpper >= 0 && (j < 0 || nextUpper < j) {
			j = nextUpper
		}
		if j < 0 || j > last {
			return -1
		}
		if EqualFoldASCII(s[j:j+len(needle)], needle) {
			return j
		}
		i = j + 1
	}
	return -1
}

// EqualFoldASCII reports whether a equals the lowercase ASCII b ignoring
// ASCII case.
func EqualFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		if c >= 'A' && c <= 'Z' {
			c += 32
		}
		if c != b[i] {
			return false
		}
	}
	return true
}
