// Package calculator is the calculator_arithmetic environment: arithmetic
// tasks from the native reasoning-gym ports, where the model may call a
// "calculator" tool (structured tool calls, or text in the tool-call format
// of a model family, Hermes/Qwen <tool_call> by default) before it answers
// in <answer> tags. Expressions are evaluated by a small
// exact parser with bounded size and depth (expr.go), never by eval.
package calculator

import (
	"fmt"
	"strconv"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/native"
	"github.com/llenvs/llenvs-go/envs/reasoninggym"
	"github.com/llenvs/llenvs-go/envs/toolcall"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// The capabilities of core (core/capabilities.go) this environment offers.
var (
	_ core.SignalLister = (*Env)(nil)
	_ core.ToolProvider = (*Env)(nil)
)

// Name is the environment's name in the native adapter.
const Name = "calculator_arithmetic"

// ToolName is the name of the calculator tool.
const ToolName = "calculator"

// CompleteText is the prompt of the observation after the last turn.
const CompleteText = "Episode complete."

// NoAnswerText is the user turn after a response with neither a tool call
// nor an answer.
const NoAnswerText = "No answer found: call the calculator, or give your final answer in <answer></answer> tags."

// Tasks lists the reasoning-gym tasks the environment draws from.
var Tasks = []string{"basic_arithmetic", "chain_sum"}

func init() {
	native.Register(Name, func(cfg core.EnvConfig) (core.Environment, error) { return New(cfg) })
}

// Config holds the environment's settings (EnvConfig.Params), with their
// defaults in DefaultConfig.
type Config struct {
	// Task is the reasoning-gym task the questions come from.
	Task string `json:"task"`
	// TaskConfig is that task's own config (e.g. {"max_terms": 4}).
	TaskConfig map[string]any `json:"task_config"`
	// MaxTurns is the number of model turns an episode allows.
	MaxTurns int `json:"max_turns"`
	// MaxToolCalls is the calculator-call budget of an episode.
	MaxToolCalls int `json:"max_tool_calls"`
	// MaxExpressionLength bounds an expression, in bytes.
	MaxExpressionLength int `json:"max_expression_length"`
	// ToolCallFormat names the format of tool calls in the model's text
	// (toolcall.Names), used to read them and for the prompt's example.
	ToolCallFormat string `json:"tool_call_format"`
}

// DefaultConfig is the configuration when no params are given.
func DefaultConfig() Config {
	return Config{Task: "basic_arithmetic", MaxTurns: 6, MaxToolCalls: 8, MaxExpressionLength: 256,
		ToolCallFormat: toolcall.DefaultName}
}

// Env is the calculator_arithmetic environment.
type Env struct {
	cfg     Config
	format  toolcall.Format
	tasks   *reasoninggym.Env
	tool    core.ToolDefinition
	system  *string // the conversation's system message (nil: none)
	example string  // exampleCall as format writes it, shown by Prompt
	hint    string  // where format says results come back, told by Prompt
	// idPrefixes[t] is "call_<t>_", the prefix of the ids of turn t's text
	// calls (t from 1 to MaxTurns).
	idPrefixes []string
}

// New builds the environment cfg describes.
func New(cfg core.EnvConfig) (*Env, error) {
	c := DefaultConfig()
	if err := strictcfg.Decode(Name+" config", cfg.Params, &c); err != nil {
		return nil, err
	}
	known := false
	for _, t := range Tasks {
		known = known || t == c.Task
	}
	if !known {
		return nil, strictcfg.NotFound(Name+" task", c.Task, "is not an arithmetic task with a native port", Tasks)
	}
	if err := reasoninggym.FirstError(
		reasoninggym.CheckRange(Name, "max_turns", c.MaxTurns, 1, 1000),
		reasoninggym.CheckRange(Name, "max_tool_calls", c.MaxToolCalls, 0, 1000),
		reasoninggym.CheckRange(Name, "max_expression_length", c.MaxExpressionLength, 1, 10_000),
	); err != nil {
		return nil, err
	}
	format, err := toolcall.FormatByName(c.ToolCallFormat)
	if err != nil {
		nf := strictcfg.NotFound("tool_call_format", c.ToolCallFormat, "is not a known tool-call format", toolcall.Names())
		nf.Context = Name + " config"
		return nil, nf
	}
	if err := native.NoExtras(cfg); err != nil {
		return nil, err
	}
	size, seed, err := native.SizeSeed(cfg)
	if err != nil {
		return nil, err
	}
	inner := cfg
	inner.Name, inner.Params, inner.Seed, inner.Iterative = c.Task, c.TaskConfig, &seed, nil
	sz := int64(size)
	inner.Size = &sz
	tasks, err := reasoninggym.NewEnv(inner)
	if err != nil {
		return nil, fmt.Errorf("%s: task %s: %w", Name, c.Task, err)
	}
	prefixes := make([]string, c.MaxTurns+1)
	for t := 1; t <= c.MaxTurns; t++ {
		prefixes[t] = "call_" + strconv.Itoa(t) + "_"
	}
	return &Env{cfg: c, format: format, tasks: tasks, tool: Tool(), system: cfg.SystemMessage,
		example: format.Render(exampleCall()), hint: format.ResultHint(ToolName), idPrefixes: prefixes}, nil
}

// Tool is the calculator's definition; Parameters is its JSON schema.
func Tool() core.ToolDefinition {
	return core.ToolDefinition{
		Name: ToolName,
		Description: "Evaluate an arithmetic expression exactly: integers and decimals, + - * /, ** for powers, " +
			"parentheses. Returns the result, or an error message.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"expression": map[string]any{"type": "string", "description": "the expression, e.g. \"12 * (3 + 4)\""},
			},
			"required": []any{"expression"},
		},
	}
}

