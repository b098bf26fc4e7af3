package toolcall

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// want is one expected call: its name and arguments, or a part of its
// error (name then checked only when set).
type want struct {
	name string
	args map[string]any
	err  string
}

type parseCase struct {
	name  string
	text  string
	limit int
	want  []want
	more  bool
}

func num(s string) json.Number { return json.Number(s) }

// expr is the arguments {"expression": e}.
func expr(e string) map[string]any { return map[string]any{"expression": e} }

func runParseCases(t *testing.T, format string, cases []parseCase) {
	t.Helper()
	f, err := FormatByName(format)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			calls, more := f.Parse(tt.text, "call_2_", tt.limit)
			if len(calls) != len(tt.want) || more != tt.more {
				t.Fatalf("%d calls, more %v, want %d, %v: %+v", len(calls), more, len(tt.want), tt.more, calls)
			}
			for k, c := range calls {
				w := tt.want[k]
				if id := fmt.Sprintf("call_2_%d", k); c.Call.ID != id {
					t.Fatalf("call %d: id %q, want %q", k, c.Call.ID, id)
				}
				if c.Call.Arguments == nil {
					t.Fatalf("call %d: nil arguments", k)
				}
				if w.err == "" {
					if c.Err != "" || c.Call.Name != w.name || !reflect.DeepEqual(c.Call.Arguments, w.args) {
						t.Fatalf("call %d: %+v, want %s %#v", k, c, w.name, w.args)
					}
					continue
				}
				if !strings.HasPrefix(c.Err, "malformed tool call") && !strings.HasPrefix(c.Err, "invalid arguments") {
					t.Fatalf("call %d: error %q is not a malformed call", k, c.Err)
				}
				if !strings.Contains(c.Err, w.err) || (w.name != "" && c.Call.Name != w.name) {
					t.Fatalf("call %d: %+v, want error %q (name %q)", k, c, w.err, w.name)
				}
			}
		})
	}
}

func TestParseHermesFormat(t *testing.T) {
	runParseCases(t, Hermes, []parseCase{
		{"none", "The answer is <answer>4</answer>", 5, nil, false},
		{"two in prose", "First <tool_call>\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"1+1\"}}\n</tool_call>" +
			" then <tool_call>{\"name\": \"lookup\", \"arguments\": {\"k\": [1, true, null], \"n\": 2.5}}</tool_call> done", 5,
			[]want{{"calculator", expr("1+1"), ""}, {"lookup", map[string]any{"k": []any{num("1"), true, nil}, "n": num("2.5")}, ""}},
			false},
		{"limit", `<tool_call>{"name": "a"}</tool_call><tool_call>{"name": "b"}</tool_call>`, 1,
			[]want{{"a", map[string]any{}, ""}}, true},
		{"truncated", `<tool_call>{"name": "a", "argu`, 5, []want{{err: "no closing </tool_call>"}}, false},
	})
}

