// Package iterative turns a single-turn environment into a multi-turn one,
// as llenvs' IterativeEnvironment does: the model answers, is told when it
// is wrong and how many attempts it has left, and tries again, until it
// solves the task, submits with a keyword, or runs out of turns.
package iterative

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// The capabilities of core (core/capabilities.go) this environment offers.
var (
	_ core.Identifier   = (*Env)(nil)
	_ core.EntrySource  = (*Env)(nil)
	_ core.EntryGate    = (*Env)(nil)
	_ core.SignalLister = (*Env)(nil)
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
	// CodeExecution must be null here: code-scored environments (dataset
	// rows with scoring "code") are wrapped by the Python package's loop.
	CodeExecution any `json:"code_execution"`
	// Prompts overrides the texts of the user turns by name (llenvs'
	// prompts): "initial" (placeholders {task}, {turns}, {submit_keyword})
	// and "feedback" ({attempts_left}, {feedback}: the feedback texts, one
	// per line). A name left out keeps its default text.
	Prompts map[string]any `json:"prompts"`
}

// PromptNames are the names Config.Prompts may override.
var PromptNames = []string{"initial", "feedback"}

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
		return c, errors.New("iterative config: code_execution applies to environments scored by running code " +
			"(the huggingface adapter's scoring='code'), whose iterative loop the Python package runs; leave it None here")
	}
	for name, text := range c.Prompts {
		if !slices.Contains(PromptNames, name) {
			return c, fmt.Errorf("iterative config: prompts: unknown prompt %q (the iterative environment's prompts: %s)",
				name, strings.Join(PromptNames, ", "))
		}
		if _, ok := text.(string); !ok {
			return c, fmt.Errorf("iterative config: prompts: %q must be a string, got %T", name, text)
		}
	}
	return c, nil
}

// Env is an iterative environment around a single-turn one.
type Env struct {
	inner     core.Environment
	cfg       Config
	extractor extract.Extractor // nil: the whole response is the submission
	name      string            // "<inner>_iterative"
	pure      bool              // the inner step is pure
	// scorer is the inner environment when it scores texts directly (a
	// core.SingleTurn): a step then scores without the inner step's StepResult.
	scorer core.SingleTurn
	// upperKeyword is the submit keyword upper-cased, as IsSubmit needs it.
	upperKeyword string
	// system opens every conversation as a system message (nil: none).
	system *string
	// retry[left] is FeedbackPrompt(left, nil), made once for the first
	// turns (a wrong answer without feedback texts reuses it).
	retry []string
}

// retryCache bounds the feedback prompts made once per environment.
const retryCache = 64

