package recipes

import "strings"

// textEdit is a text under a chain of replacements, with a superset of
// the bytes it holds: a pattern with a byte the text lacks cannot occur,
// so most of the normalizers' dozens of replacements end without a
// search. Replacements only drop bytes or add those of the new text, so
// adding the new text's bytes keeps the set a superset.
type textEdit struct {
	s   string
	has byteSet
}

func newTextEdit(s string) textEdit {
	t := textEdit{s: s}
	t.has.addAll(s)
	return t
}

// replaceAll is s = strings.ReplaceAll(s, old, new).
func (t *textEdit) replaceAll(old, new string) {
	if !t.has.hasAll(old) {
		return
	}
	t.s = strings.ReplaceAll(t.s, old, new)
	t.has.addAll(new)
}

// contains is strings.Contains(s, sub).
func (t *textEdit) contains(sub string) bool {
	return t.has.hasAll(sub) && strings.Contains(t.s, sub)
}

// set replaces the text, after an edit the set does not follow.
func (t *textEdit) set(s string) { *t = newTextEdit(s) }
