// Package arrowipc reads and writes the Arrow IPC streaming format
// (https://arrow.apache.org/docs/format/Columnar.html#ipc-streaming-format),
// as much of it as a table of integer, float64 and string columns needs:
// what the server's batch endpoint takes and answers.
//
// The reader is strict and bounded, for bodies from the network: every
// offset, length and buffer is checked against the input before it is
// used, a malformed stream is an error that says what is wrong (never a
// panic), and what it allocates is bounded by a small multiple of the
// input's size and by the caller's row limit. It reads a schema message,
// then record batches, up to an end-of-stream marker or the end of the
// input. Columns may be integers of any width (read as int64), float64,
// or strings (utf8 and large_utf8, checked to be UTF-8, read as Go strings
// that alias the input: the caller must not change it while they are in
// use). Dictionary-encoded, compressed, nested and other columns are
// refused with the column's name and type, big-endian streams too.
//
// The writer writes one schema and one record batch of int64, float64
// and utf8 columns, with optional nulls and schema metadata.
package arrowipc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"
	"unsafe"
)

// ContentType is the media type of an Arrow IPC stream.
const ContentType = "application/vnd.apache.arrow.stream"

// Type is a column's type.
type Type int

// The column types.
const (
	Int64   Type = iota // read from any integer width; Ints
	Float64             // Floats
	Utf8                // read from utf8 and large_utf8; Strings
)

func (t Type) String() string {
	return [...]string{"int64", "float64", "utf8"}[t]
}

// Column is a named column: its values in the slice of its Type, and its
// validity (Valid nil when no value is null; Valid[i] false when value i
// is null, and the value then zero).
type Column struct {
	Name    string
	Type    Type
	Ints    []int64
	Floats  []float64
	Strings []string
	Valid   []bool
}

// Len is the column's length.
func (c *Column) Len() int {
	switch c.Type {
	case Int64:
		return len(c.Ints)
	case Float64:
		return len(c.Floats)
	}
	return len(c.Strings)
}

// Table is a stream's schema metadata and columns, its record batches
// concatenated.
type Table struct {
	Metadata map[string]string
	Columns  []Column
	Rows     int
}

// Column is the column named name, or nil.
func (t *Table) Column(name string) *Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// RowLimitError is the error of a stream with more rows than the reader
// was allowed.
type RowLimitError struct{ Rows, Limit int64 }

func (e *RowLimitError) Error() string {
	return fmt.Sprintf("the stream holds at least %d rows; the limit is %d", e.Rows, e.Limit)
}

// Message header types (Message.fbs).
const (
	headerSchema          = 1
	headerDictionaryBatch = 2
	headerRecordBatch     = 3
)

// Type union members (Schema.fbs) this package reads, and the names of
// the others for messages.
const (
	typeInt           = 2
	typeFloatingPoint = 3
	typeUtf8          = 5
	typeLargeUtf8     = 20
)

var typeNames = map[uint8]string{1: "null", 2: "int", 3: "floating point", 4: "binary", 5: "utf8", 6: "bool",
	7: "decimal", 8: "date", 9: "time", 10: "timestamp", 11: "interval", 12: "list", 13: "struct", 14: "union",
	15: "fixed-size binary", 16: "fixed-size list", 17: "map", 18: "duration", 19: "large binary",
	20: "large utf8", 21: "large list", 22: "run-end encoded", 23: "binary view", 24: "utf8 view",
	25: "list view", 26: "large list view"}

// field is a schema field as read: its column and how its buffers are read.
type field struct {
	col   Column
	width int // bytes per integer, or per offset of a string column
	sign  bool
}

