package extract

import (
	"reflect"
	"strings"
	"testing"
)

func TestWithCleaners(t *testing.T) {
	inner := mustExtractor(t, "tag_based", nil)
	for _, lists := range [][2][]any{{nil, nil}, {{}, {}}, {nil, {}}} {
		ex, err := WithCleaners(inner, lists[0], lists[1])
		if err != nil || ex != inner {
			t.Errorf("WithCleaners(%v, %v) = %v, %v; want the extractor unchanged", lists[0], lists[1], ex, err)
		}
	}
	ex, err := WithCleaners(inner, []any{"strip_special_tokens"}, []any{"strip_trailing_punctuation", "strip_latex_dollars"})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Name() != "tag_based" {
		t.Errorf("Name = %q", ex.Name())
	}
	x := ex.Extract("<answer>4<s>2.</answer>")
	if !x.Found || x.Answer != "42" {
		t.Errorf("Extract = %+v", x)
	}
	x = ex.Extract("<answer>$x$.</answer>")
	if x.Answer != "x" {
		t.Errorf("Extract = %q, want post-cleaners in order", x.Answer)
	}
	want := map[string]any{"found": true, "tag_name": "answer", "match_start": 0, "match_end": 20, "num_matches": 1,
		"pre_cleaners_applied": true, "post_cleaners_applied": true}
	if got := ex.Describe(ex.Extract("<answer>42.</answer>")); !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
	// Post-cleaners run only when something was found.
	x = ex.Extract("nothing")
	if x.Found || x.Answer != "" {
		t.Errorf("Extract(nothing) = %+v", x)
	}
	if got := ex.Describe(x); got["found"] != false || got["pre_cleaners_applied"] != true {
		t.Errorf("Describe(nothing) = %v", got)
	}
	// Offsets refer to the pre-cleaned text.
	if got := ex.Describe(ex.Extract("<s><answer>1</answer>")); got["match_start"] != 0 {
		t.Errorf("match_start = %v", got["match_start"])
	}
	if _, err := WithCleaners(inner, []any{"nope"}, nil); err == nil {
		t.Error("unknown pre-cleaner: no error")
	}
	if _, err := WithCleaners(inner, nil, []any{"nope"}); err == nil || !strings.Contains(err.Error(), "post_cleaners[0]") {
		t.Errorf("unknown post-cleaner: %v", err)
	}
}
