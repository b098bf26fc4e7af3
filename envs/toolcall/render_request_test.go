package toolcall

import (
	"cmp"
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
		{"call, default format", map[string]any{"call": call},
			"<tool_call>\n{\"name\": \"calculator\", \"arguments\": {\"expression\": \"6 * 7\"}}\n</tool_call>", ""},
		{"call without arguments", map[string]any{"format": "mistral", "call": map[string]any{"name": "now"}},
			`[TOOL_CALLS][{"name": "now", "arguments": {}}]`, ""},
		{"results, hermes", map[string]any{"results": []any{ok, bad}},
			"<tool_response>\n42\n</tool_response>\n<tool_response>\nError: division by zero\n</tool_response>", ""},
		{"results, mistral", map[string]any{"format": "mistral", "results": []any{ok}},
			`[TOOL_RESULTS]{"content": 42, "call_id": "call_1_0"}[/TOOL_RESULTS]`, ""},
		{"no results", map[string]any{"format": "deepseek", "results": []any{}}, "", ""},
		{"neither", map[string]any{"format": "hermes"}, "", `give "call"`},
		{"both", map[string]any{"call": call, "results": []any{}}, "", "not both"},
		{"unknown format", map[string]any{"format": "hermez", "call": call}, "", "did you mean 'hermes'"},
		{"unknown status", map[string]any{"results": []any{map[string]any{"status": "done"}}}, "",
			"status must be one of"},
		{"unknown key in a result", map[string]any{"results": []any{map[string]any{"outptu": "1"}}}, "",
			"did you mean 'output'"},
		{"call not a mapping", map[string]any{"call": "calculator"}, "", "want a mapping"},
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
// it: an error or a text, never a panic; a rendered call parses back.
func FuzzRenderText(f *testing.F) {
	f.Add(`{"format": "mistral", "results": [{"call_id": "a", "tool_name": "x", "status": "success", "output": "4"}]}`)
	f.Add(`{"format": "gpt_oss", "call": {"id": "1", "name": "calc", "arguments": {"e": [1, {"a": null}]}}}`)
	f.Add(`{"format": "deepseek", "results": [{"status": "error", "error": "` + "\u2581" + `"}]}`)
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
		if err != nil || r.Call == nil || r.Call.Name == "" || !utf8.ValidString(s) {
			return
		}
		f, _ := FormatByName(cmp.Or(r.Format, DefaultName))
		if calls, _ := f.Parse(text, "c", 4); len(calls) == 0 {
			t.Errorf("%s: the rendered call %q parses to no call", f.Name(), text)
		}
	})
}
