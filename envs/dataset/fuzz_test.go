package dataset

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

// scoringSeeds are (gold, prediction) pairs of the shapes dataset rows and
// model answers take.
var scoringSeeds = [][2]string{
	{"7", "7"}, {"1,200", "1200"}, {"-5", "-5.0"}, {"0.1", "0.10000000001"}, {"3.14159", "3.1416"}, {"0", "1e-6"},
	{"inf", "Infinity"}, {"nan", "nan"}, {"1e308", "1e309"}, {"9007199254740993", "9007199254740992"},
	{"\\frac{1}{2}", "0.5"}, {"x = 2", "2"}, {"", ""}, {" Paris ", "paris"}, {"\u0661\u0662", "12"}, {"1_000", "1000"},
	{"\u0130", "i\u0307"}, {"\xff", "\xff"},
}

// FuzzScoring runs every scoring rule on arbitrary answers: a reward in
// [0, 1], the same both ways for the symmetric rules, and 1 for an answer
// scored against itself whenever the rule can read it.
func FuzzScoring(f *testing.F) {
	for _, s := range scoringSeeds {
		f.Add(s[0], s[1])
	}
	names := ScoringNames()
	f.Fuzz(func(t *testing.T, gold, pred string) {
		for _, name := range names {
			if name == CodeScoring {
				continue // not a ScoreFunc: it runs programs (codetests' fuzz tests)
			}
			fn, err := Scoring(name)
			if err != nil {
				t.Fatal(err)
			}
			r, _ := fn(gold, pred)
			if math.IsNaN(r) || r < 0 || r > 1 {
				t.Fatalf("%s(%q, %q) = %v", name, gold, pred, r)
			}
			if name == "exact" || name == "numeric" {
				if back, _ := fn(pred, gold); back != r {
					t.Fatalf("%s is not symmetric on %q, %q: %v then %v", name, gold, pred, r, back)
				}
			}
		}
		if x, ok := parseNumber(gold); ok && !math.IsNaN(x) {
			if r, _ := Numeric(gold, gold); r != 1 {
				t.Fatalf("numeric(%q, itself) = %v", gold, r)
			}
			if r, _ := NumericTolerance(gold, gold); r != 1 {
				t.Fatalf("numeric_tolerance(%q, itself) = %v", gold, r)
			}
		}
		if r, _ := Exact(gold, gold); r != 1 {
			t.Fatalf("exact(%q, itself) = %v", gold, r)
		}
	})
}

// FuzzDatasetEnv builds question/answer environments from arbitrary
// params and cells, as llenvs_env_new_columns hands them over, and scores
// a response on each row: a configuration is built or refused with an
// error, and a built environment resets every row and scores it in [0, 1]
// (plus its extra signals) without a recovered panic.
func FuzzDatasetEnv(f *testing.F) {
	for _, p := range []string{
		`{"question_column": "q", "answer_column": "a", "ground_truth_extractor": "gsm8k", "scoring": "numeric"}`,
		`{"question_column": "q", "answer_column": "a", "ground_truth_extractor": "boxed", "scoring": "exact", "metadata_columns": ["a"]}`,
		`{"question_column": "q", "answer_column": "a", "ground_truth_extractor": "direct", "scoring": "numeric_tolerance"}`,
		`{"question_column": "q", "answer_column": "a", "ground_truth_extractor": "last_line", "scoring": "math"}`,
		`{"question_column": "q", "answer_column": "a", "metadata_columns": ["m"], "metadata_values": {"m": [1, null]}}`,
		`{"question_column": "x", "answer_column": "a"}`, `{"scoring": "nope"}`, `{"ground_truth_extractor": "regex"}`,
		`{"question_column": "q", "answer_column": "q"}`, `{"metadata_values": {"q": "x"}}`, `{"columns": [1]}`,
	} {
		f.Add(p, "How many legs?", "#### 1,200", "so the answer is <answer>1200</answer>", false)
		f.Add(p, "", "\\boxed{\\frac{1}{2}}", "<answer>0.5</answer>", true)
	}
	f.Fuzz(func(t *testing.T, params, question, answer, response string, null bool) {
		var raw map[string]any
		if json.Unmarshal([]byte(params), &raw) != nil || raw == nil {
			return
		}
		cols := map[string]Column{"q": text(question, "second question"), "a": text(answer, "#### 3")}
		if null {
			cols["a"] = Column{Values: []string{answer, ""}, Null: []bool{false, true}}
		}
		cfg := core.EnvConfig{Name: "fuzz", Adapter: AdapterName, AnswerExtractor: "tag_based", Params: raw}
		e, err := New(cfg, cols)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		for i := 0; i < e.Len(); i++ {
			if _, err := e.Reset(core.ResetRequest{TaskIndex: i}); err != nil {
				t.Fatalf("reset %d: %v", i, err)
			}
			var out core.Scored
			out.Values = make([]float64, len(e.SignalSpecs()))
			e.ScoreText(i, response, &out)
			if out.Err != nil && strings.Contains(out.Err.Error(), "internal error") {
				t.Fatalf("row %d: %v", i, out.Err)
			}
			if math.IsNaN(out.Total) || (len(out.Values) > 0 && (out.Values[0] < 0 || out.Values[0] > 1)) {
				t.Fatalf("row %d: total %v, values %v", i, out.Total, out.Values)
			}
			entry, err := e.EntryAny(i)
			if err != nil {
				t.Fatalf("row %d entry: %v", i, err)
			}
			if _, err := json.Marshal(entry); err != nil {
				t.Fatalf("row %d entry does not encode: %v", i, err)
			}
		}
	})
}
