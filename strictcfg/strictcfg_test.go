package strictcfg

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

func TestErrorMessages(t *testing.T) {
	nf := NotFound("extractor", "boxd", "not found", []string{"tag_based", "boxed"})
	located := *nf
	located.Context = "answer_extractors[0]"
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"unknown key with a suggestion", UnknownKey("leg_counting config", "min_animal", []string{"min_animals", "max_animals"}),
			"leg_counting config: unknown key 'min_animal'; did you mean 'min_animals'? Valid keys: ['max_animals', 'min_animals']"},
		{"unknown key without one", UnknownKey("x config", "zzzzzz", []string{"b", "a"}),
			"x config: unknown key 'zzzzzz'. Valid keys: ['a', 'b']"},
		{"nothing valid", UnknownKey("last_line extractor config", "k", nil),
			"last_line extractor config: unknown key 'k'. Valid keys: []"},
		{"quote in the key", UnknownKey("c", "it's", nil), `c: unknown key "it's". Valid keys: []`},
		{"not found", nf, "extractor 'boxd' not found; did you mean 'boxed'? Available: ['boxed', 'tag_based']"},
		{"not found, located", &located,
			"answer_extractors[0]: extractor 'boxd' not found; did you mean 'boxed'? Available: ['boxed', 'tag_based']"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	type part struct {
		A string `json:"a"`
	}
	type cfg struct {
		N     int      `json:"n"`
		I32   []int32  `json:"i32"`
		X     float64  `json:"x"`
		S     string   `json:"s"`
		L     []string `json:"l"`
		Skip  int      `json:"-"`
		P     *part    `json:"p"`
		Parts []part   `json:"parts"`
	}
	tests := []struct {
		name    string
		in      map[string]any
		want    cfg
		wantKey string // the unknown key, for an *UnknownKeyError
		wantErr bool
	}{
		{"defaults kept", map[string]any{}, cfg{N: 1}, "", false},
		{"fields set", map[string]any{"n": int64(3), "x": 2.5, "s": "a", "l": []any{"p"}}, cfg{N: 3, X: 2.5, S: "a", L: []string{"p"}}, "", false},
		{"integral float", map[string]any{"n": 4.0}, cfg{N: 4}, "", false},
		{"fraction refused", map[string]any{"n": 4.5}, cfg{}, "", true},
		{"wrong type", map[string]any{"s": 1.0}, cfg{}, "", true},
		{"unknown key", map[string]any{"nn": 1.0}, cfg{}, "nn", true},
		{"tagged out", map[string]any{"Skip": 1.0}, cfg{}, "Skip", true},
		{"int32 in range", map[string]any{"i32": []any{int64(-2147483648), 2147483647.0}}, cfg{N: 1, I32: []int32{-2147483648, 2147483647}}, "", false},
		{"int32 out of range", map[string]any{"i32": []any{int64(2147483648)}}, cfg{}, "", true},
		{"nested struct", map[string]any{"p": map[string]any{"a": "x"}, "parts": []any{map[string]any{"a": "y"}}},
			cfg{N: 1, P: &part{A: "x"}, Parts: []part{{A: "y"}}}, "", false},
		{"nested unknown key", map[string]any{"parts": []any{map[string]any{"b": "y"}}}, cfg{}, "b", true},
		{"nested not a mapping", map[string]any{"p": "x"}, cfg{}, "", true},
	}
	t.Run("nested error message", func(t *testing.T) {
		err := Decode("test config", map[string]any{"parts": []any{map[string]any{"a": 1.0}}}, &cfg{})
		want := `test config: field "parts": item 0: field "a": want a string, got 1 (float64)`
		if err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cfg{N: 1}
			err := Decode("test config", tt.in, &got)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, tt.wantErr)
			}
			var uk *UnknownKeyError
			if isUK := errors.As(err, &uk); isUK != (tt.wantKey != "") || (isUK && uk.Key != tt.wantKey) {
				t.Errorf("err = %#v, want an *UnknownKeyError for %q", err, tt.wantKey)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestNearest(t *testing.T) {
	for _, tt := range []struct{ s, want string }{
		{"sead", "seed"}, {"tagbased", "tag_based"}, {"qqqqqqqq", ""}, {"min_animal", "min_animals"},
	} {
		if got := Nearest(tt.s, []string{"seed", "tag_based", "min_animals", "size"}); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func ExampleUnknownKey() {
	fmt.Println(UnknownKey("gcd config", "max_vaule", []string{"max_value", "min_value"}))
	// Output: gcd config: unknown key 'max_vaule'; did you mean 'max_value'? Valid keys: ['max_value', 'min_value']
}
