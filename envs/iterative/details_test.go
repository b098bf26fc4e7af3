package iterative

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

// opaque hides every capability of an environment but Environment, so
// that an iterative environment around it takes each attempt through the
// inner step, which builds its details at once.
type opaque struct{ core.Environment }

// TestDetailsMatchTheInnerStep plays the same attempts against an inner
// environment that scores texts directly (the step leaves its info and
// signal metadata to Details) and against the same one seen only as an
// Environment (the inner step builds them): after Complete, the two
// StepResults are the same.
func TestDetailsMatchTheInnerStep(t *testing.T) {
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
			lazy, err := New(legCounting(t), tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			eager, err := New(opaque{legCounting(t)}, tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if lazy.scorer == nil || eager.scorer != nil {
				t.Fatal("the two environments do not take the two ways")
			}
			for _, task := range []int{0, 7} {
				a, _ := eager.Reset(core.ResetRequest{TaskIndex: task})
				b, _ := lazy.Reset(core.ResetRequest{TaskIndex: task})
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
					got, err := b.Episode.Step(text(txt))
					if err != nil {
						t.Fatal(err)
					}
					if got.Details == nil || got.Info != nil {
						t.Fatalf("step %d: the details were built at once", k)
					}
					details := got.Details
					if err := got.Complete(); err != nil {
						t.Fatal(err)
					}
					if !sameJSON(t, got, want) {
						t.Fatalf("step %d: %s, want %s", k, mustJSON(t, got), mustJSON(t, want))
					}
					// Details may be read again, after the episode moved on.
					info, _, err := details.Build()
					if err != nil || !reflect.DeepEqual(info, got.Info) {
						t.Fatalf("step %d: details again: %v %v", k, info, err)
					}
					if want.Terminated || want.Truncated {
						break
					}
				}
			}
		})
	}
}

func TestCompleteChecksTheDetails(t *testing.T) {
	r := core.StepResult{Signals: make([]core.Signal, 2), Details: oneSignalDetails{}}
	if err := r.Complete(); err == nil {
		t.Fatal("metadata for one signal of two was accepted")
	}
}

// oneSignalDetails builds metadata for one signal.
type oneSignalDetails struct{}

func (oneSignalDetails) Build() (map[string]any, []map[string]any, error) {
	return nil, make([]map[string]any, 1), nil
}

func (oneSignalDetails) HasMetadata(int) bool { return false }

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	return mustJSON(t, a) == mustJSON(t, b)
}
