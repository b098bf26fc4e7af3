package main

import (
	"encoding/json"
	"testing"

	"github.com/llenvs/llenvs-go/extract"
)

func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		in   any
	}{
		{"plain", "42"},
		{"quotes and escapes", "a\"b\\c\nd\re\tf\x01g"},
		{"unicode", "é – \u2028 𝄞"},
		{"invalid utf8", "a\xffb\xc3"},
		{"map sorted", map[string]any{"b": 1, "a": true, "c": nil, "d": 1.5, "e": []any{"x", int64(-3)}}},
		{"nested", map[string]any{"found": false, "tag_name": "answer", "m": map[string]any{"k": "v"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(appendJSON(nil, tt.in))
			want, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			// encoding/json escapes <, >, & and U+2028/9 for HTML; compare decoded values instead.
			var g, w any
			if err := json.Unmarshal([]byte(got), &g); err != nil {
				t.Fatalf("appendJSON produced invalid JSON %q: %v", got, err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			gb, _ := json.Marshal(g)
			wb, _ := json.Marshal(w)
			if string(gb) != string(wb) {
				t.Errorf("appendJSON(%#v) = %s, want %s", tt.in, got, want)
			}
		})
	}
}

func TestTagFastDescriptionMatchesDescribe(t *testing.T) {
	ex := extract.NewTag("answer", true)
	for _, text := range []string{"<answer> 4 </answer>", "none", "<ANSWER>a</answer><answer>b</answer>"} {
		x := ex.Extract(text)
		got := string(ex.AppendDescription(nil, x, appendJSONString))
		want := string(appendJSON(nil, ex.Describe(x)))
		if got != want {
			t.Errorf("%q: fast %s, want %s", text, got, want)
		}
	}
}

func TestAppendJSONStringReplacesSurrogates(t *testing.T) {
	// A lone surrogate as "surrogatepass" writes it is invalid UTF-8: three U+FFFD, as any invalid bytes.
	if got := string(appendJSONString(nil, "\xed\xa0\x80")); got != `"\ufffd\ufffd\ufffd"` {
		t.Errorf("appendJSONString keeps a surrogate: %q", got)
	}
}

// TestAppendJSONNumbersAsWritten checks that a json.Number (a tool call's
// argument) is written as the codec writes it, its literal unchanged, and
// that validNumber tells one that is no number (which goes through the codec).
func TestAppendJSONNumbersAsWritten(t *testing.T) {
	in := map[string]any{"i": json.Number("12"), "f": json.Number("-0.5E-7"), "z": json.Number("-0"),
		"l": []any{json.Number("1e999"), json.Number("0.10")}}
	want, err := marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendJSON(nil, in); string(got) != string(want) {
		t.Errorf("appendJSON = %s, the codec %s", got, want)
	}
	for _, n := range []string{"1x", "", "01", "-", "1.", "1e"} {
		if validNumber(n) {
			t.Errorf("validNumber(%q) is true", n)
		}
	}
}
