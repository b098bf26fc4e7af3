//go:build !amd64 || purego

package pycompat

// haveSeedLanes is false: there is no vector seeding on this platform.
const haveSeedLanes = false

func seedLanes32(scratch *[mtN][32]uint32, base *[mtN]uint32, keys *[32]uint32) {
	panic("pycompat: seedLanes32 is not available on this platform")
}

func transpose32(scratch *[mtN][32]uint32, dst *[32]*[mtN]uint32) {
	panic("pycompat: transpose32 is not available on this platform")
}