// Wrap builds the iterative environment around inner from the settings of
// cfg.Iterative; its conversations open with cfg.SystemMessage, when set.
func Wrap(inner core.Environment, cfg core.EnvConfig) (core.Environment, error) {
	e, err := New(inner, cfg.Iterative)
	if err != nil {
		return nil, err
	}
	e.system = cfg.SystemMessage
	return e, nil
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
	e := &Env{inner: inner, cfg: cfg, name: spec.Name + NameSuffix, pure: spec.PureStep,
		upperKeyword: pycompat.Upper(cfg.SubmitKeyword)}
	e.retry = make([]string, min(cfg.MaxTurns, retryCache))
	for left := 1; left < len(e.retry); left++ {
		e.retry[left] = e.feedbackPrompt(left, nil)
	}
	if st, ok := inner.(core.SingleTurn); ok && spec.PureStep {
		e.scorer = st
	}
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

// Identity is the name and pure_step of Spec, without building it: the
// steps of an iterative environment are never pure.
func (e *Env) Identity() (string, bool) { return e.name, false }

// EntryAny is the inner environment's record of task i, when it has one
// (the "entries" method of the C ABI).
func (e *Env) EntryAny(i int) (any, error) {
	if x, ok := e.inner.(core.EntrySource); ok {
		return x.EntryAny(i)
	}
	return nil, fmt.Errorf("%s: the inner environment keeps no entries", e.name)
}

// ServesEntries reports whether EntryAny works: whether the inner
// environment keeps entries.
func (e *Env) ServesEntries() bool {
	_, ok := e.inner.(core.EntrySource)
	return ok
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

// initialPrompt is InitialPrompt, or the "initial" prompt of the config
// with its placeholders filled in.
func (e *Env) initialPrompt(task string) string {
	t, ok := e.cfg.Prompts["initial"].(string)
	if !ok {
		return InitialPrompt(task, e.cfg.MaxTurns, e.cfg.SubmitKeyword)
	}
	return strings.NewReplacer("{task}", task, "{turns}", strconv.Itoa(e.cfg.MaxTurns),
		"{submit_keyword}", e.cfg.SubmitKeyword).Replace(t)
}

// feedbackPrompt is FeedbackPrompt, or the "feedback" prompt of the config
// with its placeholders filled in.
func (e *Env) feedbackPrompt(left int, feedback []string) string {
	t, ok := e.cfg.Prompts["feedback"].(string)
	if !ok {
		return FeedbackPrompt(left, feedback)
	}
	return strings.NewReplacer("{attempts_left}", strconv.Itoa(left), "{feedback}", strings.Join(feedback, "\n")).
		Replace(t)
}

// IsSubmit reports whether text starts with keyword once leading
// whitespace is removed, both upper-cased as Python's str.upper does
// (text.lstrip().upper().startswith(keyword.upper())); an empty keyword
// never matches.
func IsSubmit(text, keyword string) bool {
	if keyword == "" {
		return false
	}
	return isSubmitUpper(text, pycompat.Upper(keyword))
}

// isSubmitUpper is IsSubmit with the keyword already upper-cased.
func isSubmitUpper(text, k string) bool {
	if k == "" {
		return false
	}
	t := strings.TrimLeftFunc(text, pycompat.IsSpace)
	if asciiPrefix(t, len(k)) && pycompat.IsASCII(k) {
		// ASCII upper-cases byte by byte, to ASCII: no allocation needed.
		if len(t) < len(k) {
			return false
		}
		for i := 0; i < len(k); i++ {
			c := t[i]
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			if c != k[i] {
				return false
			}
		}
		return true
	}
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
	prompt := e.initialPrompt(obs.Prompt)
	msgs := make([]core.Message, 0, len(obs.Messages)+2+2*e.cfg.MaxTurns)
	if e.system != nil && (len(obs.Messages) == 0 || obs.Messages[0].Role != "system") {
		msgs = append(msgs, core.Message{Role: "system", Content: *e.system})
	}
	msgs = append(append(msgs, obs.Messages...), core.Message{Role: "user", Content: prompt})
	ep := &episode{env: e, req: r, inner: start.Episode, pure: e.pure, task: obs.Task,
		base: len(msgs) - 1, history: msgs}
	if ts, ok := e.scorer.(core.TaskScorer); ok {
		if target, err := ts.Task(r.TaskIndex); err == nil {
			ep.target = target
		}
	}
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
	base    int // messages before the first user turn (the system message, the inner's own)
	history []core.Message
	turn    int
	done    bool
	scored  core.Scored // stepScored's scratch
	// target is the inner task as the inner TaskScorer looked it up (nil:
	// stepScored scores by task index).
	target any
}

// ErrFinished is a step of an episode that has ended.
var ErrFinished = errors.New("this episode is finished (terminated or truncated); reset a new episode")

// Step scores one attempt and says whether the episode goes on. When the
// inner environment scores texts directly, the attempt is scored that way
// and the info and signal metadata are left to the result's Details, which
// scores the submission again (the inner step is pure) only if they are
// read.
func (p *episode) Step(a core.Action) (core.StepResult, error) {
	e := p.env
	if err := p.check(a.Text); err != nil {
		return core.StepResult{}, err
	}
	text := *a.Text
	submission := p.submission(text)
	if e.scorer != nil {
		return p.stepScored(text, submission)
	}
	inner := p.inner
	if !p.pure {
		s, err := e.inner.Reset(p.req) // an inner step that is not pure gets a fresh episode per attempt
		if err != nil {
			return core.StepResult{}, fmt.Errorf("%s: resetting the inner environment: %w", e.name, err)
		}
		inner = s.Episode
	}
	res, err := inner.Step(core.Action{Text: &submission})
	if err != nil {
		return core.StepResult{}, fmt.Errorf("%s: scoring the attempt: %w", e.name, err)
	}
	if err := res.Complete(); err != nil {
		return core.StepResult{}, fmt.Errorf("%s: scoring the attempt: %w", e.name, err)
	}
	solved, best := Solved(res.Signals, e.cfg.SolvedThreshold)
	terminated, truncated, prompt, submit := p.advance(text, solved, Feedback(res.Signals))
	obs := core.Observation{Prompt: prompt, Messages: p.messages(), Task: p.task}
	return core.StepResult{Observation: &obs, Signals: res.Signals, Terminated: terminated, Truncated: truncated,
		ExtractedAction: res.ExtractedAction, ResolvedAction: &submission,
		Info: e.info(res.Info, p.turn, solved, submit, submission, best)}, nil
}

// stepScored is Step for an inner environment that scores texts directly
// (core.SingleTurn): its signals carry no feedback, and their metadata and
// the info are built by the result's Details (a scoredStep). Everything
// the result holds is one allocation, for the common case of a few
// signals.
func (p *episode) stepScored(text, submission string) (core.StepResult, error) {
	e := p.env
	specs := e.scorer.SignalSpecs()
	// The episode's own scratch: steps of one episode are serialised.
	out := &p.scored
	values := out.Values[:0]
	if cap(values) < len(specs) {
		values = make([]float64, len(specs))
	}
	*out = core.Scored{Values: values[:len(specs)]}
	if err := scoreText(e.scorer, p.target, p.req.TaskIndex, submission, out); err != nil {
		return core.StepResult{}, fmt.Errorf("%s: scoring the attempt: %w", e.name, err)
	}
	st := &scoredStep{env: e, task: p.req.TaskIndex, submission: submission}
	rewards, signals := st.rewards[:0], st.signals[:0]
	if len(specs) > len(st.rewards) {
		rewards, signals = make([]float64, 0, len(specs)), make([]core.Signal, 0, len(specs))
	}
	rewards = append(rewards, out.Values...)
	var best *float64
	for j, s := range specs {
		signals = append(signals, core.Signal{Name: s.Name, Type: s.Type, Reward: &rewards[j], Weight: s.Weight})
		if s.Type == core.Outcome && (best == nil || rewards[j] > *best) {
			best = &rewards[j]
		}
	}
	solved := best != nil && *best >= e.cfg.SolvedThreshold
	terminated, truncated, prompt, submit := p.advance(text, solved, nil)
	st.turn, st.submit = p.turn, submit
	st.obs = core.Observation{Prompt: prompt, Messages: p.messages(), Task: p.task}
	res := core.StepResult{Signals: signals, Terminated: terminated, Truncated: truncated, Observation: &st.obs,
		ResolvedAction: &st.submission, Details: st}
	if out.Extraction.Found {
		st.answer = out.Extraction.Answer
		res.ExtractedAction = &st.answer
	}
	return res, nil
}

// scoredStep is what a result of stepScored holds: its observation,
// rewards and signals (room for two, the common case), and what its
// details are built from.
type scoredStep struct {
	env        *Env
	task, turn int
	submission string
	submit     bool
	answer     string
	obs        core.Observation
	rewards    [2]float64
	signals    [2]core.Signal
}

// HasMetadata is true: Build gives every signal a map, empty rather than
// nil (core.StepDetails).
func (st *scoredStep) HasMetadata(int) bool { return true }

// Build builds the step's info and signal metadata (core.StepDetails):
// the inner step is pure, so scoring the submission again gives them.
func (st *scoredStep) Build() (map[string]any, []map[string]any, error) {
	e := st.env
	inner, err := e.scorer.StepTask(st.task, core.Action{Text: &st.submission})
	if err == nil {
		err = inner.Complete()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: scoring the attempt: %w", e.name, err)
	}
	solved, best := Solved(inner.Signals, e.cfg.SolvedThreshold)
	meta := make([]map[string]any, len(inner.Signals))
	for k := range inner.Signals {
		meta[k] = inner.Signals[k].Metadata
		if meta[k] == nil {
			meta[k] = map[string]any{}
		}
	}
	return e.info(inner.Info, st.turn, solved, st.submit, st.submission, best), meta, nil
}

// info is a step's info: the inner step's, with how the episode stands.
func (e *Env) info(inner map[string]any, turn int, solved, submit bool, submission string,
	best *float64) map[string]any {
	info := make(map[string]any, len(inner)+6)
	for k, v := range inner {
		info[k] = v
	}
	info["turn"], info["turns_remaining"], info["solved"], info["early_submit"] = turn, e.cfg.MaxTurns-turn, solved,
		submit
	info["submission"], info["best_outcome_reward"] = submission, best
	return info
}

// scoreText scores text as the inner step does (against target when the
// inner environment looked the task up for the episode), turning a panic
// into an error.
func scoreText(st core.SingleTurn, target any, i int, text string, out *core.Scored) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("scoring task %d failed: %v", i, r)
		}
	}()
	if target != nil {
		st.(core.TaskScorer).ScoreTask(target, text, out)
	} else {
		st.ScoreText(i, text, out)
	}
	if out.Err != nil {
		return out.Err
	}
	for j := range out.Values {
		out.Values[j] = core.FiniteOrZero(out.Values[j])
	}
	return nil
}

