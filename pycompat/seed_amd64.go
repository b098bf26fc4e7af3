//go:build amd64 && !purego

package pycompat

import "golang.org/x/sys/cpu"

// haveSeedLanes reports whether seedLanes32 can run here (it uses AVX2).
var haveSeedLanes = cpu.X86.HasAVX2

// seedLanes32 runs init_by_array for 32 one-word keys at once, eight per
// AVX2 vector: scratch[i][c] ends as word i of generator c's state, except
// word 0, which the caller sets.
//
//go:noescape
func seedLanes32(scratch *[mtN][32]uint32, base *[mtN]uint32, keys *[32]uint32)

// transpose32 copies column c of scratch into *dst[c], for every c.
//
//go:noescape
func transpose32(scratch *[mtN][32]uint32, dst *[32]*[mtN]uint32)
