package reasoninggym

import (
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

func TestShortestPathConfig(t *testing.T) {
	checkConfigs(t, "shortest_path", "",
		[]map[string]any{
			{},
			{"p_blocked": 0},
			{"p_blocked": 1},
			{"min_rows": 1, "max_rows": 1, "min_cols": 2, "max_cols": 2},
		},
		[]map[string]any{
			{"min_rows": 0},
			{"min_rows": 9},
			{"min_cols": 0},
			{"min_cols": 6, "max_cols": 5},
			{"p_blocked": -0.1},
			{"p_blocked": 1.5},
			{"rows": 3},
		})
	// A 1x1 grid makes Python loop forever looking for an end cell; the
	// port reports an error instead.
	task := mustTask(t, "shortest_path", map[string]any{"min_rows": 1, "max_rows": 1, "min_cols": 1, "max_cols": 1})
	var r pycompat.Random
	r.SeedSum(42, 0)
	if _, err := Generate(task, &r, 0); err == nil {
		t.Error("1x1 grid: Generate succeeded, want an error")
	}
}

// Expected scores were obtained from reasoning-gym 0.1.25's
// ShortestPathDataset.score_answer (Python 3.11, seed 42). Oracles: item 0
// "up right right", items 1 and 2 "infeasible", item 3
// "up up left up up right", item 4 "right up up left left up up".
var shortestPathScoreCases = []itemScoreCase{
	{0, "up right right", true, 1.0},
	{0, "  up right right\n", true, 1.0},
	{0, "UP RIGHT RIGHT", true, 0.0},
	{0, "up\tright\u2003right", true, 1.0},
	{0, "up,right,right", true, 0.0},
	{0, "up right right left right", true, 0.5},
	{0, "right up right", true, 0.0},
	{0, "up right", true, 0.0},
	{0, "up right right right", true, 0.0},
	{0, "infeasible", true, 0.0},
	{0, "", true, 0.0},
	{0, "   ", true, 0.0},
	{0, "", false, 0.0},
	{1, "infeasible", true, 1.0},
	{1, " infeasible ", true, 1.0},
	{1, "Infeasible", true, 0.0},
	{1, "left", true, 0.0},
	{3, "up up left up up right", true, 1.0},
	{3, "up up left up up right left right", true, 0.5},
	{3, "up up up left up right", true, 0.0},
	{4, "right up up left left up up", true, 1.0},
	{4, "up right up left up", true, 0.0},
	{4, "right up up left left up up down up", true, 0.5},
}

func TestShortestPathScore(t *testing.T) {
	checkItemScores(t, "shortest_path", nil, shortestPathScoreCases)
	checkScoreNoPanic(t, "shortest_path", nil)
}

func TestShortestPathGenerate(t *testing.T) {
	task := mustTask(t, "shortest_path", nil)
	if e := mustGenerate(t, task, 42, 0); e.Answer != "up right right" {
		t.Errorf("seed 42 item 0 answer = %q", e.Answer)
	}
	checkGenerateNoPanic(t, "shortest_path", nil, 3000)
	checkGenerateNoPanic(t, "shortest_path", map[string]any{
		"min_rows": 20, "max_rows": 40, "min_cols": 15, "max_cols": 30, "p_blocked": 0.25}, 2000)
}
