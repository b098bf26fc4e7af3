package reasoninggym

import "testing"

func TestGCDConfig(t *testing.T) {
	checkConfigsJSON(t, "gcd",
		[]string{`{}`, `{"min_numbers": 3, "max_numbers": 5, "min_value": 1, "max_value": 2}`},
		[]string{`{"min_numbers": 1}`, `{"min_numbers": 3, "max_numbers": 2}`, `{"min_value": 0}`,
			`{"min_value": 5, "max_value": 5}`, `{"max_value": 0.5}`, `{"size": 3}`})
}

func TestGCDScore(t *testing.T) {
	checkOracleScores(t, "gcd", defaultScoreAnswerCases)
}

func TestGCDGolden(t *testing.T) {
	// Printed by reasoning-gym 0.1.25.
	checkGoldenJSON(t, "gcd", []goldenJSON{
		{"{}", 42, 0, "Find the Greatest Common Divisor (GCD) of these numbers: 26, 760. Give only the GCD as your final answer.", "2"},
		{"{}", 42, 1, "Find the Greatest Common Divisor (GCD) of these numbers: 688, 716. Give only the GCD as your final answer.", "4"},
		{"{}", 42, 2, "Find the Greatest Common Divisor (GCD) of these numbers: 297, 30. Give only the GCD as your final answer.", "3"},
		{"{\"min_numbers\": 2, \"max_numbers\": 5, \"min_value\": 1, \"max_value\": 100000}", 7, 0, "Find the Greatest Common Divisor (GCD) of these numbers: 70240, 12338. Give only the GCD as your final answer.", "2"},
		{"{\"min_numbers\": 2, \"max_numbers\": 5, \"min_value\": 1, \"max_value\": 100000}", 7, 1, "Find the Greatest Common Divisor (GCD) of these numbers: 92382, 5739, 11166. Give only the GCD as your final answer.", "3"},
	})
}

func TestGCDNoPanic(t *testing.T) {
	checkNoPanicJSON(t, "gcd", []string{
		`{}`,
		`{"min_numbers": 2, "max_numbers": 5, "min_value": 1, "max_value": 100000}`,
	}, 3000, false)
}