func TestParseQwen3CoderFormat(t *testing.T) {
	block := func(name string, params ...string) string {
		s := "<tool_call>\n<function=" + name + ">\n"
		for i := 0; i < len(params); i += 2 {
			s += "<parameter=" + params[i] + ">\n" + params[i+1] + "\n</parameter>\n"
		}
		return s + "</function>\n</tool_call>"
	}
	runParseCases(t, Qwen3Coder, []parseCase{
		{"none", "no call, only <answer>7</answer>", 5, nil, false},
		{"one", "Let me compute.\n" + block("calculator", "expression", "12 * (3 + 4)"), 5,
			[]want{{"calculator", expr("12 * (3 + 4)"), ""}}, false},
		{"value types", block("f", "i", "42", "x", "-1.5e3", "b", "true", "z", "null", "o", `{"k": [1, "a"]}`,
			"q", `"quoted"`, "s", "two\nlines", "w", "  padded  "), 5,
			[]want{{"f", map[string]any{"i": num("42"), "x": num("-1.5e3"), "b": true, "z": nil,
				"o": map[string]any{"k": []any{num("1"), "a"}}, "q": "quoted", "s": "two\nlines", "w": "  padded  "}, ""}},
			false},
		{"inline and bare", "<function=a><parameter=p>1</parameter></function> and <function=b>\n</function>", 5,
			[]want{{"a", map[string]any{"p": num("1")}, ""}, {"b", map[string]any{}, ""}}, false},
		{"no parameters", block("noop"), 5, []want{{"noop", map[string]any{}, ""}}, false},
		{"two calls, limit", block("a", "x", "1") + "\n" + block("b") + block("c"), 2,
			[]want{{"a", map[string]any{"x": num("1")}, ""}, {"b", map[string]any{}, ""}}, true},
		{"limit zero", block("a"), 0, nil, true},
		{"json inside tool_call", `<tool_call>{"name": "a", "arguments": {}}</tool_call>`, 5,
			[]want{{err: "must hold one <function=NAME>"}}, false},
		{"unclosed parameter", "<tool_call>\n<function=f>\n<parameter=x>\n1\n</function>\n</tool_call>", 5,
			[]want{{name: "f", err: "<parameter=x> has no closing </parameter>"}}, false},
		{"truncated", "<tool_call>\n<function=f>\n<parameter=x>\n1\n", 5, []want{{err: "has no closing </tool_call>"}}, false},
		{"truncated bare", "<function=f>\n<parameter=x>\n1\n</parameter>\n", 5,
			[]want{{name: "f", err: "<function=f> has no closing </function>"}}, false},
		{"duplicate parameter", block("f", "x", "1", "x", "2"), 5, []want{{name: "f", err: `"x" is given twice`}}, false},
		{"stray text", "<tool_call>\n<function=f>\nhello\n</function>\n</tool_call>" + block("g"), 5,
			[]want{{name: "f", err: "only <parameter=NAME> blocks"}, {"g", map[string]any{}, ""}}, false},
		{"no name", block(""), 5, []want{{err: "no valid name"}}, false},
	})
}

func TestParseLlama3JSONFormat(t *testing.T) {
	runParseCases(t, Llama3JSON, []parseCase{
		{"prose", "The result is 42. <answer>42</answer>", 5, nil, false},
		{"prose holding json", `I would call {"name": "calculator"} but no.`, 5, nil, false},
		{"bare", ` {"name": "calculator", "parameters": {"expression": "6*7"}}` + "\n", 5,
			[]want{{"calculator", expr("6*7"), ""}}, false},
		{"python tag", "Let me search.<|python_tag|>{\"name\": \"search\", \"parameters\": {\"q\": \"x\", \"n\": 3, \"deep\": false}}<|eom_id|>", 5,
			[]want{{"search", map[string]any{"q": "x", "n": num("3"), "deep": false}, ""}}, false},
		{"arguments key", `{"name": "f", "arguments": {"a": [1, 2]}}`, 5,
			[]want{{"f", map[string]any{"a": []any{num("1"), num("2")}}, ""}}, false},
		{"string parameters", `{"name": "f", "parameters": "{\"a\": 1}"}`, 5, []want{{"f", map[string]any{"a": num("1")}, ""}}, false},
		{"no parameters", `{"name": "f"}`, 5, []want{{"f", map[string]any{}, ""}}, false},
		{"separated", `{"name": "a", "parameters": {}}; {"name": "b", "parameters": {"s": "x;y"}};`, 5,
			[]want{{"a", map[string]any{}, ""}, {"b", map[string]any{"s": "x;y"}, ""}}, false},
		{"two tags", `<|python_tag|>{"name": "a", "parameters": {}}<|python_tag|>{"name": "b", "parameters": {}}`, 5,
			[]want{{"a", map[string]any{}, ""}, {"b", map[string]any{}, ""}}, false},
		{"limit", `{"name": "a", "parameters": {}}; {"name": "b", "parameters": {}}`, 1,
			[]want{{"a", map[string]any{}, ""}}, true},
		{"limit at a tag", `<|python_tag|>{"name": "a"}<|python_tag|>{"name": "b"}`, 1, []want{{"a", map[string]any{}, ""}}, true},
		{"truncated", `{"name": "calculator", "parameters": {"expression": "1+`, 5, []want{{err: "not a JSON object"}}, false},
		{"no name", `{"function": "f", "parameters": {}}`, 5, []want{{err: `no "name"`}}, false},
		{"bad parameters", `{"name": "f", "parameters": [1]}`, 5, []want{{name: "f", err: "must be a JSON object"}}, false},
		{"not separated", `{"name": "a"} {"name": "b"}`, 5,
			[]want{{"a", map[string]any{}, ""}, {err: `separated by ";"`}}, false},
		{"builtin python call", `<|python_tag|>brave_search.call(query="x")`, 5, []want{{err: "not a JSON object"}}, false},
		{"empty tag", "<|python_tag|>  <|eom_id|>", 5, nil, false},
	})
}