// Read reads the stream in data into a Table of at most maxRows rows.
func Read(data []byte, maxRows int) (*Table, error) {
	var fields []field
	t := &Table{}
	rest := data
	for n := 0; ; n++ {
		if len(rest) == 0 {
			if fields == nil {
				return nil, errors.New("the stream is empty: it needs a schema message")
			}
			break
		}
		meta, body, next, err := splitMessage(rest, data)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", n, err)
		}
		if meta == nil {
			if fields == nil {
				return nil, errors.New("the stream ends before its schema message")
			}
			if len(next) != 0 {
				return nil, fmt.Errorf("%d bytes follow the end-of-stream marker", len(next))
			}
			break
		}
		r := &fbReader{buf: meta}
		msg := r.root()
		version := r.scalar16(msg, 0, 0)
		kind := r.scalar8(msg, 1, 0)
		header, hasHeader := r.child(msg, 2)
		bodyLen := r.scalar64(msg, 3, 0)
		if r.err != nil {
			return nil, fmt.Errorf("message %d: its metadata is malformed: %w", n, r.err)
		}
		if version < 3 {
			return nil, fmt.Errorf("message %d: metadata version %d is older than Arrow's V4 (write with a current Arrow library)", n, version+1)
		}
		if !hasHeader {
			return nil, fmt.Errorf("message %d has no header", n)
		}
		if bodyLen < 0 || bodyLen > int64(len(body)) {
			return nil, fmt.Errorf("message %d: its body of %d bytes runs past the end of the stream (%d bytes left)", n, bodyLen, len(body))
		}
		rest = body[bodyLen:]
		body = body[:bodyLen]
		switch {
		case n == 0 && kind != headerSchema:
			return nil, fmt.Errorf("the stream does not start with a schema message (message type %d)", kind)
		case n == 0:
			if fields, err = readSchema(r, header, t); err != nil {
				return nil, fmt.Errorf("schema: %w", err)
			}
		case kind == headerRecordBatch:
			if err := readBatch(r, header, body, fields, t, maxRows); err != nil {
				return nil, fmt.Errorf("record batch %d: %w", n-1, err)
			}
		case kind == headerDictionaryBatch:
			return nil, errors.New("dictionary batches are not supported: send plain (not dictionary-encoded) columns")
		default:
			return nil, fmt.Errorf("message %d: type %d is not a record batch", n, kind)
		}
	}
	t.Columns = make([]Column, len(fields))
	for i := range fields {
		t.Columns[i] = fields[i].col
		if t.Columns[i].Len() != t.Rows {
			return nil, fmt.Errorf("column %q has %d values for %d rows", t.Columns[i].Name, t.Columns[i].Len(), t.Rows)
		}
	}
	return t, nil
}

// splitMessage splits the next encapsulated message off rest: its
// metadata (nil at an end-of-stream marker) and what follows it.
func splitMessage(rest, all []byte) (meta, body, next []byte, err error) {
	at := len(all) - len(rest)
	if len(rest) < 8 || binary.LittleEndian.Uint32(rest) != 0xFFFFFFFF {
		return nil, nil, nil, fmt.Errorf("at byte %d: expected a message (0xFFFFFFFF and a length); "+
			"an Arrow IPC stream written before Arrow 0.15, or not a stream (a file, or another format)", at)
	}
	size := int64(int32(binary.LittleEndian.Uint32(rest[4:])))
	if size == 0 {
		return nil, nil, rest[8:], nil
	}
	if size < 0 || size > int64(len(rest)-8) {
		return nil, nil, nil, fmt.Errorf("at byte %d: a metadata length of %d runs past the end of the stream", at, size)
	}
	return rest[8 : 8+size], rest[8+size:], nil, nil
}

