package reasoninggym

import (
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

func TestWordSortingConfig(t *testing.T) {
	dir := testDataDir(t)
	checkConfigs(t, "word_sorting", dir,
		[]map[string]any{{}, {"transformation": "randomcase"}, {"transformation": "uppercase", "min_word_length": 1},
			{"transformation": "lowercase", "min_words": 1, "max_words": 1}},
		[]map[string]any{{"min_words": 0}, {"min_words": 4, "max_words": 3}, {"min_word_length": 0},
			{"min_word_length": 5, "max_word_length": 4}, {"transformation": "titlecase"}, {"transformation": 1},
			{"size": 2}})
}

func TestWordSortingScore(t *testing.T) {
	// Expected values from reasoning-gym 0.1.25's score_answer.
	tk := &wordSorting{}
	e := &Entry{Answer: "sometimes, heat, begun", Metadata: map[string]any{"sorted_words": []string{"sometimes", "heat", "begun"}}}
	cases := []scoreCase{
		{"sometimes, heat, begun", false, 1}, {"sometimes,heat,begun", false, 1}, {" sometimes ,heat,  begun ", false, 1},
		{"begun, heat, sometimes", false, 0.3333333333333333}, {"heat, sometimes, begun", false, 0.3333333333333333},
		{"sometimes, heat", false, 0.6666666666666666}, {"sometimes, heat, begun, x", false, 1},
		{"sometimes,\u00a0heat,\u3000begun", false, 1}, {"sometimes,\u200bheat, begun", false, 0.6666666666666666},
		{"sometimes;heat;begun", false, 0}, {"Sometimes, heat, begun", false, 0.6666666666666666}, {"", false, 0},
		{"", true, 0}, {"sometimes\nheat\nbegun", false, 0}, {"sometimes,\vheat,\x1cbegun", false, 1},
		{"sometimes, heat, begun,", false, 1},
		{"\xff, heat", false, 0.3333333333333333}, // invalid UTF-8: Go only, must not panic
	}
	checkScores(t, tk, e, cases)
	// The same after a JSON round trip of the metadata.
	e.Metadata["sorted_words"] = []any{"sometimes", "heat", "begun"}
	checkScores(t, tk, e, cases)
}

func TestWordSortingGolden(t *testing.T) {
	// Printed by reasoning-gym 0.1.25 (transformation=TextTransformation.RANDOMCASE for the last two).
	const pre = "Your task is to sort words in ascending or descending order using ASCII/Unicode ordering.\n\n" +
		"Your output should be a comma-separated list of words, e.g. word_1, word_2, word_3\n\nNow, sort these words in "
	const mid = " order (using ASCII/Unicode ordering) and return them as a comma-separated list: "
	rc := map[string]any{"transformation": "randomcase"}
	checkGolden(t, "word_sorting", realDataDir(t), []golden{
		{nil, 42, 0, pre + "ascending" + mid + "DIRECT, given, exclaims, dreaming\n", "DIRECT, dreaming, exclaims, given"},
		{nil, 42, 1, pre + "descending" + mid + "heat, begun, sometimes\n", "sometimes, heat, begun"},
		{rc, 42, 0, pre + "descending" + mid + "DIReCT, GIVEN, eXclAIms, dREaMInG\n", "eXclAIms, dREaMInG, GIVEN, DIReCT"},
		{rc, 42, 1, pre + "ascending" + mid + "hEat, Begun, SOMEtIMEs\n", "Begun, SOMEtIMEs, hEat"},
	})
}

func TestWordSortingNoPanic(t *testing.T) {
	dir := testDataDir(t)
	checkDataNoPanic(t, "word_sorting", dir, []map[string]any{{},
		{"transformation": "randomcase", "min_words": 1, "max_words": 30, "min_word_length": 1, "max_word_length": 30}}, 3000)
	// More words than the list holds: an error, as random.sample raises.
	tk, err := NewTask("word_sorting", Options{Params: map[string]any{"min_words": 5000, "max_words": 5000}, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var r pycompat.Random
	r.SeedSum(1, 0)
	if _, err := Generate(tk, &r, 0); err == nil {
		t.Error("no error for a sample larger than the word list")
	}
}
