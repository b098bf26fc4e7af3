package core

import "testing"

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
