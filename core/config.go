package core

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
)

// DecodeStrict copies the keys of cfg into the struct pointed to by dst,
// matching them against the fields' `json` tags. An unknown key is an error
// that names the nearest valid key; a value of the wrong type is an error
// that names the field and the type it needs. Fields absent from cfg keep
// the values dst already holds (its defaults). what names the thing being
// configured in messages, e.g. "leg_counting config".
func DecodeStrict(what string, cfg map[string]any, dst any) error {
	v := reflect.ValueOf(dst).Elem()
	t := v.Type()
	fields := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
		if tag != "" && tag != "-" {
			fields[tag] = i
		}
	}
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i, ok := fields[k]
		if !ok {
			names := make([]string, 0, len(fields))
			for n := range fields {
				names = append(names, n)
			}
			return UnknownKeyError(what, k, names)
		}
		if err := assign(v.Field(i), cfg[k]); err != nil {
			return fmt.Errorf("%s: field %q: %w", what, k, err)
		}
	}
	return nil
}

// UnknownKeyError is the error for a key that is not one of valid: it
// suggests the nearest valid key and lists them all.
func UnknownKeyError(what, key string, valid []string) error {
	sorted := append([]string(nil), valid...)
	sort.Strings(sorted)
	msg := fmt.Sprintf("%s: unknown key %q", what, key)
	if near := Nearest(key, sorted); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	return fmt.Errorf("%s (valid keys: %s)", msg, strings.Join(sorted, ", "))
}

// Nearest returns the candidate closest to s by edit distance, or "" when
// none is close enough to be a plausible typo.
func Nearest(s string, candidates []string) string {
	best, bestD := "", math.MaxInt
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), strings.ToLower(c))
		if d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	limit := max(2, len(s)/3)
	if bestD <= limit || (best != "" && (strings.Contains(best, s) || strings.Contains(s, best))) {
		return best
	}
	return ""
}

// Close returns the candidates within a plausible-typo distance of s,
// nearest first, at most n of them.
func Close(s string, candidates []string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	limit := max(2, len(s)/3)
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), strings.ToLower(c))
		if d <= limit || strings.Contains(c, s) {
			cs = append(cs, cand{c, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	out := []string{}
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func assign(f reflect.Value, raw any) error {
	switch f.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		n, err := AsInt(raw)
		if err != nil {
			return err
		}
		f.SetInt(n)
	case reflect.Float64:
		x, err := AsFloat(raw)
		if err != nil {
			return err
		}
		f.SetFloat(x)
	case reflect.Bool:
		b, ok := raw.(bool)
		if !ok {
			return fmt.Errorf("want a bool, got %s", describe(raw))
		}
		f.SetBool(b)
	case reflect.String:
		s, ok := raw.(string)
		if !ok {
			return fmt.Errorf("want a string, got %s", describe(raw))
		}
		f.SetString(s)
	case reflect.Pointer:
		if raw == nil {
			f.SetZero()
			return nil
		}
		p := reflect.New(f.Type().Elem())
		if err := assign(p.Elem(), raw); err != nil {
			return err
		}
		f.Set(p)
	case reflect.Slice:
		items, ok := raw.([]any)
		if !ok {
			return fmt.Errorf("want a list, got %s", describe(raw))
		}
		s := reflect.MakeSlice(f.Type(), len(items), len(items))
		for i, it := range items {
			if err := assign(s.Index(i), it); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
		f.Set(s)
	case reflect.Map, reflect.Interface:
		if raw == nil {
			f.SetZero()
			return nil
		}
		rv := reflect.ValueOf(raw)
		if !rv.Type().AssignableTo(f.Type()) {
			return fmt.Errorf("want %s, got %s", f.Type(), describe(raw))
		}
		f.Set(rv)
	default:
		return fmt.Errorf("unsupported field kind %s", f.Kind())
	}
	return nil
}

// AsInt converts a decoded JSON number to an int64, refusing fractions,
// booleans and values outside int64.
func AsInt(raw any) (int64, error) {
	switch x := raw.(type) {
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case float64:
		if x != math.Trunc(x) || math.IsInf(x, 0) || math.IsNaN(x) || math.Abs(x) > 1<<62 {
			return 0, fmt.Errorf("want an integer, got %v", x)
		}
		return int64(x), nil
	}
	return 0, fmt.Errorf("want an integer, got %s", describe(raw))
}

// AsFloat converts a decoded JSON number to a float64.
func AsFloat(raw any) (float64, error) {
	switch x := raw.(type) {
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case float64:
		return x, nil
	}
	return 0, fmt.Errorf("want a number, got %s", describe(raw))
}

func describe(raw any) string {
	switch x := raw.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the bool %v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%v (%T)", raw, raw)
}