// Tools lists the tools every episode offers.
func (e *Env) Tools() []core.ToolDefinition { return []core.ToolDefinition{e.tool} }

// Spec describes the environment.
func (e *Env) Spec() core.Spec {
	c := e.cfg
	ts := e.tasks.Spec()
	return core.Spec{Name: Name, Adapter: native.AdapterName, MaxSteps: c.MaxTurns, IsMultiTurn: true,
		SupportsTaskIndex: true, SupportsLen: true,
		Metadata: map[string]any{"dataset_size": e.tasks.Len(), "dataset_name": Name, "seed": ts.Metadata["seed"],
			"backend": "native", "task": c.Task, "max_turns": c.MaxTurns, "max_tool_calls": c.MaxToolCalls,
			"tool_call_format": c.ToolCallFormat, "extractor": e.tasks.Extractor().Name()}}
}

// Len is the number of tasks.
func (e *Env) Len() int { return e.tasks.Len() }

// exampleCall is the call the prompt shows, in the configured format.
func exampleCall() core.ToolCall {
	return core.ToolCall{Name: ToolName, Arguments: map[string]any{"expression": "12 * (3 + 4)"}}
}

// Prompt is the first user turn of a task whose question is question; it
// shows an example call as the configured format writes it, and says where
// that format's results come back.
func (e *Env) Prompt(question string) string {
	return question + "\n\nYou can use a calculator. To call it, write\n" + e.example +
		"\nand its result comes back " + e.hint + ". It supports + - * /, ** for powers, and parentheses. You may call it up to " +
		strconv.Itoa(e.cfg.MaxToolCalls) + " times. Give your final answer in <answer></answer> tags."
}

// Reset starts an episode of task r.TaskIndex.
func (e *Env) Reset(r core.ResetRequest) (core.Start, error) {
	ent, err := e.tasks.Entry(r.TaskIndex)
	if err != nil {
		return core.Start{}, err
	}
	prompt := e.Prompt(ent.Question)
	truth := ent.Answer
	msgs := core.OpeningMessages(e.system, prompt)
	// Room for a tool turn (the call, its result) and the answer; the
	// observations share the history, which is only appended to.
	history := append(make([]core.Message, 0, len(msgs)+3), msgs...)
	task := &core.Content{Text: ent.Question}
	return core.Start{
		Episode: &episode{env: e, entry: ent, task: task, history: history},
		Observation: core.Observation{Prompt: prompt, Messages: history[:len(history):len(history)],
			AvailableTools: e.Tools(), Task: task},
		Hidden: core.Hidden{TaskIndex: r.TaskIndex, ExpectedAnswer: &truth, Entry: ent},
		Info:   map[string]any{"task_index": r.TaskIndex, "dataset_name": Name, "question": prompt},
	}, nil
}

type episode struct {
	env     *Env
	entry   *reasoninggym.Entry // the task
	task    *core.Content
	history []core.Message // appended to, never changed: observations share it
	turn    int
	used    int // tool calls counted against the budget (at most MaxToolCalls)
	done    bool
	truth   any // the expected answer, a string, for the steps' info (nil until a step needs it)
}