func TestParseMistralFormat(t *testing.T) {
	runParseCases(t, Mistral, []parseCase{
		{"none", "Just an answer: <answer>3</answer>", 5, nil, false},
		{"array", `Sure. [TOOL_CALLS] [{"name": "calculator", "arguments": {"expression": "2**8"}}, ` +
			`{"name": "f", "arguments": {"x": 1.25, "y": {"z": null}}, "id": "abc123def"}]`, 5,
			[]want{{"calculator", expr("2**8"), ""}, {"f", map[string]any{"x": num("1.25"), "y": map[string]any{"z": nil}}, ""}},
			false},
		{"array limit", `[TOOL_CALLS][{"name": "a"}, {"name": "b"}, {"name": "c"}]`, 2,
			[]want{{"a", map[string]any{}, ""}, {"b", map[string]any{}, ""}}, true},
		{"named", `[TOOL_CALLS]calculator[ARGS]{"expression": "1/4"}[TOOL_CALLS]other[ARGS]{"ok": true}`, 5,
			[]want{{"calculator", expr("1/4"), ""}, {"other", map[string]any{"ok": true}, ""}}, false},
		{"named with call id", `[TOOL_CALLS]f[CALL_ID]a1b2c3d4e[ARGS]{"n": 0}`, 5, []want{{"f", map[string]any{"n": num("0")}, ""}},
			false},
		{"named limit", `[TOOL_CALLS]a[ARGS]{}[TOOL_CALLS]b[ARGS]{}`, 1, []want{{"a", map[string]any{}, ""}}, true},
		{"string arguments", `[TOOL_CALLS][{"name": "f", "arguments": "{\"a\": \"b\"}"}]`, 5, []want{{"f", map[string]any{"a": "b"}, ""}},
			false},
		{"truncated array", `[TOOL_CALLS][{"name": "calculator", "arguments": {"expr`, 5, []want{{err: "not followed by a JSON array"}},
			false},
		{"truncated args", `[TOOL_CALLS]calculator[ARGS]{"expression": "1`, 5,
			[]want{{name: "calculator", err: "not a JSON object"}}, false},
		{"no args tag", `[TOOL_CALLS]calculator {"expression": "1"}`, 5, []want{{err: "neither a JSON array nor NAME[ARGS]"}}, false},
		{"no name", `[TOOL_CALLS][ARGS]{}`, 5, []want{{err: "no function name"}}, false},
		{"item without name", `[TOOL_CALLS][{"arguments": {}}, {"name": "b"}]`, 5,
			[]want{{err: `no "name"`}, {"b", map[string]any{}, ""}}, false},
		{"empty array", `[TOOL_CALLS][]`, 5, []want{{err: "empty array"}}, false},
	})
}

