package dataset

import (
	"errors"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/strictcfg"
)

func text(values ...string) Column { return Column{Values: values} }

func gsmConfig(params map[string]any) core.EnvConfig {
	p := map[string]any{"question_column": "question", "answer_column": "answer",
		"ground_truth_extractor": "gsm8k", "scoring": "numeric", "split": "test"}
	for k, v := range params {
		p[k] = v
	}
	return core.EnvConfig{Name: "toy", Adapter: AdapterName, AnswerExtractor: "tag_based", Params: p}
}

func gsmColumns() map[string]Column {
	return map[string]Column{
		"question": text("How many?", "How much?", "What is left?", "Below zero?"),
		"answer": text("3 + 4 = 7\n#### 7", "so 1,200 in all\n#### 1,200", "no marker here",
			"#### -5\nchecked in 2 steps"),
	}
}

func TestGroundTruthsAndScoring(t *testing.T) {
	e, err := New(gsmConfig(nil), gsmColumns())
	if err != nil {
		t.Fatal(err)
	}
	// "no marker here": the stripped cell, llenvs' fallback; "-5": the number after ####, not the last one.
	want := []string{"7", "1200", "no marker here", "-5"}
	for i, w := range want {
		if got, _ := e.Expected(i); got != w {
			t.Errorf("Expected(%d) = %q, want %q", i, got, w)
		}
	}
	if e.fallbacks != 1 {
		t.Errorf("fallbacks = %d, want 1", e.fallbacks)
	}
	cases := []struct {
		task int
		text string
		want float64
	}{
		{0, "<answer>7</answer>", 1},
		{0, "<answer> 7.0 </answer>", 1},
		{0, "<answer>8</answer>", 0},
		{0, "the answer is 7", 0}, // no tags: nothing extracted
		{1, "<answer>1200</answer>", 1},
		{1, "<answer>1,200</answer>", 1},
		{2, "<answer>no marker here</answer>", 0}, // numeric scoring of a non-number
	}
	for _, c := range cases {
		out := core.Scored{Values: make([]float64, 1)}
		e.ScoreText(c.task, c.text, &out)
		if out.Total != c.want {
			t.Errorf("task %d %q: total %v, want %v", c.task, c.text, out.Total, c.want)
		}
	}
}

func TestStepAndReset(t *testing.T) {
	cfg := gsmConfig(map[string]any{"metadata_columns": []any{"id", "level"},
		"metadata_values": map[string]any{"level": []any{1.0, 2.0, nil, 4.0}}})
	cfg.ExtraRewards = []any{"format"}
	cols := gsmColumns()
	cols["id"] = Column{Values: []string{"a", "b", "", "d"}, Null: []bool{false, false, true, false}}
	e, err := New(cfg, cols)
	if err != nil {
		t.Fatal(err)
	}
	start, err := e.Reset(core.ResetRequest{TaskIndex: 1})
	if err != nil {
		t.Fatal(err)
	}
	if start.Observation.Prompt != "How much?" || *start.Hidden.ExpectedAnswer != "1200" {
		t.Fatalf("reset: %+v", start)
	}
	if start.Info["id"] != "b" || start.Info["level"] != 2.0 || start.Info["split"] != "test" {
		t.Errorf("info = %v", start.Info)
	}
	entry := start.Hidden.Entry.(map[string]any)
	if entry["answer"] != "so 1,200 in all\n#### 1,200" || entry["question"] != "How much?" {
		t.Errorf("entry = %v", entry)
	}
	if m, _ := e.Metadata(2); m["id"] != nil || m["level"] != nil {
		t.Errorf("metadata of row 2 = %v, want nulls", m)
	}
	text := "<answer>1200</answer>"
	res, err := start.Episode.Step(core.Action{Text: &text})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Terminated || *res.ExtractedAction != "1200" || res.Info["expected_answer"] != "1200" {
		t.Errorf("step = %+v", res)
	}
	if len(res.Signals) != 2 || *res.Signals[0].Reward != 1 || *res.Signals[1].Reward != 1 ||
		res.Signals[0].Metadata["scoring"] != "numeric" {
		t.Errorf("signals = %+v", res.Signals)
	}
	if _, err := e.Reset(core.ResetRequest{TaskIndex: 4}); err == nil || !strings.Contains(err.Error(), "out of bounds") {
		t.Errorf("reset 4: %v", err)
	}
}

func TestBuildErrors(t *testing.T) {
	cases := []struct {
		name   string
		params map[string]any
		cols   map[string]Column
		want   string
	}{
		{"unknown extractor", map[string]any{"ground_truth_extractor": "boxd"}, gsmColumns(), "did you mean 'boxed'?"},
		{"unknown scoring", map[string]any{"scoring": "exactly"}, gsmColumns(), "Available: ['code', 'exact', 'math'"},
		{"unknown key", map[string]any{"question_colum": "q"}, gsmColumns(), "did you mean 'question_column'?"},
		{"empty", nil, map[string]Column{"question": text(), "answer": text()}, "has no rows"},
		{"null answer", nil, map[string]Column{"question": text("a", "b"),
			"answer": {Values: []string{"1", ""}, Null: []bool{false, true}}}, "1 missing (None) cells, the first in row 1"},
		{"bad utf-8", nil, map[string]Column{"question": text("a", "\xff"), "answer": text("1", "2")}, "row 1 is not valid UTF-8"},
		{"ragged", nil, map[string]Column{"question": text("a", "b"), "answer": text("1")}, "different lengths"},
		{"no answer column", nil, map[string]Column{"question": text("a")}, "answer column 'answer' was not handed over"},
	}
	for _, c := range cases {
		_, err := New(gsmConfig(c.params), c.cols)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	_, err := New(gsmConfig(map[string]any{"scoring": "nope"}), gsmColumns())
	var nf *strictcfg.NotFoundError
	if !errors.As(err, &nf) {
		t.Errorf("unknown scoring is %T, want *strictcfg.NotFoundError", err)
	}
}

func TestBoxedGroundTruth(t *testing.T) {
	cfg := core.EnvConfig{Name: "math", Adapter: AdapterName, AnswerExtractor: "boxed",
		Params: map[string]any{"scoring": "exact"}}
	e, err := New(cfg, map[string]Column{
		"problem":  text("p1", "p2"),
		"solution": text(`so $\boxed{\frac{1}{2}}$ and then \boxed{x^{2}+1}.`, `\boxed{unclosed`),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := e.Expected(0); got != "x^{2}+1" {
		t.Errorf("last balanced box = %q", got)
	}
	if got, _ := e.Expected(1); got != `\boxed{unclosed` {
		t.Errorf("unbalanced box falls back to the cell, got %q", got)
	}
	out := core.Scored{Values: make([]float64, 1)}
	e.ScoreText(0, `Thus \boxed{X^{2}+1}`, &out)
	if out.Total != 1 {
		t.Errorf("exact scoring is case-insensitive: total %v", out.Total)
	}
}
