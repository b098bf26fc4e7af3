package arrowipc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// testdata/pyarrow_two_batches.arrows was written by pyarrow 26
// (pa.ipc.new_stream): two record batches of int64, int8, uint32, utf8,
// large_utf8 and float64 columns with nulls, and schema metadata.
func TestReadsPyarrowStream(t *testing.T) {
	data, err := os.ReadFile("testdata/pyarrow_two_batches.arrows")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Read(data, 100)
	if err != nil {
		t.Fatal(err)
	}
	want := &Table{Rows: 4, Metadata: map[string]string{"environment": "leg_counting"}, Columns: []Column{
		{Name: "task_indices", Type: Int64, Ints: []int64{0, -1, 1 << 40, 9}},
		{Name: "small", Type: Int64, Ints: []int64{-5, 0, 7, 1}, Valid: []bool{true, false, true, true}},
		{Name: "u32", Type: Int64, Ints: []int64{1, 2, 1<<32 - 1, 0}},
		{Name: "responses", Type: Utf8, Strings: []string{"<answer>4</answer>", "", "é ü", "z"}, Valid: []bool{true, false, true, true}},
		{Name: "large", Type: Utf8, Strings: []string{"a", "", "", "q"}, Valid: []bool{true, true, false, true}},
		{Name: "x", Type: Float64, Floats: []float64{0.5, 0, -2, 1}, Valid: []bool{true, false, true, true}},
	}}
	if !reflect.DeepEqual(tab, want) {
		t.Fatalf("read\n%+v\nwant\n%+v", tab, want)
	}
	if _, err := Read(data, 3); !errors.As(err, new(*RowLimitError)) {
		t.Fatalf("3 rows allowed: got %v, want a RowLimitError", err)
	}
}

