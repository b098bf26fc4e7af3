package toolcall

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// The JSON reader of the parsers' hot path. It accepts exactly the texts
// encoding/json accepts and decodes them to the same values as a Decoder
// with UseNumber (objects as map[string]any with the last of duplicate keys,
// arrays as []any, numbers as json.Number, invalid UTF-8 and lone
// surrogates in strings as U+FFFD), without reflection or buffers. It only
// says whether a text is well-formed: where one is not, the callers ask
// encoding/json, whose error messages reach the model.
//
// Strings without escapes are views of the text read.

// maxDepth is encoding/json's limit on nested arrays and objects.
const maxDepth = 10000

// isSpace reports whether c is JSON white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace is the position of the first byte at or after i that is not JSON white space.
func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// readValue decodes the value that starts at s[i] (no white space before
// it): the value and the position after it; ok is false when s holds no
// well-formed value there. depth is the nesting of the value's container.
func readValue(s string, i, depth int) (v any, end int, ok bool) {
	if i >= len(s) {
		return nil, i, false
	}
	switch c := s[i]; {
	case c == '"':
		str, end, ok := readString(s, i)
		return str, end, ok
	case c == '{':
		return readObject(s, i, depth+1)
	case c == '[':
		return readArray(s, i, depth+1)
	case c == '-' || (c >= '0' && c <= '9'):
		end, ok := scanNumber(s, i)
		return json.Number(s[i:end]), end, ok
	case c == 't':
		return true, i + 4, strings.HasPrefix(s[i:], "true")
	case c == 'f':
		return false, i + 5, strings.HasPrefix(s[i:], "false")
	case c == 'n':
		return nil, i + 4, strings.HasPrefix(s[i:], "null")
	}
	return nil, i, false
}

// readObject decodes the object that starts at s[i] ('{').
func readObject(s string, i, depth int) (any, int, bool) {
	if depth > maxDepth {
		return nil, i, false
	}
	m := map[string]any{}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return m, i + 1, true
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return nil, i, false
		}
		k, end, ok := readString(s, i)
		if !ok {
			return nil, end, false
		}
		i = skipSpace(s, end)
		if i >= len(s) || s[i] != ':' {
			return nil, i, false
		}
		v, end, ok := readValue(s, skipSpace(s, i+1), depth)
		if !ok {
			return nil, end, false
		}
		m[k] = v
		i = skipSpace(s, end)
		if i >= len(s) {
			return nil, i, false
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case '}':
			return m, i + 1, true
		default:
			return nil, i, false
		}
	}
}

// readArray decodes the array that starts at s[i] ('[').
func readArray(s string, i, depth int) (any, int, bool) {
	if depth > maxDepth {
		return nil, i, false
	}
	a := []any{}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		return a, i + 1, true
	}
	for {
		v, end, ok := readValue(s, i, depth)
		if !ok {
			return nil, end, false
		}
		a = append(a, v)
		i = skipSpace(s, end)
		if i >= len(s) {
			return nil, i, false
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case ']':
			return a, i + 1, true
		default:
			return nil, i, false
		}
	}
}

