package pycompat

import "sync"

// SeedSums reseeds rs[k] with seed+idx[k] for every k, exactly as SeedSum
// does one at a time. Generators whose seeds fit in 32 bits are seeded
// together: each seeding is a chain of 1,247 dependent steps, and running
// independent chains side by side lets the processor overlap them: 32 at
// once in AVX2 vectors where the processor has them (seedLanes32), then
// four at a time in a scalar loop.
func SeedSums(rs []*Random, seed int64, idx []int64) {
	k := 0
	if haveSeedLanes && len(rs) >= 32 {
		var keys [32]uint32
		for k+32 <= len(rs) {
			if !oneWordKeys(keys[:], seed, idx[k:k+32]) {
				break // the four-at-a-time loop below handles the rest
			}
			seed32((*[32]*Random)(rs[k:k+32]), &keys)
			k += 32
		}
	}
	for k+4 <= len(rs) {
		var keys [4]uint32
		ok := true
		for c := 0; c < 4; c++ {
			s, overflow := addInt64(seed, idx[k+c])
			if overflow || s < -(1<<32-1) || s > 1<<32-1 {
				ok = false
				break
			}
			if s < 0 {
				s = -s
			}
			keys[c] = uint32(s)
		}
		if !ok {
			for c := 0; c < 4; c++ {
				rs[k+c].SeedSum(seed, idx[k+c])
			}
		} else {
			seed4((*[4]*Random)(rs[k:k+4]), keys)
		}
		k += 4
	}
	for ; k < len(rs); k++ {
		rs[k].SeedSum(seed, idx[k])
	}
}

// seed4 is seedKey for four one-word keys, interleaved. The passes are
// unrolled at their wrap-around (i runs 1..623, then 1 once more; then
// 2..623, then 1), so that the loops carry no bounds checks or branches,
// and the first pass reads init_genrand's state from genrandBase instead of
// copying it into each generator first.
func seed4(rs *[4]*Random, key [4]uint32) {
	a, b, c, d := &rs[0].mt, &rs[1].mt, &rs[2].mt, &rs[3].mt
	base := &genrandBase
	pa, pb, pc, pd := base[0], base[0], base[0], base[0]
	// First pass: mtN steps from i = 1, adding the key (j is always 0).
	for i := 1; i < mtN; i++ {
		x := base[i]
		pa = (x ^ ((pa ^ (pa >> 30)) * 1664525)) + key[0]
		pb = (x ^ ((pb ^ (pb >> 30)) * 1664525)) + key[1]
		pc = (x ^ ((pc ^ (pc >> 30)) * 1664525)) + key[2]
		pd = (x ^ ((pd ^ (pd >> 30)) * 1664525)) + key[3]
		a[i], b[i], c[i], d[i] = pa, pb, pc, pd
	}
	a[0], b[0], c[0], d[0] = pa, pb, pc, pd
	pa = (a[1] ^ ((pa ^ (pa >> 30)) * 1664525)) + key[0]
	pb = (b[1] ^ ((pb ^ (pb >> 30)) * 1664525)) + key[1]
	pc = (c[1] ^ ((pc ^ (pc >> 30)) * 1664525)) + key[2]
	pd = (d[1] ^ ((pd ^ (pd >> 30)) * 1664525)) + key[3]
	a[1], b[1], c[1], d[1] = pa, pb, pc, pd
	// Second pass: mtN-1 steps from i = 2, subtracting i.
	for i := 2; i < mtN; i++ {
		u := uint32(i)
		pa = (a[i] ^ ((pa ^ (pa >> 30)) * 1566083941)) - u
		pb = (b[i] ^ ((pb ^ (pb >> 30)) * 1566083941)) - u
		pc = (c[i] ^ ((pc ^ (pc >> 30)) * 1566083941)) - u
		pd = (d[i] ^ ((pd ^ (pd >> 30)) * 1566083941)) - u
		a[i], b[i], c[i], d[i] = pa, pb, pc, pd
	}
	a[0], b[0], c[0], d[0] = pa, pb, pc, pd
	a[1] = (a[1] ^ ((pa ^ (pa >> 30)) * 1566083941)) - 1
	b[1] = (b[1] ^ ((pb ^ (pb >> 30)) * 1566083941)) - 1
	c[1] = (c[1] ^ ((pc ^ (pc >> 30)) * 1566083941)) - 1
	d[1] = (d[1] ^ ((pd ^ (pd >> 30)) * 1566083941)) - 1
	for _, r := range rs {
		r.mt[0] = 0x80000000
		r.idx = 0
		r.twisted = 0
	}
}

// oneWordKeys sets keys[c] to the init_by_array key of seed+idx[c] and
// reports whether every one of them is a single 32-bit word.
func oneWordKeys(keys []uint32, seed int64, idx []int64) bool {
	for c, i := range idx {
		s, overflow := addInt64(seed, i)
		if overflow || s < -(1<<32-1) || s > 1<<32-1 {
			return false
		}
		if s < 0 {
			s = -s
		}
		keys[c] = uint32(s)
	}
	return true
}

// seedScratch holds the interleaved states of seed32, reused across calls.
var seedScratch = sync.Pool{New: func() any { return new([mtN][32]uint32) }}

// seed32 seeds 32 generators with one-word keys through the vector
// routine, then copies each generator's column of the interleaved state
// into it (a vector transpose).
func seed32(rs *[32]*Random, keys *[32]uint32) {
	scratch := seedScratch.Get().(*[mtN][32]uint32)
	seedLanes32(scratch, &genrandBase, keys)
	var mts [32]*[mtN]uint32
	for c, r := range rs {
		mts[c] = &r.mt
	}
	transpose32(scratch, &mts)
	for _, r := range rs {
		r.mt[0] = 0x80000000
		r.idx = 0
		r.twisted = 0
	}
	seedScratch.Put(scratch)
}
