package recipes

import (
	"strings"
	"testing"
)

func TestMathReward(t *testing.T) {
	big := strings.Repeat("1", pyIntMaxStrDigits)
	runScoreCases(t, "math_reward", []scoreCase{
		{"plain", `so \boxed{5}`, "5", 1, StatusCorrect},
		{"dfrac", `$\boxed{\dfrac{1}{2}}$`, `\frac{1}{2}`, 1, StatusCorrect},
		{"shorthand frac", `\boxed{\frac12}`, `\frac{1}{2}`, 1, StatusCorrect},
		{"slash", `\boxed{1/2}`, `\frac{1}{2}`, 1, StatusCorrect},
		{"half as decimal", `\boxed{0.5}`, `\frac{1}{2}`, 1, StatusCorrect},
		{"leading point", `\boxed{.5}`, `\frac{1}{2}`, 1, StatusCorrect},
		{"short lhs dropped", `\boxed{x = 3}`, "3", 1, StatusCorrect},
		{"long lhs kept", `\boxed{xyz = 3}`, "3", 0, StatusIncorrect},
		{"units", `\boxed{5\text{ cm}}`, "5", 1, StatusCorrect},
		{"two units raise, raw compare", `\boxed{5\text{ cm}\text{ m}}`, "5", 0, StatusIncorrect},
		{"degrees", `\boxed{90^\circ}`, "90", 1, StatusCorrect},
		{"percent", `\boxed{10\%}`, "10", 1, StatusCorrect},
		{"left right", `\boxed{\left(1,2\right)}`, "(1,2)", 1, StatusCorrect},
		{"parentheses matter", `\boxed{ 1 , 2 }`, "(1,2)", 0, StatusIncorrect},
		{"last box wins", `\boxed{5} then \boxed{6}`, "5", 0, StatusIncorrect},
		{"space form wins over later braces", `$\boxed 5$ and later \boxed{6}`, "5", 1, StatusCorrect},
		{"space form up to dollar", `\boxed 5$ and 6`, "5", 1, StatusCorrect},
		{"fbox is 0", `\fbox{5}`, "5", 0, StatusNoAnswer},
		{"boxed newline brace is 0", "\\boxed\n{5}", "5", 0, StatusNoAnswer},
		{"unclosed", `\boxed{5`, "5", 0, StatusNoAnswer},
		{"close before open", `\boxed}{5}`, "5", 0, StatusNoAnswer},
		{"no box", "the answer is 5", "5", 0, StatusNoAnswer},
		{"empty box", `\boxed{}`, "", 1, StatusCorrect},
		{"sqrt shorthand", `\boxed{\sqrt3}`, `\sqrt{3}`, 1, StatusCorrect},
		{"trailing sqrt raises", `\boxed{x\sqrt}`, `x\sqrt`, 1, StatusCorrect},
		{"trailing sqrt raises, raw differs", `\boxed{x \sqrt}`, `x\sqrt`, 0, StatusIncorrect},
		{"frac one char returns input", `\boxed{\frac{1}{2}\frac3}`, `\frac12\frac3`, 0, StatusIncorrect},
		{"int digit limit", `\boxed{` + big + "/2}", `\frac{` + big + "}{2}", 1, StatusCorrect},
		{"past int digit limit", `\boxed{` + big + "1/2}", `\frac{` + big + "1}{2}", 0, StatusIncorrect},
		{"leading zero slash", `\boxed{07/2}`, `\frac{7}{2}`, 0, StatusIncorrect},
		{"minus zero slash", `\boxed{-0/2}`, `\frac{0}{2}`, 0, StatusIncorrect},
		{"unicode", `\boxed{中文}`, "中文", 1, StatusCorrect},
		{"short lhs counts code points", `\boxed{中文=3}`, "3", 1, StatusCorrect},
	})
}

// The values are strip_string's in veRL's math_reward.py; ok=false where it raises.
func TestHendrycksStrip(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`\frac1`, `\frac1`, true},
		{`\frac\frac12`, "", false},
		{`\frac12\frac`, "", false},
		{`5\sqrt`, "", false},
		{`\text{ a}\text{ b}`, "", false},
		{" .5", `\frac{1}{2}`, true},
		{"{.5}", "{0.5}", true},
		{"ab=3", "3", true},
		{"abc=3", "abc=3", true},
		{"a=b=3", "a=b=3", true},
		{"10/4", `\frac{10}{4}`, true},
		{"-3/4", `\frac{-3}{4}`, true},
		{"3/-4", `\frac{3}{-4}`, true},
		{"0.5", `\frac{1}{2}`, true},
		{`\\frac12`, `\frac{1}{2}`, true},
		{`\left(1\right)`, "(1)", true},
		{"", "", true},
	}
	for _, tt := range tests {
		got, ok := hendrycksStrip(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("hendrycksStrip(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// veRL reads the whole response; the rule must stay linear on long ones.
func TestMathRewardLongResponse(t *testing.T) {
	long := strings.Repeat(`{x} \frac12 $ \sqrt `, 1<<16) + `\boxed{\frac{1}{2}}`
	if r := mathRewardRule(long, "0.5"); r.Status != StatusCorrect {
		t.Fatalf("got %+v", r)
	}
	open := strings.Repeat("{", 1<<20)
	if r := mathRewardRule(`\boxed`+open, "1"); r.Status != StatusNoAnswer {
		t.Fatalf("got %+v", r)
	}
	spaced := `\boxed ` + strings.Repeat(`\frac`+"1 ", 1<<16)
	if r := mathRewardRule(spaced, "1"); r.Status != StatusIncorrect {
		t.Fatalf("got %+v", r)
	}
}
