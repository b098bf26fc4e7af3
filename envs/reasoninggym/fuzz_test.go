package reasoninggym

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

// fuzzItem is one generated item of a native task, scored by the fuzz
// target.
type fuzzItem struct {
	name  string
	task  Task
	entry Entry
}

var (
	fuzzItemsOnce sync.Once
	fuzzItems     []fuzzItem
)

// itemsForFuzz builds every native task with its default config and
// generates its first four items (seed 42).
func itemsForFuzz(tb testing.TB) []fuzzItem {
	fuzzItemsOnce.Do(func() {
		dir := testDataDir(tb)
		for _, name := range Names() {
			var params map[string]any
			if name == "composite" {
				params = map[string]any{"datasets": []any{
					map[string]any{"name": "chain_sum", "weight": 1.0},
					map[string]any{"name": "countdown", "weight": 2.0, "config": map[string]any{"max_numbers": int64(4)}},
				}}
			}
			task, err := NewTask(name, Options{Params: params, DataDir: dir, Seed: 42, Size: 100})
			if err != nil {
				tb.Fatalf("NewTask(%s): %v", name, err)
			}
			for idx := int64(0); idx < 4; idx++ {
				var r pycompat.Random
				r.SeedSum(42, idx)
				e, err := Generate(task, &r, idx)
				if err != nil {
					tb.Fatalf("%s item %d: %v", name, idx, err)
				}
				fuzzItems = append(fuzzItems, fuzzItem{name, task, e})
			}
		}
	})
	return fuzzItems
}

// FuzzScoreAnswer scores arbitrary answers against items of every native
// task: each score_answer port returns a reward in [0, 1], the same one
// every time, and the item's own answer scores 1.
func FuzzScoreAnswer(f *testing.F) {
	items := itemsForFuzz(f)
	for k, it := range items {
		if k%4 == 0 {
			f.Add(uint16(k), it.entry.Answer)
			f.Add(uint16(k), " "+it.entry.Answer+".")
		}
	}
	for _, a := range oddAnswers {
		f.Add(uint16(0), a)
	}
	for _, a := range []string{"3/4", "\\frac{3}{4}", "$\\dfrac{-6}{8}$", "x = 2.50", "1,2,3", "[1, 2, 3]",
		"(10 + 5) * 2 - 1", "2**1000000", "9**9**9", "1e308*10", "-(-(-(1)))", "0/0", "A B C", "None", "nan", "inf"} {
		f.Add(uint16(0), a)
		f.Add(uint16(len(items)/2), a)
	}
	for _, it := range items {
		if s := it.task.Score(it.entry.Answer, true, &it.entry); s != 1 {
			f.Fatalf("%s: the item's own answer %q scores %v", it.name, it.entry.Answer, s)
		}
	}
	f.Fuzz(func(t *testing.T, sel uint16, answer string) {
		it := items[int(sel)%len(items)]
		e := it.entry
		s := it.task.Score(answer, true, &e)
		if math.IsNaN(s) || s < 0 || s > 1 {
			t.Fatalf("%s: score %v for %q", it.name, s, answer)
		}
		if again := it.task.Score(answer, true, &e); again != s {
			t.Fatalf("%s: score %v then %v for %q", it.name, s, again, answer)
		}
		if none := it.task.Score(answer, false, &e); none < 0 || none > 1 {
			t.Fatalf("%s: score %v for None", it.name, none)
		}
	})
}

// fuzzParams decodes a JSON object as the library's codec does:
// integers as int64, other numbers as float64.
func fuzzParams(src string) (map[string]any, bool) {
	d := json.NewDecoder(bytes.NewReader([]byte(src)))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil || m == nil {
		return nil, false
	}
	var conv func(v any) any
	conv = func(v any) any {
		switch x := v.(type) {
		case json.Number:
			if i, err := x.Int64(); err == nil {
				return i
			}
			f, _ := x.Float64()
			return f
		case []any:
			for i := range x {
				x[i] = conv(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = conv(x[k])
			}
		}
		return v
	}
	return conv(m).(map[string]any), true
}

// FuzzTaskConfig builds native tasks from arbitrary configs and generates
// a few items: a config is accepted or refused with an error naming the
// task; an accepted one generates items (or fails with an error) and
// scores their own answers 1.
func FuzzTaskConfig(f *testing.F) {
	dir := testDataDir(f)
	names := Names()
	for i, src := range []string{
		`{}`, `{"min_animals": 1, "max_animals": 3}`, `{"min_terms": 2, "max_terms": 2, "min_digits": 1, "max_digits": 1}`,
		`{"min_numbers": 3, "max_numbers": 4, "min_value": 1, "max_value": 10, "min_target": 10, "max_target": 20}`,
		`{"min_value": 5, "max_value": 1}`, `{"max_value": 1e18}`, `{"min_value": -9223372036854775808}`,
		`{"seed": 1}`, `{"size": 0}`, `{"difficulty": "hard"}`, `{"min_words": 1, "max_words": 1}`,
		`{"operators": ["+", "**"]}`, `{"operators_weights": [0.5, 0.5]}`, `{"min_animals": 1.5}`, `{"max_animals": null}`,
	} {
		for k := range names {
			if k%3 == i%3 {
				f.Add(uint8(k), src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, sel uint8, src string) {
		params, ok := fuzzParams(src)
		if !ok {
			return
		}
		name := names[int(sel)%len(names)]
		if name == "composite" {
			return // its datasets are tasks built the same way; covered through them
		}
		task, err := NewTask(name, Options{Params: params, DataDir: dir, Seed: 1, Size: 10})
		if err != nil {
			if !strings.Contains(err.Error(), name) && !strings.Contains(err.Error(), "config") {
				t.Fatalf("%s: error %q does not say what it is about", name, err)
			}
			return
		}
		for idx := int64(0); idx < 2; idx++ {
			var r pycompat.Random
			r.SeedSum(1, idx)
			e, err := Generate(task, &r, idx)
			if err != nil {
				continue
			}
			if s := task.Score(e.Answer, true, &e); s != 1 {
				t.Fatalf("%s %s item %d: its own answer %q scores %v", name, src, idx, e.Answer, s)
			}
		}
	})
}

// FuzzArithEval evaluates basic_arithmetic's expressions with / as floor
// division: no panic, and an expression of plain small integers with + and
// - gives the sum computed here.
func FuzzArithEval(f *testing.F) {
	for _, s := range []string{"1 + 2 * 3", "-(4 - 10) / 3", "7 / 0", "((2))", "1 +", "", "2 * (3 + -4) / -2",
		strings.Repeat("-", 1000) + "1", strings.Repeat("(", 5000) + "1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := evalFloorDiv(s)
		if err == nil && v == nil {
			t.Fatalf("evalFloorDiv(%q): no value and no error", s)
		}
	})
}

// FuzzFractionAnswer parses arbitrary fraction answers: a parse gives a
// numerator and a denominator.
func FuzzFractionAnswer(f *testing.F) {
	for _, s := range []string{"3/4", "$\\frac{3}{4}$", "\\dfrac{-6}{8}", " 1 / 2 ", "1/0", "a/b", "\\frac{1}{", "$$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, d, ok := fracSimpExtract(s)
		if ok && (n == nil || d == nil) {
			t.Fatalf("fracSimpExtract(%q) = %v, %v, true", s, n, d)
		}
	})
}
