package iterative

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/reasoninggym"
)

func legCounting(t *testing.T) core.Environment {
	t.Helper()
	seed, size := int64(42), int64(50)
	env, err := reasoninggym.NewEnv(core.EnvConfig{Name: "leg_counting", Adapter: "reasoning_gym", Seed: &seed,
		Size: &size, AnswerExtractor: "tag_based"})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func text(s string) core.Action { return core.Action{Text: &s} }

func TestDecodeConfig(t *testing.T) {
	tests := []struct {
		name    string
		raw     map[string]any
		wantErr string
	}{
		{"defaults", map[string]any{}, ""},
		{"all fields", map[string]any{"max_turns": 5, "include_history": false, "summarize_history": false,
			"submit_keyword": "DONE", "submission_extractor": "tag_based", "submission_extractor_config": map[string]any{},
			"solved_threshold": 0.5, "code_execution": nil}, ""},
		{"unknown key", map[string]any{"max_turn": 3}, "did you mean 'max_turns'"},
		{"zero turns", map[string]any{"max_turns": 0}, "max_turns must be between 1"},
		{"wrong type", map[string]any{"max_turns": "3"}, `field "max_turns": want an integer`},
		{"summarize", map[string]any{"summarize_history": true}, "summarize_history=True"},
		{"code execution", map[string]any{"code_execution": map[string]any{"timeout": 30.0}}, "code_execution"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeConfig(tt.raw)
			if tt.wantErr == "" && err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
	if c := DefaultConfig(); c.MaxTurns != 3 || !c.IncludeHistory || c.SubmitKeyword != "SUBMIT" || c.SolvedThreshold != 1 {
		t.Fatalf("defaults differ from llenvs' IterativeConfig: %+v", c)
	}
}

func TestNewErrors(t *testing.T) {
	inner := legCounting(t)
	if _, err := New(inner, map[string]any{"submission_extractor": "tagbased"}); err == nil ||
		!strings.Contains(err.Error(), "did you mean 'tag_based'") {
		t.Fatalf("unknown extractor: %v", err)
	}
	if _, err := New(inner, map[string]any{"submission_extractor_config": map[string]any{"x": 1}}); err == nil {
		t.Fatal("a submission_extractor_config without an extractor was accepted")
	}
	wrapped, _ := New(inner, nil)
	if _, err := New(wrapped, nil); err == nil || !strings.Contains(err.Error(), "already multi-turn") {
		t.Fatalf("wrapping a multi-turn environment: %v", err)
	}
	s := wrapped.Spec()
	if s.Name != "leg_counting_iterative" || !s.IsMultiTurn || s.MaxSteps != 3 || s.PureStep || wrapped.Len() != 50 {
		t.Fatalf("spec %+v", s)
	}
}

func TestEpisodes(t *testing.T) {
	const right, wrong = "right", "wrong"
	tests := []struct {
		name      string
		cfg       map[string]any
		attempts  []string // right, wrong, or a literal response
		prompts   []string
		term      []bool
		trunc     []bool
		messages  []int
		lastTotal float64
	}{
		{"solved first", nil, []string{right}, []string{CompleteText}, []bool{true}, []bool{false}, []int{2}, 1},
		{"out of turns", nil, []string{wrong, wrong, wrong},
			[]string{"Incorrect, 2 attempts left.", "Incorrect, 1 attempt left.", CompleteText},
			[]bool{false, false, false}, []bool{false, false, true}, []int{3, 5, 6}, 0},
		{"solved second", nil, []string{wrong, right}, []string{"Incorrect, 2 attempts left.", CompleteText},
			[]bool{false, true}, []bool{false, false}, []int{3, 4}, 1},
		{"submit keyword", nil, []string{wrong, "  submit <answer>-1</answer>"},
			[]string{"Incorrect, 2 attempts left.", CompleteText}, []bool{false, true}, []bool{false, false}, []int{3, 4}, 0},
		{"keyword off", map[string]any{"submit_keyword": "", "max_turns": 2}, []string{"SUBMIT", "SUBMIT"},
			[]string{"Incorrect, 1 attempt left.", CompleteText}, []bool{false, false}, []bool{false, true}, []int{3, 4}, 0},
		{"no history", map[string]any{"include_history": false, "max_turns": 4}, []string{wrong, wrong, wrong},
			[]string{"Incorrect, 3 attempts left.", "Incorrect, 2 attempts left.", "Incorrect, 1 attempt left."},
			[]bool{false, false, false}, []bool{false, false, false}, []int{3, 3, 3}, 0},
		{"threshold", map[string]any{"solved_threshold": 0.0}, []string{wrong}, []string{CompleteText},
			[]bool{true}, []bool{false}, []int{2}, 0},
		{"submission extractor", map[string]any{"submission_extractor": "regex",
			"submission_extractor_config": map[string]any{"pattern": `ANSWER: (<answer>\d+</answer>)`}},
			[]string{"noise <answer>-5</answer> ANSWER: " + right}, []string{CompleteText}, []bool{true}, []bool{false},
			[]int{2}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, err := New(legCounting(t), tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			start, err := env.Reset(core.ResetRequest{TaskIndex: 7})
			if err != nil {
				t.Fatal(err)
			}
			truth := *start.Hidden.ExpectedAnswer
			if n := len(start.Observation.Messages); n != 1 || start.Observation.Messages[0].Content != start.Observation.Prompt {
				t.Fatalf("the first user turn is not the message history: %+v", start.Observation.Messages)
			}
			if !strings.Contains(start.Observation.Prompt, "turn(s) to solve this task") {
				t.Fatalf("initial prompt %q", start.Observation.Prompt)
			}
			var res core.StepResult
			for k, a := range tt.attempts {
				resp := strings.NewReplacer(right, "<answer>"+truth+"</answer>", wrong, "<answer>-1</answer>").Replace(a)
				res, err = start.Episode.Step(text(resp))
				if err == nil {
					err = res.Complete()
				}
				if err != nil {
					t.Fatalf("step %d: %v", k, err)
				}
				if res.Observation.Prompt != tt.prompts[k] || res.Terminated != tt.term[k] || res.Truncated != tt.trunc[k] {
					t.Fatalf("step %d: prompt %q terminated %v truncated %v", k, res.Observation.Prompt, res.Terminated,
						res.Truncated)
				}
				if len(res.Observation.Messages) != tt.messages[k] {
					t.Fatalf("step %d: %d messages, want %d: %+v", k, len(res.Observation.Messages), tt.messages[k],
						res.Observation.Messages)
				}
				if res.Info["turn"] != k+1 || res.Info["turns_remaining"] != env.Config().MaxTurns-(k+1) {
					t.Fatalf("step %d: info %v", k, res.Info)
				}
			}
			if got := *res.Signals[0].Reward; got != tt.lastTotal {
				t.Fatalf("last correctness %v, want %v", got, tt.lastTotal)
			}
			if _, err := start.Episode.Step(text("again")); (res.Terminated || res.Truncated) && !errors.Is(err, ErrFinished) {
				t.Fatalf("a step after the end: %v", err)
			}
		})
	}
}

func TestStepErrors(t *testing.T) {
	env, _ := New(legCounting(t), nil)
	start, _ := env.Reset(core.ResetRequest{TaskIndex: 0})
	if _, err := start.Episode.Step(core.Action{}); err == nil || !strings.Contains(err.Error(), "text=None") {
		t.Fatalf("nil text: %v", err)
	}
	if _, err := env.Reset(core.ResetRequest{TaskIndex: 50}); err == nil {
		t.Fatal("an out-of-range index was accepted")
	}
	huge := strings.Repeat("x", 8<<20) + "<answer>1</answer>"
	if res, err := start.Episode.Step(text(huge)); err != nil || res.Terminated {
		t.Fatalf("huge text: %v %+v", err, res.Info)
	}
}

func TestIsSubmit(t *testing.T) {
	tests := []struct {
		text, kw string
		want     bool
	}{
		{"SUBMIT 4", "SUBMIT", true}, {"\n\t submit", "SUBMIT", true}, {"sub", "SUBMIT", false},
		{"I SUBMIT", "SUBMIT", false}, {"done!", "Done", true}, {"SUBMIT", "", false}, {"straße", "STRASSE", true},
		// ASCII fast path and its way out: a non-ASCII letter may upper-case to ASCII (ſ -> S, ı -> I).
		{"sUbMiT now", "submit", true}, {"SUBMITTED", "submit", true}, {"ſubmit", "SUBMIT", true},
		{"submıt", "SUBMIT", true}, {"SUBMIé", "SUBMIT", false}, {"SUBMI", "SUBMIT", false}, {"", "SUBMIT", false},
	}
	for _, tt := range tests {
		if got := IsSubmit(tt.text, tt.kw); got != tt.want {
			t.Errorf("IsSubmit(%q, %q) = %v", tt.text, tt.kw, got)
		}
	}
}

func TestDeterministicAndConcurrent(t *testing.T) {
	env, _ := New(legCounting(t), map[string]any{"max_turns": 4})
	play := func(i int) []string {
		start, err := env.Reset(core.ResetRequest{TaskIndex: i})
		if err != nil {
			t.Error(err)
			return nil
		}
		out := []string{start.Observation.Prompt}
		for k := 0; k < 4; k++ {
			res, err := start.Episode.Step(text("<answer>" + string(rune('0'+k)) + "</answer>"))
			if err != nil {
				t.Error(err)
				return nil
			}
			out = append(out, res.Observation.Prompt)
			if res.Terminated || res.Truncated {
				break
			}
		}
		return out
	}
	want := make([][]string, 50)
	for i := range want {
		want[i] = play(i)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range want {
				if got := play(i); strings.Join(got, "|") != strings.Join(want[i], "|") {
					t.Errorf("task %d differs across runs", i)
				}
			}
		}()
	}
	wg.Wait()
}

func TestNewEnvironmentWraps(t *testing.T) {
	seed := int64(1)
	env, err := core.NewEnvironment(core.EnvConfig{Name: "leg_counting", Adapter: "reasoning_gym", Seed: &seed,
		AnswerExtractor: "tag_based", Iterative: map[string]any{"max_turns": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if s := env.Spec(); s.Name != "leg_counting_iterative" || s.MaxSteps != 2 {
		t.Fatalf("spec %+v", s)
	}
	if _, err := core.NewEnvironment(core.EnvConfig{Name: "leg_counting", Adapter: "reasoning_gym", Seed: &seed,
		AnswerExtractor: "tag_based", Iterative: map[string]any{"max_turnz": 2}}); err == nil {
		t.Fatal("a bad iterative key was accepted")
	}
}

// roles lists the roles of msgs.
func roles(msgs []core.Message) string {
	rs := make([]string, len(msgs))
	for k, m := range msgs {
		rs[k] = m.Role
	}
	return strings.Join(rs, ",")
}

func TestSystemMessageOpensTheConversation(t *testing.T) {
	system := "Put your final answer in <answer></answer> tags."
	seed := int64(1)
	cases := []struct {
		name      string
		system    *string
		history   bool
		reset     string
		afterTwo  string // after two wrong answers
		firstText string
	}{
		{"no system message", nil, true, "user", "user,assistant,user,assistant,user", ""},
		{"system message", &system, true, "system,user", "system,user,assistant,user,assistant,user", system},
		{"system message, latest exchange only", &system, false, "system,user", "system,user,assistant,user", system},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, err := core.NewEnvironment(core.EnvConfig{Name: "leg_counting", Adapter: "reasoning_gym", Seed: &seed,
				AnswerExtractor: "tag_based", SystemMessage: c.system,
				Iterative: map[string]any{"max_turns": 3, "include_history": c.history}})
			if err != nil {
				t.Fatal(err)
			}
			start, err := env.Reset(core.ResetRequest{TaskIndex: 3})
			if err != nil {
				t.Fatal(err)
			}
			if got := roles(start.Observation.Messages); got != c.reset {
				t.Fatalf("reset roles %s, want %s", got, c.reset)
			}
			var res core.StepResult
			for k := 0; k < 2; k++ {
				if res, err = start.Episode.Step(text("<answer>-1</answer>")); err != nil {
					t.Fatal(err)
				}
			}
			msgs := res.Observation.Messages
			if got := roles(msgs); got != c.afterTwo {
				t.Fatalf("roles after two steps %s, want %s", got, c.afterTwo)
			}
			if c.system != nil && msgs[0].Content != c.firstText {
				t.Fatalf("first message %q", msgs[0].Content)
			}
			if !strings.Contains(msgs[len(msgs)-1].Content, "1 attempt left") {
				t.Fatalf("last message %q", msgs[len(msgs)-1].Content)
			}
		})
	}
}

// The "initial" and "feedback" prompts of the config replace the user turns'
// texts, placeholders filled in; an unknown prompt name is an error.
func TestPromptOverrides(t *testing.T) {
	env, err := New(legCounting(t), map[string]any{"max_turns": 3, "prompts": map[string]any{
		"initial":  "Task: {task} ({turns} tries; {submit_keyword} ends)",
		"feedback": "No. {attempts_left} left.{feedback}"}})
	if err != nil {
		t.Fatal(err)
	}
	start, err := env.Reset(core.ResetRequest{TaskIndex: 1})
	if err != nil {
		t.Fatal(err)
	}
	inner, _ := legCounting(t).Reset(core.ResetRequest{TaskIndex: 1})
	if want := "Task: " + inner.Observation.Prompt + " (3 tries; SUBMIT ends)"; start.Observation.Prompt != want {
		t.Fatalf("initial prompt %q, want %q", start.Observation.Prompt, want)
	}
	for k, want := range []string{"No. 2 left.", "No. 1 left."} {
		res, err := start.Episode.Step(text("<answer>-1</answer>"))
		if err != nil {
			t.Fatal(err)
		}
		if res.Observation.Prompt != want {
			t.Fatalf("step %d: prompt %q, want %q", k, res.Observation.Prompt, want)
		}
	}
	if _, err := New(legCounting(t), map[string]any{"prompts": map[string]any{"initail": "x"}}); err == nil ||
		!strings.Contains(err.Error(), `unknown prompt "initail"`) {
		t.Fatalf("unknown prompt name: %v", err)
	}
}
