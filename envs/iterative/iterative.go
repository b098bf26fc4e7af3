// Package iterative turns a single-turn environment into a multi-turn one,
// as llenvs' IterativeEnvironment does: the model answers, is told when it
// is wrong and how many attempts it has left, and tries again, until it
// solves the task, submits with a keyword, or runs out of turns.
package iterative

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// AdapterName is the spec adapter of wrapped environments.
const AdapterName = "iterative"

// NameSuffix is appended to the inner environment's name.
const NameSuffix = "_iterative"

// CompleteText is the prompt of the observation after the last turn.
const CompleteText = "Episode complete."

func init() { core.RegisterIterative(Wrap) }

// Config holds llenvs' IterativeConfig fields, with their defaults.
type Config struct {
	// MaxTurns is the number of attempts an episode allows.
	MaxTurns int `json:"max_turns"`
	// IncludeHistory keeps every earlier turn in the messages; when false
	// they hold the first user turn and the latest exchange only.
	IncludeHistory bool `json:"include_history"`
	// SummarizeHistory needs an LLM in llenvs; only false is supported.
	SummarizeHistory bool `json:"summarize_history"`
	// SubmitKeyword ends the episode when a response starts with it
	// (leading whitespace and case ignored); "" turns early submission off.
	SubmitKeyword string `json:"submit_keyword"`
	// SubmissionExtractor names the extractor that takes the submission out
	// of a response; nil submits the whole response.
	SubmissionExtractor *string `json:"submission_extractor"`
	// SubmissionExtractorConfig configures SubmissionExtractor.
	SubmissionExtractorConfig map[string]any `json:"submission_extractor_config"`
	// SolvedThreshold is the best outcome reward that counts as solved.
	SolvedThreshold float64 `json:"solved_threshold"`
	// CodeExecution runs code in a sandbox in llenvs; only null is supported.
	CodeExecution any `json:"code_execution"`
}

// DefaultConfig is llenvs' IterativeConfig().
func DefaultConfig() Config {
	return Config{MaxTurns: 3, IncludeHistory: true, SubmitKeyword: "SUBMIT", SolvedThreshold: 1}
}

// maxTurnsLimit bounds max_turns: a budget beyond it is a mistake, not a task.
const maxTurnsLimit = 1 << 16

// DecodeConfig strictly decodes and validates an iterative section.
func DecodeConfig(raw map[string]any) (Config, error) {
	c := DefaultConfig()
	if err := strictcfg.Decode("iterative config", raw, &c); err != nil {
		return c, err
	}
	switch {
	case c.MaxTurns < 1 || c.MaxTurns > maxTurnsLimit:
		return c, fmt.Errorf("iterative config: max_turns must be between 1 and %d, got %d", maxTurnsLimit, c.MaxTurns)
	case c.SummarizeHistory:
		return c, errors.New("iterative config: summarize_history=True needs a summarising LLM, which llenvs-go does " +
			"not run; use include_history=False to keep only the latest exchange")
	case c.CodeExecution != nil:
		return c, errors.New("iterative config: code_execution is not supported by llenvs-go; leave it None")
	}
	return c, nil
}

// Env is an iterative environment around a single-turn one.
type Env struct {
	inner     core.Environment
	cfg       Config
	extractor extract.Extractor // nil: the whole response is the submission
}

// Wrap builds the iterative environment around inner from raw settings.
func Wrap(inner core.Environment, raw map[string]any) (core.Environment, error) {
	return New(inner, raw)
}

// New builds the iterative environment around inner from raw settings.
func New(inner core.Environment, raw map[string]any) (*Env, error) {
	cfg, err := DecodeConfig(raw)
	if err != nil {
		return nil, err
	}
	spec := inner.Spec()
	if spec.IsMultiTurn {
		return nil, fmt.Errorf("iterative: %s is already multi-turn; iterative wraps single-turn environments "+
			"(drop the iterative setting)", spec.Name)
	}
	e := &Env{inner: inner, cfg: cfg}
	if cfg.SubmissionExtractor != nil {
		ex, err := extract.New(*cfg.SubmissionExtractor, cfg.SubmissionExtractorConfig)
		if err != nil {
			return nil, fmt.Errorf("iterative config: submission_extractor: %w", err)
		}
		e.extractor = ex
	} else if len(cfg.SubmissionExtractorConfig) > 0 {
		return nil, errors.New("iterative config: submission_extractor_config is set but submission_extractor is not")
	}
	return e, nil
}

