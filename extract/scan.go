package extract

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
)

// This file holds the scanning helpers the answer extractors share: runs
// of Python digits and whitespace at a byte offset, an iterator over the
// matches of a Go regexp that needs O(1) memory however many matches
// there are, and ASCII-case-insensitive search.
//
// Every helper reads a surrogatepass-encoded lone surrogate (three bytes,
// as texts from Python carry it) as one code point, as Python does
// (pycompat.DecodeRune), and any other invalid UTF-8 byte as one code
// point (utf8.RuneError of width 1), as Go's regexp and utf8 packages do.

// runeAt decodes the code point at byte offset i of s; at the end of s it
// returns (utf8.RuneError, 0).
func runeAt(s string, i int) (rune, int) {
	if i >= len(s) {
		return utf8.RuneError, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return pycompat.DecodeRune(s[i:])
}

// digitAt returns the width of the Python digit (\d) at byte offset i of s, or 0
// when there is none.
func digitAt(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		if '0' <= c && c <= '9' {
			return 1
		}
		return 0
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	if pycompat.IsDecimal(r) {
		return w
	}
	return 0
}

// skipDigits returns the end of the run of Python digits that starts at i
// and how many digits it holds.
func skipDigits(s string, i int) (end, n int) {
	for {
		w := digitAt(s, i)
		if w == 0 {
			return i, n
		}
		i += w
		n++
	}
}

// skipSpace returns the end of the run of Python whitespace that starts at
// byte offset i of s.
func skipSpace(s string, i int) int {
	for i < len(s) {
		r, w := runeAt(s, i)
		if !pycompat.IsSpace(r) {
			break
		}
		i += w
	}
	return i
}

// matchIter walks the successive non-overlapping matches of a Go regexp
// from any byte offset, seeing the code point before that offset as the
// context of ^, \b and \B, as Go's own FindAll does internally. It keeps
// no list of matches, so counting the matches of a pattern in a large text
// takes constant memory.
type matchIter struct {
	re *regexp.Regexp
	// ctx is `((?s:.))(?:re)`: one code point of context, captured so that
	// the position where re's match starts is known exactly.
	ctx *regexp.Regexp
}

// newMatchIter compiles src, which must already have been validated on its
// own: wrapping an invalid pattern in a group can make it valid.
func newMatchIter(src string) (*matchIter, error) {
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, err
	}
	ctx, err := regexp.Compile(`((?s:.))(?:` + src + `)`)
	if err != nil {
		return nil, fmt.Errorf("internal error: cannot wrap pattern: %w", err)
	}
	return &matchIter{re: re, ctx: ctx}, nil
}

// at returns the submatch indices (as FindStringSubmatchIndex) of the
// leftmost match that starts at or after pos, which must be a code-point
// boundary of text, or nil.
func (it *matchIter) at(text string, pos int) []int {
	if pos == 0 {
		return it.re.FindStringSubmatchIndex(text)
	}
	_, w := utf8.DecodeLastRuneInString(text[:pos])
	base := pos - w
	m := it.ctx.FindStringSubmatchIndex(text[base:])
	if m == nil {
		return nil
	}
	// m[2:4] is the context code point: the match proper runs from its
	// end to m[1]; re's groups follow at m[4:].
	m[2], m[3] = m[3], m[1]
	m = m[2:]
	for i, v := range m {
		if v >= 0 {
			m[i] = v + base
		}
	}
	return m
}

// last returns the last of the matches FindAllStringSubmatchIndex(text, -1)
// would list, and how many there are, using the same rule for empty
// matches (one right after a previous match is skipped).
func (it *matchIter) last(text string) (last []int, n int) {
	end := len(text)
	prevEnd := -1
	for pos := 0; pos <= end; {
		m := it.at(text, pos)
		if m == nil {
			break
		}
		accept := true
		if m[1] == pos {
			if m[0] == prevEnd {
				accept = false
			}
			if _, w := runeAt(text, pos); w > 0 {
				pos += w
			} else {
				pos = end + 1
			}
		} else {
			pos = m[1]
		}
		prevEnd = m[1]
		if accept {
			last = m
			n++
		}
	}
	return last, n
}

// foldFinder finds the successive ASCII-case-insensitive occurrences of a
// lowercase ASCII needle in s. Asked with non-decreasing offsets, it reads
// each byte of s a bounded number of times over all calls (it remembers
// where the next lower- and upper-case first bytes are).
type foldFinder struct {
	s, needle      string
	lo, up         byte
	nextLo, nextUp int // -2: not looked up; -1: none left
}

func newFoldFinder(s, needle string) *foldFinder {
	f := &foldFinder{s: s, needle: needle, lo: needle[0], up: needle[0], nextLo: -2, nextUp: -2}
	if f.lo >= 'a' && f.lo <= 'z' {
		f.up = f.lo - 32
	} else {
		f.nextUp = -1
	}
	return f
}

// next returns the first occurrence at or after from, or -1.
func (f *foldFinder) next(from int) int {
	for {
		if f.nextLo != -1 && f.nextLo < from {
			f.nextLo = indexByteFrom(f.s, f.lo, from)
		}
		if f.nextUp != -1 && f.nextUp < from {
			f.nextUp = indexByteFrom(f.s, f.up, from)
		}
		j := f.nextLo
		if j < 0 || (f.nextUp >= 0 && f.nextUp < j) {
			j = f.nextUp
		}
		if j < 0 || j+len(f.needle) > len(f.s) {
			return -1
		}
		if equalFoldASCII(f.s[j:j+len(f.needle)], f.needle) {
			return j
		}
		from = j + 1
	}
}

func indexByteFrom(s string, c byte, from int) int {
	if from >= len(s) {
		return -1
	}
	if k := strings.IndexByte(s[from:], c); k >= 0 {
		return from + k
	}
	return -1
}

// hasFoldAt reports whether the lowercase ASCII word occurs at byte offset
// i of s, ignoring ASCII case.
func hasFoldAt(s string, i int, word string) bool {
	return i+len(word) <= len(s) && equalFoldASCII(s[i:i+len(word)], word)
}
