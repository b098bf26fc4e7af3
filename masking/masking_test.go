package masking

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// chars tokenises one token per byte, like the tests' MockTokenizer.
func chars(texts ...string) Fragments {
	f := Fragments{Offsets: []int64{0}}
	for _, t := range texts {
		for _, c := range []byte(t) {
			f.Tokens = append(f.Tokens, int32(c))
		}
		f.Offsets = append(f.Offsets, int64(len(f.Tokens)))
	}
	return f
}

func ids(s string) []int32 {
	out := []int32{}
	for _, c := range []byte(s) {
		out = append(out, int32(c))
	}
	return out
}

func mask(s string) []uint8 {
	out := []uint8{}
	for _, c := range s {
		out = append(out, uint8(c-'0'))
	}
	return out
}

// Fragments: 0 "Q?", 1 "try1", 2 "feedback1", 3 "try2", 4 "", 5 "E".
var frags = chars("Q?", "try1", "feedback1", "try2", "", "E")

// interleaved is test 4 of llenvs' test_token_mask: try1, feedback1, try2.
var interleaved = Trajectory{
	Segments: []Segment{{0, Prompt, 0}, {1, Model, 0}, {2, Environment, 0}, {3, Model, 1}},
	Rewards:  []float64{0.5, 1.0},
}

func TestAssemble(t *testing.T) {
	tests := []struct {
		name      string
		traj      Trajectory
		maxLength int
		response  string
		mask      string
		rewards   []float64
		spans     []Span
		truncated bool
	}{
		{
			name: "interleaved", traj: interleaved, maxLength: NoLimit,
			response: "try1feedback1try2", mask: "11110000000001111",
			rewards: []float64{0, 0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
			spans:   []Span{{0, 4, Model, 0, 1}, {4, 13, Environment, 0, 2}, {13, 17, Model, 1, 3}},
		},
		{
			name:     "empty trajectory",
			traj:     Trajectory{Segments: []Segment{{0, Prompt, 0}}},
			response: "", mask: "", rewards: []float64{}, spans: []Span{}, maxLength: NoLimit,
		},
		{
			name: "empty action puts its reward on the token before",
			traj: Trajectory{Segments: []Segment{{0, Prompt, 0}, {5, Model, 0}, {5, Environment, 0}, {4, Model, 1}},
				Rewards: []float64{1, 2}},
			maxLength: NoLimit, response: "EE", mask: "10", rewards: []float64{3, 0},
			spans: []Span{{0, 1, Model, 0, 5}, {1, 2, Environment, 0, 5}, {2, 2, Model, 1, 4}},
		},
		{
			name: "a first step without tokens puts its reward on the first token",
			traj: Trajectory{Segments: []Segment{{0, Prompt, 0}, {4, Model, 0}, {5, Model, 1}},
				Rewards: []float64{1, 2}},
			maxLength: NoLimit, response: "E", mask: "1", rewards: []float64{3},
			spans: []Span{{0, 0, Model, 0, 4}, {0, 1, Model, 1, 5}},
		},
		{
			name: "cut inside the environment span", traj: interleaved, maxLength: 6,
			response: "try1fe", mask: "111100", rewards: []float64{0, 0, 0, 1.5, 0, 0}, truncated: true,
			spans: []Span{{0, 4, Model, 0, 1}, {4, 6, Environment, 0, 2}},
		},
		{
			name: "cut at the boundary drops the next span", traj: interleaved, maxLength: 13,
			response: "try1feedback1", mask: "1111000000000", truncated: true,
			rewards: []float64{0, 0, 0, 1.5, 0, 0, 0, 0, 0, 0, 0, 0, 0},
			spans:   []Span{{0, 4, Model, 0, 1}, {4, 13, Environment, 0, 2}},
		},
		{
			name: "a limit equal to the length cuts nothing", traj: interleaved, maxLength: 17,
			response: "try1feedback1try2", mask: "11110000000001111",
			rewards: []float64{0, 0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
			spans:   []Span{{0, 4, Model, 0, 1}, {4, 13, Environment, 0, 2}, {13, 17, Model, 1, 3}},
		},
		{
			name: "zero keeps the prompt only", traj: interleaved, maxLength: 0,
			response: "", mask: "", rewards: []float64{}, spans: []Span{}, truncated: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Assemble(tc.traj, frags, tc.maxLength)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.PromptIDs, ids("Q?")) {
				t.Errorf("prompt = %v", res.PromptIDs)
			}
			if !reflect.DeepEqual(res.ResponseIDs, ids(tc.response)) {
				t.Errorf("response = %v, want %q", res.ResponseIDs, tc.response)
			}
			if !reflect.DeepEqual(res.Mask, mask(tc.mask)) {
				t.Errorf("mask = %v, want %s", res.Mask, tc.mask)
			}
			if !reflect.DeepEqual(res.TokenRewards, tc.rewards) {
				t.Errorf("token rewards = %v, want %v", res.TokenRewards, tc.rewards)
			}
			if !reflect.DeepEqual(res.Spans, tc.spans) {
				t.Errorf("spans = %v, want %v", res.Spans, tc.spans)
			}
			if res.Truncated != tc.truncated {
				t.Errorf("truncated = %v", res.Truncated)
			}
			// RewardAt names where each step's reward went
			again := make([]float64, len(res.ResponseIDs))
			for step, pos := range res.RewardAt {
				if pos >= 0 {
					again[pos] += tc.traj.Rewards[step]
				}
			}
			if !reflect.DeepEqual(again, res.TokenRewards) {
				t.Errorf("reward positions %v give %v", res.RewardAt, again)
			}
		})
	}
}

