package clean

import "testing"

// TestCleanersKeepLoneSurrogatesWhole checks each cleaner on texts holding
// lone surrogates as Python's "surrogatepass" encoding writes them (three
// bytes, one character to Python): none is split, and truncate_tail counts
// each as one character.
func TestCleanersKeepLoneSurrogatesWhole(t *testing.T) {
	const sur, sur2 = "\xed\xa0\x80", "\xed\xbf\xbf" // U+D800, U+DFFF
	tests := []struct {
		name string
		c    Cleaner
		in   string
		want string
	}{
		{"truncate keeps it whole", TruncateTail(2), "abc" + sur, "c" + sur},
		{"truncate counts it as one", TruncateTail(1), "ab" + sur, sur},
		{"truncate two surrogates", TruncateTail(2), "x" + sur + sur2, sur + sur2},
		{"truncate strips around it", TruncateTail(3), "  " + sur + "a\n", sur + "a"},
		{"truncate before it", TruncateTail(1), sur + "a", "a"},
		{"quotes around it", StripSurroundingQuotes, `"` + sur + `"`, sur},
		{"quotes around two", StripSurroundingQuotes, `'` + sur + sur2 + `'`, sur + sur2},
		{"trailing punctuation", StripTrailingPunctuation, sur + ".", sur},
		{"latex dollars", StripLatexDollars, "$" + sur + "$", sur},
		{"special tokens", StripSpecialTokens, "<s>" + sur + "</s>", sur},
		{"thinking tokens", StripThinkingTokens, "<think>" + sur + "</think>" + sur2, sur2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