func readSchema(r *fbReader, schema fbTable, t *Table) ([]field, error) {
	if r.scalar16(schema, 0, 0) != 0 {
		return nil, errors.New("the stream is big-endian; write it little-endian")
	}
	start, n := r.vector(schema, 1, 4)
	fields := make([]field, 0, n)
	for k := range n {
		f := r.vectorTable(start, k)
		name := r.str(f, 0)
		kind := r.scalar8(f, 2, 0)
		typ, hasType := r.child(f, 3)
		_, dictionary := r.child(f, 4)
		_, children := r.vector(f, 5, 4)
		if r.err != nil {
			return nil, fmt.Errorf("field %d: %w", k, r.err)
		}
		if dictionary {
			return nil, fmt.Errorf("column %q is dictionary-encoded; send it plain (pyarrow: .cast(pa.string()) or dictionary_decode())", name)
		}
		fd := field{col: Column{Name: name}}
		switch kind {
		case typeInt:
			bits := 0
			if hasType {
				bits = int(r.scalar32(typ, 0, 0))
				fd.sign = r.scalar8(typ, 1, 0) != 0
			}
			if bits != 8 && bits != 16 && bits != 32 && bits != 64 {
				return nil, fmt.Errorf("column %q: an integer of %d bits", name, bits)
			}
			fd.col.Type, fd.width = Int64, bits/8
		case typeFloatingPoint:
			if !hasType || r.scalar16(typ, 0, 0) != 2 {
				return nil, fmt.Errorf("column %q: only 64-bit floating point is supported (cast it to float64)", name)
			}
			fd.col.Type, fd.width = Float64, 8
		case typeUtf8:
			fd.col.Type, fd.width = Utf8, 4
		case typeLargeUtf8:
			fd.col.Type, fd.width = Utf8, 8
		default:
			what, ok := typeNames[kind]
			if !ok {
				what = fmt.Sprintf("type %d", kind)
			}
			return nil, fmt.Errorf("column %q is of type %s; the supported types are integers, float64 and strings (utf8, large_utf8)", name, what)
		}
		if children != 0 {
			return nil, fmt.Errorf("column %q has child fields; nested columns are not supported", name)
		}
		fields = append(fields, fd)
	}
	kv, nkv := r.vector(schema, 2, 4)
	for k := range nkv {
		pair := r.vectorTable(kv, k)
		key, value := r.str(pair, 0), r.str(pair, 1)
		if r.err != nil {
			break
		}
		if t.Metadata == nil {
			t.Metadata = map[string]string{}
		}
		t.Metadata[key] = value
	}
	if r.err != nil {
		return nil, fmt.Errorf("its metadata is malformed: %w", r.err)
	}
	return fields, nil
}

func readBatch(r *fbReader, batch fbTable, body []byte, fields []field, t *Table, maxRows int) error {
	length := r.scalar64(batch, 0, 0)
	nodeStart, nNodes := r.vector(batch, 1, 16)
	bufStart, nBufs := r.vector(batch, 2, 16)
	_, compressed := r.child(batch, 3)
	if r.err != nil {
		return fmt.Errorf("its metadata is malformed: %w", r.err)
	}
	if compressed {
		return errors.New("compressed bodies are not supported; write the stream uncompressed")
	}
	if length < 0 {
		return fmt.Errorf("a length of %d rows", length)
	}
	if total := int64(t.Rows) + length; total > int64(maxRows) {
		return &RowLimitError{Rows: total, Limit: int64(maxRows)}
	}
	rows := int(length)
	if nNodes != len(fields) {
		return fmt.Errorf("it has %d columns for a schema of %d", nNodes, len(fields))
	}
	wantBufs := 0
	for i := range fields {
		wantBufs += 2
		if fields[i].col.Type == Utf8 {
			wantBufs++
		}
	}
	if nBufs != wantBufs {
		return fmt.Errorf("it has %d buffers where its columns have %d", nBufs, wantBufs)
	}
	buffer := func(k int) ([]byte, error) {
		p := bufStart + 16*k
		off, size := int64(binary.LittleEndian.Uint64(r.buf[p:])), int64(binary.LittleEndian.Uint64(r.buf[p+8:]))
		if off < 0 || size < 0 || off > int64(len(body)) || size > int64(len(body))-off {
			return nil, fmt.Errorf("buffer %d (%d bytes at %d) lies outside the body of %d bytes", k, size, off, len(body))
		}
		return body[off : off+size], nil
	}
	b := 0
	for i := range fields {
		f := &fields[i]
		p := nodeStart + 16*i
		nodeLen, nulls := int64(binary.LittleEndian.Uint64(r.buf[p:])), int64(binary.LittleEndian.Uint64(r.buf[p+8:]))
		if nodeLen != length {
			return fmt.Errorf("column %q has %d values in a batch of %d rows", f.col.Name, nodeLen, length)
		}
		if nulls < 0 || nulls > length {
			return fmt.Errorf("column %q: a null count of %d in %d rows", f.col.Name, nulls, length)
		}
		validity, err := buffer(b)
		if err != nil {
			return fmt.Errorf("column %q: %w", f.col.Name, err)
		}
		values, err := buffer(b + 1)
		if err != nil {
			return fmt.Errorf("column %q: %w", f.col.Name, err)
		}
		var data []byte
		if f.col.Type == Utf8 {
			if data, err = buffer(b + 2); err != nil {
				return fmt.Errorf("column %q: %w", f.col.Name, err)
			}
			b++
		}
		b += 2
		if err := f.read(rows, nulls, t.Rows, validity, values, data); err != nil {
			return fmt.Errorf("column %q: %w", f.col.Name, err)
		}
	}
	t.Rows += rows
	return nil
}

