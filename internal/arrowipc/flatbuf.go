package arrowipc

import (
	"encoding/binary"
	"fmt"
)

// The little of FlatBuffers (https://flatbuffers.dev/internals/) that
// Arrow's IPC metadata needs: reading tables, vectors, strings and unions
// with every offset checked against the buffer, and building them.

// fbReader reads one flatbuffer. Its first out-of-range read sets err;
// every later read returns zero values, so callers check err once per
// step.
type fbReader struct {
	buf []byte
	err error
}

// fbTable is a table: its position and its vtable's.
type fbTable struct{ pos, vt, vtSize int }

func (r *fbReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

func (r *fbReader) ok(p, n int) bool {
	if r.err != nil {
		return false
	}
	if p < 0 || n < 0 || p > len(r.buf)-n {
		r.fail("an offset points outside the metadata (%d bytes at %d of %d)", n, p, len(r.buf))
		return false
	}
	return true
}

func (r *fbReader) u8(p int) uint8 {
	if !r.ok(p, 1) {
		return 0
	}
	return r.buf[p]
}

func (r *fbReader) u16(p int) uint16 {
	if !r.ok(p, 2) {
		return 0
	}
	return binary.LittleEndian.Uint16(r.buf[p:])
}

func (r *fbReader) u32(p int) uint32 {
	if !r.ok(p, 4) {
		return 0
	}
	return binary.LittleEndian.Uint32(r.buf[p:])
}

func (r *fbReader) u64(p int) uint64 {
	if !r.ok(p, 8) {
		return 0
	}
	return binary.LittleEndian.Uint64(r.buf[p:])
}

// root is the buffer's root table.
func (r *fbReader) root() fbTable { return r.table(int(r.u32(0))) }

// table reads the table at p.
func (r *fbReader) table(p int) fbTable {
	vt := p - int(int32(r.u32(p)))
	size := int(r.u16(vt))
	if r.err == nil && (size < 4 || size%2 != 0 || !r.ok(vt, size)) {
		r.fail("a table's vtable is malformed")
	}
	if r.err != nil {
		return fbTable{}
	}
	return fbTable{pos: p, vt: vt, vtSize: size}
}

// field is the position of field id of t, or -1 when it is absent.
func (r *fbReader) field(t fbTable, id int) int {
	o := 4 + 2*id
	if r.err != nil || o+2 > t.vtSize {
		return -1
	}
	off := int(r.u16(t.vt + o))
	if off == 0 {
		return -1
	}
	return t.pos + off
}

// deref follows the offset stored at p.
func (r *fbReader) deref(p int) int { return p + int(r.u32(p)) }

func (r *fbReader) scalar8(t fbTable, id int, def uint8) uint8 {
	if p := r.field(t, id); p >= 0 {
		return r.u8(p)
	}
	return def
}

func (r *fbReader) scalar16(t fbTable, id int, def int16) int16 {
	if p := r.field(t, id); p >= 0 {
		return int16(r.u16(p))
	}
	return def
}

func (r *fbReader) scalar32(t fbTable, id int, def int32) int32 {
	if p := r.field(t, id); p >= 0 {
		return int32(r.u32(p))
	}
	return def
}

func (r *fbReader) scalar64(t fbTable, id int, def int64) int64 {
	if p := r.field(t, id); p >= 0 {
		return int64(r.u64(p))
	}
	return def
}

// child is the table field id of t refers to.
func (r *fbReader) child(t fbTable, id int) (fbTable, bool) {
	p := r.field(t, id)
	if p < 0 {
		return fbTable{}, false
	}
	c := r.table(r.deref(p))
	return c, r.err == nil
}

// vector is where the elements of vector field id of t start and how many
// there are (0, 0 when absent), checked to fit elements of size bytes.
func (r *fbReader) vector(t fbTable, id int, size int) (start, n int) {
	p := r.field(t, id)
	if p < 0 {
		return 0, 0
	}
	v := r.deref(p)
	n = int(r.u32(v))
	if r.err != nil || n > (len(r.buf)-v-4)/size {
		r.fail("a vector runs past the end of the metadata")
		return 0, 0
	}
	return v + 4, n
}

// str is string field id of t ("" when absent).
func (r *fbReader) str(t fbTable, id int) string {
	start, n := r.vector(t, id, 1)
	if r.err != nil {
		return ""
	}
	return string(r.buf[start : start+n])
}

// vectorTable is element k of a vector of tables that starts at start.
func (r *fbReader) vectorTable(start, k int) fbTable { return r.table(r.deref(start + 4*k)) }

// fbBuilder lays a flatbuffer out front to back: a table's vtable, then
// the table, then what its offsets refer to, which are filled in once
// those are placed (FlatBuffers offsets point forward; a table's offset to
// its vtable is signed).
type fbBuilder struct{ buf []byte }

// fbValue is a field of a table being built: a scalar of size bytes, or
// (size 0) an offset to ref: a string, a fbObject, a []fbObject or a
// fbStructs. The zero fbValue is an absent field.
type fbValue struct {
	size int
	bits uint64
	ref  any
}

// fbObject is a table to build, its fields by id.
type fbObject []fbValue

// fbStructs is a vector of structs, their bytes already laid out; every
// struct Arrow uses here is two 64-bit integers.
type fbStructs []byte

func fbU8(v uint8) fbValue  { return fbValue{size: 1, bits: uint64(v)} }
func fbI16(v int16) fbValue { return fbValue{size: 2, bits: uint64(uint16(v))} }
func fbI64(v int64) fbValue { return fbValue{size: 8, bits: uint64(v)} }
func fbRef(ref any) fbValue { return fbValue{ref: ref} }

func fbBool(v bool) fbValue {
	if v {
		return fbU8(1)
	}
	return fbU8(0)
}

func (b *fbBuilder) pad(n int) {
	for len(b.buf)%n != 0 {
		b.buf = append(b.buf, 0)
	}
}

// finish lays out root and returns the flatbuffer.
func (b *fbBuilder) finish(root fbObject) []byte {
	b.buf = append(b.buf[:0], 0, 0, 0, 0)
	pos := b.object(root)
	binary.LittleEndian.PutUint32(b.buf, uint32(pos))
	return b.buf
}

// object places x and returns its position.
func (b *fbBuilder) object(x any) int {
	switch v := x.(type) {
	case string:
		b.pad(4)
		pos := len(b.buf)
		b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(len(v)))
		b.buf = append(append(b.buf, v...), 0)
		return pos
	case fbStructs:
		// The elements must be 8-aligned: the length goes 4 bytes before.
		b.pad(8)
		b.buf = append(b.buf, 0, 0, 0, 0)
		pos := len(b.buf)
		b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(len(v)/16))
		b.buf = append(b.buf, v...)
		return pos
	case []fbObject:
		b.pad(4)
		pos := len(b.buf)
		b.buf = binary.LittleEndian.AppendUint32(b.buf, uint32(len(v)))
		slots := len(b.buf)
		b.buf = append(b.buf, make([]byte, 4*len(v))...)
		for k, t := range v {
			b.patch(slots+4*k, b.object(t))
		}
		return pos
	case fbObject:
		return b.table(v)
	}
	panic(fmt.Sprintf("arrowipc: cannot lay out a %T", x))
}

