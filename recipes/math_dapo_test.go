package recipes

import (
	"strings"
	"testing"
)

// The expected dicts were taken from veRL 0.9.1's math_dapo.compute_score.
func TestMathDapo(t *testing.T) {
	tests := []struct {
		name, solution, groundTruth string
		score                       float64
		acc                         bool
		pred                        string
		status                      Status
	}{
		{"minerva", "Answer: 34", "34", 1, true, "34", StatusCorrect},
		{"case and spaces", "ANSWER : 34", "34", 1, true, "34", StatusCorrect},
		{"long s", "AnſWER: 34", "34", 1, true, "34", StatusCorrect},
		{"next line", "Answer:\n34", "34", 1, true, "34", StatusCorrect},
		{"last line wins", "Answer: 3\nAnswer: 34", "34", 1, true, "34", StatusCorrect},
		{"dollars", "Answer: $34$", "34", 1, true, "34", StatusCorrect},
		{"units removed", "Answer: 34 dollars", "34", 1, true, "34", StatusCorrect},
		{"equation", "Answer: x = 34", "34", 1, true, "34", StatusCorrect},
		{"commas", "Answer: 1,234", "1234", 1, true, "1234", StatusCorrect},
		{"boxed in answer", `Answer: \boxed{34}`, "34", 1, true, "34", StatusCorrect},
		{"wrong", "Answer: 35", "34", -1, false, "35", StatusIncorrect},
		{"trailing spaces backtrack to one space", "Answer:   ", "34", -1, false, "", StatusIncorrect},
		{"space then newline at end", "Answer: \n", "34", -1, false, "", StatusIncorrect},
		{"vertical tab is space", "Answer\v:\x1c34", "34", 1, true, "34", StatusCorrect},
		{"box fallback raw compare", `so \boxed{34}`, "34", 1, true, "34", StatusCorrect},
		{"box fallback no normalization", `so \boxed{\frac12}`, `\frac{1}{2}`, -1, false, `\frac12`, StatusIncorrect},
		{"box beyond 100", `\boxed{34}` + strings.Repeat(" x", 60), "34", -1, false, "[INVALID]", StatusNoAnswer},
		{"nothing", "I think 34", "34", -1, false, "[INVALID]", StatusNoAnswer},
		{"invalid ground truth with nothing", "no answer here", "[INVALID]", 1, true, "[INVALID]", StatusCorrect},
		{"answer line cut by clip", "Answer: 34\n" + strings.Repeat("y", 295), "34", -1, false, "[INVALID]", StatusNoAnswer},
		{"empty", "", "34", -1, false, "[INVALID]", StatusNoAnswer},
		{"frac shorthand", `Answer: \frac12`, `\frac{1}{2}`, 1, true, `\frac{1}{2}`, StatusCorrect},
		{"sqrt shorthand", `Answer: \sqrt2`, `\sqrt{2}`, 1, true, `\sqrt{2}`, StatusCorrect},
		{"text", `Answer: \text{A}`, "A", 1, true, "A", StatusCorrect},
		{"superscript digits with commas", "Answer: ²,³", "²³", 1, true, "²³", StatusCorrect},
		{"only commas", "Answer: ,", "", -1, false, ",", StatusIncorrect},
		{"two dollar pairs", "Answer: $3$ and $4$", "3", 1, true, "3", StatusCorrect},
		{"answer literal invalid falls back to box", "Answer: [INVALID]\n\\boxed{34}", "34", 1, true, "34", StatusCorrect},
	}
	for _, tt := range tests {
		got := mathDapoRule(tt.solution, tt.groundTruth)
		if !got.Dict || got.Score != tt.score || got.Acc != tt.acc || got.Pred != tt.pred || got.Status != tt.status {
			t.Errorf("%s: got %+v; want score %v acc %v pred %q status %s", tt.name, got, tt.score, tt.acc, tt.pred, tt.status)
		}
	}
}

// The values are normalize_final_answer's in veRL's math_dapo.py, on
// inputs with newlines (which a ground truth may hold) and nested markup.
func TestNormalizeFinalAnswer(t *testing.T) {
	tests := []struct{ in, want string }{
		{"$1$ $2$\na $3$ b $4$\n$5", "1\n3\n5"},
		{"\\text{a\nb} \\text{c}", "\\text{a\nb}c"},
		{"\\boxed{a}\nb}\\boxed{c}d}e}", "a\nb}c}d}e"},
		{"frac\n1", "frac{\n}{1}"},
		{"fracx\n", "fracx"},
		{"sqrt\n", "sqrt{\n}"},
		{`\text{\text{a}b}`, `\text{ab}`},
		{"  12,345 \u3000", "12,345"},
		{"[INVALID]", "[INVALID]"},
		{`a=b=\frac34`, `\frac{3}{4}`},
		{`x \text{and} y`, "x,y"},
		{"\\text{\nx}", "\\text{\nx}"},
	}
	for _, tt := range tests {
		if got := normalizeFinalAnswer(tt.in); got != tt.want {
			t.Errorf("normalizeFinalAnswer(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPyIsDigit(t *testing.T) {
	for s, want := range map[string]bool{"": false, "12": true, "١٢": true, "²³": true, "①": true, "½": false, "1a": false, "Ⅻ": false} {
		if got := pyIsDigit(s); got != want {
			t.Errorf("pyIsDigit(%q) = %v, want %v", s, got, want)
		}
	}
}
