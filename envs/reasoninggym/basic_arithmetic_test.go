package reasoninggym

import (
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

func TestBasicArithmeticConfig(t *testing.T) {
	checkConfigsJSON(t, "basic_arithmetic",
		[]string{`{}`, `{"min_terms": 1, "max_terms": 1}`, `{"operators": ["/"]}`, `{"format_style": "anything"}`,
			`{"whitespace": "tabs"}`, `{"allow_parentheses": false, "allow_negation": false}`},
		[]string{`{"min_terms": 0}`, `{"min_terms": 3, "max_terms": 2}`, `{"min_digits": 0}`,
			`{"min_digits": 3, "max_digits": 2}`, `{"operators": []}`, `{"operators": ["+", "%"]}`,
			`{"seed": 1}`, `{"size": 10}`, `{"max_term": 3}`, `{"allow_negation": 1}`})
}

// Expected values printed by reasoning-gym 0.1.25's default score_answer
// (ProceduralDataset's), which basic_arithmetic, gcd, lcm and
// simple_equations keep.
var defaultScoreAnswerCases = []oracleScoreCase{
	{"100", "100", true, 1.0},
	{"100", " 100", true, 0.75},
	{"100", "1000", true, 0.75},
	{"100", "100.0", true, 0.6},
	{"100", "The answer is 100", true, 0.17647058823529413},
	{"100", "", true, 0.0},
	{"100", "", false, 0.0},
	{"-7", "-7", true, 1.0},
	{"-7", "7", true, 0.0},
	{"-7", "\u22127", true, 0.0},
	{"12", "\u0661\u0662", true, 0.0},
	{"12", "<answer>12</answer>", true, 0.10526315789473684},
	{"\u00e9", "x\u00e9", true, 0.5},
}

func TestBasicArithmeticScore(t *testing.T) {
	checkOracleScores(t, "basic_arithmetic", defaultScoreAnswerCases)
}

func TestBasicArithmeticGolden(t *testing.T) {
	// Printed by reasoning-gym 0.1.25.
	checkGoldenJSON(t, "basic_arithmetic", []goldenJSON{
		{"{}", 42, 0, "Calculate -5 * -6.", "30"},
		{"{}", 42, 1, "Calculate 965 / 5.", "193"},
		{"{}", 42, 2, "Calculate 0 + -2 + -4 * 0 * 3.", "-2"},
		{"{\"allow_parentheses\": false, \"format_style\": \"natural\", \"max_digits\": 5}", 7, 0, "Solve 50 + 83 * 6 + 9.", "807"},
		{"{\"allow_parentheses\": false, \"format_style\": \"natural\", \"max_digits\": 5}", 7, 1, "What is 985 - 384 + 129?", "730"},
		{"{\"allow_parentheses\": false, \"format_style\": \"natural\", \"max_digits\": 5}", 7, 2, "What is 48930 + 35013 * 18158 / 24398 + 88689?", "256575"},
		{"{\"whitespace\": \"random\", \"allow_negation\": false, \"format_style\": \"natural\", \"min_terms\": 3, \"max_terms\": 8}", 42, 3, "Evaluate: -65--9292 +5869+-6236*193.", "-1188452"},
		{"{\"whitespace\": \"random\", \"allow_negation\": false, \"format_style\": \"natural\", \"min_terms\": 3, \"max_terms\": 8}", 42, 4, "Compute 9288- 9128 +-7740.", "-7580"},
		{"{\"whitespace\": \"no_space\", \"min_digits\": 19, \"max_digits\": 25, \"max_terms\": 5, \"operators\": [\"+\", \"-\", \"*\"]}", 8589934609, 0, "Calculate 868339513385383684056089*-930342487589832724154039*-67063946805055651227829+427682238926245025561378.", "54177820205464852026468219589122810177703961973210811565843258784165837"},
		{"{\"whitespace\": \"no_space\", \"min_digits\": 19, \"max_digits\": 25, \"max_terms\": 5, \"operators\": [\"+\", \"-\", \"*\"]}", 8589934609, 1, "Calculate 4427392302569337443516690+(-(-9248166928589412788740486-7248302620455191883398482)*-4973993961530032094624877).", "-82053339923511915267847219273554291532413730390246"},
	})
}

func TestBasicArithmeticErrorsLikePython(t *testing.T) {
	// reasoning-gym raises ZeroDivisionError for this item: with random
	// whitespace a "/0" without a space escapes the "/ 0" -> "/ 1" patch.
	task := mustTaskJSON(t, "basic_arithmetic", `{"whitespace": "random", "max_terms": 7}`)
	var r pycompat.Random
	r.SeedSum(42, 19350)
	if _, err := Generate(task, &r, 19350); err == nil {
		t.Error("seed 42 idx 19350: want ZeroDivisionError")
	}
}

func TestBasicArithmeticNoPanic(t *testing.T) {
	checkNoPanicJSON(t, "basic_arithmetic", []string{
		`{}`,
		`{"allow_parentheses": false, "format_style": "natural", "max_digits": 5}`,
		`{"whitespace": "no_space", "min_digits": 20, "max_digits": 22, "max_terms": 5, "operators": ["+", "-", "*"]}`,
	}, 3000, false)
	// Random whitespace and a "/"-only operator list make Python raise for
	// some items; Generate must return an error there, never panic.
	checkNoPanicJSON(t, "basic_arithmetic", []string{
		`{"whitespace": "random", "max_terms": 7}`,
		`{"operators": ["/"], "max_terms": 4}`,
	}, 2000, true)
}