func TestParseGptOssFormat(t *testing.T) {
	runParseCases(t, GptOss, []parseCase{
		{"none", "<|channel|>analysis<|message|>Think about to=functions.x<|end|><|start|>assistant<|channel|>final<|message|>" +
			"<answer>5</answer><|return|>", 5, nil, false},
		{"one", `<|channel|>commentary to=functions.calculator <|constrain|>json<|message|>{"expression":"3*3"}<|call|>`, 5,
			[]want{{"calculator", expr("3*3"), ""}}, false},
		{"after analysis", "<|channel|>analysis<|message|>I need 2+2.<|end|><|start|>assistant<|channel|>commentary " +
			`to=functions.calculator <|constrain|>json<|message|>{"expression": "2+2", "n": 7}<|call|>`, 5,
			[]want{{"calculator", map[string]any{"expression": "2+2", "n": num("7")}, ""}}, false},
		{"recipient first", `<|start|>assistant to=functions.lookup<|channel|>commentary json<|message|>{"k": [true]}<|call|>` +
			`<|start|>assistant to=functions.f<|channel|>commentary <|constrain|>json<|message|>{}<|call|>`, 5,
			[]want{{"lookup", map[string]any{"k": []any{true}}, ""}, {"f", map[string]any{}, ""}}, false},
		{"recipient opens the completion", ` to=functions.calculator<|channel|>commentary json<|message|>{"expression": "2"}<|call|>`,
			5, []want{{"calculator", expr("2"), ""}}, false},
		{"prose before the channel", `I set to=functions.x here<|channel|>commentary<|message|>{}<|end|>`, 5, nil, false},
		{"no call token", `<|channel|>commentary to=functions.calculator <|constrain|>json<|message|>{"expression": "1"}`, 5,
			[]want{{"calculator", expr("1"), ""}}, false},
		{"limit", `<|channel|>commentary to=functions.a<|message|>{}<|call|><|channel|>commentary to=functions.b<|message|>{}<|call|>`,
			1, []want{{"a", map[string]any{}, ""}}, true},
		{"builtin recipient", `<|channel|>analysis to=python code<|message|>{"x": 1}<|call|>`, 5,
			[]want{{"python", map[string]any{"x": num("1")}, ""}}, false},
		{"truncated", `<|channel|>commentary to=functions.calculator <|constrain|>json<|message|>{"expression": "1`, 5,
			[]want{{name: "calculator", err: "not a JSON object"}}, false},
		{"not json", `<|channel|>commentary to=functions.f <|constrain|>json<|message|>hello<|call|>` +
			`<|channel|>commentary to=functions.g<|message|>{}<|call|>`, 5,
			[]want{{name: "f", err: "not a JSON object"}, {"g", map[string]any{}, ""}}, false},
		{"extra text", `<|channel|>commentary to=functions.f<|message|>{} and more<|call|>`, 5,
			[]want{{name: "f", err: "extra text"}}, false},
		{"array arguments", `<|channel|>commentary to=functions.f<|message|>[1]<|call|>`, 5,
			[]want{{name: "f", err: "must be a JSON object"}}, false},
		{"empty recipient", `<|channel|>commentary to= <|message|>{}<|call|>`, 5, []want{{err: "names no function"}}, false},
		{"preamble without recipient", `<|channel|>commentary<|message|>Let me check.<|end|>`, 5, nil, false},
	})
}