// stepParts are the parts of a step's result that every step makes, in
// one allocation: its observation, signals, answer and details.
type stepParts struct {
	obs     core.Observation
	signals [2]core.Signal
	rewards [2]float64
	answer  string
	details stepDetails
}

// stepDetails builds a step's info when it is read (core.StepDetails), from
// what the step kept: the episode's counts after the step and, for an
// answer step, the extraction. The signals have no metadata.
type stepDetails struct {
	env        *Env
	turn, used int
	truth      any // the expected answer, a string
	answerStep bool
	extraction extract.Extraction
}

// Build makes the step's info: turns, the tool-call budget and the answers
// (and, for an answer step, how the answer was extracted).
func (d *stepDetails) Build() (map[string]any, []map[string]any, error) {
	e := d.env
	info := map[string]any{"turn": d.turn, "turns_remaining": e.cfg.MaxTurns - d.turn,
		"tool_calls_used": d.used, "tool_calls_left": max(0, e.cfg.MaxToolCalls-d.used),
		"extracted_answer": nil, "expected_answer": d.truth}
	if d.answerStep {
		info["extraction_metadata"] = e.tasks.Extractor().Describe(d.extraction)
		if d.extraction.Found {
			info["extracted_answer"] = d.extraction.Answer
		}
	}
	return info, make([]map[string]any, 2), nil
}

// HasMetadata is false: the calculator's signals have no metadata.
func (d *stepDetails) HasMetadata(int) bool { return false }

// result is a step's StepResult with its observation (prompt, the
// conversation so far, results), its two signals, correctness (the task's
// own score of the answer; 0 on other steps) and tool_validity (the share of
// this turn's calls that succeeded, weight 0: reported, not added), and its
// details, left to be built when read.
func (p *episode) result(prompt string, results []core.ToolResult, correct, validity float64) (core.StepResult, *stepParts) {
	s := &stepParts{}
	s.obs = core.Observation{Prompt: prompt, Messages: p.history[:len(p.history):len(p.history)], ToolResults: results,
		AvailableTools: p.env.Tools(), Task: p.task}
	s.rewards = [2]float64{correct, validity}
	s.signals = [2]core.Signal{
		{Name: "correctness", Type: core.Outcome, Reward: &s.rewards[0], Weight: 1},
		{Name: "tool_validity", Type: core.Step, Reward: &s.rewards[1], Weight: 0},
	}
	if p.truth == nil {
		p.truth = p.entry.Answer
	}
	s.details = stepDetails{env: p.env, turn: p.turn, used: p.used, truth: p.truth}
	return core.StepResult{Observation: &s.obs, Signals: s.signals[:], Details: &s.details}, s
}

// Step runs the tool calls of a, or scores its answer.
func (p *episode) Step(a core.Action) (core.StepResult, error) {
	e := p.env
	if p.done {
		return core.StepResult{}, native.FinishedError(Name)
	}
	if a.Text == nil && len(a.ToolCalls) == 0 {
		return core.StepResult{}, fmt.Errorf("%s: the action has no text (text=None) and no tool calls; answer with "+
			"Action.from_text(\"<answer>42</answer>\") or call the calculator", Name)
	}
	p.turn++
	text := ""
	if a.Text != nil {
		text = *a.Text
	}
	var calls []toolcall.Call
	var more bool
	if len(a.ToolCalls) > 0 {
		for _, c := range a.ToolCalls {
			calls = append(calls, toolcall.Call{Call: c})
		}
	} else {
		calls, more = e.format.Parse(text, e.idPrefixes[p.turn], e.cfg.MaxToolCalls-p.used+1)
	}
	if len(calls) > 0 {
		return p.toolStep(text, calls, more), nil
	}
	return p.answerStep(text), nil
}

