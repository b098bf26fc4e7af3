// Package guessnumber is the guess_number environment: the model guesses a
// hidden integer, is told "higher" or "lower" after each guess, and earns a
// reward for finding it, less a small penalty per guess.
package guessnumber

import (
	"fmt"
	"strconv"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/native"
	"github.com/llenvs/llenvs-go/envs/reasoninggym"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// The capabilities of core (core/capabilities.go) this environment offers.
var (
	_ core.SignalLister = (*Env)(nil)
)

// Name is the environment's name in the native adapter.
const Name = "guess_number"

// valueLimit bounds the range's ends, so every number fits an int64.
const valueLimit = 1_000_000_000_000_000

func init() {
	native.Register(Name, func(cfg core.EnvConfig) (core.Environment, error) { return New(cfg) })
}

// Config holds the environment's settings (EnvConfig.Params), with their
// defaults in DefaultConfig.
type Config struct {
	// MinValue and MaxValue bound the hidden number, inclusive.
	MinValue int64 `json:"min_value"`
	MaxValue int64 `json:"max_value"`
	// MaxTurns is the number of guesses an episode allows.
	MaxTurns int `json:"max_turns"`
	// CorrectReward is the "correct" signal of the guess that finds the number.
	CorrectReward float64 `json:"correct_reward"`
	// StepPenalty is subtracted on every guess (the "step_penalty" signal).
	StepPenalty float64 `json:"step_penalty"`
}

// DefaultConfig is the configuration when no params are given.
func DefaultConfig() Config {
	return Config{MinValue: 1, MaxValue: 100, MaxTurns: 10, CorrectReward: 1, StepPenalty: 0.01}
}

// Env is the guess_number environment.
type Env struct {
	cfg       Config
	size      int
	seed      int64
	extractor extract.Extractor
	system    *string // the conversation's system message (nil: none)
}

// New builds the environment cfg describes.
func New(cfg core.EnvConfig) (*Env, error) {
	c := DefaultConfig()
	if err := strictcfg.Decode(Name+" config", cfg.Params, &c); err != nil {
		return nil, err
	}
	if err := reasoninggym.FirstError(
		reasoninggym.CheckRange(Name, "min_value", c.MinValue, -valueLimit, valueLimit),
		reasoninggym.CheckRange(Name, "max_value", c.MaxValue, -valueLimit, valueLimit),
		reasoninggym.CheckStrictOrder(Name, "min_value", c.MinValue, "max_value", c.MaxValue),
		reasoninggym.CheckRange(Name, "max_turns", c.MaxTurns, 1, 10_000),
		reasoninggym.CheckRange(Name, "correct_reward", c.CorrectReward, -1e6, 1e6),
		reasoninggym.CheckRange(Name, "step_penalty", c.StepPenalty, 0, 1e6),
	); err != nil {
		return nil, err
	}
	if err := native.NoExtras(cfg); err != nil {
		return nil, err
	}
	size, seed, err := native.SizeSeed(cfg)
	if err != nil {
		return nil, err
	}
	ex, err := core.BuildExtractor(cfg)
	if err != nil {
		return nil, err
	}
	return &Env{cfg: c, size: size, seed: seed, extractor: ex, system: cfg.SystemMessage}, nil
}

// Spec describes the environment.
func (e *Env) Spec() core.Spec {
	c := e.cfg
	return core.Spec{Name: Name, Adapter: native.AdapterName, MaxSteps: c.MaxTurns, IsMultiTurn: true,
		SupportsTaskIndex: true, SupportsLen: true,
		Metadata: map[string]any{"dataset_size": e.size, "dataset_name": Name, "seed": e.seed, "backend": "native",
			"min_value": c.MinValue, "max_value": c.MaxValue, "max_turns": c.MaxTurns,
			"extractor": e.extractor.Name()}}
}

// Len is the number of tasks.
func (e *Env) Len() int { return e.size }

// Number is the hidden number of task i: random.Random(seed + i).randint(min_value, max_value).
func (e *Env) Number(i int) (int64, error) {
	if err := core.CheckIndex(i, e.size); err != nil {
		return 0, err
	}
	var r pycompat.Random
	r.SeedSum(e.seed, int64(i))
	return r.RandInt(e.cfg.MinValue, e.cfg.MaxValue), nil
}

// Prompt is the first user turn.
func (e *Env) Prompt() string {
	c := e.cfg
	mid := c.MinValue + (c.MaxValue-c.MinValue)/2
	return fmt.Sprintf("I am thinking of an integer between %d and %d, inclusive. Guess it: answer with one integer "+
		"in <answer></answer> tags, e.g. <answer>%d</answer>. After each guess I will tell you whether the number is "+
		"higher or lower. You have %s.", c.MinValue, c.MaxValue, mid, guesses(c.MaxTurns))
}

func guesses(n int) string {
	if n == 1 {
		return "1 guess"
	}
	return strconv.Itoa(n) + " guesses"
}

// Reset starts an episode of task r.TaskIndex; the seed is ignored, since
// tasks are fixed by index once the environment's seed is.
func (e *Env) Reset(r core.ResetRequest) (core.Start, error) {
	n, err := e.Number(r.TaskIndex)
	if err != nil {
		return core.Start{}, err
	}
	prompt := e.Prompt()
	truth := strconv.FormatInt(n, 10)
	msgs := core.OpeningMessages(e.system, prompt)
	return core.Start{
		Episode:     &episode{env: e, number: n, history: msgs},
		Observation: core.Observation{Prompt: prompt, Messages: append([]core.Message(nil), msgs...), Task: &core.Content{Text: prompt}},
		Hidden: core.Hidden{TaskIndex: r.TaskIndex, ExpectedAnswer: &truth,
			Entry: map[string]any{"number": n, "min_value": e.cfg.MinValue, "max_value": e.cfg.MaxValue}},
		Info: map[string]any{"task_index": r.TaskIndex, "dataset_name": Name, "question": prompt},
	}, nil
}

type episode struct {
	env     *Env
	number  int64
	turn    int
	done    bool
	history []core.Message
}

// Outcomes of a guess, as Info["outcome"] reports them.
const (
	OutcomeCorrect    = "correct"
	OutcomeHigher     = "higher"
	OutcomeLower      = "lower"
	OutcomeInvalid    = "invalid"
	OutcomeOutOfRange = "out_of_range"
)

// Step judges one guess.
func (p *episode) Step(a core.Action) (core.StepResult, error) {
	e := p.env
	c := e.cfg
	if p.done {
		return core.StepResult{}, native.FinishedError(Name)
	}
	if a.Text == nil {
		return core.StepResult{}, native.NoText(Name, "<answer>50</answer>")
	}
	x := e.extractor.Extract(*a.Text)
	p.turn++
	left := c.MaxTurns - p.turn
	var guess *int64
	outcome := OutcomeInvalid
	if x.Found {
		if g, ok := pycompat.ParseInt(x.Answer); ok {
			switch {
			case !g.IsInt64() || g.Int64() < c.MinValue || g.Int64() > c.MaxValue:
				outcome = OutcomeOutOfRange
			case g.Int64() == p.number:
				outcome = OutcomeCorrect
			case g.Int64() < p.number:
				outcome = OutcomeHigher
			default:
				outcome = OutcomeLower
			}
			if g.IsInt64() {
				v := g.Int64()
				guess = &v
			}
		}
	}
	terminated := outcome == OutcomeCorrect
	truncated := !terminated && left <= 0
	p.done = terminated || truncated
	fb := p.feedback(outcome, x.Answer, left)
	correct := 0.0
	if terminated {
		correct = c.CorrectReward
	}
	signals := []core.Signal{
		{Name: "correct", Type: core.Outcome, Reward: core.Float(correct), Feedback: &fb, Weight: 1},
		{Name: "step_penalty", Type: core.Step, Reward: core.Float(-c.StepPenalty), Weight: 1},
	}
	p.history = append(p.history, core.Message{Role: "assistant", Content: *a.Text})
	if !p.done {
		p.history = append(p.history, core.Message{Role: "user", Content: fb})
	}
	var extracted, resolved *string
	var guessAny any
	if x.Found {
		extracted = &x.Answer
	}
	if guess != nil && outcome != OutcomeOutOfRange {
		s := strconv.FormatInt(*guess, 10)
		resolved = &s
		guessAny = *guess
	}
	return core.StepResult{
		Observation: &core.Observation{Prompt: fb, Messages: append([]core.Message(nil), p.history...),
			Task: &core.Content{Text: e.Prompt()}},
		Signals: signals, Terminated: terminated, Truncated: truncated, ExtractedAction: extracted,
		ResolvedAction: resolved,
		Info: map[string]any{"outcome": outcome, "guess": guessAny, "turn": p.turn, "turns_remaining": left,
			"extracted_answer": anyOf(extracted)},
	}, nil
}

func anyOf(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// feedback is the text the model gets after a guess.
func (p *episode) feedback(outcome, answer string, left int) string {
	c := p.env.cfg
	var s string
	switch outcome {
	case OutcomeCorrect:
		return fmt.Sprintf("Correct! The number was %d; you found it in %s.", p.number, guesses(p.turn))
	case OutcomeHigher:
		s = fmt.Sprintf("Higher: the number is greater than %s.", answerText(answer))
	case OutcomeLower:
		s = fmt.Sprintf("Lower: the number is less than %s.", answerText(answer))
	case OutcomeOutOfRange:
		s = fmt.Sprintf("%s is outside the range %d to %d.", answerText(answer), c.MinValue, c.MaxValue)
	default:
		s = fmt.Sprintf("No guess found: answer with one integer between %d and %d in <answer></answer> tags.",
			c.MinValue, c.MaxValue)
	}
	if left <= 0 {
		return s + fmt.Sprintf(" No guesses left; the number was %d.", p.number)
	}
	return s + " You have " + guesses(left) + " left."
}

// answerText is a guess as the feedback quotes it: trimmed, and shortened
// when very long.
func answerText(a string) string {
	r := []rune(pycompat.Strip(a))
	if len(r) > 40 {
		return string(r[:37]) + "..."
	}
	return string(r)
}

// SignalSpecs lists the signals of every step: "correct" (outcome) and
// "step_penalty" (step).
func (e *Env) SignalSpecs() []core.SignalSpec {
	return []core.SignalSpec{{Name: "correct", Type: core.Outcome, Weight: 1},
		{Name: "step_penalty", Type: core.Step, Weight: 1}}
}
