package extract

// indexFold returns the index of the first ASCII-case-insensitive
// occurrence of the lowercase ASCII needle in s at or after from, or -1.
// It runs in linear time: the next position of each case of the needle's
// first byte is remembered rather than searched for again.
func indexFold(s, needle string, from int) int {
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
		if equalFoldASCII(s[j:j+len(needle)], needle) {
			return j
		}
		i = j + 1
	}
	return -1
}

// equalFoldASCII reports whether a equals the lowercase ASCII b ignoring
// ASCII case.
func equalFoldASCII(a, b string) bool {
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
