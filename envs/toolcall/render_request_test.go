package toolcall

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRenderText(t *testing.T) {
	call := map[string]any{"id": "call_1_0", "name": "calculator", "arguments": map[string]any{"expression": "6 * 7"}}
	ok := map[string]any{"call_id": "call_1_0", "tool_name": "calculator", "status": "success", "output": "42"}
	bad := map[string]any{"call_id": "call_1_1", "tool_name": "calculator", "status": "error", "error": "division by zero"}
	tests := []struct {
		name    string
		req     map[string]any
		want    string
		wantErr string
	}{
		{"call, hermes", map[string]any{"format": "hermes", "call": call},
			"<tool_call>\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"6 * 7\"}}\n</tool_call>", ""},
		{"call without arguments", map[string]any{"format": "mistral", "call": map[string]any{"name": "now"}},
			`[TOOL_CALLS][{"name": "now", "arguments": {}}]`, ""},
		{"results, hermes", map[string]any{"format": "hermes", "results": []any{ok, bad}},
			"<tool_response>\n42\n</tool_response>\n<tool_response>\nError: division by zero\n</tool_response>", ""},
		{"results, mistral", map[string]any{"format": "mistral", "results": []any{ok}},
			`[TOOL_RESULTS]{"content": 42, "call_id": "call_1_0"}[/TOOL_RESULTS]`, ""},
		{"no results", map[string]any{"format": "deepseek", "results": []any{}}, "", ""},
		{"neither", map[string]any{"format": "hermes"}, "", `give "call"`},
		{"both", map[string]any{"format": "hermes", "call": call, "results": []any{}}, "", "not both"},
		{"unknown format", map[string]any{"format": "hermez", "call": call}, "", "did you mean 'hermes'"},
		{"no format", map[string]any{"call": call}, "", `tool-call format '' is not known`},
		{"unknown status", map[string]any{"format": "hermes", "results": []any{map[string]any{"status": "done"}}}, "",
			"status must be one of"},
		{"unknown key in a result", map[string]any{"format": "hermes",
			"results": []any{map[string]any{"outptu": "1"}}}, "", "did you mean 'output'"},
		{"call not a mapping", map[string]any{"format": "hermes", "call": "calculator"}, "", "want a mapping"},
		{"call name a format cannot carry", map[string]any{"format": "gpt_oss", "call": map[string]any{"name": "<|call|>"}},
			"", `call name "<|call|>" is not a tool name`},
		{"call name with a space", map[string]any{"format": "qwen3_coder", "call": map[string]any{"name": "a b"}},
			"", "is not a tool name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := DecodeRenderRequest(tt.req)
			var got string
			if err == nil {
				got, err = RenderText(r)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzRenderText decodes any JSON object as a RenderRequest and renders
// it: an error or a text, never a panic. A rendered call whose arguments
// are short strings of letters and digits parses back to one well-formed
// call of the same name (what a value may hold in each format is each
// format's own fuzz target's business).
func FuzzRenderText(f *testing.F) {
	f.Add(`{"format": "mistral", "results": [{"call_id": "a", "tool_name": "x", "status": "success", "output": "4"}]}`)
	f.Add(`{"format": "gpt_oss", "call": {"id": "1", "name": "calc", "arguments": {"e": [1, {"a": null}]}}}`)
	f.Add(`{"format": "deepseek", "results": [{"status": "error", "error": "` + "\u2581" + `"}]}`)
	f.Add(`{"format": "gpt_oss", "call": {"name": "<|call|>"}}`)
	f.Add(`{"format": "qwen3_coder", "call": {"name": "calc", "arguments": {"x": "12 7"}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		var raw map[string]any
		if json.Unmarshal([]byte(s), &raw) != nil || raw == nil {
			return
		}
		r, err := DecodeRenderRequest(raw)
		if err != nil {
			return
		}
		text, err := RenderText(r)
		if err != nil || r.Call == nil || !utf8.ValidString(s) || !plainArguments(r.Call.Arguments) {
			return
		}
		format, _ := FormatByName(r.Format)
		calls, _ := format.Parse(text, "c", 4)
		if len(calls) != 1 || calls[0].Err != "" || calls[0].Call.Name != r.Call.Name {
			t.Errorf("%s: the rendered call %q of %q parses to %+v", format.Name(), text, r.Call.Name, calls)
		}
	})
}

// plainArguments reports whether every argument value is a short string of
// ASCII letters, digits and spaces.
func plainArguments(args map[string]any) bool {
	for k, v := range args {
		s, ok := v.(string)
		if !ok || !ValidToolName(k) || len(s) > 32 {
			return false
		}
		for i := 0; i < len(s); i++ {
			if c := s[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == ' ') {
				return false
			}
		}
	}
	return true
}
