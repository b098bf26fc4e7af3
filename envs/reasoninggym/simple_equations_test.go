package reasoninggym

import (
	"math/big"
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

func TestSimpleEquationsConfig(t *testing.T) {
	checkConfigsJSON(t, "simple_equations",
		[]string{`{}`, `{"operators": ["+", "-"], "operators_weights": [0.5, 0.5]}`,
			`{"operators_weights": [0.96, 0, 0]}`, `{"operators_weights": [1.04, 0, 0]}`,
			`{"operators_weights": [1.2, -0.2, 0.0]}`, `{"operators_weights": [1.0]}`,
			`{"min_terms": 1, "max_terms": 1, "min_value": 5, "max_value": 5}`},
		[]string{`{"min_terms": 0}`, `{"min_terms": 3, "max_terms": 2}`, `{"min_value": 0}`,
			`{"min_value": 5, "max_value": 4}`, `{"operators": []}`, `{"operators": ["+", "/"]}`,
			`{"operators_weights": [0.4, 0.4, 0.1]}`, `{"operators_weights": [0.94, 0, 0]}`,
			`{"operators_weights": [1.05, 0, 0]}`, `{"operators_weights": []}`, `{"size": 3}`})
}

func TestSimpleEquationsRoundsToOne(t *testing.T) {
	// Values of Python's round(x, 1) == 1.0.
	cases := []struct {
		x    float64
		want bool
	}{
		{1, true}, {0.95, false}, {0.9500000000000001, true}, {1.05, false}, {1.0499999999999998, true},
		{0.35 + 0.35 + 0.3, true}, {0, false}, {0.96, true}, {1.04, true}, {0.94, false},
	}
	for _, c := range cases {
		if got := simpleEquationsRoundsToOne(c.x); got != c.want {
			t.Errorf("round(%v, 1) == 1.0: got %v, want %v", c.x, got, c.want)
		}
	}
}

func TestSimpleEquationsLinear(t *testing.T) {
	// sympy 1.14 str(a*x + b).
	cases := []struct {
		a, b int64
		want string
	}{
		{1, 0, "x"}, {-1, 0, "-x"}, {5, 0, "5*x"}, {-5, 0, "-5*x"}, {0, 7, "7"}, {0, -7, "-7"}, {0, 0, "0"},
		{3, 4, "3*x + 4"}, {3, -4, "3*x - 4"}, {-3, 4, "4 - 3*x"}, {-3, -4, "-3*x - 4"},
		{1, 2, "x + 2"}, {-1, 2, "2 - x"}, {-1, -2, "-x - 2"}, {1, -2, "x - 2"},
	}
	for _, c := range cases {
		if got := simpleEquationsLinear(big.NewInt(c.a), big.NewInt(c.b), "x"); got != c.want {
			t.Errorf("(%d, %d): got %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

func TestSimpleEquationsScore(t *testing.T) {
	checkOracleScores(t, "simple_equations", defaultScoreAnswerCases)
}

func TestSimpleEquationsGolden(t *testing.T) {
	// Printed by reasoning-gym 0.1.25 (sympy 1.14).
	checkGoldenJSON(t, "simple_equations", []goldenJSON{
		{"{}", 42, 0, "Find the value of u in the equation: 32*u + 4 = 3044", "95"},
		{"{}", 42, 1, "Determine the value of b that satisfies: 71 - 48*b = -2761", "59"},
		{"{}", 42, 2, "Find the value of n in the equation: 175 - 29*n = -202", "13"},
		{"{\"min_terms\": 5, \"max_terms\": 20, \"min_value\": 1000, \"max_value\": 100000000, \"operators_weights\": [0.2, 0.2, 0.6]}", 7, 0, "Determine the value of k that satisfies: 564224884435210007014428071482 - 28817302*k = 564224884435207580203926508860", "84213661"},
		{"{\"min_terms\": 5, \"max_terms\": 20, \"min_value\": 1000, \"max_value\": 100000000, \"operators_weights\": [0.2, 0.2, 0.6]}", 7, 1, "Determine the value of h that satisfies: 249003100794806167883400*h + 2848706576992789549151028265037722538514852857626028645984866941821128886068455814075173786518726769804405 = 2848706576992789549151028265037722538514852857626028645984866941821128886072056431283069787031122558646405", "14460130"},
		{"{\"operators\": [\"*\", \"-\"], \"operators_weights\": [0.7, 0.3], \"max_terms\": 8, \"min_value\": 1, \"max_value\": 3}", 42, 0, "Find the value of u in the equation: u = 3", "3"},
		{"{\"operators\": [\"*\", \"-\"], \"operators_weights\": [0.7, 0.3], \"max_terms\": 8, \"min_value\": 1, \"max_value\": 3}", 42, 1, "Solve for b: 8*b = 24", "3"},
		{"{\"operators\": [\"*\", \"-\"], \"operators_weights\": [0.7, 0.3], \"max_terms\": 8, \"min_value\": 1, \"max_value\": 3}", 42, 2, "Determine the value of n that satisfies: 9*n - 2 = 16", "2"},
		{"{\"operators\": [\"*\", \"-\"], \"operators_weights\": [0.7, 0.3], \"max_terms\": 8, \"min_value\": 1, \"max_value\": 3}", 42, 3, "Determine the value of i that satisfies: 2*i - 4 = 2", "3"},
		{"{\"operators\": [\"*\", \"-\"], \"operators_weights\": [0.7, 0.3], \"max_terms\": 8, \"min_value\": 1, \"max_value\": 3}", 42, 4, "Determine the value of c that satisfies: 0 = 0", "2"},
		{"{\"operators\": [\"*\", \"-\"], \"operators_weights\": [0.7, 0.3], \"max_terms\": 8, \"min_value\": 1, \"max_value\": 3}", 42, 5, "Solve for l: 6*l = 18", "3"},
	})
}

func TestSimpleEquationsWeightsLengthMismatch(t *testing.T) {
	// reasoning-gym accepts the config but random.choices raises ValueError
	// as soon as an operator is drawn (never with a single term).
	one := mustTaskJSON(t, "simple_equations", `{"operators_weights": [1.0], "min_terms": 1, "max_terms": 1}`)
	mustGenerate(t, one, 42, 0)
	two := mustTaskJSON(t, "simple_equations", `{"operators_weights": [1.0], "min_terms": 2}`)
	var r pycompat.Random
	r.SeedSum(42, 0)
	if _, err := Generate(two, &r, 0); err == nil {
		t.Error("want a ValueError for 1 weight and 3 operators")
	}
}

func TestSimpleEquationsNoPanic(t *testing.T) {
	checkNoPanicJSON(t, "simple_equations", []string{
		`{}`,
		`{"min_terms": 5, "max_terms": 20, "min_value": 1000, "max_value": 100000000, "operators_weights": [0.2, 0.2, 0.6]}`,
		`{"operators": ["*", "-"], "operators_weights": [0.7, 0.3], "max_terms": 8, "min_value": 1, "max_value": 3}`,
	}, 3000, false)
}
