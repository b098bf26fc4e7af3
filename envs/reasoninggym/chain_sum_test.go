package reasoninggym

import (
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

func TestChainSumConfig(t *testing.T) {
	checkConfigsJSON(t, "chain_sum",
		[]string{`{}`, `{"min_terms": 1, "max_terms": 1}`, `{"allow_negation": true, "min_digits": 30, "max_digits": 30}`},
		[]string{`{"min_terms": 0}`, `{"min_terms": 3, "max_terms": 2}`, `{"min_digits": 0}`,
			`{"min_digits": 3, "max_digits": 2}`, `{"allow_negation": "yes"}`, `{"seed": 1}`, `{"operators": ["+"]}`})
}

func TestChainSumScore(t *testing.T) {
	// Expected values printed by reasoning-gym 0.1.25's
	// ChainSumDataset.score_answer (compute_decimal_reward, Python 3.11).
	checkOracleScores(t, "chain_sum", []oracleScoreCase{
		{"1692", "1692", true, 1.0},
		{"1692", "+01,692.00", true, 1.0},
		{"1692", "1_692", true, 1.0},
		{"1692", " 1692 ", true, 1.0},
		{"1692", "x1692", true, 0.8},
		{"1692", "1692 apples", true, 0.36363636363636365},
		{"1692", "", false, 0.0},
		{"1692", "", true, 0.0},
		{"1692", "1.692e3", true, 1.0},
		{"1692", "16920e-1", true, 1.0},
		{"1692", "\u0661\u0666\u0669\u0662", true, 1.0},
		{"1692", "\uff11\uff16\uff19\uff12", true, 1.0},
		{"1692", "\U00011f51\U00011f56\U00011f59\U00011f52", true, 0.0}, // Unicode 15 digits: not in 3.11
		{"1692", "\U0001d7cf\U0001d7d4\U0001d7d7\U0001d7d0", true, 1.0},
		{"1692", "1692\u00a0", true, 1.0},
		{"1692", "1 692", true, 0.0},
		{"1692", "1692e", true, 0.8},
		{"1692", "inf", true, 0.0},
		{"1692", "NaN1692", true, 0.5714285714285714},
		{"1692", "sNaN", true, 0.0},
		{"-5", "-5.0", true, 1.0},
		{"-5", "5", true, 0.0},
		{"-5", "- 5", true, 0.0},
		{"0", "-0", true, 1.0},
		{"0", "0e999999999999999999", true, 1.0},
		{"0", "0e1000000000000000000", true, 0.047619047619047616},
		{"0", "0E-1999999999999999997", true, 1.0},
		{"0", "0E-1999999999999999998", true, 0.045454545454545456},
		{"1692", "1692e-0", true, 1.0},
		{"1692", ",,1692,,", true, 1.0},
		{"1692", "_", true, 0.0},
		{"1692", "1692\u0000", true, 0.8},
		{"1692", "\u001c1692\u001f", true, 1.0},
		{"1692", "16,92", true, 1.0},
		{"1692", "1692.0000000000000000000000001", true, 0.13333333333333333},
		{"-42", "The answer is -42.", true, 0.16666666666666666},
		{"7", "7777777777777777777777777777777777777777", true, 0.025},
		{"1692", ".1692e4", true, 1.0},
		{"1692", "1692.", true, 1.0},
		{"1692", "1692e+", true, 0.6666666666666666},
		{"1692", " _1692_ ", true, 1.0},
		{"1692", "1692 _", true, 0.6666666666666666},
		{"1692", "1692e99999999999999999999999999", true, 0.12903225806451613},
		{"12", "1.2E1", true, 1.0},
		{"12", "12\u2003", true, 1.0},
		{"12", "\u3000 12", true, 1.0},
	})
}

func TestChainSumScoreHugeInput(t *testing.T) {
	task := mustTaskJSON(t, "chain_sum", "{}")
	e := Entry{Answer: "15"}
	huge := "1" + strings.Repeat("0", 1<<20) + "e-1048575"
	if got := task.Score(huge, true, &e); got != 0 {
		t.Errorf("10 with a million zeros: got %v, want 0", got)
	}
	if got := task.Score("15"+strings.Repeat("0", 1<<20)+"e-1048576", true, &e); got != 1 {
		t.Errorf("15 shifted back: got %v, want 1", got)
	}
}

func TestChainSumGolden(t *testing.T) {
	// Printed by reasoning-gym 0.1.25.
	checkGoldenJSON(t, "chain_sum", []goldenJSON{
		{"{}", 42, 0, "State the final answer to the following arithmetic problem: 4 + 3 =", "7"},
		{"{}", 42, 1, "State the final answer to the following arithmetic problem: 812 + 880 =", "1692"},
		{"{}", 42, 2, "State the final answer to the following arithmetic problem: 2 + 6 + 3 + 4 + 0 =", "15"},
		{"{\"allow_negation\": true, \"min_terms\": 3, \"max_terms\": 12, \"max_digits\": 10}", 7, 0, "State the final answer to the following arithmetic problem: -191 + 334 + -901 + -851 + 682 - 98 - -807 + -251 =", "-469"},
		{"{\"allow_negation\": true, \"min_terms\": 3, \"max_terms\": 12, \"max_digits\": 10}", 7, 1, "State the final answer to the following arithmetic problem: -212793 + -735064 + -595005 + 478109 - -908189 + -821353 =", "-977917"},
		{"{\"min_digits\": 15, \"max_digits\": 25, \"max_terms\": 30}", 8589934609, 0, "State the final answer to the following arithmetic problem: 4932299427944477860178659 + 9587890082924490292893055 + 8267198532983205156423735 - 2366712966329762273642169 + 7527336860824782835307397 + 6462258893852923720399043 - 4193331060027158678230806 + 6710684171448276138867489 - 6798235691351721386358391 - 2970617486603886390050641 - 6254015825410721953522191 + 1621043485270913093695898 =", "22525798425525818415961078"},
	})
}

func TestChainSumNoPanic(t *testing.T) {
	checkNoPanicJSON(t, "chain_sum", []string{
		`{}`,
		`{"allow_negation": true, "min_terms": 3, "max_terms": 12, "max_digits": 10}`,
		`{"min_digits": 15, "max_digits": 25, "max_terms": 30}`,
	}, 3000, false)
}

// TestChainSumSmallMatchesBig checks the int64 path against the big.Int
// one: same expression, same answer, same random draws.
func TestChainSumSmallMatchesBig(t *testing.T) {
	for _, neg := range []bool{false, true} {
		for digits := 1; digits <= 15; digits++ {
			for _, terms := range []int{1, 2, 6, 40} {
				for seed := int64(0); seed < 20; seed++ {
					var r1, r2 pycompat.Random
					r1.SeedSum(seed, int64(digits*100+terms))
					r2.SeedSum(seed, int64(digits*100+terms))
					e1, a1 := chainSumSmall(&r1, terms, digits, neg)
					e2, a2 := chainSumBig(&r2, terms, digits, neg)
					if e1 != e2 || a1 != a2 || r1.Uint32() != r2.Uint32() {
						t.Fatalf("digits %d terms %d neg %v seed %d: small (%q, %q), big (%q, %q)",
							digits, terms, neg, seed, e1, a1, e2, a2)
					}
				}
			}
		}
	}
}
