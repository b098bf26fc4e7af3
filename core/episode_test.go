package core

import (
	"errors"
	"testing"
)

// counter is a multi-turn environment whose episode counts its steps and
// ends at three.
type counter struct{ pure bool }

func (c counter) Spec() Spec { return Spec{Name: "counter", IsMultiTurn: true, PureStep: c.pure} }
func (c counter) Len() int   { return 1 }
func (c counter) Reset(r ResetRequest) (Start, error) {
	return Start{Episode: &countEpisode{}, Observation: Observation{Prompt: "count"}}, nil
}

type countEpisode struct{ n int }

func (e *countEpisode) Step(a Action) (StepResult, error) {
	e.n++
	return StepResult{Terminated: e.n >= 3, Signals: []Signal{{Name: "n", Reward: Float(float64(e.n)), Weight: 1}}}, nil
}

func TestRunRefusesStaleStepsUnlessPure(t *testing.T) {
	tests := []struct {
		name    string
		pure    bool
		steps   []int // the step count of the state each step is taken from
		wantErr int   // index of the first step that must fail, -1 for none
	}{
		{"in order", false, []int{0, 1, 2}, -1},
		{"repeat a state", false, []int{0, 0}, 1},
		{"skip ahead", false, []int{0, 2}, 1},
		{"pure repeats", true, []int{0, 0, 0}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := counter{pure: tt.pure}
			s, _ := env.Reset(ResetRequest{})
			run := NewRun(env, s)
			for k, from := range tt.steps {
				_, _, err := run.Step(from, Action{}, 0)
				var stale *StaleStateError
				if k == tt.wantErr {
					if !errors.As(err, &stale) || stale.Expected != k || stale.Got != from {
						t.Fatalf("step %d from %d: err %v, want a StaleStateError", k, from, err)
					}
					return
				}
				if err != nil {
					t.Fatalf("step %d from %d: %v", k, from, err)
				}
			}
		})
	}
}
