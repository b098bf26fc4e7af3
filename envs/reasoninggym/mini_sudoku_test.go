package reasoninggym

import "testing"

func TestMiniSudokuConfig(t *testing.T) {
	checkConfigs(t, "mini_sudoku", "",
		[]map[string]any{
			{},
			{"min_empty": 0, "max_empty": 0},
			{"min_empty": 12, "max_empty": 12},
		},
		[]map[string]any{
			{"min_empty": -1},
			{"min_empty": 13, "max_empty": 13},
			{"max_empty": 13},
			{"min_empty": 9, "max_empty": 8},
			{"empty": 3},
		})
}

// Expected scores were obtained from reasoning-gym 0.1.25's
// MiniSudokuDataset.score_answer (Python 3.11, seed 42); item 0's solution
// is "4 2 1 3\n1 3 4 2\n2 1 3 4\n3 4 2 1".
var miniSudokuScoreCases = []itemScoreCase{
	{0, "4 2 1 3\n1 3 4 2\n2 1 3 4\n3 4 2 1", true, 1.0},
	{0, "4 2 1 3\n1 3 4 2\n2 1 3 4\n3 4 2 1\n", true, 0.8718750000000001},
	{0, "4 2 1 3  \n1 3 4 2\t\n2 1 3 4\n3 4 2 1", true, 0.9117647058823529},
	{0, "4213\n1342\n2134\n3421", true, 0.9},
	{0, "4, 2, 1, 3\n1, 3, 4, 2\n2, 1, 3, 4\n3, 4, 2, 1", true, 0.6488372093023256},
	{0, " 4 2 1 3\n1 3 4 2\n2 1 3 4\n3 4 2 1", true, 0.8718750000000001},
	{0, "4 2 1 3\r\n1 3 4 2\r\n2 1 3 4\r\n3 4 2 1", true, 0.9117647058823529},
	{0, "Answer:\n4 2 1 3\n1 3 4 2\n2 1 3 4\n3 4 2 1", true, 0.7153846153846154},
	{0, "1 2 3 4\n1 2 3 4\n1 2 3 4\n1 2 3 4", true, 0.225},
	{0, "4 2 1 3\n1 3 4 2", true, 0.45},
	{0, "4 2 1 3\u00a0\n1 3 4 2\n2 1 3 4\n3 4 2 1", true, 0.96875},
	{0, "\u0664 2 1 3\n1 3 4 2\n2 1 3 4\n3 4 2 1", true, 0.0},
	{0, "", true, 0.0},
	{0, "", false, 0.0},
	{0, "garbage", true, 0.0},
	{0, "4 2 1 3\n\n1 3 4 2\n\n2 1 3 4\n\n3 4 2 1", true, 0.8205882352941176},
}

func TestMiniSudokuScore(t *testing.T) {
	checkItemScores(t, "mini_sudoku", nil, miniSudokuScoreCases)
	checkScoreNoPanic(t, "mini_sudoku", nil)
}

func TestMiniSudokuGenerate(t *testing.T) {
	task := mustTask(t, "mini_sudoku", nil)
	if e := mustGenerate(t, task, 42, 0); e.Answer != "4 2 1 3\n1 3 4 2\n2 1 3 4\n3 4 2 1" {
		t.Errorf("seed 42 item 0 answer = %q", e.Answer)
	}
	checkGenerateNoPanic(t, "mini_sudoku", nil, 3000)
	checkGenerateNoPanic(t, "mini_sudoku", map[string]any{"min_empty": 0, "max_empty": 3}, 3000)
}