// check refuses a step of a finished episode and an attempt without text.
func (p *episode) check(text *string) error {
	if p.done {
		return fmt.Errorf("%s: %w", p.env.name, ErrFinished)
	}
	if text == nil {
		return fmt.Errorf("%s: the action has no text (text=None); an attempt is text, "+
			"e.g. Action.from_text(\"<answer>42</answer>\")", p.env.name)
	}
	return nil
}

// submission is what of text is scored.
func (p *episode) submission(text string) string {
	if p.env.extractor != nil {
		if x := p.env.extractor.Extract(text); x.Found {
			return x.Answer
		}
	}
	return text
}

// advance records an attempt: the turn, the end of the episode, the
// history; it returns how the episode stands and the next prompt.
func (p *episode) advance(text string, solved bool, feedback []string) (terminated, truncated bool, prompt string,
	submit bool) {
	cfg := p.env.cfg
	p.turn++
	submit = isSubmitUpper(text, p.env.upperKeyword)
	terminated = submit || solved
	truncated = !terminated && p.turn >= cfg.MaxTurns
	p.done = terminated || truncated
	p.history = append(p.history, core.Message{Role: "assistant", Content: text})
	if p.done {
		return terminated, truncated, CompleteText, submit
	}
	if left := cfg.MaxTurns - p.turn; len(feedback) == 0 && left < len(p.env.retry) {
		prompt = p.env.retry[left]
	} else {
		prompt = p.env.feedbackPrompt(left, feedback)
	}
	p.history = append(p.history, core.Message{Role: "user", Content: prompt})
	if !cfg.IncludeHistory {
		// The inner's own messages, the first user turn, the latest exchange.
		keep := p.base + 1
		p.history = append(p.history[:keep], p.history[len(p.history)-2:]...)
	}
	return terminated, truncated, prompt, submit
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

// messages is the history as an observation holds it. With every turn
// kept, the episode only appends to the history past what a result holds,
// so the result shares it (capacity capped, so that its own appends copy);
// otherwise the history is rewritten in place, and the result gets a copy.
func (p *episode) messages() []core.Message {
	if p.env.cfg.IncludeHistory {
		return p.history[:len(p.history):len(p.history)]
	}
	return clone(p.history)
}

// SignalSpecs lists the inner environment's signals, which every step
// reports (nil when the inner environment does not list them).
func (e *Env) SignalSpecs() []core.SignalSpec {
	if s, ok := e.inner.(core.SignalLister); ok {
		return s.SignalSpecs()
	}
	return nil
}

// asciiPrefix reports whether the first n bytes of s (all of s when it is
// shorter) are ASCII.
func asciiPrefix(s string, n int) bool {
	n = min(n, len(s))
	for i := 0; i < n; i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
