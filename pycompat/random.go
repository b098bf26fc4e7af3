package pycompat

import (
	"math"
	"math/big"
	"math/bits"
	"slices"
)

// Random reproduces CPython's random.Random (MT19937 seeded by init_by_array
// from the absolute value of an integer seed) call for call, so that a task
// drawing from it makes exactly the draws reasoning-gym makes.
type Random struct {
	mt  [mtN]uint32
	idx int
	// twisted counts the words of the current block already regenerated:
	// after seeding, the first block is twisted one word at a time as it
	// is consumed (word k of a twist depends only on words k+1, k+397 of
	// the old block and on new words before k), so a generator that draws
	// a dozen numbers does not pay for all 624.
	twisted int
}

const (
	mtN       = 624
	mtM       = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// genrandBase is the state after init_genrand(19650218); it is the same for
// every seed, so it is computed once.
var genrandBase = func() (mt [mtN]uint32) {
	mt[0] = 19650218
	for i := 1; i < mtN; i++ {
		mt[i] = 1812433253*(mt[i-1]^(mt[i-1]>>30)) + uint32(i)
	}
	return mt
}()

// NewRandom returns random.Random(seed) for a seed that fits in int64.
func NewRandom(seed int64) *Random {
	r := &Random{}
	r.SeedInt64(seed)
	return r
}

// NewRandomBig returns random.Random(seed) for a seed of any size.
func NewRandomBig(seed *big.Int) *Random {
	r := &Random{}
	r.seedKey(bigKey(seed))
	return r
}

// SeedInt64 reseeds r exactly as random.Random.seed(n) does for an int n.
func (r *Random) SeedInt64(n int64) {
	var u uint64
	if n < 0 {
		u = uint64(-(n + 1)) + 1 // |n| without overflow for MinInt64
	} else {
		u = uint64(n)
	}
	if u>>32 == 0 {
		key := [1]uint32{uint32(u)}
		r.seedKey(key[:])
		return
	}
	key := [2]uint32{uint32(u), uint32(u >> 32)}
	r.seedKey(key[:])
}

// SeedSum reseeds r with seed+idx computed without overflow, which is what
// reasoning-gym does per item (random.Random(self.seed + idx)).
func (r *Random) SeedSum(seed, idx int64) {
	s, overflow := addInt64(seed, idx)
	if !overflow {
		r.SeedInt64(s)
		return
	}
	sum := new(big.Int).Add(big.NewInt(seed), big.NewInt(idx))
	r.seedKey(bigKey(sum))
}

func addInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
}

// bigKey splits |n| into 32-bit words, least significant first ([0] for 0).
func bigKey(n *big.Int) []uint32 {
	a := new(big.Int).Abs(n)
	words := a.Bits()
	var key []uint32
	for _, w := range words {
		key = append(key, uint32(w))
		if bits.UintSize == 64 {
			key = append(key, uint32(uint64(w)>>32))
		}
	}
	for len(key) > 1 && key[len(key)-1] == 0 {
		key = key[:len(key)-1]
	}
	if len(key) == 0 {
		key = []uint32{0}
	}
	return key
}