func TestWriteReadsBack(t *testing.T) {
	cols := []Column{
		{Name: "totals", Type: Float64, Floats: []float64{1, 0, 0.25}},
		{Name: "statuses", Type: Utf8, Strings: []string{"correct", "incorrect", "no_answer"}},
		{Name: "answers", Type: Utf8, Strings: []string{"4", "", ""}, Valid: []bool{true, true, false}},
		{Name: "ids", Type: Int64, Ints: []int64{-1, 0, 1 << 50}},
	}
	data, err := Write(map[string]string{"environment": "legs", "b": ""}, cols)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(data, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := &Table{Rows: 3, Metadata: map[string]string{"environment": "legs", "b": ""}, Columns: cols}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, want)
	}
	empty, err := Write(nil, []Column{{Name: "s", Type: Utf8, Strings: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Read(empty, 0); err != nil || got.Rows != 0 {
		t.Fatalf("an empty table: %+v, %v", got, err)
	}
	if _, err := Write(nil, []Column{{Name: "a", Type: Utf8, Strings: []string{"x"}}, {Name: "b", Type: Int64}}); err == nil {
		t.Fatal("columns of different lengths were written")
	}
}

// mutate returns a copy of data with f applied.
func mutate(data []byte, f func([]byte) []byte) []byte { return f(append([]byte(nil), data...)) }

func TestMalformedStreams(t *testing.T) {
	good, err := Write(nil, []Column{{Name: "responses", Type: Utf8, Strings: []string{"ab", "c"}}})
	if err != nil {
		t.Fatal(err)
	}
	schemaLen := 8 + int(binary.LittleEndian.Uint32(good[4:]))
	batchMeta := good[schemaLen+8 : schemaLen+8+int(binary.LittleEndian.Uint32(good[schemaLen+4:]))]
	// The batch's body: offsets (12 bytes, padded to 16), then "abc".
	body := schemaLen + 8 + len(batchMeta)
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "the stream is empty"},
		{"JSON", []byte(`{"responses": ["x"]}`), "expected a message"},
		{"no schema", good[schemaLen:], "does not start with a schema"},
		{"only the end marker", []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}, "ends before its schema"},
		{"metadata length past the end", mutate(good, func(b []byte) []byte { b[4] = 0xff; b[5] = 0xff; return b }), "runs past the end"},
		{"negative metadata length", mutate(good, func(b []byte) []byte { b[7] = 0x80; return b }), "runs past the end"},
		{"truncated body", good[:body+4], "runs past the end of the stream"},
		{"cut in the metadata", good[:schemaLen-3], "runs past the end"},
		{"root offset out of range", mutate(good, func(b []byte) []byte { b[8], b[9], b[10] = 0xff, 0xff, 0x7f; return b }), "malformed"},
		{"offset past the data", mutate(good, func(b []byte) []byte { b[body+8] = 99; return b }), "do not lie within"},
		{"decreasing offsets", mutate(good, func(b []byte) []byte { b[body+4] = 3; b[body+8] = 1; return b }), "do not lie within"},
		{"invalid UTF-8", mutate(good, func(b []byte) []byte { b[body+16] = 0xff; return b }), "not valid UTF-8"},
		{"data after the end marker", append(append([]byte(nil), good...), 1), "follow the end-of-stream marker"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(c.data, 10)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
	if _, err := Read(good, 10); err != nil {
		t.Fatalf("the unchanged stream: %v", err)
	}
}

func TestRefusedTypes(t *testing.T) {
	// A float32 column: the FloatingPoint table's precision is SINGLE (1).
	var b fbBuilder
	field := fbObject{fbRef("x"), fbBool(true), fbU8(typeFloatingPoint), fbRef(fbObject{fbI16(1)}), {}, fbRef([]fbObject{})}
	data := appendMessage(nil, &b, headerSchema, fbObject{fbI16(0), fbRef([]fbObject{field})}, nil)
	if _, err := Read(data, 1); err == nil || !strings.Contains(err.Error(), "64-bit floating point") {
		t.Fatalf("float32: %v", err)
	}
	field = fbObject{fbRef("l"), fbBool(true), fbU8(12), fbRef(fbObject{}), {}, fbRef([]fbObject{})}
	data = appendMessage(nil, &b, headerSchema, fbObject{fbI16(0), fbRef([]fbObject{field})}, nil)
	if _, err := Read(data, 1); err == nil || !strings.Contains(err.Error(), `column "l" is of type list`) {
		t.Fatalf("list: %v", err)
	}
	data = appendMessage(nil, &b, headerSchema, fbObject{fbI16(1), fbRef([]fbObject{})}, nil)
	if _, err := Read(data, 1); err == nil || !strings.Contains(err.Error(), "big-endian") {
		t.Fatalf("big-endian: %v", err)
	}
}

// FuzzRead: no input makes Read panic, return a table whose columns do not
// match its row count, or more rows than allowed.
func FuzzRead(f *testing.F) {
	if data, err := os.ReadFile("testdata/pyarrow_two_batches.arrows"); err == nil {
		f.Add(data)
	}
	w, _ := Write(map[string]string{"k": "v"}, []Column{{Name: "i", Type: Int64, Ints: []int64{1, 2}},
		{Name: "s", Type: Utf8, Strings: []string{"a", ""}, Valid: []bool{true, false}}, {Name: "f", Type: Float64, Floats: []float64{1, 2}}})
	f.Add(w)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		const limit = 64
		tab, err := Read(data, limit)
		if err != nil {
			return
		}
		if tab.Rows > limit {
			t.Fatalf("%d rows over the limit of %d", tab.Rows, limit)
		}
		for _, c := range tab.Columns {
			if c.Len() != tab.Rows || c.Valid != nil && len(c.Valid) != tab.Rows {
				t.Fatalf("column %q: %d values, %d validity flags for %d rows", c.Name, c.Len(), len(c.Valid), tab.Rows)
			}
		}
		again, err := Write(tab.Metadata, tab.Columns)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := Read(again, limit); err != nil || !bytes.Equal(mustWrite(t, back), again) {
			t.Fatalf("what was read does not write and read back the same: %v", err)
		}
	})
}

func mustWrite(t *testing.T, tab *Table) []byte {
	t.Helper()
	data, err := Write(tab.Metadata, tab.Columns)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
