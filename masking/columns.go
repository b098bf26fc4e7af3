package masking

import (
	"fmt"
	"math"
	"runtime"

	"github.com/llenvs/llenvs-go/internal/workers"
)

// Totals are the sizes of a batch's columns, all known before any token is
// copied: the prompt and response tokens, the spans and the steps (one
// reward each) of every trajectory together.
type Totals struct {
	Prompt, Response, Spans, Steps int
}

// Columns are a batch's results as flat columns, one entry per trajectory
// in each offsets array: trajectory i's prompt is
// PromptIDs[PromptOffsets[i]:PromptOffsets[i+1]], its response (ids, mask
// and token rewards alike) is at ResponseOffsets[i] .. [i+1], its spans
// (one entry in each Span* column) at SpanOffsets, and its steps (RewardAt)
// at StepOffsets. The offsets are int32, as Arrow's list offsets are.
//
// A span's start and end count response tokens of its own trajectory; its
// fragment is the caller's fragment index.
type Columns struct {
	PromptOffsets, ResponseOffsets, SpanOffsets, StepOffsets []int32 // n+1 each
	PromptIDs                                                []int32 // Totals.Prompt
	ResponseIDs                                              []int32 // Totals.Response
	Mask                                                     []uint8 // Totals.Response: 1 model, 0 environment
	TokenRewards                                             []float64
	SpanStart, SpanEnd, SpanSource, SpanStep, SpanFragment   []int32 // Totals.Spans each
	RewardAt                                                 []int32 // Totals.Steps: -1 when nowhere
	Truncated                                                []uint8 // n: 1 when the response was cut
}

// NewColumns allocates the columns of n trajectories of the given totals on
// the Go heap (AssembleBatch's alloc for Go callers and tests).
func NewColumns(n int, t Totals) (Columns, error) {
	return Columns{
		PromptOffsets: make([]int32, n+1), ResponseOffsets: make([]int32, n+1),
		SpanOffsets: make([]int32, n+1), StepOffsets: make([]int32, n+1),
		PromptIDs: make([]int32, t.Prompt), ResponseIDs: make([]int32, t.Response),
		Mask: make([]uint8, t.Response), TokenRewards: make([]float64, t.Response),
		SpanStart: make([]int32, t.Spans), SpanEnd: make([]int32, t.Spans), SpanSource: make([]int32, t.Spans),
		SpanStep: make([]int32, t.Spans), SpanFragment: make([]int32, t.Spans),
		RewardAt: make([]int32, t.Steps), Truncated: make([]uint8, n),
	}, nil
}

// fits reports whether c has exactly the lengths of n trajectories of t, so
// that an alloc that got them wrong is an error rather than an
// out-of-range write.
func (c *Columns) fits(n int, t Totals) bool {
	for _, k := range [][2]int{
		{len(c.PromptOffsets), n + 1}, {len(c.ResponseOffsets), n + 1}, {len(c.SpanOffsets), n + 1},
		{len(c.StepOffsets), n + 1}, {len(c.PromptIDs), t.Prompt}, {len(c.ResponseIDs), t.Response},
		{len(c.Mask), t.Response}, {len(c.TokenRewards), t.Response}, {len(c.SpanStart), t.Spans},
		{len(c.SpanEnd), t.Spans}, {len(c.SpanSource), t.Spans}, {len(c.SpanStep), t.Spans},
		{len(c.SpanFragment), t.Spans}, {len(c.RewardAt), t.Steps}, {len(c.Truncated), n},
	} {
		if k[0] != k[1] {
			return false
		}
	}
	return true
}

// Result copies trajectory i out of the columns.
func (c *Columns) Result(i int) Result {
	po, pe := c.PromptOffsets[i], c.PromptOffsets[i+1]
	ro, re := c.ResponseOffsets[i], c.ResponseOffsets[i+1]
	so, se := c.SpanOffsets[i], c.SpanOffsets[i+1]
	res := Result{
		PromptIDs:    append([]int32{}, c.PromptIDs[po:pe]...),
		ResponseIDs:  append([]int32{}, c.ResponseIDs[ro:re]...),
		Mask:         append([]uint8{}, c.Mask[ro:re]...),
		TokenRewards: append([]float64{}, c.TokenRewards[ro:re]...),
		RewardAt:     append([]int32{}, c.RewardAt[c.StepOffsets[i]:c.StepOffsets[i+1]]...),
		Truncated:    c.Truncated[i] != 0,
		Spans:        make([]Span, 0, se-so),
	}
	for k := so; k < se; k++ {
		res.Spans = append(res.Spans, Span{Start: c.SpanStart[k], End: c.SpanEnd[k], Source: Source(c.SpanSource[k]),
			Step: c.SpanStep[k], Fragment: c.SpanFragment[k]})
	}
	return res
}