// scanNumber is the end of the number that starts at s[i].
func scanNumber(s string, i int) (int, bool) {
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i+1)
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// readString decodes the string that starts at s[i] ('"').
func readString(s string, i int) (string, int, bool) {
	j := i + 1
	for j < len(s) {
		c := s[j]
		switch {
		case c == '"':
			return s[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20:
			return unquote(s, i+1, j)
		case c < utf8.RuneSelf:
			j++
		default:
			r, size := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && size == 1 {
				return unquote(s, i+1, j)
			}
			j += size
		}
	}
	return "", j, false
}

// unquote decodes the string whose text starts at s[from], of which
// s[from:j] needs no decoding.
func unquote(s string, from, j int) (string, int, bool) {
	var b strings.Builder
	b.Grow(j - from + 16)
	b.WriteString(s[from:j])
	for j < len(s) {
		c := s[j]
		switch {
		case c == '"':
			return b.String(), j + 1, true
		case c < 0x20:
			return "", j, false
		case c == '\\':
			if j+1 >= len(s) {
				return "", j, false
			}
			switch e := s[j+1]; e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r := hex4(s, j+2)
				if r < 0 {
					return "", j, false
				}
				j += 6
				if r >= 0xd800 && r < 0xe000 { // a surrogate: a pair, or U+FFFD
					if r < 0xdc00 && j+1 < len(s) && s[j] == '\\' && s[j+1] == 'u' {
						if lo := hex4(s, j+2); lo >= 0xdc00 && lo < 0xe000 {
							b.WriteRune(0x10000 + (r-0xd800)<<10 + (lo - 0xdc00))
							j += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				b.WriteRune(r)
				continue
			default:
				return "", j, false
			}
			j += 2
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			j++
		default:
			r, size := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && size == 1 {
				b.WriteRune(utf8.RuneError)
			} else {
				b.WriteString(s[j : j+size])
			}
			j += size
		}
	}
	return "", j, false
}

// hex4 is the value of the four hex digits at s[i:], or -1.
func hex4(s string, i int) rune {
	if i+4 > len(s) {
		return -1
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// skipValue is the end of the well-formed value that starts at s[i].
// depth is the nesting of the value's container.
func skipValue(s string, i, depth int) (int, bool) {
	if i >= len(s) {
		return i, false
	}
	switch c := s[i]; {
	case c == '"':
		return skipString(s, i)
	case c == '{', c == '[':
		return skipContainer(s, i, depth+1)
	case c == '-' || (c >= '0' && c <= '9'):
		return scanNumber(s, i)
	case c == 't':
		return i + 4, strings.HasPrefix(s[i:], "true")
	case c == 'f':
		return i + 5, strings.HasPrefix(s[i:], "false")
	case c == 'n':
		return i + 4, strings.HasPrefix(s[i:], "null")
	}
	return i, false
}

// skipString is the end of the well-formed string that starts at s[i].
func skipString(s string, i int) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return j + 1, true
		case c < 0x20:
			return j, false
		case c == '\\':
			if j+1 >= len(s) {
				return j, false
			}
			switch s[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				if hex4(s, j+2) < 0 {
					return j, false
				}
				j += 5
			default:
				return j, false
			}
		}
	}
	return len(s), false
}

// skipContainer is the end of the well-formed object or array that starts at s[i].
func skipContainer(s string, i, depth int) (int, bool) {
	if depth > maxDepth {
		return i, false
	}
	closer := byte(']')
	if s[i] == '{' {
		closer = '}'
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == closer {
		return i + 1, true
	}
	for {
		var ok bool
		if closer == '}' {
			if i >= len(s) || s[i] != '"' {
				return i, false
			}
			if i, ok = skipString(s, i); !ok {
				return i, false
			}
			i = skipSpace(s, i)
			if i >= len(s) || s[i] != ':' {
				return i, false
			}
			i = skipSpace(s, i+1)
		}
		if i, ok = skipValue(s, i, depth); !ok {
			return i, false
		}
		i = skipSpace(s, i)
		if i >= len(s) {
			return i, false
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case closer:
			return i + 1, true
		default:
			return i, false
		}
	}
}

// members calls fn with the key and the raw value of each member of the
// well-formed object s (nothing but white space around it); ok is false
// when s is not one.
func members(s string, fn func(key, raw string)) (ok bool) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return false
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return skipSpace(s, i+1) == len(s)
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return false
		}
		k, end, ok := readString(s, i)
		if !ok {
			return false
		}
		i = skipSpace(s, end)
		if i >= len(s) || s[i] != ':' {
			return false
		}
		from := skipSpace(s, i+1)
		if end, ok = skipValue(s, from, 1); !ok {
			return false
		}
		fn(k, s[from:end])
		i = skipSpace(s, end)
		if i >= len(s) {
			return false
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case '}':
			return skipSpace(s, i+1) == len(s)
		default:
			return false
		}
	}
}

// elements is the raw items of the well-formed array s (nothing but white
// space around it); ok is false when s is not one.
func elements(s string) (items []string, ok bool) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '[' {
		return nil, false
	}
	items = []string{}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		return items, skipSpace(s, i+1) == len(s)
	}
	for {
		end, ok := skipValue(s, i, 1)
		if !ok {
			return nil, false
		}
		items = append(items, s[i:end])
		i = skipSpace(s, end)
		if i >= len(s) {
			return nil, false
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case ']':
			return items, skipSpace(s, i+1) == len(s)
		default:
			return nil, false
		}
	}
}
