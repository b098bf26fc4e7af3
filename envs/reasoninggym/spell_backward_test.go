package reasoninggym

import (
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

func TestSpellBackwardConfig(t *testing.T) {
	dir := testDataDir(t)
	checkConfigs(t, "spell_backward", dir,
		[]map[string]any{{}, {"min_word_len": 5, "max_word_len": 5}, {"data_file": "holdout_words.txt"}},
		[]map[string]any{{"min_word_len": 0}, {"min_word_len": 5, "max_word_len": 4},
			{"data_file": "../words3to10.txt"}, {"data_file": "missing.txt"}, {"data_file": ""},
			{"data_file": 3}, {"size": 3}})
}

func TestSpellBackwardScore(t *testing.T) {
	// Expected values from reasoning-gym 0.1.25's score_answer.
	tk := &spellBackward{}
	checkScores(t, tk, &Entry{Answer: "ziuqer"}, []scoreCase{
		{"ziuqer", false, 1}, {"ZIUQER", false, 1}, {"ziuqe", false, 0.8333333333333333},
		{"ziuqerx", false, 0.9999999999999999}, {"xiuqer", false, 0.8333333333333333},
		{"z", false, 0.16666666666666666}, {"", false, 0}, {"", true, 0}, {"ziuqer ", false, 0.9999999999999999},
		{" ziuqer", false, 0}, {"zzzzzz", false, 0.16666666666666666}, {"ziuqerziuqer", false, 0.9999999999999999},
		{"reqiuz", false, 0},
	})
	checkScores(t, tk, &Entry{Answer: "nus"}, []scoreCase{
		{"nusx", false, 0.8}, {"NUS", false, 1}, {"nu", false, 0.6666666666666666}, {"nux", false, 0.6666666666666666},
	})
	checkScores(t, tk, &Entry{Answer: "ΑΣ"}, []scoreCase{
		{"ας", false, 1}, {"ασ", false, 0.5}, {"ΑΣ", false, 1}, {"α", false, 0.5},
	})
	checkScores(t, tk, &Entry{Answer: "\u0130x"}, []scoreCase{
		{"i\u0307x", false, 1}, {"ix", false, 0.3333333333333333}, {"\u0130X", false, 1}, {"i", false, 0.3333333333333333},
		{"\xff\xfe", false, 0}, // invalid UTF-8: Go only, must not panic
	})
}

func TestSpellBackwardGolden(t *testing.T) {
	// Printed by reasoning-gym 0.1.25.
	checkGolden(t, "spell_backward", realDataDir(t), []golden{
		{nil, 42, 0, "Spell this word backward (example: sun -> nus): requiz", "ziuqer"},
		{nil, 42, 1, "Spell this word backward (example: sun -> nus): getup", "puteg"},
	})
}

func TestSpellBackwardNoPanic(t *testing.T) {
	dir := testDataDir(t)
	checkDataNoPanic(t, "spell_backward", dir,
		[]map[string]any{{}, {"min_word_len": 1, "max_word_len": 30}}, 3000)
	// No word in the length range: an error, as random.choice([]) raises.
	tk, err := NewTask("spell_backward", Options{Params: map[string]any{"min_word_len": 40, "max_word_len": 50}, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var r pycompat.Random
	r.SeedSum(1, 0)
	if _, err := Generate(tk, &r, 0); err == nil {
		t.Error("no error for an empty word list")
	}
}
