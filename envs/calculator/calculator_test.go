package calculator

import (
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/toolcall"
)

func TestEval(t *testing.T) {
	tests := []struct {
		expr, want, wantErr string
	}{
		{"1+2*3", "7", ""},
		{"(1 + 2) * 3", "9", ""},
		{"-2**2", "-4", ""},
		{"2**-1", "0.5", ""},
		{"2^10", "1024", ""},
		{"2**3**2", "512", ""},
		{"7/2", "3.5", ""},
		{"1/3", "0.333333333333", ""},
		{"-1/3", "-0.333333333333", ""},
		{".5 + 1.", "1.5", ""},
		{"0.1 + 0.2", "0.3", ""},
		{"--3", "3", ""},
		{"123456789012345678901234567890 * 10", "1234567890123456789012345678900", ""},
		{"1/0", "", "division by zero"},
		{"0**-1", "", "division by zero"},
		{"(2 - 2) / (1 - 1)", "", "division by zero"},
		{"2**100000", "", "result too large"},
		{"2**0.5", "", "exponent of a power must be an integer"},
		{strings.Repeat("(", 40) + "1" + strings.Repeat(")", 40), "", "nested too deeply"},
		{"1 2", "", "syntax error at position 3: unexpected \"2\""},
		{"abc", "", "syntax error at position 1: expected a number"},
		{"1 +", "", "got end of expression"},
		{"(1", "", "expected ')'"},
		{"", "", "empty expression"},
		{"1..2", "", "malformed number"},
		{"import os", "", "syntax error"},
		{strings.Repeat("1+", 200) + "1", "", "expression too long: 401 characters (the limit is 256)"},
		{strings.Repeat("9", 101), "", "more than 100 digits"},
	}
	for _, tt := range tests {
		v, err := Eval(tt.expr, 256)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Eval(%q): error %v, want %q", tt.expr, err, tt.wantErr)
			}
			continue
		}
		if err != nil || Format(v) != tt.want {
			t.Errorf("Eval(%q) = %v, %v; want %s", tt.expr, v, err, tt.want)
		}
	}
}

func newEnv(t *testing.T, params map[string]any) *Env {
	t.Helper()
	seed, size := int64(3), int64(20)
	env, err := New(core.EnvConfig{Name: Name, Adapter: "native", Seed: &seed, Size: &size, Params: params,
		AnswerExtractor: "tag_based"})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func txt(s string) core.Action { return core.Action{Text: &s} }

func call(expr string) string {
	return `<tool_call>{"name": "calculator", "arguments": {"expression": "` + expr + `"}}</tool_call>`
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		params  map[string]any
		wantErr string
	}{
		{map[string]any{"task": "leg_counting"}, "is not an arithmetic task"},
		{map[string]any{"max_tool_call": 3}, "did you mean 'max_tool_calls'"},
		{map[string]any{"max_turns": 0}, "max_turns must be between 1"},
		{map[string]any{"task_config": map[string]any{"min_terms": 0}}, "min_terms must be >= 1"},
		{map[string]any{"task_config": map[string]any{"min_term": 2}}, "did you mean 'min_terms'"},
	}
	for _, tt := range tests {
		_, err := New(core.EnvConfig{Name: Name, Params: tt.params, AnswerExtractor: "tag_based"})
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%v: error %v, want %q", tt.params, err, tt.wantErr)
		}
	}
}

