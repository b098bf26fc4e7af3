package masking

import (
	"fmt"
)

// Source says who produced a segment's tokens.
type Source int32

// The sources of a segment. Prompt tokens go to the prompt, Model tokens to
// the response at mask 1, Environment tokens to the response at mask 0.
const (
	Prompt      Source = 0
	Model       Source = 1
	Environment Source = 2
)

// String returns the source's name as MaskedTrajectory spans spell it.
func (s Source) String() string {
	switch s {
	case Prompt:
		return "prompt"
	case Model:
		return "model"
	case Environment:
		return "environment"
	}
	return fmt.Sprintf("Source(%d)", int32(s))
}

// Fragments is a ragged array of token ids: fragment f is
// Tokens[Offsets[f]:Offsets[f+1]].
type Fragments struct {
	Tokens  []int32
	Offsets []int64
}

// Len is the number of fragments.
func (f Fragments) Len() int {
	if len(f.Offsets) == 0 {
		return 0
	}
	return len(f.Offsets) - 1
}

// Get returns the ids of fragment i (not a copy).
func (f Fragments) Get(i int) []int32 { return f.Tokens[f.Offsets[i]:f.Offsets[i+1]] }

// Validate checks that the offsets start at 0, never decrease and end at
// len(Tokens).
func (f Fragments) Validate() error {
	if len(f.Offsets) == 0 {
		return fmt.Errorf("fragments: offsets must have at least one entry (0)")
	}
	if f.Offsets[0] != 0 {
		return fmt.Errorf("fragments: offsets[0] is %d, want 0", f.Offsets[0])
	}
	for i := 1; i < len(f.Offsets); i++ {
		if f.Offsets[i] < f.Offsets[i-1] {
			return fmt.Errorf("fragments: offsets[%d] = %d is less than offsets[%d] = %d",
				i, f.Offsets[i], i-1, f.Offsets[i-1])
		}
	}
	if last := f.Offsets[len(f.Offsets)-1]; last != int64(len(f.Tokens)) {
		return fmt.Errorf("fragments: last offset is %d but there are %d tokens", last, len(f.Tokens))
	}
	return nil
}

// Segment is one piece of a trajectory: a fragment's ids, who produced
// them and the step (transition index, from 0) they belong to. A step of
// Prompt segments is ignored.
type Segment struct {
	Fragment int32
	Source   Source
	Step     int32
}

// Trajectory describes one trajectory: its segments in order (the prompt
// segments first) and one reward per step.
type Trajectory struct {
	Segments []Segment
	Rewards  []float64
}

// Span is one response segment as it was laid out: tokens
// [Start, End) of the response, possibly fewer than its fragment has when
// the response was cut.
type Span struct {
	Start, End int32
	Source     Source
	Step       int32
	Fragment   int32
}

// Result is one masked trajectory.
type Result struct {
	PromptIDs    []int32
	ResponseIDs  []int32
	Mask         []uint8   // 1 = model token, 0 = environment token
	TokenRewards []float64 // one per response token
	Spans        []Span
	// RewardAt is, per step, the response position its reward went to
	// (-1 when the response is empty).
	RewardAt  []int32
	Truncated bool
}

// NoLimit as a maximum length leaves the response uncut.
const NoLimit = -1

// layout is where one trajectory's pieces go, computed before any token
// is copied so that a batch can be written straight into its buffer.
type layout struct {
	promptLen, responseLen, spans int
	truncated                     bool
}

func check(t *Trajectory, frags Fragments) error {
	n := int32(frags.Len())
	seenResponse := false
	for i, s := range t.Segments {
		if s.Fragment < 0 || s.Fragment >= n {
			return fmt.Errorf("segment %d: fragment %d out of range [0, %d)", i, s.Fragment, n)
		}
		switch s.Source {
		case Prompt:
			if seenResponse {
				return fmt.Errorf("segment %d: a prompt segment after a response segment", i)
			}
		case Model, Environment:
			seenResponse = true
			if s.Step < 0 || int(s.Step) >= len(t.Rewards) {
				return fmt.Errorf("segment %d: step %d out of range [0, %d) (one reward per step)",
					i, s.Step, len(t.Rewards))
			}
		default:
			return fmt.Errorf("segment %d: unknown source %d", i, int32(s.Source))
		}
	}
	return nil
}

