package toolcall

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

// jsonSeeds are texts at the edges of what encoding/json accepts.
var jsonSeeds = []string{
	`{"expression": "3 * 3 + 7"}`, `{"a": 1, "a": {"b": [1, 2.5e-3, -0, true, false, null]}}`, `[]`, `{}`,
	`"\ud83d\ude00 \ud800 \udc00 \ud800\u0041 \u00e9"`, "\"\xff\xed\xa0\x80 ok\"", `"\/\b\f\n\r\t\\\""`,
	`01`, `-`, `1.`, `1e`, `1e+5`, `-0.5E-7`, `tru`, `true x`, `nul`, ` {"a" : [ 1 , 2 ] } `, `{"a":1,}`, `[1,]`,
	`{"a"}`, `"a` + "\x01" + `"`, `"\x"`, `"\u12"`, `{"Name": "f", "ARGUMENTS": {"x": 1}}`, `{"name": 3}`,
	`{"name": null, "arguments": null}`, `{"name": "f", "arguments": "{\"x\": 1} tail"}`, `{"name": "f"} }`,
	`{"name": "f"} {}`, `{"na\u006de": "f", "argumentſ": {}}`, `{"name": "f", "arguments": "\"{}\""}`,
}

// deepSeeds are nested at encoding/json's depth limit and one past it (too
// slow to mutate as fuzz seeds).
var deepSeeds = []string{
	strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth),
	strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
	`{"a":` + strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1) + `}`,
	`{"a":` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + `}`,
	`{"name": "f", "arguments": "` + strings.Repeat("[", maxDepth) + `"}`,
}

// useNumber decodes the first value of s as a Decoder with UseNumber does:
// the value and the offset after it.
func useNumber(s string) (any, int, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, int(dec.InputOffset()), err
}

func checkValue(t *testing.T, s string) {
	t.Helper()
	want, wantEnd, err := useNumber(s)
	i := skipSpace(s, 0)
	got, end, ok := readValue(s, i, 0)
	if ok != (err == nil) {
		t.Fatalf("%q: read ok %v, encoding/json error %v", s, ok, err)
	}
	skipEnd, skipOK := skipValue(s, i, 0)
	if skipOK != ok {
		t.Fatalf("%q: skip ok %v, read ok %v", s, skipOK, ok)
	}
	if !ok {
		return
	}
	if !reflect.DeepEqual(got, want) || end != wantEnd || skipEnd != end {
		t.Fatalf("%q: read %#v to %d (skip to %d), encoding/json %#v to %d", s, got, end, skipEnd, want, wantEnd)
	}
	raw, rest, err := nextValue(s)
	if err != nil || raw != s[i:end] || rest != s[end:] {
		t.Fatalf("%q: nextValue %q %q %v", s, raw, rest, err)
	}
}

func checkCall(t *testing.T, body string) {
	t.Helper()
	if got, want := decode("c0", body), decodeSlow(Call{Call: core.ToolCall{ID: "c0", Arguments: map[string]any{}}}, body); !reflect.DeepEqual(got, want) {
		t.Fatalf("decode(%q) = %#v, encoding/json %#v", body, got, want)
	}
	got := callObject(body, "the call", "parameters", "arguments")
	if want := callObjectSlow(body, "the call", "parameters", "arguments"); !reflect.DeepEqual(got, want) {
		t.Fatalf("callObject(%q) = %#v, encoding/json %#v", body, got, want)
	}
	if raw := strings.TrimSpace(body); raw != "" && raw != "null" {
		got, err := argumentsOf(raw)
		want, wantErr := argumentsSlow(raw)
		if !reflect.DeepEqual(got, want) || (err == nil) != (wantErr == nil) ||
			(err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("argumentsOf(%q) = %#v, %v; encoding/json %#v, %v", raw, got, err, want, wantErr)
		}
	}
	if items, ok := elements(body); ok {
		var want []json.RawMessage
		if err := json.Unmarshal([]byte(body), &want); err != nil || len(want) != len(items) {
			t.Fatalf("elements(%q) = %q, encoding/json %q %v", body, items, want, err)
		}
		for i := range items {
			if items[i] != string(want[i]) {
				t.Fatalf("elements(%q) = %q, encoding/json %q", body, items, want)
			}
		}
	}
}

// TestJSONText holds the reader to encoding/json on the edge cases.
func TestJSONText(t *testing.T) {
	for _, s := range append(jsonSeeds, deepSeeds...) {
		checkValue(t, s)
		checkCall(t, s)
		checkCall(t, `{"name": "f", "arguments": `+s+`}`)
	}
}

// FuzzJSONValue holds the reader of values to encoding/json's Decoder with
// UseNumber: the same texts accepted, the same values, the same ends.
func FuzzJSONValue(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkValue(t, s) })
}

// FuzzJSONCall holds the readers of a call's JSON object (Hermes' body, the
// JSON formats' objects, the arguments, Mistral's array) to encoding/json.
func FuzzJSONCall(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkCall(t, s) })
}
