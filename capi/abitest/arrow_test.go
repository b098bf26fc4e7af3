//go:build linux

package abitest

import (
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

// arrowSchema and arrowArray are the Arrow C Data Interface structs of
// llenvs.h, which the library fills for a caller that allocated them.
type arrowSchema struct {
	format, name, metadata *byte
	flags, nChildren       int64
	children               **arrowSchema
	dictionary             *arrowSchema
	release                uintptr
	privateData            unsafe.Pointer
}

type arrowArray struct {
	length, nullCount, offset, nBuffers, nChildren int64
	buffers                                        *unsafe.Pointer
	children                                       **arrowArray
	dictionary                                     *arrowArray
	release                                        uintptr
	privateData                                    unsafe.Pointer
}

// batchSlot is a caller's pair of structs for one record batch.
type batchSlot struct {
	schema arrowSchema
	array  arrowArray
}

// filled says whether the library filled the slot.
func (b *batchSlot) filled() bool { return b.array.release != 0 && b.schema.release != 0 }

// release calls the library's release callbacks, as a consumer must.
func (b *batchSlot) release(t *testing.T) {
	t.Helper()
	if b.array.release != 0 {
		purego.SyscallN(b.array.release, uintptr(unsafe.Pointer(&b.array)))
	}
	if b.schema.release != 0 {
		purego.SyscallN(b.schema.release, uintptr(unsafe.Pointer(&b.schema)))
	}
	if b.array.release != 0 || b.schema.release != 0 {
		t.Errorf("release callbacks left the structs unreleased")
	}
}

func cString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// field is the format and name of column i of a batch.
func (b *batchSlot) field(i int) (format, name string) {
	s := unsafe.Slice(b.schema.children, b.schema.nChildren)[i]
	return cString(s.format), cString(s.name)
}

// column is child i of a batch's array.
func (b *batchSlot) column(i int) *arrowArray {
	return unsafe.Slice(b.array.children, b.array.nChildren)[i]
}

// utf8Values reads a utf8 array (nil entries are nulls).
func utf8Values(a *arrowArray) []*string {
	bufs := unsafe.Slice(a.buffers, a.nBuffers)
	offs := unsafe.Slice((*int32)(bufs[1]), a.offset+a.length+1)
	out := make([]*string, a.length)
	for i := range out {
		r := a.offset + int64(i)
		if bufs[0] != nil && *(*byte)(unsafe.Add(bufs[0], r/8))&(1<<(r%8)) == 0 {
			continue
		}
		s := string(unsafe.Slice((*byte)(unsafe.Add(bufs[2], offs[r])), offs[r+1]-offs[r]))
		out[i] = &s
	}
	return out
}
