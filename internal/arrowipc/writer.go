package arrowipc

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
)

// Write encodes columns of equal length, and the schema metadata, as an
// Arrow IPC stream: a schema message, one record batch, and the
// end-of-stream marker. Every field is nullable.
func Write(metadata map[string]string, columns []Column) ([]byte, error) {
	rows := 0
	if len(columns) > 0 {
		rows = columns[0].Len()
	}
	fields := make([]fbObject, len(columns))
	for i := range columns {
		c := &columns[i]
		if c.Len() != rows {
			return nil, fmt.Errorf("arrowipc: column %q has %d values and column %q %d", c.Name, c.Len(), columns[0].Name, rows)
		}
		if c.Valid != nil && len(c.Valid) != rows {
			return nil, fmt.Errorf("arrowipc: column %q has %d validity flags for %d values", c.Name, len(c.Valid), rows)
		}
		var kind uint8
		var typ fbObject
		switch c.Type {
		case Int64:
			kind, typ = typeInt, fbObject{{size: 4, bits: 64}, fbBool(true)}
		case Float64:
			kind, typ = typeFloatingPoint, fbObject{fbI16(2)}
		case Utf8:
			kind, typ = typeUtf8, fbObject{}
		default:
			return nil, fmt.Errorf("arrowipc: column %q has no type", c.Name)
		}
		// name, nullable, type_type, type, dictionary, children
		fields[i] = fbObject{fbRef(c.Name), fbBool(true), fbU8(kind), fbRef(typ), {}, fbRef([]fbObject{})}
	}
	keys := make([]string, 0, len(metadata))
	for k := range metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pairs := make([]fbObject, len(keys))
	for i, k := range keys {
		pairs[i] = fbObject{fbRef(k), fbRef(metadata[k])}
	}
	schema := fbObject{fbI16(0), fbRef(fields)}
	if len(pairs) > 0 {
		schema = append(schema, fbRef(pairs))
	}
	var b fbBuilder
	out := appendMessage(nil, &b, headerSchema, schema, nil)

	var body []byte
	var nodes, buffers []byte
	addBuffer := func(data []byte) {
		buffers = binary.LittleEndian.AppendUint64(buffers, uint64(len(body)))
		buffers = binary.LittleEndian.AppendUint64(buffers, uint64(len(data)))
		body = append(body, data...)
		for len(body)%8 != 0 {
			body = append(body, 0)
		}
	}
	for i := range columns {
		c := &columns[i]
		var validity []byte
		nulls := 0
		if c.Valid != nil {
			validity = make([]byte, (rows+7)/8)
			for k, ok := range c.Valid {
				if ok {
					validity[k/8] |= 1 << (k % 8)
				} else {
					nulls++
				}
			}
			if nulls == 0 {
				validity = nil
			}
		}
		nodes = binary.LittleEndian.AppendUint64(nodes, uint64(rows))
		nodes = binary.LittleEndian.AppendUint64(nodes, uint64(nulls))
		addBuffer(validity)
		switch c.Type {
		case Int64:
			values := make([]byte, 0, 8*rows)
			for _, v := range c.Ints {
				values = binary.LittleEndian.AppendUint64(values, uint64(v))
			}
			addBuffer(values)
		case Float64:
			values := make([]byte, 0, 8*rows)
			for _, v := range c.Floats {
				values = binary.LittleEndian.AppendUint64(values, math.Float64bits(v))
			}
			addBuffer(values)
		case Utf8:
			offsets := make([]byte, 0, 4*(rows+1))
			size := 0
			offsets = binary.LittleEndian.AppendUint32(offsets, 0)
			for k, s := range c.Strings {
				if c.Valid == nil || c.Valid[k] {
					size += len(s)
				}
				if size > math.MaxInt32 {
					return nil, fmt.Errorf("arrowipc: column %q holds over 2 GiB of text", c.Name)
				}
				offsets = binary.LittleEndian.AppendUint32(offsets, uint32(size))
			}
			data := make([]byte, 0, size)
			for k, s := range c.Strings {
				if c.Valid == nil || c.Valid[k] {
					data = append(data, s...)
				}
			}
			addBuffer(offsets)
			addBuffer(data)
		}
	}
	batch := fbObject{fbI64(int64(rows)), fbRef(fbStructs(nodes)), fbRef(fbStructs(buffers))}
	out = appendMessage(out, &b, headerRecordBatch, batch, body)
	return binary.LittleEndian.AppendUint64(out, 0x00000000FFFFFFFF), nil
}

// appendMessage appends an encapsulated message: the continuation marker,
// the metadata's length, the Message flatbuffer padded to 8 bytes, and
// the body (already padded).
func appendMessage(out []byte, b *fbBuilder, kind uint8, header fbObject, body []byte) []byte {
	const version5 = 4
	meta := b.finish(fbObject{fbI16(version5), fbU8(kind), fbRef(header), fbI64(int64(len(body)))})
	for len(meta)%8 != 0 {
		meta = append(meta, 0)
	}
	out = binary.LittleEndian.AppendUint32(out, 0xFFFFFFFF)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	out = append(out, meta...)
	return append(out, body...)
}
