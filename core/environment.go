package core

import (
	"errors"
	"fmt"
	"math"

	"github.com/llenvs/llenvs-go/extract"
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

// Message is one chat message of an observation's history. Tool messages
// carry ToolCallID and Name; assistant messages may carry ToolCalls.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
}

// ToolCall is a call the model asked for: an id, a tool name and its
// arguments.
type ToolCall struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// ToolStatus is the outcome class of a tool call, as llenvs'
// ToolResultStatus names them.
type ToolStatus string

// The tool statuses of llenvs.
const (
	ToolSuccess          ToolStatus = "success"
	ToolError            ToolStatus = "error"
	ToolInvalidTool      ToolStatus = "invalid_tool"
	ToolInvalidArguments ToolStatus = "invalid_arguments"
)

// ToolResult is what a tool call returned: its output on success, an error
// message otherwise.
type ToolResult struct {
	CallID   string     `json:"call_id"`
	ToolName string     `json:"tool_name"`
	Status   ToolStatus `json:"status"`
	Output   string     `json:"output"`
	Error    *string    `json:"error"`
}

// ToolDefinition describes a tool offered to the model; Parameters is the
// JSON schema of its arguments.
type ToolDefinition struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
	IsTerminal  bool           `json:"is_terminal"`
}

// Content is a static task description or a dynamic per-turn observation.
type Content struct {
	Text string         `json:"text"`
	Data map[string]any `json:"data,omitempty"`
}

// Observation is what the model sees: the prompt, the chat history, the
// results of the latest tool calls, the tools it may call, and optional
// task and state descriptions.
type Observation struct {
	Prompt         string           `json:"prompt"`
	Messages       []Message        `json:"messages"`
	ToolResults    []ToolResult     `json:"tool_results"`
	AvailableTools []ToolDefinition `json:"available_tools"`
	Task           *Content         `json:"task"`
	State          *Content         `json:"state"`
}