// AssembleBatch masks every trajectory (as Assemble does), in parallel on
// up to GOMAXPROCS goroutines, straight into the columns alloc returns for
// the batch's sizes: every size is known before a token is copied, so the
// caller can hand out the final buffers (the C ABI hands out C memory, the
// Arrow columns themselves) and nothing is laid out twice. alloc must
// return columns of exactly those lengths; it is not called when a
// trajectory is invalid. A batch whose totals do not fit int32 offsets is
// refused.
func AssembleBatch(trajs []Trajectory, frags Fragments, maxLength int,
	alloc func(n int, t Totals) (Columns, error)) (Columns, error) {
	if err := frags.Validate(); err != nil {
		return Columns{}, err
	}
	n := len(trajs)
	plans := make([]layout, n)
	for i := range trajs {
		if err := check(&trajs[i], frags); err != nil {
			return Columns{}, fmt.Errorf("trajectory %d: %w", i, err)
		}
		plans[i] = plan(&trajs[i], frags, maxLength)
	}
	var tot Totals
	for i, l := range plans {
		tot.Prompt += l.promptLen
		tot.Response += l.responseLen
		tot.Spans += l.spans
		tot.Steps += len(trajs[i].Rewards)
	}
	if max(tot.Prompt, tot.Response, tot.Spans, tot.Steps) > math.MaxInt32 {
		return Columns{}, fmt.Errorf("a batch of %d prompt and %d response tokens, %d spans and %d steps exceeds "+
			"2^31-1 of one kind; mask it in smaller batches", tot.Prompt, tot.Response, tot.Spans, tot.Steps)
	}
	c, err := alloc(n, tot)
	if err != nil {
		return Columns{}, fmt.Errorf("allocating the columns of %d trajectories: %w", n, err)
	}
	if !c.fits(n, tot) {
		return Columns{}, fmt.Errorf("allocating the columns of %d trajectories: lengths do not match %+v", n, tot)
	}
	var p, r, s, st int32
	for i, l := range plans {
		c.PromptOffsets[i], c.ResponseOffsets[i], c.SpanOffsets[i], c.StepOffsets[i] = p, r, s, st
		p += int32(l.promptLen)
		r += int32(l.responseLen)
		s += int32(l.spans)
		st += int32(len(trajs[i].Rewards))
		c.Truncated[i] = 0
		if l.truncated {
			c.Truncated[i] = 1
		}
	}
	c.PromptOffsets[n], c.ResponseOffsets[n], c.SpanOffsets[n], c.StepOffsets[n] = p, r, s, st

	work := func(i int) {
		po, ro, so := c.PromptOffsets[i], c.ResponseOffsets[i], c.SpanOffsets[i]
		l := plans[i]
		re, se := ro+int32(l.responseLen), so+int32(l.spans)
		fill(&trajs[i], frags, l, out{
			prompt: c.PromptIDs[po : po+int32(l.promptLen)], response: c.ResponseIDs[ro:re], mask: c.Mask[ro:re],
			rewards: c.TokenRewards[ro:re], rewardAt: c.RewardAt[c.StepOffsets[i]:c.StepOffsets[i+1]],
			spanStart: c.SpanStart[so:se], spanEnd: c.SpanEnd[so:se], spanSource: c.SpanSource[so:se],
			spanStep: c.SpanStep[so:se], spanFragment: c.SpanFragment[so:se],
		})
	}
	nw := runtime.GOMAXPROCS(0)
	if nw > n {
		nw = n
	}
	if nw <= 1 || tot.Response+tot.Prompt < 1<<14 {
		for i := range trajs {
			work(i)
		}
		return c, nil
	}
	var g workers.Group // a panic reaches the caller, not the end of the process
	next := make(chan int, n)
	for i := range trajs {
		next <- i
	}
	close(next)
	for w := 0; w < nw; w++ {
		g.Go(func() {
			for i := range next {
				work(i)
			}
		})
	}
	g.Wait()
	return c, nil
}