func TestParseDeepSeekFormat(t *testing.T) {
	v3 := func(name, args string) string {
		return "<｜tool▁call▁begin｜>function<｜tool▁sep｜>" + name + "\n```json\n" + args + "\n```<｜tool▁call▁end｜>"
	}
	runParseCases(t, DeepSeek, []parseCase{
		{"none", "<think>hmm</think><answer>9</answer>", 5, nil, false},
		{"v3 two", "I will call.<｜tool▁calls▁begin｜>" + v3("calculator", `{"expression": "9-3"}`) + "\n" +
			v3("f", `{"a": [1.5, "b"], "c": false}`) + "<｜tool▁calls▁end｜>", 5,
			[]want{{"calculator", expr("9-3"), ""}, {"f", map[string]any{"a": []any{num("1.5"), "b"}, "c": false}, ""}}, false},
		{"v3.1", `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>calculator<｜tool▁sep｜>{"expression": "5*5"}<｜tool▁call▁end｜>` +
			`<｜tool▁call▁begin｜>g<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`, 5,
			[]want{{"calculator", expr("5*5"), ""}, {"g", map[string]any{}, ""}}, false},
		{"limit", "<｜tool▁calls▁begin｜>" + v3("a", "{}") + v3("b", "{}") + "<｜tool▁calls▁end｜>", 1,
			[]want{{"a", map[string]any{}, ""}}, true},
		{"truncated", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>calculator\n```json\n{\"exp", 5,
			[]want{{err: "has no closing <｜tool▁call▁end｜>"}}, false},
		{"bad json", v3("f", `{"a": }`) + v3("g", "{}"), 5, []want{{name: "f", err: "not a JSON object"}, {"g", map[string]any{}, ""}},
			false},
		{"no fence", "<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n{\"a\": 1}<｜tool▁call▁end｜>", 5,
			[]want{{name: "f", err: "```json block"}}, false},
		{"unclosed fence", "<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{}<｜tool▁call▁end｜>", 5,
			[]want{{name: "f", err: "not closed"}}, false},
		{"no sep", "<｜tool▁call▁begin｜>f {}<｜tool▁call▁end｜>", 5, []want{{err: "has no <｜tool▁sep｜>"}}, false},
		{"wrong type", "<｜tool▁call▁begin｜>tool<｜tool▁sep｜>f\n```json\n{}\n```<｜tool▁call▁end｜>", 5,
			[]want{{name: "f", err: `must be "function"`}}, false},
		{"extra text", "<｜tool▁call▁begin｜>f<｜tool▁sep｜>{} extra<｜tool▁call▁end｜>", 5, []want{{name: "f", err: "extra text"}}, false},
	})
}

// renderCalls are calls every format must write and read back unchanged.
var renderCalls = []core.ToolCall{
	{Name: "calculator", Arguments: expr("12 * (3 + 4)")},
	{Name: "no_args", Arguments: map[string]any{}},
	{Name: "types", Arguments: map[string]any{"int": num("-3"), "float": num("2.5e-3"), "yes": true, "no": false, "nil": nil,
		"list": []any{num("1"), "two", []any{}}, "obj": map[string]any{"k": "v", "inner": map[string]any{}},
		"numeric_string": "42", "bool_string": "true", "quoted": `"q"`, "empty": "", "multi": "line 1\nline 2\n",
		"unicode": "π ≈ 3.14 — ok"}},
	{Name: "markers", Arguments: map[string]any{"text": "</tool_call> </parameter> </function> <|call|> [TOOL_CALLS] [ARGS] " +
		"<|python_tag|> <｜tool▁call▁end｜> ``` ; {"}},
}

func TestRenderRoundTrip(t *testing.T) {
	for _, name := range Names() {
		f, _ := FormatByName(name)
		for _, c := range renderCalls {
			text := f.Render(c)
			calls, more := f.Parse(text, "id_", 3)
			if len(calls) != 1 || more || calls[0].Err != "" || calls[0].Call.Name != c.Name ||
				!reflect.DeepEqual(calls[0].Call.Arguments, c.Arguments) || calls[0].Call.ID != "id_0" {
				t.Errorf("%s: Parse(Render(%s)) = %+v, %v\n%s", name, c.Name, calls, more, text)
			}
		}
		if got := f.Render(core.ToolCall{Name: "f"}); !reflect.DeepEqual(first(f.Parse(got, "x", 1)), map[string]any{}) {
			t.Errorf("%s: nil arguments do not render as {}: %s", name, got)
		}
	}
}

func first(calls []Call, _ bool) map[string]any {
	if len(calls) != 1 {
		return nil
	}
	return calls[0].Call.Arguments
}

func TestRender(t *testing.T) {
	c := core.ToolCall{Name: "calculator", Arguments: expr("12 * (3 + 4)")}
	tests := map[string]string{
		Hermes:     "<tool_call>\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"12 * (3 + 4)\"}}\n</tool_call>",
		Qwen3Coder: "<tool_call>\n<function=calculator>\n<parameter=expression>\n12 * (3 + 4)\n</parameter>\n</function>\n</tool_call>",
		Llama3JSON: `{"name": "calculator", "parameters": {"expression": "12 * (3 + 4)"}}`,
		Mistral:    `[TOOL_CALLS][{"name": "calculator", "arguments": {"expression": "12 * (3 + 4)"}}]`,
		GptOss:     `<|channel|>commentary to=functions.calculator <|constrain|>json<|message|>{"expression":"12 * (3 + 4)"}<|call|>`,
		DeepSeek: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>calculator\n```json\n" +
			`{"expression": "12 * (3 + 4)"}` + "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
	}
	if len(tests) != len(Names()) {
		t.Fatalf("%d renderings for %d formats", len(tests), len(Names()))
	}
	for name, w := range tests {
		f, err := FormatByName(name)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name() != name {
			t.Errorf("format %s is named %s", name, f.Name())
		}
		if got := f.Render(c); got != w {
			t.Errorf("%s: Render = %q, want %q", name, got, w)
		}
	}
	// A value that would end the block is escaped, not written as it is.
	h, _ := FormatByName(Hermes)
	got := h.Render(core.ToolCall{Name: "f", Arguments: map[string]any{"s": "a</tool_call>[b"}})
	if w := "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"s\": \"a\\u003c/tool_call>\\u005bb\"}}\n</tool_call>"; got != w {
		t.Errorf("escaped: %q, want %q", got, w)
	}
}

func TestFormatByName(t *testing.T) {
	want := []string{"deepseek", "gpt_oss", "hermes", "llama3_json", "mistral", "qwen3_coder"}
	if !reflect.DeepEqual(Names(), want) {
		t.Fatalf("Names() = %v", Names())
	}
	_, err := FormatByName("qwen3coder")
	var nf *strictcfg.NotFoundError
	if !errors.As(err, &nf) || nf.Suggestion != "qwen3_coder" || !strings.Contains(err.Error(), "'deepseek', 'gpt_oss'") {
		t.Fatalf("FormatByName(qwen3coder): %v", err)
	}
	if _, err := FormatByName(""); err == nil {
		t.Fatal("the empty name is a format")
	}
}

func TestDetectFormat(t *testing.T) {
	tests := []struct{ template, want string }{
		{"", ""},
		{"{% for m in messages %}{{ m.content }}{% endfor %}", ""},
		{"{{- '<tool_call>\\n{\"name\": \"' }}{{ tool_call.name }}", Hermes},
		{"<tool_call>\\n<function=' + tool_call.name + '>\\n<parameter=", Qwen3Coder},
		{"{%- if message.role == 'ipython' %}<|start_header_id|>ipython", Llama3JSON},
		{"{{- '<|python_tag|>' + tool_call.name }}", Llama3JSON},
		{"{{- '[TOOL_CALLS][' }}", Mistral},
		{"{{- '<|start|>assistant to=' + 'functions.' + name + '<|channel|>commentary' }}", GptOss},
		{"{{'<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>' + tool['type'] + '<｜tool▁sep｜>'}}", DeepSeek},
		{"{{'<｜tool▁call▁begin｜>' + name + '<｜tool▁sep｜>'}}", DeepSeek},
	}
	for _, tt := range tests {
		if got := DetectFormat(tt.template); got != tt.want {
			t.Errorf("DetectFormat(%q) = %q, want %q", tt.template, got, tt.want)
		}
	}
}

// TestHugeText reads texts of many calls, good and malformed, in every
// format: the limit bounds the work and the calls read.
func TestHugeText(t *testing.T) {
	openers := map[string][]string{
		Hermes:     {"<tool_call>", "<tool_call>{}</tool_call>"},
		Qwen3Coder: {"<tool_call>", "<function=", "<function=f></function>"},
		Llama3JSON: {"<|python_tag|>", "<|python_tag|>{", `{"name": "f"};`},
		Mistral:    {"[TOOL_CALLS]", "[TOOL_CALLS][", "[TOOL_CALLS]f[ARGS]{}"},
		GptOss:     {"<|message|>", "<|channel|>commentary to=functions.f<|message|>", "<|channel|>x<|message|>{}<|end|>"},
		DeepSeek:   {"<｜tool▁call▁begin｜>", "<｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜>"},
	}
	for name, ops := range openers {
		f, _ := FormatByName(name)
		for _, op := range ops {
			calls, _ := f.Parse(strings.Repeat(op, 1<<16), "c", 3)
			if len(calls) > 3 {
				t.Errorf("%s %q: %d calls", name, op, len(calls))
			}
		}
	}
}

func TestParseTexts(t *testing.T) {
	f, err := FormatByName("hermes")
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{
		`<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call> and <tool_call>{"name": "b", "arguments": {}}</tool_call>`,
		"no call here",
		`<tool_call>{"name": 3}</tool_call>`,
	}
	got := ParseTexts(f, texts, "c", 1)
	tests := []struct {
		k     int
		ids   []string
		names []string
		bad   []bool
		more  bool
	}{
		{0, []string{"c0_0"}, []string{"a"}, []bool{false}, true},
		{1, nil, nil, nil, false},
		{2, []string{"c2_0"}, []string{""}, []bool{true}, false},
	}
	for _, tt := range tests {
		p := got[tt.k]
		if len(p.Calls) != len(tt.ids) || p.More != tt.more {
			t.Fatalf("text %d: %d calls, more %v; want %d, %v", tt.k, len(p.Calls), p.More, len(tt.ids), tt.more)
		}
		for j, c := range p.Calls {
			if c.Call.ID != tt.ids[j] || c.Call.Name != tt.names[j] || (c.Err != "") != tt.bad[j] {
				t.Fatalf("text %d call %d: %+v", tt.k, j, c)
			}
		}
	}
}
