package pycompat

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsSpace reports whether Python's str.isspace() is true for r (and
// whether Python's \s matches it): Go's unicode.IsSpace plus the
// information separators U+001C..U+001F.
func IsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// Strip is Python's str.strip() with no arguments.
func Strip(s string) string {
	return strings.TrimFunc(s, IsSpace)
}

// Len is Python's len() of the str whose UTF-8 encoding is s: the number
// of code points (a surrogatepass-encoded surrogate is one, wtf8.go).
func Len(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			n := utf8.RuneCountInString(s)
			if hasSurrogate(s) {
				for j := i; j+3 <= len(s); j++ {
					if surrogateAt(s, j) {
						n -= 2 // three invalid bytes to utf8, one code point to Python
						j += 2
					}
				}
			}
			return n
		}
	}
	return len(s)
}

// IsASCII is Python's str.isascii().
func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Tail returns the last n code points of s (Python's s[-n:] for n >= 1)
// and whether anything was cut off. It only walks the tail it keeps; a
// surrogatepass-encoded surrogate counts as one code point (never split),
// any other invalid UTF-8 byte as one.
func Tail(s string, n int) (string, bool) {
	if len(s) <= n {
		// Every code point takes at least one byte.
		return s, false
	}
	if isASCII(s[len(s)-n:]) {
		// n ASCII bytes are n code points; the byte before them may end a
		// longer sequence, but it is cut off either way.
		return s[len(s)-n:], true
	}
	i := len(s)
	for k := 0; k < n && i > 0; k++ {
		_, w := DecodeLastRune(s[:i])
		i -= w
	}
	return s[i:], i > 0
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// WhitespaceClass is a Go regexp character class matching exactly the
// characters for which Python's str.isspace() is true (Python's \s).
const WhitespaceClass = `[\t-\r\x{1c}-\x{1f}\x{85}\p{Z}]`

// IsWordChar reports whether Python's \w matches r in a str pattern:
// str.isalnum() or the underscore.
func IsWordChar(r rune) bool {
	return r == '_' || isAlnumRune(r)
}

// isAlnumRune is str.isalnum() for one code point: letters (Lu, Ll, Lt,
// Lm, Lo) and numbers (Nd, Nl, No).
func isAlnumRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// IsAlnum is Python's str.isalnum(): non-empty and every code point
// alphanumeric.
func IsAlnum(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isAlnumRune(r) {
			return false
		}
	}
	return true
}
