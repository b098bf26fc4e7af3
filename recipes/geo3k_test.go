package recipes

import "testing"

// TestGeo3k checks geo3k against the values veRL 0.9.1's
// verl.utils.reward_score.geo3k.compute_score (mathruler's grader) returned
// for each case, recorded by running it: 0.9 * accuracy + 0.1 * format.
func TestGeo3k(t *testing.T) {
	cases := []struct {
		solution, groundTruth string
		verl                  float64
	}{
		{`<think>x</think> \boxed{6\sqrt{3}}`, `6\sqrt{3}`, 1},
		{`<think>x</think> \boxed{\sqrt{108}}`, `6\sqrt{3}`, 1},
		{`<think>x</think> \boxed{10.39}`, `6\sqrt{3}`, 0.1},
		{`\boxed{14}`, `14`, 0.9},
		{`<think>x</think> The answer is 14`, `14`, 0},
		{`<think>x</think> \boxed{15}`, `14`, 0.1},
		{`<think>\boxed{14}</think> 14`, `14`, 0.9},
		{`<think>x</think> \boxed{133/2}`, `66.5`, 1},
		{`<think>x</think> \boxed{66.50}`, `66.5`, 1},
		{`<think>x</think> \boxed{\frac{80}{6}}`, `\frac{40}{3}`, 0.1},
		{`<think>x</think> \boxed{x = {14}}`, `14`, 0.1},
		{`<think>x</think> \boxed{}`, `14`, 0.1},
		{``, `14`, 0},
		{`<think>x</think> \boxed{14^\circ}`, `14`, 1},
		{`<think>x</think> \boxed{14\%}`, `14`, 1},
		{`<think>x</think> \boxed{13.333333333333334}`, `\frac{40}{3}`, 0.1},
		{`<think>x</think> \boxed{8.60}`, `8.6`, 1},
		{`<THINK>x</THINK> \boxed{14}`, `14`, 0.9},
		{`<think>x</think> \boxed{None}`, `none`, 1},
	}
	for _, c := range cases {
		got := ScoreVerl("hiyouga/geometry3k", c.solution, c.groundTruth)
		if got.Score != c.verl {
			t.Errorf("geo3k(%q, %q) = %v (%s %s), veRL %v", c.solution, c.groundTruth, got.Score, got.Status, got.Reason, c.verl)
		}
	}
}

func TestGeo3kFormat(t *testing.T) {
	cases := []struct {
		s  string
		ok bool
	}{
		{`<think>a</think>\boxed{1}`, true},
		{"<think>\n</think>\n\\boxed{\n}\n", true},
		{`<think>a</think>\boxed{`, false},
		{` <think>a</think>\boxed{1}`, false},
		{`<think>\boxed{1}</think>`, false},
		{`<think></think>\boxed{}`, true},
	}
	for _, c := range cases {
		if got := geo3kFormatOK(c.s); got != c.ok {
			t.Errorf("geo3kFormatOK(%q) = %v, want %v", c.s, got, c.ok)
		}
	}
}
