package main

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// decodeNumbers decodes JSON keeping each number's text.
func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

// TestAppendJSONNumbersMatchEncodingJSON checks the JSON writer against
// encoding/json on the values infos and metadata hold, numbers written the
// same way.
func TestAppendJSONNumbersMatchEncodingJSON(t *testing.T) {
	half, big := 0.5, 1e21
	s := "x\"\n\u2028é"
	tests := []struct {
		name string
		v    any
	}{
		{"whole float", 1.0}, {"zero", 0.0}, {"negative zero", math.Copysign(0, -1)}, {"fraction", 0.1},
		{"million", 1e6}, {"1e20", 1e20}, {"1e21", 1e21}, {"tiny", 1e-7}, {"small", 1.5e-6}, {"negative", -2.25},
		{"pointers", []any{&half, &big, (*float64)(nil), &s, (*string)(nil)}},
		{"map sorted", map[string]any{"b": 1, "a": []any{true, false, nil}, "c": map[string]any{"z": "y", "é": 2}}},
		{"ints", []any{int64(-1 << 62), 3}},
		{"other types", map[string]any{"m": map[string]int{"a": 1}, "s": []string{"p", "q"}}},
		{"nil map", map[string]any(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			got := appendJSON(nil, tt.v)
			// Same values, numbers written the same way (strings may escape differently).
			if !reflect.DeepEqual(decodeNumbers(t, got), decodeNumbers(t, want)) {
				t.Fatalf("appendJSON = %s, want %s", got, want)
			}
		})
	}
	if got := string(appendNumber(nil, math.NaN())); got != "null" {
		t.Fatalf("NaN = %s", got)
	}
}
