package core

import (
	"fmt"
	"math"
)

// Spec describes an environment, with the field names of llenvs'
// EnvironmentSpec.
type Spec struct {
	Name              string         `json:"name"`
	Adapter           string         `json:"adapter"`
	MaxSteps          int            `json:"max_steps"`
	IsMultiTurn       bool           `json:"is_multi_turn"`
	SupportsTaskIndex bool           `json:"supports_task_index"`
	SupportsLen       bool           `json:"supports_len"`
	SupportsSeed      bool           `json:"supports_seed"`
	PureStep          bool           `json:"pure_step"`
	Metadata          map[string]any `json:"metadata"`
}

// Task is what reset shows for one task index: the prompt the model sees,
// the ground truth (nil for environments without one) and metadata.
type Task struct {
	Index       int            `json:"task_index"`
	Prompt      string         `json:"prompt"`
	GroundTruth *string        `json:"ground_truth"`
	Metadata    map[string]any `json:"metadata"`
}

// Action is what the model did; Text is nil when it produced no text.
type Action struct {
	Text *string `json:"text"`
}

// RewardType classifies a signal, as llenvs' RewardType does.
type RewardType string

// The reward types of llenvs.
const (
	Outcome RewardType = "outcome"
	Step    RewardType = "step"
	Format  RewardType = "format"
	Process RewardType = "process"
)

// Signal is one named reward: an unweighted value, its weight and metadata.
type Signal struct {
	Name     string         `json:"name"`
	Type     RewardType     `json:"reward_type"`
	Reward   float64        `json:"reward"`
	Weight   float64        `json:"weight"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Total is the weighted sum of the signals' rewards.
func Total(signals []Signal) float64 {
	t := 0.0
	for _, s := range signals {
		t += s.Reward * s.Weight
	}
	return t
}

// StepResult is the outcome of one step.
type StepResult struct {
	Signals    []Signal       `json:"signals"`
	Total      float64        `json:"total"`
	Terminated bool           `json:"terminated"`
	Truncated  bool           `json:"truncated"`
	Extracted  *string        `json:"extracted_action"`
	Info       map[string]any `json:"info"`
}

// Environment is the lifecycle every environment honours: a spec, a number
// of tasks, reset to a task index and step with an action.
type Environment interface {
	Spec() Spec
	Len() int
	Reset(taskIndex int) (Task, error)
	Step(taskIndex int, action Action) (StepResult, error)
}

// Scored is the outcome of scoring one response: unweighted signal values in
// the order of the environment's SignalSpecs, their weighted total and the
// extraction.
type Scored struct {
	Values     []float64
	Total      float64
	Extraction Extraction
	Err        error
}

// SignalSpec names a reward signal an environment computes and its weight.
type SignalSpec struct {
	Name   string     `json:"name"`
	Type   RewardType `json:"reward_type"`
	Weight float64    `json:"weight"`
}

// SingleTurn is an environment whose step is a pure function of a task
// index and a response text, which is what scoring in bulk needs.
type SingleTurn interface {
	Environment
	SignalSpecs() []SignalSpec
	// Check reports whether taskIndex names a task, with an error that
	// says why not.
	Check(taskIndex int) error
	// ScoreText scores one response into out (out.Values has one slot per
	// signal). It may panic; callers recover per item.
	ScoreText(taskIndex int, text string, out *Scored)
}

// IndexError is a task index outside [0, n).
type IndexError struct {
	Index, Len int
}

func (e *IndexError) Error() string {
	return fmt.Sprintf("task_index %d out of bounds [0, %d)", e.Index, e.Len)
}

// CheckIndex returns an *IndexError when i is outside [0, n).
func CheckIndex(i, n int) error {
	if i < 0 || i >= n {
		return &IndexError{Index: i, Len: n}
	}
	return nil
}

// FiniteOrZero maps NaN and infinities to 0 so that a reward is always a
// number a trainer can add up.
func FiniteOrZero(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}