func (b *fbBuilder) patch(at, target int) {
	binary.LittleEndian.PutUint32(b.buf[at:], uint32(target-at))
}

// table places t: its vtable, then its fields, each aligned to its size
// (offsets are 4 bytes), then the objects its offsets refer to.
func (b *fbBuilder) table(t fbObject) int {
	offsets := make([]int, len(t))
	size := 4
	for id, f := range t {
		w := f.size
		if f.ref != nil {
			w = 4
		}
		if w == 0 {
			continue
		}
		size = (size + w - 1) / w * w
		offsets[id] = size
		size += w
	}
	b.pad(2)
	vt := len(b.buf)
	b.buf = binary.LittleEndian.AppendUint16(b.buf, uint16(4+2*len(t)))
	b.buf = binary.LittleEndian.AppendUint16(b.buf, uint16(size))
	for _, o := range offsets {
		b.buf = binary.LittleEndian.AppendUint16(b.buf, uint16(o))
	}
	b.pad(8)
	pos := len(b.buf)
	b.buf = append(b.buf, make([]byte, size)...)
	binary.LittleEndian.PutUint32(b.buf[pos:], uint32(int32(pos-vt)))
	for id, f := range t {
		at := pos + offsets[id]
		switch {
		case f.ref != nil:
		case f.size == 1:
			b.buf[at] = byte(f.bits)
		case f.size == 2:
			binary.LittleEndian.PutUint16(b.buf[at:], uint16(f.bits))
		case f.size == 4:
			binary.LittleEndian.PutUint32(b.buf[at:], uint32(f.bits))
		case f.size == 8:
			binary.LittleEndian.PutUint64(b.buf[at:], f.bits)
		}
	}
	for id, f := range t {
		if f.ref != nil {
			b.patch(pos+offsets[id], b.object(f.ref))
		}
	}
	return pos
}
