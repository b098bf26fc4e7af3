package extract

import (
	"strings"
	"testing"
)

// sur is U+D800 as Python's "surrogatepass" encoding writes it: three
// bytes that Python reads as one code point.
const sur = "\xed\xa0\x80"

// TestLoneSurrogatesAreOneCharacter checks each extractor on texts holding
// a surrogatepass-encoded lone surrogate: it is one character, never
// split, neither a space, a digit nor a letter, and byte offsets count its
// three bytes (as they count any three-byte character).
func TestLoneSurrogatesAreOneCharacter(t *testing.T) {
	tests := []struct {
		name   string
		typ    string
		cfg    map[string]any
		text   string
		found  bool
		answer string
		start  int
		end    int
		extra  map[string]any
	}{
		{"tail keeps it whole", "tail", map[string]any{"max_chars": int64(2)}, "abc" + sur, true, "c" + sur, -1, -1,
			map[string]any{tailLengthKey: 4, tailTruncatedKey: true}},
		{"tail counts it as one", "tail", map[string]any{"max_chars": int64(1)}, "ab" + sur, true, sur, -1, -1,
			map[string]any{tailLengthKey: 3, tailTruncatedKey: true}},
		{"tail of surrogates only", "tail", map[string]any{"max_chars": int64(2)}, sur + sur, true, sur + sur, -1, -1,
			map[string]any{tailLengthKey: 2, tailTruncatedKey: false}},
		{"tag", "tag_based", nil, "<answer> x" + sur + " </answer>", true, "x" + sur, 0, 23, nil},
		{"regex one character", "regex", map[string]any{"pattern": "(.)$"}, "a" + sur, true, sur, 1, 4, nil},
		{"regex class", "regex", map[string]any{"pattern": "x([^y])"}, "x" + sur + "y", true, sur, 0, 4, nil},
		{"raw strips around it", "raw", nil, "  " + sur + "\n", true, sur, -1, -1, nil},
		{"last line", "last_line", nil, "a\n" + sur + "b \n  ", true, sur + "b", -1, -1, nil},
		{"numeric: not a digit", "numeric", nil, "1" + sur + "2", true, "2", -1, -1, nil},
		{"multiple choice: not a word character", "multiple_choice", nil, "Answer: B" + sur, true, "B", -1, -1, nil},
		{"multiple choice: not a letter", "multiple_choice", nil, "Answer: " + sur, false, "", -1, -1, nil},
		{"pattern answer", "pattern_answer", nil, "The answer is " + sur + "7. Done", true, sur + "7", -1, -1, nil},
		{"pattern answer, user pattern", "pattern_answer", map[string]any{"patterns": []any{"is."}}, "this" + sur + "x", true, "x", -1, -1, nil},
		{"code block", "code_block", nil, "```\n" + sur + "\n```", true, sur, -1, -1, nil},
		{"boxed", "boxed", nil, `\boxed{` + sur + `}`, true, sur, -1, -1, nil},
		{"gsm8k", "gsm8k", nil, "#### 5" + sur, true, "5", -1, -1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex, err := New(tt.typ, tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			x := ex.Extract(tt.text)
			if x.Found != tt.found || x.Found && x.Answer != tt.answer {
				t.Fatalf("got %v %q, want %v %q", x.Found, x.Answer, tt.found, tt.answer)
			}
			if tt.start >= 0 && (x.MatchStart != tt.start || x.MatchEnd != tt.end) {
				t.Errorf("span [%d, %d), want [%d, %d)", x.MatchStart, x.MatchEnd, tt.start, tt.end)
			}
			for k, v := range tt.extra {
				if x.Extra[k] != v {
					t.Errorf("%s = %v, want %v", k, x.Extra[k], v)
				}
			}
		})
	}
}

// TestSurrogateSameAsOtherCharacter checks that a lone surrogate gives what
// another three-byte character that is neither space, digit nor letter
// (U+2603, a snowman) gives at the same place, with the same offsets.
func TestSurrogateSameAsOtherCharacter(t *testing.T) {
	const other = "\u2603"
	texts := []string{"<answer>" + sur + "</answer>", "x " + sur + " 42", "Answer: C" + sur, "####" + sur + "3",
		sur + "\n" + sur + "\n", "The answer is " + sur + ".", "```py\n" + sur + "\n```", `\boxed{` + sur + `}`, sur}
	for _, typ := range Names() {
		ex, err := New(typ, nil)
		if err != nil {
			continue // needs a config
		}
		for _, text := range texts {
			a, b := ex.Extract(text), ex.Extract(strings.ReplaceAll(text, sur, other))
			if a.Found != b.Found || strings.ReplaceAll(a.Answer, sur, other) != b.Answer ||
				a.MatchStart != b.MatchStart || a.MatchEnd != b.MatchEnd || a.NumMatches != b.NumMatches {
				t.Errorf("%s on %q: %+v, with %s in its place %+v", typ, text, a, other, b)
			}
		}
	}
}
