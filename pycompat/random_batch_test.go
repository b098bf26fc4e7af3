package pycompat

import "testing"

func TestSeedSumsMatchesSeedSum(t *testing.T) {
	tests := []struct {
		name string
		seed int64
		idx  []int64
	}{
		{"small", 42, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{"negative sums", -3, []int64{0, 1, 2, 3, 4, 5}},
		{"around 2**32", 1<<32 - 2, []int64{0, 1, 2, 3, 4}},
		{"overflow", 1<<63 - 2, []int64{0, 1, 2, 3}},
		{"short", 7, []int64{1, 2}},
		{"vector groups and a tail", 42, seq(0, 75)},
		{"vector group with negative sums", -40, seq(0, 64)},
		{"vector group crossing 2**32", 1<<32 - 40, seq(0, 70)},
		{"big seed", 1 << 40, seq(0, 40)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := make([]*Random, len(tt.idx))
			for k := range rs {
				rs[k] = new(Random)
			}
			SeedSums(rs, tt.seed, tt.idx)
			for k, i := range tt.idx {
				want := new(Random)
				want.SeedSum(tt.seed, i)
				for draw := 0; draw < 700; draw++ { // past the first twist
					if g, w := rs[k].Uint32(), want.Uint32(); g != w {
						t.Fatalf("generator %d (seed %d+%d), draw %d: %d, want %d", k, tt.seed, i, draw, g, w)
					}
				}
			}
		})
	}
}

// seq is lo, lo+1, ..., hi-1.
func seq(lo, hi int64) []int64 {
	var out []int64
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

func BenchmarkSeedSums32(b *testing.B) {
	rs := make([]*Random, 32)
	for k := range rs {
		rs[k] = new(Random)
	}
	idx := seq(0, 32)
	for i := 0; i < b.N; i += 32 {
		SeedSums(rs, 42, idx)
	}
}

func BenchmarkSeedSums(b *testing.B) {
	rs := []*Random{new(Random), new(Random), new(Random), new(Random)}
	idx := []int64{0, 1, 2, 3}
	for i := 0; i < b.N; i += 4 {
		SeedSums(rs, 42, idx)
	}
}
