package pycompat

// SeedSums reseeds rs[k] with seed+idx[k] for every k, exactly as SeedSum
// does one at a time. Generators whose seeds fit in 32 bits are seeded four
// at a time: each seeding is a chain of 1,247 dependent steps, and running
// four independent chains in one loop lets the processor overlap them.
func SeedSums(rs []*Random, seed int64, idx []int64) {
	k := 0
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

// seed4 is seedKey for four one-word keys, interleaved.
func seed4(rs *[4]*Random, key [4]uint32) {
	a, b, c, d := &rs[0].mt, &rs[1].mt, &rs[2].mt, &rs[3].mt
	*a, *b, *c, *d = genrandBase, genrandBase, genrandBase, genrandBase
	pa, pb, pc, pd := a[0], b[0], c[0], d[0]
	// First pass: mtN steps from i = 1, adding the key (j is always 0).
	i := 1
	for k := mtN; k > 0; k-- {
		va := (a[i] ^ ((pa ^ (pa >> 30)) * 1664525)) + key[0]
		vb := (b[i] ^ ((pb ^ (pb >> 30)) * 1664525)) + key[1]
		vc := (c[i] ^ ((pc ^ (pc >> 30)) * 1664525)) + key[2]
		vd := (d[i] ^ ((pd ^ (pd >> 30)) * 1664525)) + key[3]
		a[i], b[i], c[i], d[i] = va, vb, vc, vd
		pa, pb, pc, pd = va, vb, vc, vd
		i++
		if i >= mtN {
			a[0], b[0], c[0], d[0] = va, vb, vc, vd
			i = 1
		}
	}
	for k := mtN - 1; k > 0; k-- {
		u := uint32(i)
		va := (a[i] ^ ((pa ^ (pa >> 30)) * 1566083941)) - u
		vb := (b[i] ^ ((pb ^ (pb >> 30)) * 1566083941)) - u
		vc := (c[i] ^ ((pc ^ (pc >> 30)) * 1566083941)) - u
		vd := (d[i] ^ ((pd ^ (pd >> 30)) * 1566083941)) - u
		a[i], b[i], c[i], d[i] = va, vb, vc, vd
		pa, pb, pc, pd = va, vb, vc, vd
		i++
		if i >= mtN {
			a[0], b[0], c[0], d[0] = va, vb, vc, vd
			i = 1
		}
	}
	for _, r := range rs {
		r.mt[0] = 0x80000000
		r.idx = 0
		r.twisted = 0
	}
}
