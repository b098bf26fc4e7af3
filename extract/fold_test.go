package extract

import (
	"strings"
	"testing"
)

func TestIndexFold(t *testing.T) {
	tests := []struct {
		s, needle  string
		from, want int
	}{
		{"xx<ANSWER>", "<answer>", 0, 2},
		{"<answer><AnSwEr>", "<answer>", 1, 8},
		{"answer", "answer", 0, 0},
		{"xAnswer", "answer", 0, 1},
		{"aaaa", "ab", 0, -1},
		{"", "a", 0, -1},
		{"abc", "", 2, 2},
		{"ansWER ANSWER", "answer", 1, 7},
		{"é<answer>", "<answer>", 0, 2},
	}
	for _, tt := range tests {
		if got := indexFold(tt.s, tt.needle, tt.from); got != tt.want {
			t.Errorf("IndexFold(%q, %q, %d) = %d, want %d", tt.s, tt.needle, tt.from, got, tt.want)
		}
	}
}

// Repeated searches over text where one case of the first letter never
// occurs must stay linear overall (this used to rescan to the end per call).
func TestIndexFoldRepeatedSearchIsLinear(t *testing.T) {
	s := strings.Repeat("answer ", 1<<17) // ~900 KB, no upper-case 'A'
	n := 0
	for i := indexFold(s, "answer", 0); i >= 0; i = indexFold(s, "answer", i+1) {
		n++
	}
	if n != 1<<17 {
		t.Fatalf("found %d matches, want %d", n, 1<<17)
	}
}
