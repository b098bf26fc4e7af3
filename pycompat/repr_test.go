package pycompat

import "testing"

// The expected strings are CPython 3.11's repr().
func TestRepr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"abc", `'abc'`},
		{"it's", `"it's"`},
		{`both ' and "`, `'both \' and "'`},
		{"tab\tnl\ncr\r", `'tab\tnl\ncr\r'`},
		{"back\\slash", `'back\\slash'`},
		{"\x00\x1f\x7f", `'\x00\x1f\x7f'`},
		{"é中😀", `'é中😀'`},
		{"\u00a0\u200b\u2028", `'\xa0\u200b\u2028'`},
		{"\U000e0001", `'\U000e0001'`},
		{"bad\xffbyte", `'bad\xffbyte'`},
	}
	for _, tt := range tests {
		if got := Repr(tt.in); got != tt.want {
			t.Errorf("Repr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if got, want := ReprStrings([]string{"a", "b'"}), `['a', "b'"]`; got != want {
		t.Errorf("ReprStrings = %s, want %s", got, want)
	}
	if got := ReprStrings(nil); got != "[]" {
		t.Errorf("ReprStrings(nil) = %s", got)
	}
}
