// Package strictcfg decodes configuration mappings strictly: every key must
// name a field, every value must have the field's type, and a mistake is a
// typed error that names the bad key, the nearest valid one and all valid
// ones, worded for a Python user.
package strictcfg

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

// Decode copies the keys of cfg into the struct pointed to by dst,
// matching them against the fields' `json` tags. An unknown key is an error
// that names the nearest valid key; a value of the wrong type is an error
// that names the field and the type it needs. Fields absent from cfg keep
// the values dst already holds (its defaults). what names the thing being
// configured in messages, e.g. "leg_counting config".
func Decode(what string, cfg map[string]any, dst any) error {
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
			return UnknownKey(what, k, names)
		}
		if err := assign(v.Field(i), cfg[k]); err != nil {
			if what == "" { // a nested mapping: the caller names where it is
				return fmt.Errorf("field %q: %w", k, err)
			}
			return fmt.Errorf("%s: field %q: %w", what, k, err)
		}
	}
	return nil
}

// UnknownKeyError is a key that is not one of the valid keys of what is
// being configured.
type UnknownKeyError struct {
	// What names the thing being configured, e.g. "leg_counting config".
	What string
	// Key is the unknown key.
	Key string
	// Suggestion is the valid key nearest to Key, "" when none is close.
	Suggestion string
	// Valid lists the valid keys, sorted.
	Valid []string
}

// UnknownKey returns the error for key, which is not one of valid, with
// the nearest valid key as its suggestion.
func UnknownKey(what, key string, valid []string) *UnknownKeyError {
	sorted := sortedCopy(valid)
	return &UnknownKeyError{What: what, Key: key, Suggestion: Nearest(key, sorted), Valid: sorted}
}

// Error reads, e.g., "leg_counting config: unknown key 'min_animal'; did
// you mean 'min_animals'? Valid keys: ['max_animals', 'min_animals']".
func (e *UnknownKeyError) Error() string {
	var b strings.Builder
	if e.What != "" {
		b.WriteString(e.What)
		b.WriteString(": ")
	}
	b.WriteString("unknown key ")
	b.WriteString(pycompat.Repr(e.Key))
	writeHint(&b, e.Suggestion)
	b.WriteString(" Valid keys: ")
	b.WriteString(pycompat.ReprStrings(e.Valid))
	return b.String()
}

// NotFoundError is a name that names nothing registered: an extractor, an
// adapter or a task.
type NotFoundError struct {
	// Context says where the name was given, e.g. "answer_extractors[0]";
	// it may be empty.
	Context string
	// Noun is what the name should have named, e.g. "extractor".
	Noun string
	// Name is the unknown name.
	Name string
	// Problem completes the sentence, e.g. "not found".
	Problem string
	// Suggestion is the valid name nearest to Name, "" when none is close.
	Suggestion string
	// Valid lists the names available, sorted.
	Valid []string
}

// NotFound returns the error for name, a noun (e.g. "extractor") that is
// not one of valid, with the nearest valid name as its suggestion. problem
// completes the sentence: "not found", "not registered".
func NotFound(noun, name, problem string, valid []string) *NotFoundError {
	sorted := sortedCopy(valid)
	return &NotFoundError{Noun: noun, Name: name, Problem: problem, Suggestion: Nearest(name, sorted), Valid: sorted}
}

// Error reads, e.g., "extractor 'tagbased' not found; did you mean
// 'tag_based'? Available: ['boxed', 'tag_based']".
func (e *NotFoundError) Error() string {
	var b strings.Builder
	if e.Context != "" {
		b.WriteString(e.Context)
		b.WriteString(": ")
	}
	b.WriteString(e.Noun)
	b.WriteByte(' ')
	b.WriteString(pycompat.Repr(e.Name))
	b.WriteByte(' ')
	b.WriteString(e.Problem)
	writeHint(&b, e.Suggestion)
	b.WriteString(" Available: ")
	b.WriteString(pycompat.ReprStrings(e.Valid))
	return b.String()
}

// sortedCopy returns the names sorted, never nil: an empty list says that
// nothing is valid.
func sortedCopy(names []string) []string {
	out := make([]string, len(names))
	copy(out, names)
	sort.Strings(out)
	return out
}

// writeHint ends a sentence with "; did you mean 'x'?" when there is a
// suggestion, else with ".".
func writeHint(b *strings.Builder, suggestion string) {
	if suggestion == "" {
		b.WriteByte('.')
		return
	}
	b.WriteString("; did you mean ")
	b.WriteString(pycompat.Repr(suggestion))
	b.WriteByte('?')
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
		if f.OverflowInt(n) {
			return fmt.Errorf("want an integer of at most %d bits, got %d, which is out of range", f.Type().Bits(), n)
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
			return fmt.Errorf("want a bool, got %s", Describe(raw))
		}
		f.SetBool(b)
	case reflect.String:
		s, ok := raw.(string)
		if !ok {
			return fmt.Errorf("want a string, got %s", Describe(raw))
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
			return fmt.Errorf("want a list, got %s", Describe(raw))
		}
		s := reflect.MakeSlice(f.Type(), len(items), len(items))
		for i, it := range items {
			if err := assign(s.Index(i), it); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
		f.Set(s)
	case reflect.Struct:
		m, ok := raw.(map[string]any)
		if !ok {
			return fmt.Errorf("want a mapping, got %s", Describe(raw))
		}
		return Decode("", m, f.Addr().Interface())
	case reflect.Map, reflect.Interface:
		if raw == nil {
			f.SetZero()
			return nil
		}
		rv := reflect.ValueOf(raw)
		if !rv.Type().AssignableTo(f.Type()) {
			return fmt.Errorf("want %s, got %s", f.Type(), Describe(raw))
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
	return 0, fmt.Errorf("want an integer, got %s", Describe(raw))
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
	return 0, fmt.Errorf("want a number, got %s", Describe(raw))
}

// Describe names a decoded JSON value for an error message: "null", "the
// string 'x'", "a list" and so on.
func Describe(raw any) string {
	switch x := raw.(type) {
	case nil:
		return "null"
	case string:
		return "the string " + pycompat.Repr(x)
	case bool:
		if x {
			return "the bool True"
		}
		return "the bool False"
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%v (%T)", raw, raw)
}
