package reasoninggym

import (
	"strings"
	"testing"
)

func TestNumberSortingConfig(t *testing.T) {
	checkConfigs(t, "number_sorting", "",
		[]map[string]any{
			{},
			{"min_numbers": 1, "max_numbers": 1, "min_decimals": 0, "max_decimals": 0},
			{"min_value": -1e20, "max_value": 1e20},
			{"min_value": 0, "max_value": 1},
		},
		[]map[string]any{
			{"min_numbers": 0},
			{"min_numbers": 5, "max_numbers": 4},
			{"min_decimals": -1},
			{"min_decimals": 3, "max_decimals": 2},
			{"min_value": 5.0, "max_value": 5.0},
			{"min_value": 6, "max_value": 5},
			{"size": 10},
			{"seed": 1},
			{"min_numbers": "3"},
			{"max_value": []any{1}},
		})
}

// Expected scores were obtained from reasoning-gym 0.1.25's
// NumberSortingDataset.score_answer (Python 3.11, seed 42). Item 0's oracle
// is ['-95.0', '-51.0', '47.29', '48.13'] (ascending), item 1's
// ['91.9', '34.0', '-43.0'] and item 2's nine numbers (descending).
var numberSortingScoreCases = []itemScoreCase{
	{0, "['-95.0', '-51.0', '47.29', '48.13']", true, 1.0},
	{0, "[\"-95.0\", \"-51.0\", \"47.29\", \"48.13\"]", true, 1.0},
	{0, "[-94.1, -50.1, 48.19, 49.03]", true, 1.0},
	{0, "[-95, -51, 47, 48]", true, 1.0},
	{0, "[-96.5, -51, 47, 48]", true, 0.0},
	{0, "['48.13', '47.29', '-51.0', '-95.0']", true, 0.0},
	{0, "['-95.0', '-51.0', '47.29']", true, 0.0},
	{0, "['-95.0', 'nan', '47.29', '48.13']", true, 1.0},
	{0, "[NaN, -51, 47, 48]", true, 1.0},
	{0, "[-95, -51, NaN, 40]", true, 0.0},
	{0, "['-95.0', '-51.0', '47.29', 'inf']", true, 0.0},
	{0, "[' -9_5 ', '-51', '47.29', '48.13']", true, 1.0},
	{0, "['-95.0', '-51.0', '47.29', '4_8.13']", true, 1.0},
	{0, "['-95.0', '-51.0', '47.29', '48__13']", true, 0.0},
	{0, "[\"\\u0034\\u0038\", -51, 47, 48]", true, 0.0},
	{0, "[-95, -51, 47, 48,]", true, 0.0},
	{0, "[-95, -51, 47, null]", true, 0.0},
	{0, "[-95, -51, 47, [48]]", true, 0.0},
	{0, "[-95, -51, true, 48]", true, 0.0},
	{0, "-95, -51, 47.29, 48.13", true, 0.0},
	{0, "", true, 0.0},
	{0, "", false, 0.0},
	{0, "[-95, -51, 47, 1" + strings.Repeat("0", 400) + "]", true, 0.0},
	{0, "[-95, -51, 47, 48e0]", true, 1.0},
	{0, "[-95, -51, 47, 48.]", true, 0.0},
	{0, "[-95, -51, 47, 048]", true, 0.0},
	{1, "['91.9', '34.0', '-43.0']", true, 1.0},
	{1, "['-43.0', '34.0', '91.9']", true, 0.0},
	{1, "[92, 34, -43]", true, 1.0},
	{1, "[92, 34, 34]", true, 0.0},
	{1, "[\"nan\", 34, -43]", true, 1.0},
	{1, "[92, \"nan\", -43]", true, 1.0},
	{2, "[72, 38.7, 37.8, 18.2, 14, 4, -24.1, -68.66, -94]", true, 1.0},
	{2, "[72, 38.7, 37.8, 18.2, 14, 4, -24.1, -68.66, NaN]", true, 1.0},
	{2, "[72, 38.7, NaN, 18.2, 14, 4, -24.1, -68.66, -94]", true, 1.0},
}

func TestNumberSortingScore(t *testing.T) {
	checkItemScores(t, "number_sorting", nil, numberSortingScoreCases)
	checkScoreNoPanic(t, "number_sorting", nil)
}

func TestNumberSortingGenerate(t *testing.T) {
	task := mustTask(t, "number_sorting", nil)
	e := mustGenerate(t, task, 42, 0)
	if e.Answer != "['-95.0', '-51.0', '47.29', '48.13']" {
		t.Errorf("seed 42 item 0 answer = %s", e.Answer)
	}
	checkGenerateNoPanic(t, "number_sorting", nil, 3000)
	checkGenerateNoPanic(t, "number_sorting", map[string]any{
		"min_numbers": 60, "max_numbers": 130, "min_decimals": 300, "max_decimals": 320,
		"min_value": -1000, "max_value": 1000}, 2000)
}
