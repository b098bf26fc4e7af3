package toolcall

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParse reads tool calls out of arbitrary model text: at most limit
// calls, ids in order, each call named with decoded arguments or
// carrying an error, and "more" only when another call follows.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`<tool_call>{"name": "calculator", "arguments": {"expression": "2+2"}}</tool_call>`,
		`<tool_call>{"name": "calculator", "arguments": "{\"expression\": \"1/0\"}"}</tool_call> text <tool_call>{"name": "x"}</tool_call>`,
		`<tool_call>{"name": ""}</tool_call>`, `<tool_call>not json</tool_call>`, `<tool_call>{"name": "a"} {}</tool_call>`,
		`<tool_call>{"name": "a", "arguments": [1]}</tool_call>`, `<tool_call>{"name": "a", "arguments": "\"x\""}</tool_call>`,
		`<tool_call>{"name": "a"`, `</tool_call><tool_call>`, `<tool_call>{"name": "a", "arguments": {"n": 1e999}}</tool_call>`,
		strings.Repeat(`<tool_call>{"name": "a"}</tool_call>`, 20), "", "no calls here",
	} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, text string, limit int) {
		limit = (limit%10 + 10) % 10
		calls, more := Parse(text, "call_", limit)
		if len(calls) > limit {
			t.Fatalf("%d calls over the limit %d", len(calls), limit)
		}
		if !strings.Contains(text, OpenTag) && (len(calls) > 0 || more) {
			t.Fatalf("calls %v from text without %s", calls, OpenTag)
		}
		if more && len(calls) != limit {
			t.Fatalf("more with %d calls under the limit %d", len(calls), limit)
		}
		for k, c := range calls {
			if want := "call_" + itoa(k); c.Call.ID != want {
				t.Fatalf("call %d has id %q", k, c.Call.ID)
			}
			if c.Call.Arguments == nil {
				t.Fatalf("call %d has nil arguments", k)
			}
			if c.Err == "" && c.Call.Name == "" {
				t.Fatalf("call %d has neither a name nor an error", k)
			}
			if _, err := json.Marshal(c.Call.Arguments); err != nil {
				t.Fatalf("call %d arguments do not encode: %v", k, err)
			}
		}
	})
}

func itoa(k int) string {
	b, _ := json.Marshal(k)
	return string(b)
}

// FuzzArguments decodes arbitrary "arguments" values: an object (or a
// string holding one) decodes, anything else is an error.
func FuzzArguments(f *testing.F) {
	for _, s := range []string{`{"expression": "2+2"}`, `"{\"a\": 1}"`, `null`, ``, `[1]`, `"x"`, `{"a": {"b": [1, 2]}}`, `1`,
		`"\"{}\""`, `{"a": 1}{"b": 2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		args, err := Arguments(json.RawMessage(raw))
		if err == nil && args == nil {
			t.Fatalf("Arguments(%q): nil map without error", raw)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "invalid arguments") {
			t.Fatalf("Arguments(%q): error %q", raw, err)
		}
	})
}
