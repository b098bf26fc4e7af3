package reasoninggym

import "testing"

func TestLCMConfig(t *testing.T) {
	checkConfigsJSON(t, "lcm",
		[]string{`{}`, `{"min_numbers": 3, "max_numbers": 5, "min_value": 1, "max_value": 2}`},
		[]string{`{"min_numbers": 1}`, `{"min_numbers": 3, "max_numbers": 2}`, `{"min_value": 0}`,
			`{"min_value": 5, "max_value": 5}`, `{"max_value": "100"}`, `{"seed": 3}`})
}

func TestLCMScore(t *testing.T) {
	checkOracleScores(t, "lcm", defaultScoreAnswerCases)
}

func TestLCMGolden(t *testing.T) {
	// Printed by reasoning-gym 0.1.25.
	checkGoldenJSON(t, "lcm", []goldenJSON{
		{"{}", 42, 0, "Find the Least Common Multiple (LCM) of these numbers: 95, 14", "1330"},
		{"{}", 42, 1, "Find the Least Common Multiple (LCM) of these numbers: 60, 48", "240"},
		{"{}", 42, 2, "Find the Least Common Multiple (LCM) of these numbers: 38, 4", "76"},
		{"{\"min_numbers\": 3, \"max_numbers\": 6, \"min_value\": 1, \"max_value\": 100000}", 7, 0, "Find the Least Common Multiple (LCM) of these numbers: 19773, 51751, 85320, 6329, 9495", "12954396957837458760"},
		{"{\"min_numbers\": 3, \"max_numbers\": 6, \"min_value\": 1, \"max_value\": 100000}", 7, 1, "Find the Least Common Multiple (LCM) of these numbers: 11166, 17937, 32433", "721758727854"},
	})
}

func TestLCMNoPanic(t *testing.T) {
	checkNoPanicJSON(t, "lcm", []string{
		`{}`,
		`{"min_numbers": 3, "max_numbers": 6, "min_value": 1, "max_value": 100000}`,
	}, 3000, false)
}