// read appends a batch's rows of the column: before rows already read.
func (f *field) read(rows int, nulls int64, before int, validity, values, data []byte) error {
	c := &f.col
	if nulls > 0 {
		if len(validity) < (rows+7)/8 {
			return fmt.Errorf("%d nulls but a validity bitmap of %d bytes for %d rows", nulls, len(validity), rows)
		}
		if c.Valid == nil {
			c.Valid = make([]bool, before, before+rows)
			for i := range c.Valid {
				c.Valid[i] = true
			}
		}
	}
	valid := func(i int) bool { return nulls == 0 || validity[i/8]&(1<<(i%8)) != 0 }
	if c.Valid != nil {
		for i := range rows {
			c.Valid = append(c.Valid, valid(i))
		}
	}
	switch c.Type {
	case Int64:
		if len(values) < rows*f.width {
			return fmt.Errorf("%d bytes of values for %d rows of %d-byte integers", len(values), rows, f.width)
		}
		c.Ints = slices.Grow(c.Ints, rows)
		for i := range rows {
			var v int64
			switch f.width {
			case 1:
				v = int64(values[i])
				if f.sign {
					v = int64(int8(values[i]))
				}
			case 2:
				u := binary.LittleEndian.Uint16(values[2*i:])
				v = int64(u)
				if f.sign {
					v = int64(int16(u))
				}
			case 4:
				u := binary.LittleEndian.Uint32(values[4*i:])
				v = int64(u)
				if f.sign {
					v = int64(int32(u))
				}
			case 8:
				u := binary.LittleEndian.Uint64(values[8*i:])
				if !f.sign && u > math.MaxInt64 && valid(i) {
					return fmt.Errorf("row %d: %d is out of the int64 range", before+i, u)
				}
				v = int64(u)
			}
			if !valid(i) {
				v = 0
			}
			c.Ints = append(c.Ints, v)
		}
	case Float64:
		if len(values) < rows*8 {
			return fmt.Errorf("%d bytes of values for %d rows of float64", len(values), rows)
		}
		c.Floats = slices.Grow(c.Floats, rows)
		for i := range rows {
			v := math.Float64frombits(binary.LittleEndian.Uint64(values[8*i:]))
			if !valid(i) {
				v = 0
			}
			c.Floats = append(c.Floats, v)
		}
	case Utf8:
		if rows == 0 {
			return nil
		}
		if len(values) < (rows+1)*f.width {
			return fmt.Errorf("%d bytes of offsets for %d rows", len(values), rows)
		}
		offset := func(i int) int64 {
			if f.width == 4 {
				return int64(int32(binary.LittleEndian.Uint32(values[4*i:])))
			}
			return int64(binary.LittleEndian.Uint64(values[8*i:]))
		}
		lo := offset(0)
		if lo < 0 || lo > int64(len(data)) {
			return fmt.Errorf("the first offset, %d, lies outside the %d bytes of data", lo, len(data))
		}
		c.Strings = slices.Grow(c.Strings, rows)
		for i := range rows {
			hi := offset(i + 1)
			if hi < lo || hi > int64(len(data)) {
				return fmt.Errorf("row %d: offsets %d to %d do not lie within the %d bytes of data", before+i, lo, hi, len(data))
			}
			s := ""
			if hi > lo && valid(i) {
				s = unsafe.String(&data[lo], hi-lo)
				if !utf8.ValidString(s) {
					return fmt.Errorf("row %d is not valid UTF-8", before+i)
				}
			}
			c.Strings = append(c.Strings, s)
			lo = hi
		}
	}
	return nil
}
