package pycompat

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Repr is Python's repr() of the str whose UTF-8 encoding is s: single
// quotes unless s holds a single quote and no double quote, backslash
// escapes for the quote, the backslash, \t, \n, \r, and \x, \u or \U
// escapes for characters that str.isprintable() rejects. A byte that is
// not valid UTF-8 is written as \x followed by its value.
func Repr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b := make([]byte, 0, len(s)+2)
	b = append(b, quote)
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			b = append(b, `\x`...)
			b = appendHex(b, uint32(s[i]), 2)
		case r == rune(quote) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r < 0x20 || r == 0x7f:
			b = append(b, `\x`...)
			b = appendHex(b, uint32(r), 2)
		case r < utf8.RuneSelf || unicode.IsPrint(r):
			b = append(b, s[i:i+w]...)
		case r <= 0xff:
			b = append(b, `\x`...)
			b = appendHex(b, uint32(r), 2)
		case r <= 0xffff:
			b = append(b, `\u`...)
			b = appendHex(b, uint32(r), 4)
		default:
			b = append(b, `\U`...)
			b = appendHex(b, uint32(r), 8)
		}
		i += w
	}
	return string(append(b, quote))
}

func appendHex(b []byte, v uint32, width int) []byte {
	h := strconv.FormatUint(uint64(v), 16)
	for k := len(h); k < width; k++ {
		b = append(b, '0')
	}
	return append(b, h...)
}

// ReprStrings is Python's repr() of a list of str, e.g. ['a', 'b'].
func ReprStrings(items []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Repr(s))
	}
	b.WriteByte(']')
	return b.String()
}
