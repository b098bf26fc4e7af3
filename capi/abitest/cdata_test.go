//go:build linux

package abitest

import (
	"unsafe"

	"github.com/ebitengine/purego"
)

// cSchema and cArray are the Arrow C Data Interface structs of llenvs.h,
// filled by the library and read here as any C consumer would.
type cSchema struct {
	format, name, metadata *byte
	flags, nChildren       int64
	children               **cSchema
	dictionary             *cSchema
	release                uintptr
	private                unsafe.Pointer
}

type cArray struct {
	length, nullCount, offset, nBuffers, nChildren int64
	buffers                                        *unsafe.Pointer
	children                                       **cArray
	dictionary                                     *cArray
	release                                        uintptr
	private                                        unsafe.Pointer
}

// cString is the NUL-terminated string at p.
func cString(p *byte) string {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// childNames are the names of a record batch's columns, in order.
func (s *cSchema) childNames() []string {
	kids := unsafe.Slice(s.children, s.nChildren)
	names := make([]string, len(kids))
	for i, k := range kids {
		names[i] = cString(k.name)
	}
	return names
}

// utf8Column reads column k of a record batch as strings (nil for nulls).
func (a *cArray) utf8Column(k int) []*string {
	col := unsafe.Slice(a.children, a.nChildren)[k]
	bufs := unsafe.Slice(col.buffers, col.nBuffers)
	n := int(col.length)
	offs := unsafe.Slice((*int32)(bufs[1]), n+1)
	out := make([]*string, n)
	for i := range out {
		if bufs[0] != nil && (*(*byte)(unsafe.Add(bufs[0], (i+int(col.offset))/8)))&(1<<((i+int(col.offset))%8)) == 0 {
			continue
		}
		s := string(unsafe.Slice((*byte)(unsafe.Add(bufs[2], offs[i])), offs[i+1]-offs[i]))
		out[i] = &s
	}
	return out
}

// releaseBatch calls the release callbacks of a filled schema and array.
func releaseBatch(s *cSchema, a *cArray) {
	if s.release != 0 {
		purego.SyscallN(s.release, uintptr(unsafe.Pointer(s)))
	}
	if a.release != 0 {
		purego.SyscallN(a.release, uintptr(unsafe.Pointer(a)))
	}
}

// strs derefs a column's values, "<null>" for nulls, for messages and comparisons.
func strs(col []*string) []string {
	out := make([]string, len(col))
	for i, s := range col {
		if s == nil {
			out[i] = "<null>"
		} else {
			out[i] = *s
		}
	}
	return out
}