func TestToolCalls(t *testing.T) {
	tests := []struct {
		name   string
		action core.Action
		status []core.ToolStatus
		output []string // output on success, a part of the error otherwise
	}{
		{"text call", txt("Let me compute. " + call("6 * 7")), []core.ToolStatus{core.ToolSuccess}, []string{"42"}},
		{"two calls", txt(call("1+1") + "\n" + call("2**10")), []core.ToolStatus{core.ToolSuccess, core.ToolSuccess},
			[]string{"2", "1024"}},
		{"structured", core.Action{ToolCalls: []core.ToolCall{{ID: "c1", Name: "calculator",
			Arguments: map[string]any{"expression": "10/4"}}}}, []core.ToolStatus{core.ToolSuccess}, []string{"2.5"}},
		{"unknown tool", txt(`<tool_call>{"name": "python", "arguments": {"code": "1"}}</tool_call>`),
			[]core.ToolStatus{core.ToolInvalidTool}, []string{`unknown tool "python"`}},
		{"bad argument", txt(`<tool_call>{"name": "calculator", "arguments": {"expr": "1"}}</tool_call>`),
			[]core.ToolStatus{core.ToolInvalidArguments}, []string{`unknown argument "expr"`}},
		{"missing argument", txt(`<tool_call>{"name": "calculator", "arguments": {}}</tool_call>`),
			[]core.ToolStatus{core.ToolInvalidArguments}, []string{`missing argument "expression"`}},
		{"number argument", txt(`<tool_call>{"name": "calculator", "arguments": {"expression": 5}}</tool_call>`),
			[]core.ToolStatus{core.ToolInvalidArguments}, []string{"must be a string"}},
		{"string arguments", txt(`<tool_call>{"name": "calculator", "arguments": "{\"expression\": \"3-5\"}"}</tool_call>`),
			[]core.ToolStatus{core.ToolSuccess}, []string{"-2"}},
		{"invalid json", txt(`<tool_call>{"name": "calculator", "arguments": {"expression": "1+1"}</tool_call>`),
			[]core.ToolStatus{core.ToolError}, []string{"malformed tool call"}},
		{"unclosed", txt(`<tool_call>{"name": "calculator"`), []core.ToolStatus{core.ToolError},
			[]string{"has no closing </tool_call>"}},
		{"no name", txt(`<tool_call>{"arguments": {}}</tool_call>`), []core.ToolStatus{core.ToolError},
			[]string{`has no "name"`}},
		{"division by zero", txt(call("1/(3-3)")), []core.ToolStatus{core.ToolError},
			[]string{`division by zero (in "1/(3-3)")`}},
	}
	env := newEnv(t, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, err := env.Reset(core.ResetRequest{TaskIndex: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(start.Observation.AvailableTools) != 1 || start.Observation.AvailableTools[0].Name != ToolName {
				t.Fatalf("tools %+v", start.Observation.AvailableTools)
			}
			res, err := start.Episode.Step(tt.action)
			if err != nil {
				t.Fatal(err)
			}
			rs := res.Observation.ToolResults
			if len(rs) != len(tt.status) || res.Terminated || res.Truncated {
				t.Fatalf("results %+v", rs)
			}
			msgs := res.Observation.Messages
			if msgs[1].Role != "assistant" || len(msgs[1].ToolCalls) != len(rs) || len(msgs) != 2+len(rs) {
				t.Fatalf("messages %+v", msgs)
			}
			for k, r := range rs {
				if r.Status != tt.status[k] {
					t.Fatalf("call %d: status %s, want %s (%+v)", k, r.Status, tt.status[k], r)
				}
				if r.Status == core.ToolSuccess && r.Output != tt.output[k] {
					t.Fatalf("call %d: output %q, want %q", k, r.Output, tt.output[k])
				}
				if r.Status != core.ToolSuccess && (r.Error == nil || !strings.Contains(*r.Error, tt.output[k])) {
					t.Fatalf("call %d: error %v, want %q", k, r.Error, tt.output[k])
				}
				m := msgs[2+k]
				if m.Role != "tool" || m.ToolCallID != r.CallID || !strings.Contains(res.Observation.Prompt,
					"<tool_response>\n"+m.Content+"\n</tool_response>") {
					t.Fatalf("tool message %+v, prompt %q", m, res.Observation.Prompt)
				}
				if r.Status != core.ToolSuccess && m.Content != "Error: "+*r.Error {
					t.Fatalf("the error does not reach the model: %q", m.Content)
				}
			}
		})
	}
}

