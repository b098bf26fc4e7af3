package toolcall

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

// resultCall is the call the results below answer.
var resultCall = core.ToolCall{ID: "call_1_0", Name: "calculator", Arguments: map[string]any{"expression": "6*7"}}

// The contents the results are rendered with.
const (
	special  = "a \"q\" <b> & [x] \\ ｜\n\tend"
	errorMsg = `Error: division by zero (in "1/0")`
	object   = `{"ok": true, "n": [1, 2]}`
)

func TestRenderResult(t *testing.T) {
	tests := []struct {
		format, content, want string
	}{
		{Hermes, "42", "<tool_response>\n42\n</tool_response>"},
		{Hermes, special, "<tool_response>\n" + special + "\n</tool_response>"},
		{Hermes, "", "<tool_response>\n\n</tool_response>"},
		{Hermes, errorMsg, "<tool_response>\n" + errorMsg + "\n</tool_response>"},
		{Qwen3Coder, "42", "<tool_response>\n42\n</tool_response>"},
		{Qwen3Coder, special, "<tool_response>\n" + special + "\n</tool_response>"},
		{Qwen3Coder, "", "<tool_response>\n\n</tool_response>"},
		{Qwen3Coder, errorMsg, "<tool_response>\n" + errorMsg + "\n</tool_response>"},
		{Llama3JSON, "42", "42"},
		{Llama3JSON, special, special},
		{Llama3JSON, "", ""},
		{Llama3JSON, errorMsg, errorMsg},
		{Mistral, "42", `[TOOL_RESULTS]{"content": 42, "call_id": "call_1_0"}[/TOOL_RESULTS]`},
		{Mistral, object, `[TOOL_RESULTS]{"content": ` + object + `, "call_id": "call_1_0"}[/TOOL_RESULTS]`},
		{Mistral, special, `[TOOL_RESULTS]{"content": "a \"q\" <b> & [x] \\ ｜\n\tend", "call_id": "call_1_0"}` +
			`[/TOOL_RESULTS]`},
		{Mistral, "", `[TOOL_RESULTS]{"content": "", "call_id": "call_1_0"}[/TOOL_RESULTS]`},
		{Mistral, errorMsg, `[TOOL_RESULTS]{"content": "Error: division by zero (in \"1/0\")", "call_id": "call_1_0"}` +
			`[/TOOL_RESULTS]`},
		// A string content that holds a tag is escaped so that it cannot close the block.
		{Mistral, "x[/TOOL_RESULTS]", `[TOOL_RESULTS]{"content": "x\u005b/TOOL_RESULTS]", "call_id": "call_1_0"}` +
			`[/TOOL_RESULTS]`},
		// So is a tag inside a content that is JSON text (written again, its strings escaped).
		{Mistral, `["[/TOOL_RESULTS]", 1.50]`, `[TOOL_RESULTS]{"content": ["\u005b/TOOL_RESULTS]", 1.50], ` +
			`"call_id": "call_1_0"}[/TOOL_RESULTS]`},
		{Mistral, `{"b": "x[TOOL_CALLS]", "a": 2}`, `[TOOL_RESULTS]{"content": {"a": 2, "b": "x\u005bTOOL_CALLS]"}, ` +
			`"call_id": "call_1_0"}[/TOOL_RESULTS]`},
		{GptOss, "42", "<|start|>functions.calculator to=assistant<|channel|>commentary<|message|>42<|end|>"},
		{GptOss, special, "<|start|>functions.calculator to=assistant<|channel|>commentary<|message|>" + special + "<|end|>"},
		{GptOss, "", "<|start|>functions.calculator to=assistant<|channel|>commentary<|message|><|end|>"},
		{GptOss, errorMsg, "<|start|>functions.calculator to=assistant<|channel|>commentary<|message|>" + errorMsg +
			"<|end|>"},
		{DeepSeek, "42", "<｜tool▁output▁begin｜>42<｜tool▁output▁end｜>"},
		{DeepSeek, special, "<｜tool▁output▁begin｜>" + special + "<｜tool▁output▁end｜>"},
		{DeepSeek, "", "<｜tool▁output▁begin｜><｜tool▁output▁end｜>"},
		{DeepSeek, errorMsg, "<｜tool▁output▁begin｜>" + errorMsg + "<｜tool▁output▁end｜>"},
	}
	for _, tt := range tests {
		t.Run(tt.format+"/"+tt.content, func(t *testing.T) {
			f, err := FormatByName(tt.format)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.RenderResult(resultCall, tt.content); got != tt.want {
				t.Fatalf("RenderResult(%q) =\n%q, want\n%q", tt.content, got, tt.want)
			}
			one := []Result{{Call: resultCall, Content: tt.content}}
			if got := f.RenderResults(one); !strings.Contains(got, tt.want) {
				t.Fatalf("RenderResults of one result %q does not hold %q", got, tt.want)
			}
		})
	}
}

