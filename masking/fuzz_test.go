package masking

import (
	"math"
	"reflect"
	"testing"
)

// fuzzTrajectory builds fragments and a trajectory from fuzz bytes: up to
// eight fragments of up to 15 ids, then segments of three bytes each
// (fragment, source, step; out-of-range values included) and up to four
// rewards.
func fuzzTrajectory(data []byte, reward float64) (Fragments, Trajectory) {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	frags := Fragments{Offsets: []int64{0}}
	for f, nf := 0, next()%9; f < nf; f++ {
		for k, n := 0, next()%16; k < n; k++ {
			frags.Tokens = append(frags.Tokens, int32(next()*1000+k))
		}
		frags.Offsets = append(frags.Offsets, int64(len(frags.Tokens)))
	}
	var t Trajectory
	for k, nr := 0, next()%5; k < nr; k++ {
		t.Rewards = append(t.Rewards, reward*float64(k+1))
	}
	for len(data) >= 3 {
		t.Segments = append(t.Segments, Segment{Fragment: int32(next()%10) - 1, Source: Source(next() % 4),
			Step: int32(next()%6) - 1})
	}
	return frags, t
}

// validTrajectoryBytes are fuzzTrajectory's bytes of a valid trajectory:
// fragments [1 2] [4 5 6] [7], two rewards, then the prompt (fragment 0),
// a model turn (1), an environment answer (2) and a second model turn (1).
var validTrajectoryBytes = []byte{3, 2, 1, 2, 3, 4, 5, 6, 1, 7, 2, 1, 0, 0, 2, 1, 1, 3, 2, 1, 2, 1, 2}

// FuzzAssemble masks arbitrary trajectories: an invalid one is refused
// with an error; a valid one lays out its prompt and response segments in
// order, masks exactly the model tokens, cuts at maxLength, keeps the sum
// of the rewards when there is a response, and comes back identical
// through AssembleBatch's columns, whose offsets run from 0 to the end of
// each column without decreasing.
func FuzzAssemble(f *testing.F) {
	for _, m := range []int{-1, 0, 1, 3, 5, 100} {
		f.Add(validTrajectoryBytes, 1.0, m)
	}
	f.Add([]byte{2, 0, 3, 1, 2, 3, 1, 1, 0, 0, 2, 1, 1}, -0.5, -1)
	f.Add([]byte{2, 0, 3, 1, 2, 3, 1, 1, 0, 0, 2, 2, 1}, 2.0, 2) // only an environment segment
	f.Add([]byte{1, 2, 9, 9, 1, 1, 1, 1, 1, 0, 0}, 2.0, 0)       // a prompt after the response
	f.Add([]byte{0, 0}, 0.0, 3)
	f.Add(validTrajectoryBytes, math.Inf(1), 1)
	f.Add(validTrajectoryBytes, math.NaN(), -1)
	f.Fuzz(func(t *testing.T, data []byte, reward float64, maxLength int) {
		frags, traj := fuzzTrajectory(data, reward)
		if maxLength < -1 {
			maxLength = -1
		}
		res, err := Assemble(traj, frags, maxLength)
		if err != nil {
			if _, berr := AssembleBatch([]Trajectory{traj}, frags, maxLength, NewColumns); berr == nil {
				t.Fatalf("Assemble refused (%v) what AssembleBatch accepted", err)
			}
			return
		}
		var prompt, response []int32
		var mask []uint8
		for _, s := range traj.Segments {
			ids := frags.Get(int(s.Fragment))
			if s.Source == Prompt {
				prompt = append(prompt, ids...)
				continue
			}
			response = append(response, ids...)
			for range ids {
				mask = append(mask, uint8(s.Source&1))
			}
		}
		if !reflect.DeepEqual(res.PromptIDs, orEmpty(prompt)) {
			t.Fatalf("prompt %v, want %v", res.PromptIDs, prompt)
		}
		n := len(response)
		if maxLength >= 0 && n > maxLength {
			n = maxLength
		}
		if res.Truncated != (n < len(response)) || len(res.ResponseIDs) != n {
			t.Fatalf("response of %d ids (truncated %v) from %d at max %d", len(res.ResponseIDs), res.Truncated, len(response), maxLength)
		}
		if !reflect.DeepEqual(res.ResponseIDs, orEmpty(response[:n])) || !reflect.DeepEqual(res.Mask, orEmpty8(mask[:n])) {
			t.Fatalf("response %v mask %v, want %v %v", res.ResponseIDs, res.Mask, response[:n], mask[:n])
		}
		if len(res.TokenRewards) != n || len(res.RewardAt) != len(traj.Rewards) {
			t.Fatalf("%d token rewards for %d tokens, %d reward positions for %d steps", len(res.TokenRewards), n,
				len(res.RewardAt), len(traj.Rewards))
		}
		if n > 0 && !math.IsInf(reward, 0) && !math.IsNaN(reward) {
			var got, want float64
			for _, r := range res.TokenRewards {
				got += r
			}
			for _, r := range traj.Rewards {
				want += r
			}
			if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Fatalf("token rewards sum to %v, the steps' to %v", got, want)
			}
		}
		for _, sp := range res.Spans {
			if sp.Start < 0 || sp.Start > sp.End || int(sp.End) > n {
				t.Fatalf("span %+v outside the response of %d", sp, n)
			}
		}
		cols, err := AssembleBatch([]Trajectory{traj, traj}, frags, maxLength, NewColumns)
		if err != nil {
			t.Fatalf("AssembleBatch refused what Assemble accepted: %v", err)
		}
		for i := range 2 {
			if b := cols.Result(i); !sameResult(b, res) {
				t.Fatalf("through the batch's columns %+v, direct %+v", b, res)
			}
		}
		checkColumns(t, cols, 2)
	})
}

