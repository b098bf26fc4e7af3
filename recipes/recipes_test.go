package recipes

import (
	"strings"
	"testing"
)

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

// TestIndexAgreesWithStrings checks index and lastIndex against the
// standard library on needles that start with common and rare bytes,
// matches at both ends, overlaps and texts past the brute-force length.
func TestIndexAgreesWithStrings(t *testing.T) {
	long := strings.Repeat("the answer is near; ", 10)
	texts := []string{
		"", "a", "answer", "ANSWER: 3", long, long + "answers are 4", "is answer" + long,
		strings.Repeat("a", 100) + "answer", strings.Repeat("ab", 80), "x\nis\nyes" + long + "is\n",
		long[:63], long[:64], long[:65], "ü is the answer" + long + "İs answer",
	}
	needles := []string{"answer", "answer:", "answer is", "is ", "is\n", "=", ". ", "aa", "ab", "ba", "zz", "is the answer", "near; the"}
	for _, s := range texts {
		for _, sub := range needles {
			if got, want := index(s, sub), strings.Index(s, sub); got != want {
				t.Errorf("index(%q, %q) = %d, want %d", s, sub, got, want)
			}
			if got, want := lastIndex(s, sub), strings.LastIndex(s, sub); got != want {
				t.Errorf("lastIndex(%q, %q) = %d, want %d", s, sub, got, want)
			}
		}
	}
}

func FuzzIndex(f *testing.F) {
	f.Add(strings.Repeat("is answer ", 10), "answer")
	f.Fuzz(func(t *testing.T, s, sub string) {
		if got, want := index(s, sub), strings.Index(s, sub); got != want {
			t.Fatalf("index(%q, %q) = %d, want %d", s, sub, got, want)
		}
	})
}
