package reasoninggym

import "testing"

func TestLetterCountingConfig(t *testing.T) {
	dir := testDataDir(t)
	checkConfigs(t, "letter_counting", dir,
		[]map[string]any{{}, {"min_words": 1, "max_words": 1}, {"min_words": 20, "max_words": 60}},
		[]map[string]any{{"min_words": 0}, {"min_words": 5, "max_words": 4}, {"max_words": 2.5},
			{"size": 10}, {"seed": 1}, {"data_file": "x.txt"}})
}

func TestLetterCountingScore(t *testing.T) {
	// Expected values from reasoning-gym 0.1.25's score_answer (oracle "100").
	tk := &letterCounting{}
	e := &Entry{Answer: "100"}
	checkScores(t, tk, e, []scoreCase{
		{"100", false, 1}, {" 100", false, 0.75}, {"1000", false, 0.75}, {"100.0", false, 0.6},
		{"The answer is 100", false, 0.17647058823529413}, {"", false, 0}, {"", true, 0}, {"99", false, 0},
		{"١٠٠", false, 0},
	})
}

func TestLetterCountingGolden(t *testing.T) {
	// Printed by reasoning-gym 0.1.25.
	checkGolden(t, "letter_counting", realDataDir(t), []golden{
		{nil, 42, 0, `How many times does the letter "a" appear in the text: "bed and enters his mechanical dresser Two minutes later the machine deposited him all dressed"?`, "6"},
		{nil, 42, 1, `How many times does the letter "w" appear in the text: "it into a watering place"?`, "1"},
	})
}

func TestLetterCountingNoPanic(t *testing.T) {
	checkDataNoPanic(t, "letter_counting", testDataDir(t),
		[]map[string]any{{}, {"min_words": 1, "max_words": 100000}}, 3000)
}
