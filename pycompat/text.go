package pycompat

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// FindWords is re.findall(r"\b\w+\b", s): the maximal runs of \w
// characters, in order.
func FindWords(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if IsWordChar(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// isLineBreak reports the code points str.splitlines() splits on.
func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// SplitLines is Python's str.splitlines() (no keepends).
func SplitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isLineBreak(r) {
			i += n
			continue
		}
		out = append(out, s[start:i])
		i += n
		if r == '\r' && i < len(s) && s[i] == '\n' {
			i++
		}
		start = i
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// Reverse is s[::-1]: the code points of s in reverse order.
func Reverse(s string) string {
	if IsASCII(s) {
		b := make([]byte, len(s))
		for i := 0; i < len(s); i++ {
			b[len(s)-1-i] = s[i]
		}
		return string(b)
	}
	rs := []rune(s)
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return string(rs)
}

// Lower is Python's str.lower(): full case mapping (U+0130 becomes
// two code points) and the Final_Sigma rule for U+03A3. Invalid UTF-8
// bytes are kept as they are.
func Lower(s string) string {
	if IsASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteByte(s[i])
		case r == 0x130:
			b.WriteString("i\u0307")
		case r == 0x3a3:
			if finalSigma(s, i, i+n) {
				b.WriteRune(0x3c2)
			} else {
				b.WriteRune(0x3c3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		i += n
	}
	return b.String()
}

// finalSigma reports whether the capital sigma at s[at:end] is in the
// Final_Sigma context: a cased letter before it (skipping case-ignorable
// code points) and none after it.
func finalSigma(s string, at, end int) bool {
	j := at
	before := false
	for j > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		j -= n
		if !caseIgnorable(r) {
			before = cased(r)
			break
		}
	}
	if !before {
		return false
	}
	for j = end; j < len(s); {
		r, n := utf8.DecodeRuneInString(s[j:])
		j += n
		if !caseIgnorable(r) {
			return !cased(r)
		}
	}
	return true
}

// cased is Unicode's Cased property.
func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm,
// Sk and the Word_Break MidLetter, MidNumLet and Single_Quote characters.
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// Upper is Python's str.upper(): full case mapping (ß becomes SS,
// ligatures expand, and so on). Invalid UTF-8 bytes are kept.
func Upper(s string) string {
	if IsASCII(s) {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteByte(s[i])
		} else if sp, ok := upperSpecial[r]; ok {
			b.WriteString(sp)
		} else {
			b.WriteRune(unicode.ToUpper(r))
		}
		i += n
	}
	return b.String()
}

// upperSpecial lists the code points whose uppercase (Unicode
// SpecialCasing, unconditional mappings) is more than one code point.
var upperSpecial = map[rune]string{
	0x00DF: "\u0053\u0053", 0x0149: "\u02BC\u004E", 0x01F0: "\u004A\u030C",
	0x0390: "\u0399\u0308\u0301", 0x03B0: "\u03A5\u0308\u0301", 0x0587: "\u0535\u0552",
	0x1E96: "\u0048\u0331", 0x1E97: "\u0054\u0308", 0x1E98: "\u0057\u030A",
	0x1E99: "\u0059\u030A", 0x1E9A: "\u0041\u02BE", 0x1F50: "\u03A5\u0313",
	0x1F52: "\u03A5\u0313\u0300", 0x1F54: "\u03A5\u0313\u0301", 0x1F56: "\u03A5\u0313\u0342",
	0x1F80: "\u1F08\u0399", 0x1F81: "\u1F09\u0399", 0x1F82: "\u1F0A\u0399",
	0x1F83: "\u1F0B\u0399", 0x1F84: "\u1F0C\u0399", 0x1F85: "\u1F0D\u0399",
	0x1F86: "\u1F0E\u0399", 0x1F87: "\u1F0F\u0399", 0x1F88: "\u1F08\u0399",
	0x1F89: "\u1F09\u0399", 0x1F8A: "\u1F0A\u0399", 0x1F8B: "\u1F0B\u0399",
	0x1F8C: "\u1F0C\u0399", 0x1F8D: "\u1F0D\u0399", 0x1F8E: "\u1F0E\u0399",
	0x1F8F: "\u1F0F\u0399", 0x1F90: "\u1F28\u0399", 0x1F91: "\u1F29\u0399",
	0x1F92: "\u1F2A\u0399", 0x1F93: "\u1F2B\u0399", 0x1F94: "\u1F2C\u0399",
	0x1F95: "\u1F2D\u0399", 0x1F96: "\u1F2E\u0399", 0x1F97: "\u1F2F\u0399",
	0x1F98: "\u1F28\u0399", 0x1F99: "\u1F29\u0399", 0x1F9A: "\u1F2A\u0399",
	0x1F9B: "\u1F2B\u0399", 0x1F9C: "\u1F2C\u0399", 0x1F9D: "\u1F2D\u0399",
	0x1F9E: "\u1F2E\u0399", 0x1F9F: "\u1F2F\u0399", 0x1FA0: "\u1F68\u0399",
	0x1FA1: "\u1F69\u0399", 0x1FA2: "\u1F6A\u0399", 0x1FA3: "\u1F6B\u0399",
	0x1FA4: "\u1F6C\u0399", 0x1FA5: "\u1F6D\u0399", 0x1FA6: "\u1F6E\u0399",
	0x1FA7: "\u1F6F\u0399", 0x1FA8: "\u1F68\u0399", 0x1FA9: "\u1F69\u0399",
	0x1FAA: "\u1F6A\u0399", 0x1FAB: "\u1F6B\u0399", 0x1FAC: "\u1F6C\u0399",
	0x1FAD: "\u1F6D\u0399", 0x1FAE: "\u1F6E\u0399", 0x1FAF: "\u1F6F\u0399",
	0x1FB2: "\u1FBA\u0399", 0x1FB3: "\u0391\u0399", 0x1FB4: "\u0386\u0399",
	0x1FB6: "\u0391\u0342", 0x1FB7: "\u0391\u0342\u0399", 0x1FBC: "\u0391\u0399",
	0x1FC2: "\u1FCA\u0399", 0x1FC3: "\u0397\u0399", 0x1FC4: "\u0389\u0399",
	0x1FC6: "\u0397\u0342", 0x1FC7: "\u0397\u0342\u0399", 0x1FCC: "\u0397\u0399",
	0x1FD2: "\u0399\u0308\u0300", 0x1FD3: "\u0399\u0308\u0301", 0x1FD6: "\u0399\u0342",
	0x1FD7: "\u0399\u0308\u0342", 0x1FE2: "\u03A5\u0308\u0300", 0x1FE3: "\u03A5\u0308\u0301",
	0x1FE4: "\u03A1\u0313", 0x1FE6: "\u03A5\u0342", 0x1FE7: "\u03A5\u0308\u0342",
	0x1FF2: "\u1FFA\u0399", 0x1FF3: "\u03A9\u0399", 0x1FF4: "\u038F\u0399",
	0x1FF6: "\u03A9\u0342", 0x1FF7: "\u03A9\u0342\u0399", 0x1FFC: "\u03A9\u0399",
	0xFB00: "\u0046\u0046", 0xFB01: "\u0046\u0049", 0xFB02: "\u0046\u004C",
	0xFB03: "\u0046\u0046\u0049", 0xFB04: "\u0046\u0046\u004C", 0xFB05: "\u0053\u0054",
	0xFB06: "\u0053\u0054", 0xFB13: "\u0544\u0546", 0xFB14: "\u0544\u0535",
	0xFB15: "\u0544\u053B", 0xFB16: "\u054E\u0546", 0xFB17: "\u0544\u053D",
}