// Action is what the model did: text (nil when it produced none) and tool
// calls.
type Action struct {
	Text      *string    `json:"text"`
	ToolCalls []ToolCall `json:"tool_calls"`
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

// Signal is one named reward: an unweighted value (nil for a feedback-only
// signal), its weight, optional feedback text and metadata.
type Signal struct {
	Name     string         `json:"name"`
	Type     RewardType     `json:"reward_type"`
	Reward   *float64       `json:"reward"`
	Feedback *string        `json:"feedback"`
	Weight   float64        `json:"weight"`
	Metadata map[string]any `json:"metadata"`
}

// Hidden is what reset knows and the model does not see: the task index,
// the ground truth (nil for environments without one) and the
// environment's own record of the task (e.g. a reasoning-gym entry).
type Hidden struct {
	TaskIndex      int     `json:"task_index"`
	ExpectedAnswer *string `json:"expected_answer"`
	Entry          any     `json:"entry"`
}

// ResetRequest is the argument of reset: which task, an optional seed and
// the caller's other options.
type ResetRequest struct {
	TaskIndex int
	Seed      *int64
	Options   map[string]any
}

// Start is the outcome of reset: a new episode, what the model sees first,
// the hidden part of the state and the reset info.
type Start struct {
	Episode     Episode
	Observation Observation
	Hidden      Hidden
	Info        map[string]any
}

// StepResult is the outcome of one step. Observation is nil when the
// observation did not change (a single-turn step).
type StepResult struct {
	Observation     *Observation   `json:"observation"`
	Signals         []Signal       `json:"signals"`
	Terminated      bool           `json:"terminated"`
	Truncated       bool           `json:"truncated"`
	ExtractedAction *string        `json:"extracted_action"`
	ResolvedAction  *string        `json:"resolved_action"`
	Info            map[string]any `json:"info"`
	// Details, when not nil, builds Info and each signal's Metadata, which
	// the step left out: a caller that reads only the rewards and the next
	// observation (a batch of episodes, a training loop) does not pay for
	// them. It may be called after the episode has moved on, from any
	// goroutine. Complete calls it.
	Details StepDetails `json:"-"`
}

// Total is the step's weighted reward: each signal's reward times its
// weight, signals without a reward counted as 0.
func (r *StepResult) Total() float64 {
	t := 0.0
	for _, s := range r.Signals {
		if s.Reward != nil {
			t += *s.Reward * s.Weight
		}
	}
	return t
}

// StepDetails builds the info and the signals' metadata of a step (one
// map per signal, in order: nil for a signal without metadata). An
// episode's step that leaves them out returns one that builds them from
// what the step kept.
type StepDetails interface {
	Build() (info map[string]any, metadata []map[string]any, err error)
	// HasMetadata says, without building anything, whether Build gives
	// signal k a metadata map (an empty one included) rather than nil.
	HasMetadata(k int) bool
}

// Complete fills in the details a step left to Details, so that Info and
// the signals' Metadata are those of a step that built them at once.
func (r *StepResult) Complete() error {
	if r.Details == nil {
		return nil
	}
	info, meta, err := r.Details.Build()
	if err != nil {
		return err
	}
	if len(meta) != len(r.Signals) {
		return fmt.Errorf("step details: %d signal metadata for %d signals", len(meta), len(r.Signals))
	}
	r.Info, r.Details = info, nil
	for k := range r.Signals {
		r.Signals[k].Metadata = meta[k]
	}
	return nil
}

// DetailsOf returns the details of r: Details when the step left them
// out, else its Info and metadata as they are.
func (r *StepResult) DetailsOf() StepDetails {
	if r.Details != nil {
		return r.Details
	}
	d := &builtDetails{info: r.Info, meta: make([]map[string]any, len(r.Signals))}
	for k := range r.Signals {
		d.meta[k] = r.Signals[k].Metadata
	}
	return d
}

// builtDetails are details a step built at once.
type builtDetails struct {
	info map[string]any
	meta []map[string]any
}

func (d *builtDetails) Build() (map[string]any, []map[string]any, error) { return d.info, d.meta, nil }

func (d *builtDetails) HasMetadata(k int) bool { return d.meta[k] != nil }

// Environment is the lifecycle every environment honours, Gymnasium's:
// reset starts an episode, and the episode's Step advances it.
type Environment interface {
	Spec() Spec
	Len() int
	Reset(r ResetRequest) (Start, error)
}

// Episode is one run of an environment from reset. Episodes are
// independent of each other; one episode is stepped by one caller at a
// time.
type Episode interface {
	// Step advances the episode with a.
	Step(a Action) (StepResult, error)
}

// Scored is the outcome of scoring one response: unweighted signal values in
// the order of the environment's SignalSpecs, their weighted total and the
// extraction.
type Scored struct {
	Values     []float64
	Total      float64
	Extraction extract.Extraction
	Err        error
}

// ErrOverBudget marks a Scored.Err whose scoring stopped at its budget
// (steps, size, depth): the item's outcome is a timeout, never a wrong
// answer. Wrap it (fmt.Errorf("%w: ...", ErrOverBudget)) to say which.
var ErrOverBudget = errors.New("over budget")

// SignalSpec names a reward signal an environment computes and its weight.
type SignalSpec struct {
	Name   string     `json:"name"`
	Type   RewardType `json:"reward_type"`
	Weight float64    `json:"weight"`
}

// SingleTurn is an environment whose step is a pure function of a task
// index and a response text, which is what scoring in bulk needs. Its
// episodes are one step long; StepTask is that step, and it scores through
// ScoreText, so a step and a batch score the same way.
type SingleTurn interface {
	Environment
	SignalSpecs() []SignalSpec
	// Check reports whether taskIndex names a task, with an error that
	// says why not.
	Check(taskIndex int) error
	// ScoreText scores one response into out (out.Values has one slot per
	// signal). It may panic; callers recover per item.
	ScoreText(taskIndex int, text string, out *Scored)
	// StepTask is the single step of an episode of task taskIndex.
	StepTask(taskIndex int, a Action) (StepResult, error)
}

// SingleTurnEpisode is the episode of a single-turn environment: one task,
// and a step that may be taken again from the start (pure_step).
type SingleTurnEpisode struct {
	Env       SingleTurn
	TaskIndex int
}

// Step scores a against the episode's task; the episode always terminates.
func (e *SingleTurnEpisode) Step(a Action) (StepResult, error) {
	return e.Env.StepTask(e.TaskIndex, a)
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

// Float returns a pointer to x, for Signal.Reward.
func Float(x float64) *float64 { return &x }