// Every cut point keeps a prefix of the full response, with its mask, and
// keeps the rewards' sum while a token remains.
func TestTruncationAtEveryLength(t *testing.T) {
	full, err := Assemble(interleaved, frags, NoLimit)
	if err != nil {
		t.Fatal(err)
	}
	for m := 0; m <= len(full.ResponseIDs)+1; m++ {
		res, err := Assemble(interleaved, frags, m)
		if err != nil {
			t.Fatal(err)
		}
		k := min(m, len(full.ResponseIDs))
		if !reflect.DeepEqual(res.ResponseIDs, full.ResponseIDs[:k]) || !reflect.DeepEqual(res.Mask, full.Mask[:k]) {
			t.Fatalf("max %d: response %v mask %v", m, res.ResponseIDs, res.Mask)
		}
		if res.Truncated != (m < len(full.ResponseIDs)) {
			t.Fatalf("max %d: truncated = %v", m, res.Truncated)
		}
		sum := 0.0
		for _, r := range res.TokenRewards {
			sum += r
		}
		if k > 0 && sum != 1.5 {
			t.Fatalf("max %d: rewards sum to %v", m, sum)
		}
		end := int32(0)
		for _, s := range res.Spans {
			if s.Start != end {
				t.Fatalf("max %d: spans not contiguous: %v", m, res.Spans)
			}
			end = s.End
		}
		if int(end) != k {
			t.Fatalf("max %d: spans end at %d", m, end)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name  string
		traj  Trajectory
		frags Fragments
		want  string
	}{
		{"fragment out of range", Trajectory{Segments: []Segment{{9, Prompt, 0}}}, frags, "fragment 9 out of range"},
		{"step without reward", Trajectory{Segments: []Segment{{1, Model, 0}}}, frags, "step 0 out of range"},
		{"unknown source", Trajectory{Segments: []Segment{{1, 7, 0}}, Rewards: []float64{0}}, frags, "unknown source 7"},
		{"prompt after response", Trajectory{Segments: []Segment{{1, Model, 0}, {0, Prompt, 0}}, Rewards: []float64{0}},
			frags, "prompt segment after a response segment"},
		{"bad offsets", Trajectory{}, Fragments{Tokens: []int32{1}, Offsets: []int64{0, 2}}, "last offset is 2"},
		{"decreasing offsets", Trajectory{}, Fragments{Tokens: []int32{1}, Offsets: []int64{0, 1, 0, 1}}, "less than"},
		{"no offsets", Trajectory{}, Fragments{}, "at least one entry"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Assemble(tc.traj, tc.frags, NoLimit)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			_, err = AssembleBatch([]Trajectory{tc.traj}, tc.frags, NoLimit, NewColumns)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("batch err = %v, want %q", err, tc.want)
			}
		})
	}
}

// A batch, serial or parallel, equals the trajectories masked one by one.
func TestBatchEqualsSingle(t *testing.T) {
	for _, n := range []int{0, 1, 3, 2000} {
		trajs := make([]Trajectory, n)
		for i := range trajs {
			if i%3 == 0 {
				trajs[i] = Trajectory{Segments: []Segment{{0, Prompt, 0}}}
			} else {
				trajs[i] = interleaved
			}
		}
		for _, maxLength := range []int{NoLimit, 5} {
			cols, err := AssembleBatch(trajs, frags, maxLength, NewColumns)
			if err != nil {
				t.Fatal(err)
			}
			if len(cols.Truncated) != n {
				t.Fatalf("n=%d: %d results", n, len(cols.Truncated))
			}
			checkColumns(t, cols, n)
			for i := range trajs {
				want, _ := Assemble(trajs[i], frags, maxLength)
				if got := cols.Result(i); !reflect.DeepEqual(got, want) {
					t.Fatalf("n=%d item %d: %+v, want %+v", n, i, got, want)
				}
			}
		}
	}
}

// Columns of the wrong lengths, or none, from alloc are an error, never
// an out-of-range write; alloc is not called for an invalid batch.
func TestAllocIsChecked(t *testing.T) {
	short := func(n int, tot Totals) (Columns, error) {
		c, err := NewColumns(n, tot)
		c.Mask = c.Mask[:len(c.Mask)-1]
		return c, err
	}
	if _, err := AssembleBatch([]Trajectory{interleaved}, frags, NoLimit, short); err == nil ||
		!strings.Contains(err.Error(), "lengths do not match") {
		t.Fatalf("a short mask column: %v", err)
	}
	refused := func(int, Totals) (Columns, error) { return Columns{}, errors.New("out of memory") }
	if _, err := AssembleBatch([]Trajectory{interleaved}, frags, NoLimit, refused); err == nil ||
		!strings.Contains(err.Error(), "out of memory") {
		t.Fatalf("a failed allocation: %v", err)
	}
	called := false
	spy := func(n int, tot Totals) (Columns, error) { called = true; return NewColumns(n, tot) }
	bad := Trajectory{Segments: []Segment{{9, Prompt, 0}}}
	if _, err := AssembleBatch([]Trajectory{interleaved, bad}, frags, NoLimit, spy); err == nil || called {
		t.Fatalf("an invalid batch: err %v, alloc called %v", err, called)
	}
}

func TestSourceString(t *testing.T) {
	for s, want := range map[Source]string{Prompt: "prompt", Model: "model", Environment: "environment", 9: "Source(9)"} {
		if s.String() != want {
			t.Errorf("%d: %q", s, s.String())
		}
	}
}
