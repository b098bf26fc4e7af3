package iterative

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

// TestTellMatchesStep plays the same attempts through Step and through Tell
// (with Details for the info and metadata) and compares everything a
// StepResult reports.
func TestTellMatchesStep(t *testing.T) {
	tests := []struct {
		name     string
		cfg      map[string]any
		attempts []string
	}{
		{"wrong then right", map[string]any{"max_turns": 3}, []string{"<answer>-1</answer>", "<answer>{truth}</answer>"}},
		{"out of turns", map[string]any{"max_turns": 2}, []string{"x", "<answer>-2</answer>"}},
		{"submit", map[string]any{}, []string{"  submit <answer>1</answer>"}},
		{"no history", map[string]any{"include_history": false, "max_turns": 4}, []string{"a", "b", "c", "d"}},
		{"extractor", map[string]any{"submission_extractor": "regex",
			"submission_extractor_config": map[string]any{"pattern": `FINAL: (.*)`}}, []string{"FINAL: <answer>3</answer>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, err := New(legCounting(t), tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, task := range []int{0, 7} {
				a, _ := env.Reset(core.ResetRequest{TaskIndex: task})
				b, _ := env.Reset(core.ResetRequest{TaskIndex: task})
				truth := *a.Hidden.ExpectedAnswer
				for k, raw := range tt.attempts {
					txt := raw
					if raw == "<answer>{truth}</answer>" {
						txt = "<answer>" + truth + "</answer>"
					}
					want, err := a.Episode.Step(text(txt))
					if err != nil {
						t.Fatal(err)
					}
					got, ok, err := b.Episode.(core.Teller).Tell(txt)
					if err != nil || !ok {
						t.Fatalf("Tell: %v, %v", ok, err)
					}
					info, meta, err := env.Details(roundTrip(t, got.Recipe))
					if err != nil {
						t.Fatal(err)
					}
					if got.Terminated != want.Terminated || got.Truncated != want.Truncated ||
						got.Prompt != want.Observation.Prompt ||
						!reflect.DeepEqual(got.Observation.Messages, want.Observation.Messages) ||
						!reflect.DeepEqual(got.Extracted, want.ExtractedAction) || *got.Resolved != *want.ResolvedAction {
						t.Fatalf("step %d: telling %+v differs from step %+v", k, got, want)
					}
					if !sameJSON(t, info, want.Info) {
						t.Fatalf("step %d: info %v, want %v", k, info, want.Info)
					}
					for j, s := range want.Signals {
						if got.Values[j] != *s.Reward || got.Specs[j].Name != s.Name || !sameJSON(t, meta[j], s.Metadata) {
							t.Fatalf("step %d: signal %d differs: %v %v, want %+v", k, j, got.Values[j], meta[j], s)
						}
					}
					if want.Terminated || want.Truncated {
						break
					}
				}
			}
		})
	}
}

func TestDetailsRefusesMalformedRecipes(t *testing.T) {
	env, err := New(legCounting(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, recipe := range [][]any{nil, {1, "x", 1}, {"1", "x", 1, false}, {1, 2, 1, false}, {1, "x", 1, "no"},
		{int64(1000), "x", 1, false}} {
		if _, _, err := env.Details(recipe); err == nil {
			t.Errorf("Details(%v) succeeded", recipe)
		}
	}
}

// roundTrip passes a recipe through JSON, as it travels to Python and back.
func roundTrip(t *testing.T, recipe []any) []any {
	t.Helper()
	b, err := json.Marshal(recipe)
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return string(x) == string(y)
}