// plan lays out t without copying: how long its prompt and response are,
// how many spans remain, and whether the response is cut at maxLength.
func plan(t *Trajectory, frags Fragments, maxLength int) layout {
	var l layout
	for _, s := range t.Segments {
		n := int(frags.Offsets[s.Fragment+1] - frags.Offsets[s.Fragment])
		if s.Source == Prompt {
			l.promptLen += n
			continue
		}
		if maxLength >= 0 && l.responseLen+n > maxLength {
			if room := maxLength - l.responseLen; room > 0 {
				l.responseLen += room
				l.spans++
			}
			l.truncated = true
			break
		}
		l.responseLen += n
		l.spans++
	}
	return l
}

// out is where fill writes one trajectory: slices of exactly the lengths
// its layout names (the span fields one column each, as Columns has them).
type out struct {
	prompt, response                                       []int32
	mask                                                   []uint8
	rewards                                                []float64
	rewardAt                                               []int32
	spanStart, spanEnd, spanSource, spanStep, spanFragment []int32
}

// fill writes t, laid out as l, into o.
func fill(t *Trajectory, frags Fragments, l layout, o out) {
	prompt, response, mask, rewards, rewardAt := o.prompt, o.response, o.mask, o.rewards, o.rewardAt
	p, r, k := 0, 0, 0
	steps := len(t.Rewards)
	lastModel := make([]int, steps)
	lastAny := make([]int, steps)
	for i := range lastModel {
		lastModel[i], lastAny[i] = -1, -1
	}
	for _, s := range t.Segments {
		ids := frags.Get(int(s.Fragment))
		if s.Source == Prompt {
			p += copy(prompt[p:], ids)
			continue
		}
		if k == l.spans {
			break
		}
		n := copy(response[r:], ids) // cut by the response's length when truncated
		var m uint8
		if s.Source == Model {
			m = 1
		}
		for j := r; j < r+n; j++ {
			mask[j] = m
		}
		o.spanStart[k], o.spanEnd[k], o.spanSource[k], o.spanStep[k], o.spanFragment[k] =
			int32(r), int32(r+n), int32(s.Source), s.Step, s.Fragment
		k++
		if n > 0 {
			lastAny[s.Step] = r + n - 1
			if s.Source == Model {
				lastModel[s.Step] = r + n - 1
			}
		}
		r += n
	}
	for i := range rewards {
		rewards[i] = 0
	}
	for i := range rewardAt {
		rewardAt[i] = -1
	}
	if len(rewards) == 0 {
		return
	}
	// A step without a model token of its own puts its reward on the last
	// model token before its end, else the last response token before it.
	beforeModel, beforeAny := -1, -1
	for step := 0; step < steps; step++ {
		beforeModel = max(beforeModel, lastModel[step])
		beforeAny = max(beforeAny, lastAny[step])
		pos := lastModel[step]
		if pos < 0 {
			pos = beforeModel
		}
		if pos < 0 {
			pos = beforeAny
		}
		if pos < 0 {
			pos = 0
		}
		rewards[pos] += t.Rewards[step]
		rewardAt[step] = int32(pos)
	}
}

// Assemble masks one trajectory. Prompt segments make the prompt; the
// others make the response in order, model tokens at mask 1 and
// environment tokens at mask 0. With maxLength >= 0 the response keeps at
// most maxLength tokens: the segment that crosses the limit is cut, the
// ones after it are dropped and Truncated is set. Each step's reward goes
// on the last model token of that step; a step without one (an empty
// action, or one cut away) puts it on the last model token before the
// step's end, else on the last response token before it, else on the
// first response token; with an empty response the rewards have nowhere
// to go.
func Assemble(t Trajectory, frags Fragments, maxLength int) (Result, error) {
	if err := frags.Validate(); err != nil {
		return Result{}, err
	}
	if err := check(&t, frags); err != nil {
		return Result{}, err
	}
	c, err := AssembleBatch([]Trajectory{t}, frags, maxLength, NewColumns)
	if err != nil {
		return Result{}, err
	}
	return c.Result(0), nil
}