// Config is the environment's iterative settings.
func (e *Env) Config() Config { return e.cfg }

// Spec describes the environment: "<inner>_iterative", multi-turn, at most
// max_turns steps. Steps are not pure: the episode lives in Go.
func (e *Env) Spec() core.Spec {
	s := e.inner.Spec()
	md := make(map[string]any, len(s.Metadata)+3)
	for k, v := range s.Metadata {
		md[k] = v
	}
	md["inner_name"], md["inner_adapter"], md["max_turns"] = s.Name, s.Adapter, e.cfg.MaxTurns
	return core.Spec{Name: s.Name + NameSuffix, Adapter: AdapterName, MaxSteps: e.cfg.MaxTurns, IsMultiTurn: true,
		SupportsTaskIndex: s.SupportsTaskIndex, SupportsLen: s.SupportsLen, SupportsSeed: s.SupportsSeed,
		Metadata: md}
}

// Len is the inner environment's number of tasks.
func (e *Env) Len() int { return e.inner.Len() }

// InitialPrompt is the first user turn for a task whose inner prompt is
// task, with turns attempts.
func InitialPrompt(task string, turns int, keyword string) string {
	p := task + "\n\nYou have " + strconv.Itoa(turns) + " turn(s) to solve this task."
	if keyword != "" {
		p += "\nWhen you are satisfied with your solution, write " + keyword + " at the start of your response."
	}
	return p
}

// FeedbackPrompt is the user turn after a wrong attempt: how many attempts
// are left, then the inner environment's feedback texts, one per line.
func FeedbackPrompt(left int, feedback []string) string {
	s := "Incorrect, " + strconv.Itoa(left) + " attempts left."
	if left == 1 {
		s = "Incorrect, 1 attempt left."
	}
	if len(feedback) > 0 {
		s += "\n\n" + strings.Join(feedback, "\n")
	}
	return s
}

// IsSubmit reports whether text starts with keyword once leading
// whitespace is removed, both upper-cased as Python's str.upper does
// (text.lstrip().upper().startswith(keyword.upper())); an empty keyword
// never matches.
func IsSubmit(text, keyword string) bool {
	if keyword == "" {
		return false
	}
	t := strings.TrimLeftFunc(text, pycompat.IsSpace)
	k := pycompat.Upper(keyword)
	// Upper-casing can lengthen a rune (ß -> SS); a prefix of twice the
	// keyword's length is enough.
	if len(t) > 4*len(k)+8 {
		t = t[:4*len(k)+8]
	}
	return strings.HasPrefix(pycompat.Upper(t), k)
}

// Reset starts an episode of task r.TaskIndex: the inner reset, with the
// first user turn in the messages.
func (e *Env) Reset(r core.ResetRequest) (core.Start, error) {
	start, err := e.inner.Reset(r)
	if err != nil {
		return core.Start{}, err
	}
	obs := start.Observation
	prompt := InitialPrompt(obs.Prompt, e.cfg.MaxTurns, e.cfg.SubmitKeyword)
	first := core.Message{Role: "user", Content: prompt}
	msgs := append(append(make([]core.Message, 0, len(obs.Messages)+1+2*e.cfg.MaxTurns), obs.Messages...), first)
	ep := &episode{env: e, req: r, inner: start.Episode, pure: e.inner.Spec().PureStep, task: obs.Task,
		base: len(obs.Messages), history: msgs}
	info := make(map[string]any, len(start.Info)+1)
	for k, v := range start.Info {
		info[k] = v
	}
	info["max_turns"] = e.cfg.MaxTurns
	return core.Start{Episode: ep,
		Observation: core.Observation{Prompt: prompt, Messages: clone(msgs), Task: obs.Task, State: obs.State,
			AvailableTools: obs.AvailableTools},
		Hidden: start.Hidden, Info: info}, nil
}