func TestEpisodeFlow(t *testing.T) {
	env := newEnv(t, map[string]any{"max_tool_calls": 2, "max_turns": 4})
	start, _ := env.Reset(core.ResetRequest{TaskIndex: 2})
	truth := *start.Hidden.ExpectedAnswer
	ep := start.Episode
	res, _ := ep.Step(txt(call("1+1") + call("2+2") + call("3+3") + call("4+4")))
	rs := res.Observation.ToolResults
	if len(rs) != 3 || rs[2].Status != core.ToolError || !strings.Contains(*rs[2].Error, "budget exhausted (2 calls") ||
		!strings.Contains(*rs[2].Error, "further tool calls in this turn were ignored") {
		t.Fatalf("budget: %+v", rs)
	}
	res, _ = ep.Step(txt("thinking, no answer"))
	if res.Observation.Prompt != NoAnswerText || res.Terminated {
		t.Fatalf("no answer: %q", res.Observation.Prompt)
	}
	res, err := ep.Step(txt("<answer>" + truth + "</answer>"))
	if err != nil || !res.Terminated || *res.Signals[0].Reward != 1 || res.Observation.Prompt != CompleteText {
		t.Fatalf("answer: %v %+v", err, res)
	}
	if _, err := ep.Step(txt("x")); err == nil || !strings.Contains(err.Error(), "finished") {
		t.Fatalf("finished: %v", err)
	}

	start, _ = env.Reset(core.ResetRequest{TaskIndex: 2})
	if _, err := start.Episode.Step(core.Action{}); err == nil || !strings.Contains(err.Error(), "text=None) and no tool calls") {
		t.Fatalf("empty action: %v", err)
	}
	for k := 0; k < 4; k++ {
		res, _ = start.Episode.Step(txt(call("1")))
	}
	if !res.Truncated || res.Terminated || res.Observation.Prompt != CompleteText {
		t.Fatalf("out of turns: %+v", res)
	}

	start, _ = env.Reset(core.ResetRequest{TaskIndex: 2})
	res, _ = start.Episode.Step(txt("<answer>no idea</answer>"))
	if !res.Terminated || *res.Signals[0].Reward != 0 {
		t.Fatalf("wrong answer: %+v", res.Signals)
	}
	huge := strings.Repeat("<tool_call>{}</tool_call>", 1<<18)
	start, _ = env.Reset(core.ResetRequest{TaskIndex: 2})
	if res, err = start.Episode.Step(txt(huge)); err != nil || len(res.Observation.ToolResults) != 3 {
		t.Fatalf("huge text: %v, %d results", err, len(res.Observation.ToolResults))
	}
}

func TestDeterministic(t *testing.T) {
	a, b := newEnv(t, map[string]any{"task": "chain_sum"}), newEnv(t, map[string]any{"task": "chain_sum"})
	for i := 0; i < 20; i++ {
		x, _ := a.Reset(core.ResetRequest{TaskIndex: i})
		y, _ := b.Reset(core.ResetRequest{TaskIndex: i})
		if x.Observation.Prompt != y.Observation.Prompt || *x.Hidden.ExpectedAnswer != *y.Hidden.ExpectedAnswer {
			t.Fatalf("task %d differs", i)
		}
		if !strings.Contains(x.Observation.Prompt, "State the final answer") {
			t.Fatalf("not a chain_sum question: %q", x.Observation.Prompt)
		}
	}
}

