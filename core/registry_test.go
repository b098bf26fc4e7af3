package core

import (
	"fmt"
	"testing"
)

func TestBuildExtractorChain(t *testing.T) {
	cfg := EnvConfig{Name: "x", AnswerExtractors: []any{
		map[string]any{"type": "gsm8k"},
		map[string]any{"type": "numeric"},
	}, PostCleaners: []any{"strip_trailing_punctuation"}}
	ex, err := BuildExtractor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	x := ex.Extract("so 12 and then 4.")
	if x.Answer != "4" {
		t.Errorf("answer %q", x.Answer)
	}
	m := ex.Describe(x)
	if m["extractor_index"] != 1 || m["post_cleaners_applied"] != true {
		t.Errorf("Describe = %v", m)
	}
}

func TestCheckSizeNamesTheRange(t *testing.T) {
	for _, size := range []int64{1, 500, MaxSize} {
		if err := CheckSize("x", size); err != nil {
			t.Errorf("CheckSize(%d) = %v", size, err)
		}
	}
	for _, size := range []int64{0, -1, MaxSize + 1, 1<<63 - 1} {
		err := CheckSize("x", size)
		want := fmt.Sprintf("x: size must be a positive integer from 1 to 2**40 (1099511627776), got %d", size)
		if err == nil || err.Error() != want {
			t.Errorf("CheckSize(%d) = %v, want %q", size, err, want)
		}
	}
}