// episode is one iterative episode: the inner episode it scores with and
// the conversation so far.
type episode struct {
	env     *Env
	req     core.ResetRequest
	inner   core.Episode
	pure    bool
	task    *core.Content
	base    int // messages before the first user turn (the inner's own)
	history []core.Message
	turn    int
	done    bool
}

// ErrFinished is a step of an episode that has ended.
var ErrFinished = errors.New("this episode is finished (terminated or truncated); reset a new episode")

// Step scores one attempt and says whether the episode goes on.
func (p *episode) Step(a core.Action) (core.StepResult, error) {
	e := p.env
	name := e.inner.Spec().Name + NameSuffix
	if p.done {
		return core.StepResult{}, fmt.Errorf("%s: %w", name, ErrFinished)
	}
	if a.Text == nil {
		return core.StepResult{}, fmt.Errorf("%s: the action has no text (text=None); an attempt is text, "+
			"e.g. Action.from_text(\"<answer>42</answer>\")", name)
	}
	text := *a.Text
	submission := text
	if e.extractor != nil {
		if x := e.extractor.Extract(text); x.Found {
			submission = x.Answer
		}
	}
	inner := p.inner
	if !p.pure {
		s, err := e.inner.Reset(p.req) // an inner step that is not pure gets a fresh episode per attempt
		if err != nil {
			return core.StepResult{}, fmt.Errorf("%s: resetting the inner environment: %w", name, err)
		}
		inner = s.Episode
	}
	res, err := inner.Step(core.Action{Text: &submission})
	if err != nil {
		return core.StepResult{}, fmt.Errorf("%s: scoring the attempt: %w", name, err)
	}
	p.turn++
	solved, best := Solved(res.Signals, e.cfg.SolvedThreshold)
	submit := IsSubmit(text, e.cfg.SubmitKeyword)
	terminated := submit || solved
	truncated := !terminated && p.turn >= e.cfg.MaxTurns
	p.done = terminated || truncated
	left := e.cfg.MaxTurns - p.turn
	p.history = append(p.history, core.Message{Role: "assistant", Content: text})
	var obs core.Observation
	if p.done {
		obs = core.Observation{Prompt: CompleteText, Messages: clone(p.history), Task: p.task}
	} else {
		fb := FeedbackPrompt(left, Feedback(res.Signals))
		p.history = append(p.history, core.Message{Role: "user", Content: fb})
		if !e.cfg.IncludeHistory {
			// The inner's own messages, the first user turn, the latest exchange.
			keep := p.base + 1
			p.history = append(p.history[:keep], p.history[len(p.history)-2:]...)
		}
		obs = core.Observation{Prompt: fb, Messages: clone(p.history), Task: p.task}
	}
	info := make(map[string]any, len(res.Info)+6)
	for k, v := range res.Info {
		info[k] = v
	}
	info["turn"], info["turns_remaining"], info["solved"], info["early_submit"] = p.turn, left, solved, submit
	info["submission"], info["best_outcome_reward"] = submission, best
	return core.StepResult{Observation: &obs, Signals: res.Signals, Terminated: terminated, Truncated: truncated,
		ExtractedAction: res.ExtractedAction, ResolvedAction: &submission, Info: info}, nil
}

// Solved reports whether the best outcome reward among signals reaches
// threshold, and that reward (nil when no outcome signal has a value).
func Solved(signals []core.Signal, threshold float64) (bool, *float64) {
	var best *float64
	for _, s := range signals {
		if s.Type == core.Outcome && s.Reward != nil && (best == nil || *s.Reward > *best) {
			v := *s.Reward
			best = &v
		}
	}
	return best != nil && *best >= threshold, best
}

// Feedback lists the feedback texts of signals, in order.
func Feedback(signals []core.Signal) []string {
	var out []string
	for _, s := range signals {
		if s.Feedback != nil {
			out = append(out, *s.Feedback)
		}
	}
	return out
}

func clone(m []core.Message) []core.Message { return append([]core.Message(nil), m...) }

// SignalSpecs lists the inner environment's signals, which every step
// reports (nil when the inner environment does not list them).
func (e *Env) SignalSpecs() []core.SignalSpec {
	if s, ok := e.inner.(interface{ SignalSpecs() []core.SignalSpec }); ok {
		return s.SignalSpecs()
	}
	return nil
}