func TestSystemMessageOpensTheConversation(t *testing.T) {
	system := "Answer in <answer></answer> tags."
	for _, sys := range []*string{nil, &system} {
		seed, size := int64(3), int64(4)
		env, err := New(core.EnvConfig{Name: Name, Adapter: "native", Seed: &seed, Size: &size,
			AnswerExtractor: "tag_based", SystemMessage: sys})
		if err != nil {
			t.Fatal(err)
		}
		start, err := env.Reset(core.ResetRequest{TaskIndex: 1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := start.Episode.Step(txt(call("1+2")))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"user", "assistant", "tool"}
		if sys != nil {
			want = append([]string{"system"}, want...)
		}
		msgs := res.Observation.Messages
		if len(msgs) != len(want) {
			t.Fatalf("system %v: %d messages, want %v", sys != nil, len(msgs), want)
		}
		for k, m := range msgs {
			if m.Role != want[k] {
				t.Fatalf("system %v: message %d is %s, want %v", sys != nil, k, m.Role, want)
			}
		}
		if sys != nil && (msgs[0].Content != system || start.Observation.Messages[0].Content != system) {
			t.Fatalf("first message %q", msgs[0].Content)
		}
	}
}

// formatCalls are, per format, a text holding one calculator call of
// "6 * 7" (with the prose a model may write around it), the example call
// the prompt must show, the next prompt (its result, 42, in the format's
// result syntax) and where the prompt says results come back, written from
// each format's definition.
var formatCalls = []struct {
	format, call, example, result, hint string
}{
	{"hermes", `Let me compute. <tool_call>{"name": "calculator", "arguments": {"expression": "6 * 7"}}</tool_call>`,
		"<tool_call>\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"12 * (3 + 4)\"}}\n</tool_call>",
		"<tool_response>\n42\n</tool_response>", "in <tool_response></tool_response> tags"},
	{"qwen3_coder", "Let me compute.\n<tool_call>\n<function=calculator>\n<parameter=expression>\n6 * 7\n</parameter>\n" +
		"</function>\n</tool_call>",
		"<tool_call>\n<function=calculator>\n<parameter=expression>\n12 * (3 + 4)\n</parameter>\n</function>\n</tool_call>",
		"<tool_response>\n42\n</tool_response>", "in <tool_response></tool_response> tags"},
	{"llama3_json", `{"name": "calculator", "parameters": {"expression": "6 * 7"}}`,
		`{"name": "calculator", "parameters": {"expression": "12 * (3 + 4)"}}`,
		"42", "in the ipython (tool) turn after your call"},
	{"mistral", `[TOOL_CALLS][{"name": "calculator", "arguments": {"expression": "6 * 7"}}]`,
		`[TOOL_CALLS][{"name": "calculator", "arguments": {"expression": "12 * (3 + 4)"}}]`,
		`[TOOL_RESULTS]{"content": 42, "call_id": "call_1_0"}[/TOOL_RESULTS]`, "in [TOOL_RESULTS][/TOOL_RESULTS] blocks"},
	{"gpt_oss", "<|channel|>analysis<|message|>I should multiply.<|end|><|start|>assistant<|channel|>commentary " +
		`to=functions.calculator <|constrain|>json<|message|>{"expression":"6 * 7"}<|call|>`,
		`<|channel|>commentary to=functions.calculator <|constrain|>json<|message|>{"expression":"12 * (3 + 4)"}<|call|>`,
		"<|start|>functions.calculator to=assistant<|channel|>commentary<|message|>42<|end|>",
		"in a commentary message from functions.calculator"},
	{"deepseek", "I will use the tool.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>calculator\n```json\n" +
		`{"expression": "6 * 7"}` + "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>calculator\n```json\n" +
			`{"expression": "12 * (3 + 4)"}` + "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		"<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>42<｜tool▁output▁end｜><｜tool▁outputs▁end｜>",
		"between <｜tool▁output▁begin｜> and <｜tool▁output▁end｜>"},
}

func TestToolCallFormats(t *testing.T) {
	for _, tt := range formatCalls {
		t.Run(tt.format, func(t *testing.T) {
			env := newEnv(t, map[string]any{"tool_call_format": tt.format})
			if got := env.Spec().Metadata["tool_call_format"]; got != tt.format {
				t.Fatalf("spec tool_call_format %v", got)
			}
			start, err := env.Reset(core.ResetRequest{TaskIndex: 4})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(start.Observation.Prompt, "To call it, write\n"+tt.example+"\nand its result comes back "+
				tt.hint+". It supports") {
				t.Fatalf("prompt does not show the %s example and result syntax: %q", tt.format, start.Observation.Prompt)
			}
			res, err := start.Episode.Step(txt(tt.call))
			if err != nil {
				t.Fatal(err)
			}
			rs := res.Observation.ToolResults
			if len(rs) != 1 || rs[0].Status != core.ToolSuccess || rs[0].Output != "42" || rs[0].CallID != "call_1_0" ||
				res.Terminated || res.Observation.Prompt != tt.result {
				t.Fatalf("tool step: %+v, prompt %q", rs, res.Observation.Prompt)
			}
			msgs := res.Observation.Messages
			if am := msgs[len(msgs)-2]; am.Role != "assistant" || am.Content != tt.call || len(am.ToolCalls) != 1 ||
				am.ToolCalls[0].Arguments["expression"] != "6 * 7" {
				t.Fatalf("assistant message %+v", am)
			}
			// A malformed call in this format is a tool error the model reads.
			bad := strings.Replace(tt.call, `"6 * 7"}`, `"6 * 7"`, 1)
			if tt.format == "qwen3_coder" {
				bad = strings.Replace(tt.call, "</parameter>", "", 1)
			}
			if bad == tt.call {
				t.Fatal("no malformed variant of the call")
			}
			res, err = start.Episode.Step(txt(bad))
			if err != nil {
				t.Fatal(err)
			}
			rs = res.Observation.ToolResults
			if len(rs) != 1 || rs[0].Status != core.ToolError || !strings.Contains(*rs[0].Error, "malformed tool call") ||
				!strings.Contains(res.Observation.Prompt, "Error: malformed tool call") {
				t.Fatalf("malformed call: %+v, prompt %q", rs, res.Observation.Prompt)
			}
			truth := *start.Hidden.ExpectedAnswer
			res, err = start.Episode.Step(txt("<answer>" + truth + "</answer>"))
			if err != nil || !res.Terminated || *res.Signals[0].Reward != 1 {
				t.Fatalf("answer: %v %+v", err, res)
			}
		})
	}
}

// TestToolResultsInEachFormat checks that a turn of two calls (a result and
// an error) shows the results in the configured format's syntax in the next
// prompt, while the tool messages keep the plain content a chat template
// wraps itself.
func TestToolResultsInEachFormat(t *testing.T) {
	calls := []core.ToolCall{
		{ID: "c1", Name: ToolName, Arguments: map[string]any{"expression": "2**10"}},
		{ID: "c2", Name: ToolName, Arguments: map[string]any{"expression": "1/0"}},
	}
	contents := []string{"1024", `Error: division by zero (in "1/0")`}
	want := map[string]string{
		toolcall.Hermes: "<tool_response>\n1024\n</tool_response>\n<tool_response>\n" + contents[1] + "\n</tool_response>",
		toolcall.Qwen3Coder: "<tool_response>\n1024\n</tool_response>\n<tool_response>\n" + contents[1] +
			"\n</tool_response>",
		toolcall.Llama3JSON: "1024\n" + contents[1],
		toolcall.Mistral: `[TOOL_RESULTS]{"content": 1024, "call_id": "c1"}[/TOOL_RESULTS]` +
			`[TOOL_RESULTS]{"content": "Error: division by zero (in \"1/0\")", "call_id": "c2"}[/TOOL_RESULTS]`,
		toolcall.GptOss: "<|start|>functions.calculator to=assistant<|channel|>commentary<|message|>1024<|end|>" +
			"<|start|>functions.calculator to=assistant<|channel|>commentary<|message|>" + contents[1] + "<|end|>",
		toolcall.DeepSeek: "<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>1024<｜tool▁output▁end｜>\n" +
			"<｜tool▁output▁begin｜>" + contents[1] + "<｜tool▁output▁end｜><｜tool▁outputs▁end｜>",
	}
	for _, name := range toolcall.Names() {
		t.Run(name, func(t *testing.T) {
			start, err := newEnv(t, map[string]any{"tool_call_format": name}).Reset(core.ResetRequest{TaskIndex: 0})
			if err != nil {
				t.Fatal(err)
			}
			res, err := start.Episode.Step(core.Action{ToolCalls: calls})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Observation.Prompt; got != want[name] {
				t.Fatalf("prompt\n%q, want\n%q", got, want[name])
			}
			msgs := res.Observation.Messages
			tools := msgs[len(msgs)-2:]
			for k, m := range tools {
				if m.Role != "tool" || m.Content != contents[k] || m.ToolCallID != calls[k].ID || m.Name != ToolName {
					t.Fatalf("tool message %d: %+v, want the plain content %q", k, m, contents[k])
				}
			}
		})
	}
}

func TestToolCallFormatConfig(t *testing.T) {
	hermes := newEnv(t, nil).Prompt("Q?")
	want := "Q?\n\nYou can use a calculator. To call it, write\n<tool_call>\n" +
		`{"name": "calculator", "arguments": {"expression": "12 * (3 + 4)"}}` + "\n</tool_call>\nand its result comes back " +
		"in <tool_response></tool_response> tags. It supports + - * /, ** for powers, and parentheses. You may call it up " +
		"to 8 times. Give your final answer in <answer></answer> tags."
	if hermes != want {
		t.Fatalf("hermes prompt %q", hermes)
	}
	if got := newEnv(t, map[string]any{"tool_call_format": "hermes"}).Prompt("Q?"); got != want {
		t.Fatalf("explicit hermes prompt %q", got)
	}
	// A text in another format is no call for the default format: it is read as an answer attempt.
	start, _ := newEnv(t, nil).Reset(core.ResetRequest{TaskIndex: 0})
	res, _ := start.Episode.Step(txt(`[TOOL_CALLS][{"name": "calculator", "arguments": {"expression": "1"}}]`))
	if len(res.Observation.ToolResults) != 0 || res.Observation.Prompt != NoAnswerText {
		t.Fatalf("mistral text under hermes: %+v", res.Observation)
	}
	for _, tt := range []struct {
		value   any
		wantErr string
	}{
		{"llama", "calculator_arithmetic config: tool_call_format 'llama' is not a known tool-call format"},
		{"qwen3coder", "did you mean 'qwen3_coder'?"},
		{"", "Available: ['deepseek', 'gpt_oss', 'hermes', 'llama3_json', 'mistral', 'qwen3_coder']"},
		{3, "tool_call_format"},
	} {
		_, err := New(core.EnvConfig{Name: Name, Params: map[string]any{"tool_call_format": tt.value},
			AnswerExtractor: "tag_based"})
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%v: error %v, want %q", tt.value, err, tt.wantErr)
		}
	}
}
