package toolcall

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

// fuzzFormat checks one format on arbitrary text: no panic, at most limit
// calls with ids in order, each named or carrying an error, "more" only at
// the limit, no call from text without the format's markers (triggered
// reports whether text has them); and that a call built from the fuzzed
// name, key and value reads back from its rendering unchanged.
func fuzzFormat(f *testing.F, format string, seeds []string, triggered func(string) bool) {
	fm, err := FormatByName(format)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s, 3, "calculator", "expression", "12 * (3 + 4)", int64(7))
	}
	for _, c := range renderCalls {
		f.Add(fm.Render(c), 2, c.Name, "k", "v", int64(-1))
	}
	f.Fuzz(func(t *testing.T, text string, limit int, name, key, value string, n int64) {
		limit = (limit%10 + 10) % 10
		calls, more := fm.Parse(text, "call_", limit)
		if len(calls) > limit {
			t.Fatalf("%d calls over the limit %d", len(calls), limit)
		}
		if !triggered(text) && (len(calls) > 0 || more) {
			t.Fatalf("calls %+v from text without a %s marker", calls, format)
		}
		if more && len(calls) != limit {
			t.Fatalf("more with %d calls under the limit %d", len(calls), limit)
		}
		for k, c := range calls {
			if want := fmt.Sprintf("call_%d", k); c.Call.ID != want {
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

		call := core.ToolCall{Name: identifier(name), Arguments: map[string]any{
			identifier(key): strings.ToValidUTF8(value, ""),
			"n":             json.Number(strconv.FormatInt(n, 10)),
			"o":             map[string]any{strings.ToValidUTF8(key, ""): []any{strings.ToValidUTF8(value, ""), nil, true}},
		}}
		text = fm.Render(call)
		for _, prefix := range []string{"", "call_"} {
			calls, more = fm.Parse(text, prefix, 1)
			if len(calls) != 1 || more || calls[0].Err != "" || calls[0].Call.Name != call.Name ||
				calls[0].Call.ID != prefix+"0" || !reflect.DeepEqual(calls[0].Call.Arguments, call.Arguments) {
				t.Fatalf("Parse(Render(%+v)) = %+v, %v\n%s", call, calls, more, text)
			}
		}
	})
}

// identifier keeps the letters, digits and "_" of s, "f" when none.
func identifier(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
	if s == "" || s == "n" || s == "o" {
		return "f" + s
	}
	return s
}

func FuzzParseHermes(f *testing.F) {
	fuzzFormat(f, Hermes, []string{
		`<tool_call>{"name": "calculator", "arguments": {"expression": "2+2"}}</tool_call>`,
		`<tool_call>{"name": "a"`, `</tool_call><tool_call>`, "", "no calls here",
	}, func(s string) bool { return strings.Contains(s, OpenTag) })
}

func FuzzParseQwen3Coder(f *testing.F) {
	fuzzFormat(f, Qwen3Coder, []string{
		"<tool_call>\n<function=calculator>\n<parameter=expression>\n1+1\n</parameter>\n</function>\n</tool_call>",
		"<function=a><parameter=x>{\"k\": [1]}</parameter></function><function=b>",
		"<tool_call>\n<function=f>\n<parameter=x>\n1\n", "<function=>", "<parameter=x>1</parameter>", "</tool_call>",
	}, func(s string) bool { return strings.Contains(s, OpenTag) || strings.Contains(s, qcFunction) })
}

func FuzzParseLlama3JSON(f *testing.F) {
	fuzzFormat(f, Llama3JSON, []string{
		`{"name": "calculator", "parameters": {"expression": "1+1"}}`,
		`{"name": "a", "parameters": {}}; {"name": "b", "arguments": "{}"};`,
		`text<|python_tag|>{"name": "a"}<|eom_id|><|python_tag|>`, `{"name": "a"} x`, `{`, "prose",
	}, func(s string) bool {
		return strings.Contains(s, PythonTag) || strings.HasPrefix(strings.TrimSpace(s), "{")
	})
}

func FuzzParseMistral(f *testing.F) {
	fuzzFormat(f, Mistral, []string{
		`[TOOL_CALLS][{"name": "calculator", "arguments": {"expression": "1+1"}}]`,
		`[TOOL_CALLS]a[ARGS]{}[TOOL_CALLS]b[CALL_ID]123456789[ARGS]{"x": 1}`,
		`[TOOL_CALLS][`, `[TOOL_CALLS][ARGS]`, `[TOOL_CALLS]a[ARGS]`, `[TOOL_CALLS][]`,
	}, func(s string) bool { return strings.Contains(s, ToolCallsTag) })
}

func FuzzParseGptOss(f *testing.F) {
	fuzzFormat(f, GptOss, []string{
		`<|channel|>commentary to=functions.calculator <|constrain|>json<|message|>{"expression":"1+1"}<|call|>`,
		`<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>`,
		`<|channel|>analysis<|message|>x<|end|><|start|>assistant<|channel|>final<|message|>y<|return|>`,
		`<|channel|>commentary to=<|message|>`, `to=functions.f<|message|>{}`, `<|message|>{`,
	}, func(s string) bool { return strings.Contains(s, hMessage) })
}

func FuzzParseDeepSeek(f *testing.F) {
	fuzzFormat(f, DeepSeek, []string{
		"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>calculator\n```json\n{\"expression\": \"1+1\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
		"<｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁call▁begin｜>",
		"<｜tool▁call▁begin｜><｜tool▁sep｜><｜tool▁call▁end｜>", "<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```",
	}, func(s string) bool { return strings.Contains(s, dsCallBegin) })
}
