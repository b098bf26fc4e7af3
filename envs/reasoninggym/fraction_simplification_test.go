package reasoninggym

import (
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

func TestFractionSimplificationConfig(t *testing.T) {
	checkConfigs(t, "fraction_simplification", "",
		[]map[string]any{
			{},
			{"styles": []any{"latex_dfrac"}},
			{"min_value": 1, "max_value": 2, "min_factor": 1, "max_factor": 1},
			{"styles": []any{}},
		},
		[]map[string]any{
			{"min_value": 0},
			{"min_value": 5, "max_value": 5},
			{"min_factor": 0},
			{"min_factor": 3, "max_factor": 2},
			{"styles": []any{"plain", "fancy"}},
			{"styles": "plain"},
			{"size": 3},
		})
	// An empty styles list passes validate() but makes generation fail, as in Python.
	task := mustTask(t, "fraction_simplification", map[string]any{"styles": []any{}})
	var r pycompat.Random
	r.SeedSum(42, 0)
	if _, err := Generate(task, &r, 0); err == nil {
		t.Error("empty styles: Generate succeeded, want an error")
	}
}

// Expected scores were obtained from reasoning-gym 0.1.25's
// FractionSimplificationDataset.score_answer (Python 3.11, seed 42). Item 0
// is 92/524 -> $\frac{23}{131}$, item 1 is 3600/26370 -> $40/293$, item 2
// is 29330/37310 -> 419/533.
var fractionSimplificationScoreCases = []itemScoreCase{
	{0, "$\\frac{23}{131}$", true, 1.0},
	{0, "23/131", true, 1.0},
	{0, " $ 23 / 131 $ ", true, 1.0},
	{0, "\\DFRAC { 23 }{131} extra", true, 1.0},
	{0, "\\frac{92}{524}", true, 0.1},
	{0, "92/7", true, 0.1},
	{0, "5/524", true, 0.1},
	{0, "24/131", true, 0.05},
	{0, "23", true, 0.01},
	{0, "", true, 0.01},
	{0, "   ", true, 0.01},
	{0, "", false, 0.01},
	{0, "-23/131", true, 0.05},
	{0, "+23/131", true, 1.0},
	{0, "2_3/131", true, 1.0},
	{0, "2__3/131", true, 0.01},
	{0, "23/131/1", true, 0.01},
	{0, "23.0/131", true, 0.01},
	{0, "\u0662\u0663/\u0661\u0663\u0661", true, 1.0},
	{0, "\\frac{\u0662\u0663}{131}", true, 1.0},
	{0, "\u00a023/131\u2003", true, 1.0},
	{0, "23\u0000/131", true, 0.01},
	{0, "023/0131", true, 1.0},
	{0, strings.Repeat("1", 4301) + "/131", true, 0.01},
	{0, "\\frac{" + strings.Repeat("1", 4301) + "}{131}", true, 0.01},
	{0, "\\frac12", true, 0.01},
	{0, "half", true, 0.01},
	{0, "23\U00011f51/131", true, 0.01},
	{0, "$$23/131$$", true, 1.0},
	{1, "$40/293$", true, 1.0},
	{1, "40 / 293", true, 1.0},
	{1, "3600/26370", true, 0.1},
	{2, "419/533", true, 1.0},
	{2, "\\frac{419}{533}", true, 1.0},
}

func TestFractionSimplificationScore(t *testing.T) {
	checkItemScores(t, "fraction_simplification", nil, fractionSimplificationScoreCases)
	checkScoreNoPanic(t, "fraction_simplification", nil)
}

func TestFractionSimplificationGenerate(t *testing.T) {
	task := mustTask(t, "fraction_simplification", nil)
	if e := mustGenerate(t, task, 42, 0); e.Answer != "$\\frac{23}{131}$" {
		t.Errorf("seed 42 item 0 answer = %s", e.Answer)
	}
	checkGenerateNoPanic(t, "fraction_simplification", nil, 3000)
	// Products beyond int64 are carried as big integers.
	checkGenerateNoPanic(t, "fraction_simplification", map[string]any{
		"min_value": 500, "max_value": 3000000000000, "min_factor": 1000000000, "max_factor": 4000000000000,
		"styles": []any{"latex_frac"}}, 2000)
	checkGenerateNoPanic(t, "fraction_simplification", map[string]any{
		"min_value": 2, "max_value": 4, "min_factor": 5, "max_factor": 5}, 3000)
}
