package reasoninggym

import (
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

// nsScoreCase is one score_answer call: item idx of the seed-42 dataset,
// the answer (ok=false for None) and the score Python returned.
type nsScoreCase struct {
	idx    int64
	answer string
	ok     bool
	want   float64
}

func nsRunScoreCases(t *testing.T, name string, params map[string]any, cases []nsScoreCase) {
	t.Helper()
	task := mustTask(t, name, params)
	for i, c := range cases {
		e := mustGenerate(t, task, 42, c.idx)
		if got := task.Score(c.answer, c.ok, &e); got != c.want {
			t.Errorf("case %d: Score(item %d, %q, %v) = %v, want %v", i, c.idx, c.answer, c.ok, got, c.want)
		}
	}
}

// nsOddAnswers are inputs a scorer must survive without panicking.
var nsOddAnswers = []string{
	"", " ", "\x00", "\xff\xfe", "\xed\xa0\x80", "[", "]", "[[[[[[[[", "{", "\"", "'", "\\", "$", "/", "//", "$$",
	"\\frac", "\\frac{", "\\frac{1}{", "[\"\\ud800\"]", "[\"\\u12\"]", "[1e99999999999999999999]", "[-]", "[\"",
	"\n\n\n\n\n", "\u2003\u00a0\x85", strings.Repeat("9", 100000), "[" + strings.Repeat("1,", 5000) + "1]",
	strings.Repeat("[", 100000), strings.Repeat("up ", 10000), "1/" + strings.Repeat("0", 5000),
	"\U0001d7cf/\U0001d7d0", "١/٢", "𝟏 𝟐 𝟑 𝟒",
}

func nsCheckScoreNoPanic(t *testing.T, name string, params map[string]any) {
	t.Helper()
	task := mustTask(t, name, params)
	for idx := int64(0); idx < 5; idx++ {
		e := mustGenerate(t, task, 42, idx)
		for _, a := range append(nsOddAnswers, e.Answer, e.Question) {
			_ = task.Score(a, true, &e)
		}
		_ = task.Score("", false, &e)
	}
}

func nsCheckGenerateNoPanic(t *testing.T, name string, params map[string]any, n int64) {
	t.Helper()
	task := mustTask(t, name, params)
	for idx := int64(0); idx < n; idx++ {
		var r pycompat.Random
		r.SeedSum(1234, idx)
		e, err := task.Generate(&r, idx)
		if err != nil {
			t.Fatalf("%s %v item %d: %v", name, params, idx, err)
		}
		if e.Question == "" || e.Answer == "" {
			t.Fatalf("%s %v item %d: empty question or answer", name, params, idx)
		}
	}
}

func nsCheckConfigErrors(t *testing.T, name string, bad []map[string]any, good []map[string]any) {
	t.Helper()
	for _, p := range bad {
		if _, err := NewTask(name, Options{Params: p}); err == nil {
			t.Errorf("%s: config %v accepted, want an error", name, p)
		}
	}
	for _, p := range good {
		if _, err := NewTask(name, Options{Params: p}); err != nil {
			t.Errorf("%s: config %v rejected: %v", name, p, err)
		}
	}
}
