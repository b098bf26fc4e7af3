package strictcfg

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// fuzzConfig has a field of every kind Decode supports.
type fuzzConfig struct {
	Size     int            `json:"size"`
	Seed     *int64         `json:"seed"`
	Weight   float64        `json:"weight"`
	Strip    bool           `json:"strip"`
	Name     string         `json:"name"`
	Limit    *float64       `json:"limit"`
	Words    []string       `json:"words"`
	Ints     []int32        `json:"ints"`
	Nested   [][]float64    `json:"nested"`
	Config   map[string]any `json:"config"`
	Anything any            `json:"anything"`
	Skipped  int            `json:"-"`
}

// FuzzDecode decodes arbitrary JSON objects into fuzzConfig. A decode
// either succeeds, and then every key given set its field to the given
// value (integers stay integers, defaults stay where no key was given), or
// fails with an error that names the offending key.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"size": 500, "seed": 42, "weight": 0.5, "strip": true, "name": "leg_counting"}`,
		`{"words": ["a", "b"], "ints": [1, 2, 3], "nested": [[1.5], []], "config": {"k": [1]}, "anything": null}`,
		`{"size": 1.5}`, `{"size": 1e300}`, `{"size": -9223372036854775808}`, `{"size": true}`, `{"seed": null}`,
		`{"ints": [2147483648]}`, `{"sise": 1}`, `{"": 0}`, `{"-": 1}`, `{"Size": 1}`, `{"words": "a"}`,
		`{"config": []}`, `{"limit": "NaN"}`, `{"nested": [[null]]}`, `{"skipped": 3}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var cfg map[string]any
		if json.Unmarshal([]byte(src), &cfg) != nil || cfg == nil {
			return
		}
		c := fuzzConfig{Size: 7, Weight: 1, Name: "default"}
		err := Decode("fuzz config", cfg, &c)
		if err != nil {
			msg := err.Error()
			var uk *UnknownKeyError
			if errors.As(err, &uk) {
				if _, ok := cfg[uk.Key]; !ok || len(uk.Valid) == 0 {
					t.Fatalf("unknown key %q is not in the config, or no valid keys: %v", uk.Key, uk)
				}
				if uk.Suggestion != "" && !contains(uk.Valid, uk.Suggestion) {
					t.Fatalf("suggestion %q is not a valid key %v", uk.Suggestion, uk.Valid)
				}
			} else if !strings.HasPrefix(msg, "fuzz config: field \"") {
				t.Fatalf("error %q does not name the field", msg)
			}
			return
		}
		// Success: each given key holds its value; the others their defaults.
		v := reflect.ValueOf(c)
		for i := 0; i < v.NumField(); i++ {
			tag := v.Type().Field(i).Tag.Get("json")
			raw, given := cfg[tag]
			if !given {
				continue
			}
			if !sameValue(v.Field(i), raw) {
				t.Fatalf("key %q: decoded %v from %v", tag, v.Field(i), raw)
			}
		}
		if _, given := cfg["size"]; !given && c.Size != 7 {
			t.Fatalf("default size lost: %d", c.Size)
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sameValue says whether field f holds the decoded JSON value raw.
func sameValue(f reflect.Value, raw any) bool {
	switch f.Kind() {
	case reflect.Pointer:
		if raw == nil {
			return f.IsNil()
		}
		return !f.IsNil() && sameValue(f.Elem(), raw)
	case reflect.Int, reflect.Int32, reflect.Int64:
		x, ok := raw.(float64)
		return ok && float64(f.Int()) == x
	case reflect.Float64:
		x, ok := raw.(float64)
		return ok && f.Float() == x
	case reflect.Slice:
		items, ok := raw.([]any)
		if !ok || len(items) != f.Len() {
			return false
		}
		for i, it := range items {
			if !sameValue(f.Index(i), it) {
				return false
			}
		}
		return true
	case reflect.Map, reflect.Interface:
		if raw == nil {
			return f.IsNil()
		}
		return reflect.DeepEqual(f.Interface(), raw)
	}
	return reflect.DeepEqual(f.Interface(), raw)
}

// FuzzNearest checks the typo suggestion: it is "" or one of the
// candidates, and an exact candidate is its own suggestion.
func FuzzNearest(f *testing.F) {
	f.Add("min_animal", "min_animals,max_animals,seed")
	f.Add("tagbased", "tag_based,boxed,regex")
	f.Add("", ",x")
	f.Add("\xff\xfe", "\u00e9,e")
	f.Fuzz(func(t *testing.T, s, list string) {
		if len(s) > 200 || len(list) > 2000 {
			return // edit distance is quadratic; names are short
		}
		cands := strings.Split(list, ",")
		got := Nearest(s, cands)
		if got != "" && !contains(cands, got) {
			t.Fatalf("Nearest(%q, %q) = %q, not a candidate", s, cands, got)
		}
		if contains(cands, s) && s != "" && strings.ToLower(got) != strings.ToLower(s) {
			t.Fatalf("Nearest(%q, %q) = %q, but %q is a candidate", s, cands, got, s)
		}
		e := UnknownKey("x", s, cands)
		if !strings.Contains(e.Error(), "unknown key") {
			t.Fatalf("message %q", e.Error())
		}
	})
}
