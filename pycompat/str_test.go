package pycompat

import "testing"

func TestStripAndLen(t *testing.T) {
	if got := Strip("\x1c\u00a0 x \u3000\x1f"); got != "x" {
		t.Errorf("Strip = %q", got)
	}
	if Len("héllo") != 5 || Len("abc") != 3 {
		t.Error("Len counts code points")
	}
}
