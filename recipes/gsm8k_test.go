package recipes

import (
	"strings"
	"testing"
)

// scoreCase is a response, its ground truth and what veRL 0.9.1 returns
// for it (the values were taken from veRL's own gsm8k, math_reward and
// search_r1 modules), with the status we report.
type scoreCase struct {
	name, solution, groundTruth string
	score                       float64
	status                      Status
}

func runScoreCases(t *testing.T, family string, cases []scoreCase) {
	t.Helper()
	rule, ok := Lookup(family)
	if !ok {
		t.Fatalf("family %s is not registered", family)
	}
	for _, c := range cases {
		got := rule(c.solution, c.groundTruth)
		if got.Score != c.score || got.Status != c.status || got.Dict {
			t.Errorf("%s: got score %v status %s dict %v (%s); want %v %s", c.name, got.Score, got.Status, got.Dict, got.Reason, c.score, c.status)
		}
	}
}

func TestGSM8K(t *testing.T) {
	runScoreCases(t, "gsm8k", []scoreCase{
		{"last answer wins", "#### 5\nno wait\n#### 72", "72", 1, StatusCorrect},
		{"commas dropped", "so #### 1,234", "1234", 1, StatusCorrect},
		{"trailing period kept", "#### 72.", "72", 0, StatusIncorrect},
		{"negative", "#### -3", "-3", 1, StatusCorrect},
		{"double minus is no answer", "#### --3", "-3", 0, StatusNoAnswer},
		{"lone minus is no answer", "#### -", "-3", 0, StatusNoAnswer},
		{"no space is no answer", "####72", "72", 0, StatusNoAnswer},
		{"dollar sign is no answer", "#### $72", "72", 0, StatusNoAnswer},
		{"five hashes match", "##### 72", "72", 1, StatusCorrect},
		{"tab is no answer", "####\t72", "72", 0, StatusNoAnswer},
		{"fullwidth digits are no answer", "#### ７２", "72", 0, StatusNoAnswer},
		{"wrong answer", "#### 71", "72", 0, StatusIncorrect},
		{"empty response", "", "72", 0, StatusNoAnswer},
		{"answer just inside the clip", "#### 72" + strings.Repeat("x", 293), "72", 1, StatusCorrect},
		{"answer cut by the clip", "#### 72" + strings.Repeat("x", 294), "72", 0, StatusNoAnswer},
		{"clip counts code points", "#### 72" + strings.Repeat("中", 293), "72", 1, StatusCorrect},
		{"clip cuts the number", "#### 1272" + strings.Repeat("x", 294), "72", 0, StatusNoAnswer},
		{"ground truth with commas never matches", "#### 1,000", "1,000", 0, StatusIncorrect},
		{"points kept", "#### 1.5.2", "1.5.2", 1, StatusCorrect},
	})
}

func TestGSM8KThroughVerlRouting(t *testing.T) {
	if r := ScoreVerl("openai/gsm8k", "#### 72", "72"); r.Score != 1 || r.Status != StatusCorrect {
		t.Fatalf("got %+v", r)
	}
}
