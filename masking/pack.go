package masking

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/llenvs/llenvs-go/internal/workers"
)

// SpanFields is the number of int32 fields of a span record in a packed
// batch: start, end, source, step, fragment.
const SpanFields = 5

// PackedSize returns the byte size of the packed form of a batch of n
// trajectories with the given totals (see Packed).
func PackedSize(n, prompt, response, spans, steps int) int {
	return 8*(1+4*(n+1)) + 8*response + 4*prompt + 4*response + 4*SpanFields*spans + 4*steps + n + response
}

// Packed is the layout of a batch's results in one buffer, in native byte
// order (little-endian on every platform Go builds the library for here),
// in this order (each array starts where the previous one ends, so the
// float64 and int32 arrays stay aligned):
//
//	int64   n
//	int64   prompt_offsets[n+1]    into prompt_ids
//	int64   response_offsets[n+1]  into response_ids, token_rewards and mask
//	int64   span_offsets[n+1]      into spans (records)
//	int64   step_offsets[n+1]      into reward_at
//	float64 token_rewards[R]
//	int32   prompt_ids[P]
//	int32   response_ids[R]
//	int32   spans[S*5]             start, end (within the response), source, step, fragment
//	int32   reward_at[T]           per step, where its reward went (-1: nowhere)
//	uint8   truncated[n]
//	uint8   mask[R]
//
// A span's fragment is the caller's fragment index; start and end count
// response tokens of its own trajectory.
type Packed struct {
	N                                           int
	PromptOffsets, ResponseOffsets, SpanOffsets []int64
	StepOffsets                                 []int64
	TokenRewards                                []float64
	PromptIDs, ResponseIDs, SpanRecords         []int32
	RewardAt                                    []int32
	Truncated, Mask                             []uint8
}

