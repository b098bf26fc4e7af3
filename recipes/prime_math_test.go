package recipes

import "testing"

// TestPrimeMath checks prime_math against the values veRL 0.9.1's
// verl.utils.reward_score.prime_math.compute_score returned for each case
// (default_compute_score's float of its first item), recorded by running it.
func TestPrimeMath(t *testing.T) {
	cases := []struct {
		solution, groundTruth string
		verl                  float64
	}{
		{`The answer is \boxed{\frac{1}{2}}`, `0.5`, 1},
		{`so \boxed{\sqrt{12}}`, `2\sqrt{3}`, 1},
		{`\boxed{2 \sqrt{3}}`, `2\sqrt{3}`, 1},
		{`\boxed{6.28}`, `2\pi`, 1},
		{`\boxed{2\pi}`, `2\pi`, 1},
		{`\boxed{\frac{\pi}{3}}`, `60^\circ`, 0},
		{`Answer: 50%`, `50`, 1},
		{`\boxed{0.5}`, `50`, 1},
		{`\boxed{5.0003}`, `5`, 1},
		{`\boxed{\frac{2}{4}}`, `\frac{1}{2}`, 0},
		{`\boxed{2/4}`, `1/2`, 0},
		{`\boxed{(1,2)}`, `(1, 2)`, 1},
		{`\boxed{(2, 1)}`, `(1, 2)`, 0},
		{`\boxed{[2, 5]}`, `[2, 5)`, 1},
		{`\boxed{x^2+2x+1}`, `(x+1)^2`, 1},
		{`\boxed{1+3\sqrt{2}}`, `3\sqrt{2}+1`, 1},
		{`\boxed{0.1+0.2}`, `0.3`, 0},
		{`\boxed{0.5x}`, `\frac{x}{2}`, 1},
		{`\boxed{\text{(B)}}`, `B`, 1},
		{`\boxed{b}`, `\text{B}`, 1},
		{`\boxed{1,000}`, `1000`, 1},
		{`\boxed{07}`, `7`, 1},
		{`\boxed{5 \text{ cm}}`, `5`, 1},
		{`I think it is 12.`, `12`, 1},
		{`The answer is 12. Thanks`, `12`, 1},
		{`x = 3 and so y = 4`, `4`, 1},
		{``, `0`, 0},
		{`\boxed{}`, `5`, 0},
		{`\boxed{3_{10}}`, `3`, 1},
		{`\boxed{x_1}`, `5`, 0},
		{"\u0130\u0130\u0130\u0130\u0130 It must be \\frac{3\\pi}{4}", `\frac{3\pi}{4}`, 0},
		{`\boxed{2.9999999}`, `3`, 1},
		{`\boxed{\dfrac{5}{6}}`, `\frac{5}{6}`, 1},
		{`\boxed{-\frac{1}{\sqrt{2}}}`, `-\frac{\sqrt{2}}{2}`, 1},
		{"Step 1: x\nStep 2: y\n\\boxed{7}", `7`, 1},
		{`\boxed{\ln(2)}`, `\ln 2`, 0},
		// Non-ASCII text before the markers: cuts at byte offsets must
		// land where Python's code-point indices do.
		{"Schön, ß und ü: the answer is 7. Danke", `7`, 1},
		{"Größe ist = 12", `12`, 1},
		{"Größe ist = 12", `13`, 0},
		{"ÜBER: Answer: ñ 5", `5`, 0},
		{"é is the answer, so x = 9 é", `9`, 0},
	}
	for _, c := range cases {
		got := ScoreVerl("numina_olympiads", c.solution, c.groundTruth)
		if got.Score != c.verl {
			t.Errorf("prime_math(%q, %q) = %v (%s %s), veRL %v", c.solution, c.groundTruth, got.Score, got.Status, got.Reason, c.verl)
		}
	}
}

// TestPrimeMathStatuses checks the outcome beside the score: what the port
// does not model is an error with the reason, never a guessed verdict, and
// a budget overrun is a timeout.
func TestPrimeMathStatuses(t *testing.T) {
	cases := []struct {
		solution, groundTruth string
		want                  Status
	}{
		{`\boxed{\frac{1}{2}}`, "0.5", StatusCorrect},
		{`\boxed{3}`, "4", StatusIncorrect},
		{"", "4", StatusNoAnswer},
		{`\boxed{\ln(2)}`, `\ln 2`, StatusError},       // sympy's log is not modelled
		{`\boxed{9^9^9}`, `x`, StatusIncorrect},        // refused by should_allow_eval, as in veRL
		{`\boxed{(1+2)*(3+4)}`, `21`, StatusIncorrect}, // an integer reference needs an integer answer
	}
	for _, c := range cases {
		if got := ScoreVerl("numina_cn_k12", c.solution, c.groundTruth); got.Status != c.want {
			t.Errorf("prime_math(%q, %q) status %s (%s), want %s", c.solution, c.groundTruth, got.Status, got.Reason, c.want)
		}
	}
	// A power tower in handle_pi's eval runs out of budget rather than hanging.
	if got := ScoreVerl("numina_cn_k12", `\boxed{9**9**9**9\pi}`, `\pi`); got.Status != StatusTimeout || got.Score != 0 {
		t.Errorf("power tower: %+v, want a timeout scored 0", got)
	}
}