// toolStep runs the calls of one turn; the episode goes on unless this was
// the last turn.
func (p *episode) toolStep(text string, calls []toolcall.Call, more bool) core.StepResult {
	e := p.env
	results := make([]core.ToolResult, len(calls))
	made := make([]core.ToolCall, len(calls))
	valid := 0
	for k, c := range calls {
		made[k] = c.Call
		if made[k].Arguments == nil {
			made[k].Arguments = map[string]any{}
		}
		results[k] = p.run(c)
		if results[k].Status == core.ToolSuccess {
			valid++
		}
	}
	if more { // the last call parsed was refused for the budget; the rest were not read
		last := &results[len(results)-1]
		msg := "tool-call budget exhausted"
		if last.Error != nil {
			msg = *last.Error
		}
		msg += "; further tool calls in this turn were ignored"
		last.Error = &msg
	}
	p.history = append(p.history, core.Message{Role: "assistant", Content: text, ToolCalls: made})
	// The tool messages hold the plain content (a chat template adds its
	// syntax); the prompt shows the results as the format writes them.
	shown := make([]toolcall.Result, len(results))
	for k, r := range results {
		content := toolcall.Content(r)
		p.history = append(p.history, core.Message{Role: "tool", Content: content, ToolCallID: r.CallID,
			Name: r.ToolName})
		shown[k] = toolcall.Result{Call: made[k], Content: content}
	}
	truncated := p.turn >= e.cfg.MaxTurns
	p.done = truncated
	prompt := CompleteText
	if !truncated {
		prompt = e.format.RenderResults(shown)
	}
	res, _ := p.result(prompt, results, 0, float64(valid)/float64(len(calls)))
	res.Truncated = truncated
	return res
}

// run executes one call against the budget.
func (p *episode) run(c toolcall.Call) core.ToolResult {
	e := p.env
	id, name := c.Call.ID, c.Call.Name
	fail := func(status core.ToolStatus, msg string) core.ToolResult {
		return core.ToolResult{CallID: id, ToolName: name, Status: status, Error: &msg}
	}
	if p.used >= e.cfg.MaxToolCalls {
		return fail(core.ToolError, fmt.Sprintf("tool-call budget exhausted (%d calls per episode); "+
			"give your final answer in <answer></answer> tags", e.cfg.MaxToolCalls))
	}
	p.used++
	if c.Err != "" {
		return fail(core.ToolError, c.Err)
	}
	if name != ToolName {
		return fail(core.ToolInvalidTool, fmt.Sprintf("unknown tool %q; the only tool is %q", name, ToolName))
	}
	expr, err := expressionArg(c.Call.Arguments)
	if err != nil {
		return fail(core.ToolInvalidArguments, err.Error())
	}
	out, err := EvalText(expr, e.cfg.MaxExpressionLength)
	if err != nil {
		return fail(core.ToolError, errorMessage(err, expr))
	}
	return core.ToolResult{CallID: id, ToolName: name, Status: core.ToolSuccess, Output: out}
}

// expressionArg reads the calculator's one argument.
func expressionArg(args map[string]any) (string, error) {
	for k := range args {
		if k != "expression" {
			return "", fmt.Errorf("unknown argument %q; the calculator takes {\"expression\": str}", k)
		}
	}
	raw, ok := args["expression"]
	if !ok {
		return "", fmt.Errorf("missing argument \"expression\"; the calculator takes {\"expression\": str}")
	}
	s, ok := raw.(string)
	if !ok {
		return "", fmt.Errorf("argument \"expression\" must be a string, got %s", strictcfg.Describe(raw))
	}
	return s, nil
}

// answerStep scores a response without tool calls: its answer ends the
// episode; without one the model is told to answer.
func (p *episode) answerStep(text string) core.StepResult {
	e := p.env
	x := e.tasks.Extractor().Extract(text)
	p.history = append(p.history, core.Message{Role: "assistant", Content: text})
	if x.Found {
		score := e.tasks.ScoreEntry(p.entry, &x.Answer)
		p.done = true
		res, parts := p.result(CompleteText, nil, core.FiniteOrZero(score), 1)
		parts.answer = x.Answer
		parts.details.answerStep, parts.details.extraction = true, x
		res.Terminated, res.ExtractedAction, res.ResolvedAction = true, &parts.answer, &parts.answer
		return res
	}
	truncated := p.turn >= e.cfg.MaxTurns
	p.done = truncated
	prompt := CompleteText
	if !truncated {
		prompt = NoAnswerText
		p.history = append(p.history, core.Message{Role: "user", Content: NoAnswerText})
	}
	res, parts := p.result(prompt, nil, 0, 1)
	parts.details.answerStep, parts.details.extraction = true, x
	res.Truncated = truncated
	return res
}

// SignalSpecs lists the signals of every step: "correctness" (outcome) and
// "tool_validity" (step, weight 0).
func (e *Env) SignalSpecs() []core.SignalSpec {
	return []core.SignalSpec{{Name: "correctness", Type: core.Outcome, Weight: 1},
		{Name: "tool_validity", Type: core.Step, Weight: 0}}
}
