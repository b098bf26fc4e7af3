package toolcall

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		limit int
		names []string
		errs  []string
		more  bool
	}{
		{"none", "just text <answer>1</answer>", 5, nil, nil, false},
		{"one", `a <tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call> b`, 5, []string{"f"}, []string{""}, false},
		{"qwen layout", "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>", 5, []string{"f"}, []string{""}, false},
		{"limit", `<tool_call>{"name": "a"}</tool_call><tool_call>{"name": "b"}</tool_call>`, 1, []string{"a"},
			[]string{""}, true},
		{"invalid json", `<tool_call>{"name": </tool_call>`, 5, []string{""}, []string{"not a JSON object"}, false},
		{"trailing", `<tool_call>{"name": "f"} x</tool_call>`, 5, []string{""}, []string{"extra text"}, false},
		{"unclosed", `<tool_call>{"name": "f"}`, 5, []string{""}, []string{"no closing"}, false},
		{"bad arguments", `<tool_call>{"name": "f", "arguments": [1]}</tool_call>`, 5, []string{"f"},
			[]string{"must be a JSON object"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, more := Parse(tt.text, "call_1_", tt.limit)
			if len(calls) != len(tt.names) || more != tt.more {
				t.Fatalf("%d calls, more %v: %+v", len(calls), more, calls)
			}
			for k, c := range calls {
				if c.Call.ID != "call_1_"+string(rune('0'+k)) {
					t.Fatalf("id %q", c.Call.ID)
				}
				if tt.errs[k] == "" && (c.Err != "" || c.Call.Name != tt.names[k]) {
					t.Fatalf("call %d: %+v", k, c)
				}
				if tt.errs[k] != "" && !strings.Contains(c.Err, tt.errs[k]) {
					t.Fatalf("call %d: error %q, want %q", k, c.Err, tt.errs[k])
				}
			}
		})
	}
}

func TestContent(t *testing.T) {
	msg := "boom"
	if got := Content(core.ToolResult{Status: core.ToolError, Error: &msg}); got != "Error: boom" {
		t.Fatal(got)
	}
	if got := Content(core.ToolResult{Status: core.ToolSuccess, Output: "42"}); got != "42" {
		t.Fatal(got)
	}
	if got := Content(core.ToolResult{Status: core.ToolError}); got != "Error" {
		t.Fatal(got)
	}
}

// TestArgumentNumbers checks that numbers in arguments are json.Numbers,
// with or without other values around them.
func TestArgumentNumbers(t *testing.T) {
	for _, raw := range []string{`{"expression": "3 * 3 + 7"}`, `{"a": "x\"1", "b": true, "c": null}`,
		`{"a": "\\", "b": 2}`, `{"n": -1}`, `{"a": [1.5e3]}`, `{}`, `"{\"n\": -1}"`} {
		args, err := Arguments([]byte(raw))
		if err != nil {
			t.Fatalf("Arguments(%s): %v", raw, err)
		}
		if n, ok := args["n"]; ok && n != json.Number("-1") {
			t.Errorf("Arguments(%s): n = %#v, want json.Number(\"-1\")", raw, n)
		}
	}
}
