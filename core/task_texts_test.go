package core

import (
	"errors"
	"fmt"
	"strconv"
	"testing"
)

// textsByReset is an environment whose tasks' texts come only from Reset:
// task i's prompt is "q<i>" and its answer "a<i>"; task 3 fails and task 5
// panics.
type textsByReset struct{}

func (textsByReset) Spec() Spec { return Spec{Name: "texts_by_reset"} }
func (textsByReset) Len() int   { return 1000 }
func (textsByReset) Reset(r ResetRequest) (Start, error) {
	switch r.TaskIndex {
	case 3:
		return Start{}, errors.New("task 3 cannot be built")
	case 5:
		panic("task 5 panicked")
	}
	truth := "a" + strconv.Itoa(r.TaskIndex)
	return Start{Observation: Observation{Prompt: "q" + strconv.Itoa(r.TaskIndex)},
		Hidden: Hidden{ExpectedAnswer: &truth}}, nil
}

// textsDirect gives the same texts through TaskTexter, and Reset fails:
// TaskTextsBatch must not reach it.
type textsDirect struct{ textsByReset }

func (textsDirect) Reset(ResetRequest) (Start, error) { return Start{}, errors.New("Reset called") }
func (textsDirect) TaskTexts(i int) (string, *string, error) {
	if i == 3 || i == 5 {
		start, err := textsByReset{}.Reset(ResetRequest{TaskIndex: i})
		return start.Observation.Prompt, start.Hidden.ExpectedAnswer, err
	}
	truth := "a" + strconv.Itoa(i)
	return "q" + strconv.Itoa(i), &truth, nil
}

func TestTaskTextsBatch(t *testing.T) {
	tests := []struct {
		name string
		env  Environment
		n    int
	}{
		{"through reset, one goroutine", textsByReset{}, 8},
		{"through reset, in parallel", textsByReset{}, 600},
		{"through TaskTexts, in parallel", textsDirect{}, 600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idx := make([]int64, tt.n)
			for k := range idx {
				idx[k] = int64(k % 10)
			}
			prompts, truths, errs := make([]string, tt.n), make([]*string, tt.n), make([]error, tt.n)
			TaskTextsBatch(tt.env, idx, prompts, truths, errs)
			for k, i := range idx {
				switch i {
				case 3, 5:
					if errs[k] == nil {
						t.Fatalf("task %d (position %d) did not fail", i, k)
					}
				default:
					if errs[k] != nil || prompts[k] != fmt.Sprintf("q%d", i) || truths[k] == nil ||
						*truths[k] != fmt.Sprintf("a%d", i) {
						t.Fatalf("position %d: %q %v %v", k, prompts[k], truths[k], errs[k])
					}
				}
			}
		})
	}
}