func (r *Random) seedKey(key []uint32) {
	r.mt = genrandBase
	mt := &r.mt
	// The previous word is carried in a register: each step depends on the
	// one before, and reading it back from memory would add a
	// store-to-load delay to every step of the chain.
	i, j := 1, 0
	prev := mt[0]
	k := max(mtN, len(key))
	for ; k > 0; k-- {
		v := (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + uint32(j)
		mt[i] = v
		prev = v
		i++
		j++
		if i >= mtN {
			mt[0] = v
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = mtN - 1; k > 0; k-- {
		v := (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - uint32(i)
		mt[i] = v
		prev = v
		i++
		if i >= mtN {
			mt[0] = v
			i = 1
		}
	}
	mt[0] = 0x80000000
	r.idx = 0
	r.twisted = 0
}

// twistWord regenerates word kk of the block, in order.
func (r *Random) twistWord(kk int) {
	mt := &r.mt
	next := kk + 1
	if next == mtN {
		next = 0
	}
	far := kk + mtM
	if far >= mtN {
		far -= mtN
	}
	y := (mt[kk] & upperMask) | (mt[next] & lowerMask)
	mt[kk] = mt[far] ^ (y >> 1) ^ ((y & 1) * matrixA)
}

func (r *Random) twist() {
	mt := &r.mt
	kk := 0
	for ; kk < mtN-mtM; kk++ {
		y := (mt[kk] & upperMask) | (mt[kk+1] & lowerMask)
		mt[kk] = mt[kk+mtM] ^ (y >> 1) ^ ((y & 1) * matrixA)
	}
	for ; kk < mtN-1; kk++ {
		y := (mt[kk] & upperMask) | (mt[kk+1] & lowerMask)
		mt[kk] = mt[kk+mtM-mtN] ^ (y >> 1) ^ ((y & 1) * matrixA)
	}
	y := (mt[mtN-1] & upperMask) | (mt[0] & lowerMask)
	mt[mtN-1] = mt[mtM-1] ^ (y >> 1) ^ ((y & 1) * matrixA)
	r.idx = 0
	r.twisted = mtN
}

// Uint32 is genrand_uint32: the next tempered 32-bit output.
func (r *Random) Uint32() uint32 {
	if r.idx >= mtN {
		r.twist()
	} else if r.idx >= r.twisted {
		r.twistWord(r.idx)
		r.twisted++
	}
	y := r.mt[r.idx]
	r.idx++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Float is random.random(): a float in [0, 1) with 53 random bits.
func (r *Random) Float() float64 {
	a := r.Uint32() >> 5
	b := r.Uint32() >> 6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// GetRandBits is random.getrandbits(k) for 0 <= k <= 64.
func (r *Random) GetRandBits(k int) uint64 {
	if k <= 0 {
		return 0
	}
	if k <= 32 {
		return uint64(r.Uint32() >> uint(32-k))
	}
	var res uint64
	shift := uint(0)
	for k > 0 {
		w := r.Uint32()
		if k < 32 {
			w >>= uint(32 - k)
		}
		res |= uint64(w) << shift
		shift += 32
		k -= 32
	}
	return res
}

// randBelow is Random._randbelow(n) for n > 0: rejection sampling on
// getrandbits(n.bit_length()).
func (r *Random) randBelow(n uint64) uint64 {
	k := bits.Len64(n)
	x := r.GetRandBits(k)
	for x >= n {
		x = r.GetRandBits(k)
	}
	return x
}

// IntN returns random._randbelow(n) for n > 0 as an int.
func (r *Random) IntN(n int) int {
	if n <= 0 {
		panic("reasoninggym: IntN called with n <= 0")
	}
	return int(r.randBelow(uint64(n)))
}

// RandRange is random.randrange(start, stop) with step 1.
func (r *Random) RandRange(start, stop int64) int64 {
	if stop <= start {
		panic("reasoninggym: empty range for randrange")
	}
	return start + int64(r.randBelow(uint64(stop-start)))
}

// RandRangeStep is random.randrange(start, stop, step) for step != 0.
func (r *Random) RandRangeStep(start, stop, step int64) int64 {
	if step == 1 {
		return r.RandRange(start, stop)
	}
	width := stop - start
	var n int64
	if step > 0 {
		n = floorDiv(width+step-1, step)
	} else {
		n = floorDiv(width+step+1, step)
	}
	if n <= 0 {
		panic("reasoninggym: empty range for randrange")
	}
	return start + step*int64(r.randBelow(uint64(n)))
}

// RandInt is random.randint(a, b), both ends included.
func (r *Random) RandInt(a, b int64) int64 { return r.RandRange(a, b+1) }

// RandIntn is RandInt for int bounds.
func (r *Random) RandIntn(a, b int) int { return int(r.RandRange(int64(a), int64(b)+1)) }

// Uniform is random.uniform(a, b).
func (r *Random) Uniform(a, b float64) float64 { return a + (b-a)*r.Float() }

// Shuffle is random.shuffle over n elements, swapping through swap.
func (r *Random) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, int(r.randBelow(uint64(i+1))))
	}
}

// SampleIndices returns the positions random.sample(population, k) picks
// from a population of n, in selection order; it follows both of CPython's
// branches (pool for small populations, rejection set for large ones).
func (r *Random) SampleIndices(n, k int) []int {
	if k < 0 || k > n {
		panic("reasoninggym: sample larger than population or is negative")
	}
	res := make([]int, k)
	setsize := 21
	if k > 5 {
		setsize += int(math.Pow(4, math.Ceil(math.Log(float64(k*3))/math.Log(4))))
	}
	if n <= setsize {
		// A small population's pool lives on the stack: one allocation less
		// per sample.
		var buf [128]int
		var pool []int
		if n <= len(buf) {
			pool = buf[:n]
		} else {
			pool = make([]int, n)
		}
		for i := range pool {
			pool[i] = i
		}
		for i := 0; i < k; i++ {
			j := int(r.randBelow(uint64(n - i)))
			res[i] = pool[j]
			pool[j] = pool[n-i-1]
		}
		return res
	}
	if k <= 32 {
		// The selected set is res[:i]: for a few picks a scan beats a map.
		for i := 0; i < k; i++ {
			j := int(r.randBelow(uint64(n)))
			for slices.Contains(res[:i], j) {
				j = int(r.randBelow(uint64(n)))
			}
			res[i] = j
		}
		return res
	}
	selected := make(map[int]struct{}, k)
	for i := 0; i < k; i++ {
		j := int(r.randBelow(uint64(n)))
		for {
			if _, dup := selected[j]; !dup {
				break
			}
			j = int(r.randBelow(uint64(n)))
		}
		selected[j] = struct{}{}
		res[i] = j
	}
	return res
}

// ChoiceIndex is the index random.choice picks from a sequence of length n.
func (r *Random) ChoiceIndex(n int) int { return r.IntN(n) }

// ChoicesIndex is random.choices(range(n), k=1)[0] without weights.
func (r *Random) ChoicesIndex(n int) int { return int(math.Floor(r.Float() * float64(n))) }

// WeightedIndex is random.choices(range(len(w)), weights=w, k=1)[0]:
// cumulative float sums, bisect_right with hi = n-1.
func (r *Random) WeightedIndex(w []float64) int {
	cum := make([]float64, len(w))
	t := 0.0
	for i, x := range w {
		t += x
		cum[i] = t
	}
	x := r.Float() * (cum[len(cum)-1] + 0.0)
	lo, hi := 0, len(w)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if x < cum[mid] {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// floorDiv is Python's // on int64.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

var bigOne = big.NewInt(1)

// GetRandBitsBig is random.getrandbits(k) for any k >= 0: 32-bit words
// from least to most significant, the last one cut to the remaining bits.
func (r *Random) GetRandBitsBig(k int) *big.Int {
	if k <= 64 {
		return new(big.Int).SetUint64(r.GetRandBits(k))
	}
	words := (k-1)/32 + 1
	buf := make([]byte, 4*words) // big-endian for SetBytes
	for i := 0; i < words; i, k = i+1, k-32 {
		w := r.Uint32()
		if k < 32 {
			w >>= uint(32 - k)
		}
		off := 4 * (words - 1 - i)
		buf[off] = byte(w >> 24)
		buf[off+1] = byte(w >> 16)
		buf[off+2] = byte(w >> 8)
		buf[off+3] = byte(w)
	}
	return new(big.Int).SetBytes(buf)
}

// RandBelowBig is Random._randbelow(n) for n > 0 of any size.
func (r *Random) RandBelowBig(n *big.Int) *big.Int {
	if n.IsUint64() {
		return new(big.Int).SetUint64(r.randBelow(n.Uint64()))
	}
	k := n.BitLen()
	for {
		x := r.GetRandBitsBig(k)
		if x.Cmp(n) < 0 {
			return x
		}
	}
}

// RandIntBig is random.randint(a, b) for integers of any size; a <= b.
func (r *Random) RandIntBig(a, b *big.Int) *big.Int {
	width := new(big.Int).Sub(b, a)
	width.Add(width, bigOne)
	x := r.RandBelowBig(width)
	return x.Add(x, a)
}