func orEmpty(s []int32) []int32 {
	if s == nil {
		return []int32{}
	}
	return s
}

func orEmpty8(s []uint8) []uint8 {
	if s == nil {
		return []uint8{}
	}
	return s
}

// sameResult compares two results, NaN rewards equal to themselves.
func sameResult(a, b Result) bool {
	if len(a.TokenRewards) != len(b.TokenRewards) {
		return false
	}
	for i := range a.TokenRewards {
		x, y := a.TokenRewards[i], b.TokenRewards[i]
		if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return false
		}
	}
	a.TokenRewards, b.TokenRewards = nil, nil
	return reflect.DeepEqual(a.PromptIDs, b.PromptIDs) && reflect.DeepEqual(a.ResponseIDs, b.ResponseIDs) &&
		reflect.DeepEqual(a.Mask, b.Mask) && reflect.DeepEqual(a.Spans, b.Spans) && reflect.DeepEqual(a.RewardAt, b.RewardAt) &&
		a.Truncated == b.Truncated
}

// checkColumns checks that each offsets array of a batch of n has n+1
// entries, starts at 0, never decreases and ends at its column's length.
func checkColumns(t *testing.T, c Columns, n int) {
	t.Helper()
	for _, o := range []struct {
		name string
		offs []int32
		end  int
	}{
		{"prompt", c.PromptOffsets, len(c.PromptIDs)}, {"response", c.ResponseOffsets, len(c.ResponseIDs)},
		{"span", c.SpanOffsets, len(c.SpanStart)}, {"step", c.StepOffsets, len(c.RewardAt)},
	} {
		if len(o.offs) != n+1 || o.offs[0] != 0 || int(o.offs[n]) != o.end {
			t.Fatalf("%s offsets %v for a column of %d", o.name, o.offs, o.end)
		}
		for i := 1; i <= n; i++ {
			if o.offs[i] < o.offs[i-1] {
				t.Fatalf("%s offsets decrease at %d: %v", o.name, i, o.offs)
			}
		}
	}
	if len(c.Mask) != len(c.ResponseIDs) || len(c.TokenRewards) != len(c.ResponseIDs) || len(c.Truncated) != n {
		t.Fatalf("mask %d, token rewards %d for %d response ids; %d truncation flags for %d trajectories",
			len(c.Mask), len(c.TokenRewards), len(c.ResponseIDs), len(c.Truncated), n)
	}
}
