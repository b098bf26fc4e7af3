package recipes

import "testing"

func TestVerlFamily(t *testing.T) {
	tests := []struct {
		source, family string
		ok             bool
	}{
		{"openai/gsm8k", "gsm8k", true},
		{"HuggingFaceH4/MATH-500", "math_reward", true},
		{"math", "math_dapo", true},
		{"aime_2024", "math_dapo", true},
		{"aime", "math_dapo", true},
		{"numina_olympiads", "prime_math", true},
		{"hiyouga/geometry3k", "geo3k", true},
		{"searchR1_nq", "search_r1", true},
		{"gsm8k", "", false},
		{"openai/gsm8k ", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		f, ok := VerlFamily(tt.source)
		if f != tt.family || ok != tt.ok {
			t.Errorf("VerlFamily(%q) = %q, %v; want %q, %v", tt.source, f, ok, tt.family, tt.ok)
		}
	}
}

func TestScoreVerlUnknownSourceIsAnError(t *testing.T) {
	r := ScoreVerl("no/such", "x", "y")
	if r.Status != StatusError || r.Reason == "" {
		t.Fatalf("got %+v, want StatusError with a reason", r)
	}
}

func TestStatusNames(t *testing.T) {
	for s, want := range map[Status]string{StatusCorrect: "correct", StatusIncorrect: "incorrect",
		StatusNoAnswer: "no_answer", StatusTimeout: "timeout", StatusError: "error", Status(9): "Status(9)"} {
		if s.String() != want {
			t.Errorf("Status(%d).String() = %q, want %q", uint8(s), s.String(), want)
		}
	}
}