// AssembleBatch masks every trajectory, in parallel on up to GOMAXPROCS
// goroutines, and writes the results into a buffer obtained from alloc
// (which must return a writable, 8-byte aligned slice of the size asked;
// the C ABI passes malloc). The buffer's layout is Packed's.
func AssembleBatch(trajs []Trajectory, frags Fragments, maxLength int, alloc func(int) []byte) ([]byte, error) {
	if err := frags.Validate(); err != nil {
		return nil, err
	}
	n := len(trajs)
	plans := make([]layout, n)
	for i := range trajs {
		if err := check(&trajs[i], frags); err != nil {
			return nil, fmt.Errorf("trajectory %d: %w", i, err)
		}
		plans[i] = plan(&trajs[i], frags, maxLength)
	}
	var P, R, S, T int
	for i, l := range plans {
		P += l.promptLen
		R += l.responseLen
		S += l.spans
		T += len(trajs[i].Rewards)
	}
	size := PackedSize(n, P, R, S, T)
	buf := alloc(size)
	if len(buf) < size {
		return nil, fmt.Errorf("masking: allocation of %d bytes failed", size)
	}
	pk := view(buf, n, P, R, S, T)
	var p, r, s, st int64
	for i, l := range plans {
		pk.PromptOffsets[i], pk.ResponseOffsets[i], pk.SpanOffsets[i], pk.StepOffsets[i] = p, r, s, st
		p += int64(l.promptLen)
		r += int64(l.responseLen)
		s += int64(l.spans)
		st += int64(len(trajs[i].Rewards))
		if l.truncated {
			pk.Truncated[i] = 1
		} else {
			pk.Truncated[i] = 0
		}
	}
	pk.PromptOffsets[n], pk.ResponseOffsets[n], pk.SpanOffsets[n], pk.StepOffsets[n] = p, r, s, st

	work := func(i int) {
		po, ro, so := pk.PromptOffsets[i], pk.ResponseOffsets[i], pk.SpanOffsets[i]
		l := plans[i]
		spans := make([]Span, l.spans)
		fill(&trajs[i], frags, l, pk.PromptIDs[po:po+int64(l.promptLen)], pk.ResponseIDs[ro:ro+int64(l.responseLen)],
			pk.Mask[ro:ro+int64(l.responseLen)], pk.TokenRewards[ro:ro+int64(l.responseLen)], spans,
			pk.RewardAt[pk.StepOffsets[i]:pk.StepOffsets[i+1]])
		rec := pk.SpanRecords[so*SpanFields : (so+int64(l.spans))*SpanFields]
		for k, sp := range spans {
			copy(rec[k*SpanFields:], []int32{sp.Start, sp.End, int32(sp.Source), sp.Step, sp.Fragment})
		}
	}
	nw := runtime.GOMAXPROCS(0)
	if nw > n {
		nw = n
	}
	if nw <= 1 || R+P < 1<<14 {
		for i := range trajs {
			work(i)
		}
		return buf, nil
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
	return buf, nil
}

// view slices buf (of PackedSize(n, P, R, S, T) bytes) into the arrays of
// Packed and writes n. The arrays alias buf.
func view(buf []byte, n, P, R, S, T int) Packed {
	binary.LittleEndian.PutUint64(buf, uint64(n))
	off := 8
	i64 := func(k int) []int64 {
		v := unsafe.Slice((*int64)(unsafe.Pointer(&buf[off])), k)
		off += 8 * k
		return v
	}
	pk := Packed{N: n}
	pk.PromptOffsets = i64(n + 1)
	pk.ResponseOffsets = i64(n + 1)
	pk.SpanOffsets = i64(n + 1)
	pk.StepOffsets = i64(n + 1)
	pk.TokenRewards = floats(buf, &off, R)
	pk.PromptIDs = ints(buf, &off, P)
	pk.ResponseIDs = ints(buf, &off, R)
	pk.SpanRecords = ints(buf, &off, S*SpanFields)
	pk.RewardAt = ints(buf, &off, T)
	pk.Truncated = buf[off : off+n]
	off += n
	pk.Mask = buf[off : off+R]
	return pk
}

func floats(buf []byte, off *int, k int) []float64 {
	if k == 0 {
		return nil
	}
	v := unsafe.Slice((*float64)(unsafe.Pointer(&buf[*off])), k)
	*off += 8 * k
	return v
}

func ints(buf []byte, off *int, k int) []int32 {
	if k == 0 {
		return nil
	}
	v := unsafe.Slice((*int32)(unsafe.Pointer(&buf[*off])), k)
	*off += 4 * k
	return v
}

// Unpack reads a packed batch (as AssembleBatch writes it) back into
// Results; tests and Go callers use it. The spans' fragments are the
// caller's indices.
func Unpack(buf []byte) ([]Result, error) {
	if len(buf) < 8 {
		return nil, fmt.Errorf("packed batch: %d bytes is too short", len(buf))
	}
	// Every count is checked against the buffer's size before it is used,
	// so that a buffer that is not a packed batch is an error, never an
	// out-of-range read or an overflow.
	un := binary.LittleEndian.Uint64(buf)
	if un > uint64(len(buf)/32) || 8*(1+4*(int(un)+1)) > len(buf) {
		return nil, fmt.Errorf("packed batch: header of %d trajectories does not fit in %d bytes", un, len(buf))
	}
	n := int(un)
	at := func(k int) int64 { return int64(binary.LittleEndian.Uint64(buf[8+8*k:])) }
	for a := 0; a < 4; a++ {
		base := a * (n + 1)
		if at(base) != 0 {
			return nil, fmt.Errorf("packed batch: offsets array %d does not start at 0", a)
		}
		for i := 1; i <= n; i++ {
			if at(base+i) < at(base+i-1) || at(base+i) > int64(len(buf)) {
				return nil, fmt.Errorf("packed batch: offsets array %d is not increasing within the buffer at %d", a, i)
			}
		}
	}
	P, R, S, T := int(at(n)), int(at(2*(n+1)-1)), int(at(3*(n+1)-1)), int(at(4*(n+1)-1))
	if len(buf) != PackedSize(n, P, R, S, T) {
		return nil, fmt.Errorf("packed batch: %d bytes, want %d", len(buf), PackedSize(n, P, R, S, T))
	}
	cp := append([]byte(nil), buf...) // 8-byte aligned copy
	pk := view(cp, n, P, R, S, T)
	out := make([]Result, n)
	for i := range out {
		po, pe := pk.PromptOffsets[i], pk.PromptOffsets[i+1]
		ro, re := pk.ResponseOffsets[i], pk.ResponseOffsets[i+1]
		so, se := pk.SpanOffsets[i], pk.SpanOffsets[i+1]
		res := Result{
			PromptIDs:    append([]int32{}, pk.PromptIDs[po:pe]...),
			ResponseIDs:  append([]int32{}, pk.ResponseIDs[ro:re]...),
			Mask:         append([]uint8{}, pk.Mask[ro:re]...),
			TokenRewards: append([]float64{}, pk.TokenRewards[ro:re]...),
			RewardAt:     append([]int32{}, pk.RewardAt[pk.StepOffsets[i]:pk.StepOffsets[i+1]]...),
			Truncated:    pk.Truncated[i] != 0,
			Spans:        []Span{},
		}
		for k := so; k < se; k++ {
			r := pk.SpanRecords[k*SpanFields : (k+1)*SpanFields]
			res.Spans = append(res.Spans, Span{Start: r[0], End: r[1], Source: Source(r[2]), Step: r[3], Fragment: r[4]})
		}
		out[i] = res
	}
	return out, nil
}