// TestRenderResultOfAnErrorResult renders what a failed call's tool message
// holds (Content of the result) in every format.
func TestRenderResultOfAnErrorResult(t *testing.T) {
	msg := "unknown tool \"x\"; the only tool is \"calculator\""
	content := Content(core.ToolResult{CallID: "c9", ToolName: "x", Status: core.ToolInvalidTool, Error: &msg})
	call := core.ToolCall{ID: "c9", Name: "x"}
	want := map[string]string{
		Hermes:     "<tool_response>\nError: " + msg + "\n</tool_response>",
		Qwen3Coder: "<tool_response>\nError: " + msg + "\n</tool_response>",
		Llama3JSON: "Error: " + msg,
		Mistral: `[TOOL_RESULTS]{"content": "Error: unknown tool \"x\"; the only tool is \"calculator\"", ` +
			`"call_id": "c9"}[/TOOL_RESULTS]`,
		GptOss:   "<|start|>functions.x to=assistant<|channel|>commentary<|message|>Error: " + msg + "<|end|>",
		DeepSeek: "<｜tool▁output▁begin｜>Error: " + msg + "<｜tool▁output▁end｜>",
	}
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			f, _ := FormatByName(name)
			w, ok := want[name]
			if !ok {
				t.Fatalf("no expected rendering for format %s", name)
			}
			if got := f.RenderResult(call, content); got != w {
				t.Fatalf("got\n%q, want\n%q", got, w)
			}
		})
	}
}

func TestRenderResults(t *testing.T) {
	two := []Result{
		{Call: core.ToolCall{ID: "call_1_0", Name: "calculator"}, Content: "3"},
		{Call: core.ToolCall{ID: "call_1_1", Name: "lookup"}, Content: "Error: boom"},
	}
	tests := []struct {
		format string
		want   string
	}{
		{Hermes, "<tool_response>\n3\n</tool_response>\n<tool_response>\nError: boom\n</tool_response>"},
		{Qwen3Coder, "<tool_response>\n3\n</tool_response>\n<tool_response>\nError: boom\n</tool_response>"},
		{Llama3JSON, "3\nError: boom"},
		{Mistral, `[TOOL_RESULTS]{"content": 3, "call_id": "call_1_0"}[/TOOL_RESULTS]` +
			`[TOOL_RESULTS]{"content": "Error: boom", "call_id": "call_1_1"}[/TOOL_RESULTS]`},
		{GptOss, "<|start|>functions.calculator to=assistant<|channel|>commentary<|message|>3<|end|>" +
			"<|start|>functions.lookup to=assistant<|channel|>commentary<|message|>Error: boom<|end|>"},
		{DeepSeek, "<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>3<｜tool▁output▁end｜>\n" +
			"<｜tool▁output▁begin｜>Error: boom<｜tool▁output▁end｜><｜tool▁outputs▁end｜>"},
	}
	if len(tests) != len(Names()) {
		t.Fatalf("%d formats tested, %d known", len(tests), len(Names()))
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			f, err := FormatByName(tt.format)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.RenderResults(two); got != tt.want {
				t.Fatalf("got\n%q, want\n%q", got, tt.want)
			}
			if got := f.RenderResults(nil); got != "" {
				t.Fatalf("no results: %q", got)
			}
		})
	}
}

func TestResultHint(t *testing.T) {
	tests := []struct{ format, want string }{
		{Hermes, "in <tool_response></tool_response> tags"},
		{Qwen3Coder, "in <tool_response></tool_response> tags"},
		{Llama3JSON, "in the ipython (tool) turn after your call"},
		{Mistral, "in [TOOL_RESULTS][/TOOL_RESULTS] blocks"},
		{GptOss, "in a commentary message from functions.calculator"},
		{DeepSeek, "between <｜tool▁output▁begin｜> and <｜tool▁output▁end｜>"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			f, err := FormatByName(tt.format)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.ResultHint("calculator"); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// checkJSONHelpers checks the fast paths of Mistral's results against
// encoding/json and jsonText: isJSONText is json.Valid, quoted is jsonText
// of a string.
func checkJSONHelpers(t *testing.T, s string) {
	t.Helper()
	if got, want := isJSONText(s), json.Valid([]byte(s)); got != want {
		t.Fatalf("isJSONText(%q) = %v, json.Valid says %v", s, got, want)
	}
	markers := []string{ToolCallsTag, resultsTag, resultsCloseTag}
	if got, want := quoted(s, markers...), jsonText(s, false, markers...); got != want {
		t.Fatalf("quoted(%q) = %q, jsonText gives %q", s, got, want)
	}
}

func TestJSONHelpersOfResults(t *testing.T) {
	for _, s := range []string{"", "42", " 42\n", "-0.5e3", "01", "1.", "true", "nul", "null", `"a"`, `"a`,
		`{"a": [1, {"b": null}]}`, `{"a": 1,}`, "[1, 2]", "[", "Error: x", special, errorMsg, object, "a\u2028b",
		"x[TOOL_RESULTS]y", "\x7f", "é", "\xff", "42 43"} {
		t.Run(s, func(t *testing.T) { checkJSONHelpers(t, s) })
	}
}

func FuzzJSONHelpersOfResults(f *testing.F) {
	for _, s := range []string{"", "42", `{"a": [1]}`, "Error: division by zero", `"q\""`, "[/TOOL_RESULTS]"} {
		f.Add(s)
	}
	f.Fuzz(checkJSONHelpers)
}
