package guessnumber

import (
	"strconv"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

func newEnv(t *testing.T, params map[string]any) *Env {
	t.Helper()
	seed, size := int64(7), int64(200)
	env, err := New(core.EnvConfig{Name: Name, Adapter: "native", Seed: &seed, Size: &size, Params: params,
		AnswerExtractor: "tag_based"})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func guess(n int64) core.Action {
	s := "<answer>" + strconv.FormatInt(n, 10) + "</answer>"
	return core.Action{Text: &s}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		params  map[string]any
		wantErr string
	}{
		{map[string]any{"min_value": 5, "max_value": 5}, "max_value (5) must be > min_value (5)"},
		{map[string]any{"max_valu": 5}, "did you mean 'max_value'"},
		{map[string]any{"max_turns": 0}, "max_turns must be between 1 and 10000, got 0"},
		{map[string]any{"step_penalty": -0.5}, "step_penalty must be between 0"},
		{map[string]any{"max_value": 1e18}, "max_value must be between"},
		{map[string]any{"min_value": "1"}, "want an integer"},
	}
	for _, tt := range tests {
		_, err := New(core.EnvConfig{Name: Name, Params: tt.params, AnswerExtractor: "tag_based"})
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%v: error %v, want %q", tt.params, err, tt.wantErr)
		}
	}
	_, err := New(core.EnvConfig{Name: Name, ExtraRewards: []any{"format"}, AnswerExtractor: "tag_based"})
	if err == nil || !strings.Contains(err.Error(), "extra_rewards") {
		t.Errorf("extra_rewards: %v", err)
	}
}

// TestBisectionFinds plays every task by bisection: each is found within
// ceil(log2(100)) guesses, and the rewards add up.
func TestBisectionFinds(t *testing.T) {
	env := newEnv(t, nil)
	seen := map[int64]bool{}
	for i := 0; i < env.Len(); i++ {
		start, err := env.Reset(core.ResetRequest{TaskIndex: i})
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.ParseInt(*start.Hidden.ExpectedAnswer, 10, 64)
		seen[n] = true
		lo, hi := int64(1), int64(100)
		total := 0.0
		for k := 1; ; k++ {
			g := (lo + hi) / 2
			res, err := start.Episode.Step(guess(g))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range res.Signals {
				total += *s.Reward * s.Weight
			}
			switch res.Info["outcome"] {
			case OutcomeHigher:
				lo = g + 1
			case OutcomeLower:
				hi = g - 1
			case OutcomeCorrect:
				if !res.Terminated || res.Truncated || k > 7 {
					t.Fatalf("task %d: found at guess %d, terminated %v", i, k, res.Terminated)
				}
				if want := 1 - 0.01*float64(k); total < want-1e-9 || total > want+1e-9 {
					t.Fatalf("task %d: total %v, want %v", i, total, want)
				}
			}
			if res.Terminated {
				break
			}
		}
	}
	if len(seen) < 50 {
		t.Fatalf("only %d distinct numbers over 200 tasks", len(seen))
	}
}

func TestFeedback(t *testing.T) {
	env := newEnv(t, map[string]any{"max_turns": 5})
	start, _ := env.Reset(core.ResetRequest{TaskIndex: 3})
	n, _ := strconv.ParseInt(*start.Hidden.ExpectedAnswer, 10, 64)
	str := func(s string) core.Action { return core.Action{Text: &s} }
	tests := []struct {
		action  core.Action
		outcome string
		prompt  string
	}{
		{guess(0), OutcomeOutOfRange, "0 is outside the range 1 to 100. You have 4 guesses left."},
		{str("fifty"), OutcomeInvalid, "No guess found: answer with one integer between 1 and 100 in <answer></answer> tags. You have 3 guesses left."},
		{str("<answer>" + strings.Repeat("9", 5000) + "</answer>"), OutcomeInvalid, "No guess found"},
		{guess(n - 1), OutcomeHigher, "Higher: the number is greater than " + strconv.FormatInt(n-1, 10) + ". You have 1 guess left."},
		{guess(n + 1), OutcomeLower, "Lower: the number is less than " + strconv.FormatInt(n+1, 10) + ". No guesses left; the number was " + strconv.FormatInt(n, 10) + "."},
	}
	for k, tt := range tests {
		res, err := start.Episode.Step(tt.action)
		if err != nil {
			t.Fatal(err)
		}
		if res.Info["outcome"] != tt.outcome || !strings.HasPrefix(res.Observation.Prompt, tt.prompt) {
			t.Fatalf("step %d: outcome %v, prompt %q", k, res.Info["outcome"], res.Observation.Prompt)
		}
		if *res.Signals[0].Feedback != res.Observation.Prompt {
			t.Fatalf("step %d: the signal's feedback is not the prompt", k)
		}
	}
	if _, err := start.Episode.Step(guess(n)); err == nil || !strings.Contains(err.Error(), "finished") {
		t.Fatalf("a step after truncation: %v", err)
	}
	start, _ = env.Reset(core.ResetRequest{TaskIndex: 3})
	if _, err := start.Episode.Step(core.Action{}); err == nil || !strings.Contains(err.Error(), "text=None") {
		t.Fatalf("nil text: %v", err)
	}
}

func TestDeterministic(t *testing.T) {
	a, b := newEnv(t, map[string]any{"min_value": -50, "max_value": 50}), newEnv(t, map[string]any{"min_value": -50, "max_value": 50})
	for i := 0; i < 100; i++ {
		x, _ := a.Number(i)
		y, _ := b.Number(i)
		if x != y || x < -50 || x > 50 {
			t.Fatalf("task %d: %d and %d", i, x, y)
		}
	}
	if _, err := a.Number(200); err == nil {
		t.Fatal("out-of-range index accepted")
	}
}

func TestSystemMessageOpensTheConversation(t *testing.T) {
	system := "Guess in <answer></answer> tags."
	for _, sys := range []*string{nil, &system} {
		seed, size := int64(3), int64(4)
		env, err := New(core.EnvConfig{Name: Name, Adapter: "native", Seed: &seed, Size: &size,
			AnswerExtractor: "tag_based", SystemMessage: sys})
		if err != nil {
			t.Fatal(err)
		}
		start, err := env.Reset(core.ResetRequest{TaskIndex: 0})
		if err != nil {
			t.Fatal(err)
		}
		msgs := start.Observation.Messages
		want := 1
		if sys != nil {
			want = 2
		}
		if len(msgs) != want || msgs[len(msgs)-1].Role != "user" ||
			(sys != nil && (msgs[0].Role != "system" || msgs[0].Content != system)) {
			t.Fatalf("system %v: reset messages %+v", sys != nil, msgs)
		}
	}
}
