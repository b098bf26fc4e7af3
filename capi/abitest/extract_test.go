package abitest

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

// extractLib holds llenvs_extract_texts, llenvs_clean_texts and llenvs_parse_tool_calls.
var extractLib struct {
	toolCalls func(spec []byte, specLen uintptr, texts *unsafe.Pointer, lens *int64, n uintptr, schema *arrowSchema,
		array *arrowArray, out *unsafe.Pointer, outLen *uintptr) int32
	extract func(spec []byte, specLen uintptr, texts *unsafe.Pointer, lens *int64, n uintptr, schema *arrowSchema,
		array *arrowArray, out *unsafe.Pointer, outLen *uintptr) int32
	clean func(spec []byte, specLen uintptr, texts *unsafe.Pointer, lens *int64, n uintptr, schema *arrowSchema,
		array *arrowArray, out *unsafe.Pointer, outLen *uintptr) int32
}

func registerExtract(h uintptr) {
	purego.RegisterLibFunc(&extractLib.extract, h, "llenvs_extract_texts")
	purego.RegisterLibFunc(&extractLib.clean, h, "llenvs_clean_texts")
	purego.RegisterLibFunc(&extractLib.toolCalls, h, "llenvs_parse_tool_calls")
}

// textArrays is texts as the C arrays of pointers and lengths the *_texts
// entry points take (the byte slices stay referenced by the pointers).
func textArrays(texts ...string) ([]unsafe.Pointer, []int64) {
	ptrs := make([]unsafe.Pointer, len(texts))
	lens := make([]int64, len(texts))
	for i, s := range texts {
		b := append([]byte(s), 0)
		ptrs[i] = unsafe.Pointer(&b[0])
		lens[i] = int64(len(s))
	}
	return ptrs, lens
}

// TestExtractAndCleanTexts checks llenvs_extract_texts and
// llenvs_clean_texts: their batches' columns, lone surrogates (as
// "surrogatepass" bytes) kept whole and unchanged, and their errors.
func TestExtractAndCleanTexts(t *testing.T) {
	const sur = "\xed\xa0\x80"
	ptrs, lens := textArrays("<answer> 4"+sur+" </answer>", "none", "abc"+sur)
	var out unsafe.Pointer
	var n uintptr
	spec := []byte(`{"extractor": {"type": "tag_based"}, "pre_cleaners": null}`)
	var b batchSlot
	if rc := extractLib.extract(spec, uintptr(len(spec)), &ptrs[0], &lens[0], 3, &b.schema, &b.array, &out, &n); rc != 0 {
		t.Fatalf("extract rc %d: %s", rc, take(out, n))
	}
	if _, a := b.field(0); a != "answer" || b.array.length != 3 {
		t.Fatalf("first column %q, %d rows", a, b.array.length)
	}
	if _, m := b.field(1); m != "metadata" {
		t.Fatalf("second column %q", m)
	}
	if got := columnValues(utf8Values(b.column(0))); !reflect.DeepEqual(got, []any{"4" + sur, nil, nil}) {
		t.Errorf("answers %q", got)
	}
	if m := utf8Values(b.column(1)); m[1] == nil || !strings.Contains(*m[1], `"found":false`) {
		t.Errorf("metadata %v", columnValues(m))
	}
	b.release(t)

	spec = []byte(`{"kind": "post", "cleaners": [{"type": "truncate_tail", "config": {"max_chars": 2}}]}`)
	var c batchSlot
	if rc := extractLib.clean(spec, uintptr(len(spec)), &ptrs[0], &lens[0], 3, &c.schema, &c.array, &out, &n); rc != 0 {
		t.Fatalf("clean rc %d: %s", rc, take(out, n))
	}
	if _, name := c.field(0); name != "text" {
		t.Fatalf("clean column %q", name)
	}
	if got := columnValues(utf8Values(c.column(0))); !reflect.DeepEqual(got, []any{"r>", "ne", "c" + sur}) {
		t.Errorf("cleaned %q", got)
	}
	c.release(t)

	// No texts: an empty batch, NULL arrays allowed.
	var e batchSlot
	if rc := extractLib.clean(spec, uintptr(len(spec)), nil, nil, 0, &e.schema, &e.array, &out, &n); rc != 0 ||
		e.array.length != 0 {
		t.Fatalf("clean of no texts rc %d: %s", rc, take(out, n))
	}
	e.release(t)

	for _, tt := range []struct {
		name, spec, want string
		clean, nullSlots bool
	}{
		{"unknown extractor", `{"extractor": {"type": "nope"}}`, "nope", false, false},
		{"texts in the spec", `{"extractor": {"type": "raw"}, "texts": []}`, "texts", false, false},
		{"malformed", `{"extractor": `, "", false, false},
		{"bad cleaner kind", `{"kind": "mid", "cleaners": []}`, "kind", true, false},
		{"NULL structs", `{"kind": "pre", "cleaners": []}`, "NULL", true, true},
		{"NULL structs, extract", `{"extractor": {"type": "raw"}}`, "NULL", false, true},
	} {
		var s batchSlot
		schema, array := &s.schema, &s.array
		if tt.nullSlots {
			schema, array = nil, nil
		}
		f := extractLib.extract
		if tt.clean {
			f = extractLib.clean
		}
		rc := f([]byte(tt.spec), uintptr(len(tt.spec)), &ptrs[0], &lens[0], 3, schema, array, &out, &n)
		msg := take(out, n)
		if rc >= 0 || !strings.Contains(msg, tt.want) || s.filled() {
			t.Errorf("%s: rc %d, %q, filled %v", tt.name, rc, msg, s.filled())
		}
	}
}

// TestParseToolCalls checks llenvs_parse_tool_calls: per text a list of
// calls {id, name, arguments (JSON), error (null when well-formed)} and
// more, and its errors.
func TestParseToolCalls(t *testing.T) {
	ptrs, lens := textArrays(`<tool_call>{"name": "f", "arguments": {"x": "1", "a": 2}}</tool_call>`, "none",
		`<tool_call>{"name": 3}</tool_call>`)
	var out unsafe.Pointer
	var n uintptr
	spec := []byte(`{"format": "hermes", "id_prefix": "c", "limit": 8}`)
	var b batchSlot
	if rc := extractLib.toolCalls(spec, uintptr(len(spec)), &ptrs[0], &lens[0], 3, &b.schema, &b.array, &out,
		&n); rc != 0 {
		t.Fatalf("parse rc %d: %s", rc, take(out, n))
	}
	format, name := b.field(0)
	moreFormat, moreName := b.field(1)
	if format != "+l" || name != "calls" || moreFormat != "C" || moreName != "more" || b.array.length != 3 {
		t.Fatalf("columns %q %q, %q %q, %d rows", name, format, moreName, moreFormat, b.array.length)
	}
	callSchema := b.schema.child(0).child(0)
	var fields []string
	for k := 0; k < int(callSchema.nChildren); k++ {
		fields = append(fields, cString(callSchema.child(k).name)+":"+cString(callSchema.child(k).format))
	}
	if want := []string{"id:u", "name:u", "arguments:u", "error:u"}; !reflect.DeepEqual(fields, want) {
		t.Fatalf("call fields %q, want %q", fields, want)
	}
	listed := b.column(0)
	offs := unsafe.Slice((*int32)(unsafe.Slice(listed.buffers, listed.nBuffers)[1]), 4)
	if got := []int32{offs[0], offs[1], offs[2], offs[3]}; !reflect.DeepEqual(got, []int32{0, 1, 1, 2}) {
		t.Fatalf("call offsets %v", got)
	}
	calls := listed.child(0)
	cols := make([][]any, 4)
	for k := range cols {
		cols[k] = columnValues(utf8Values(calls.child(k)))
	}
	want := [][]any{{"c0_0", "c2_0"}, {"f", ""}, {`{"a":2,"x":"1"}`, `{}`}}
	if !reflect.DeepEqual(cols[:3], want) {
		t.Errorf("calls %q, want %q", cols[:3], want)
	}
	if s, _ := cols[3][1].(string); cols[3][0] != nil || !strings.HasPrefix(s, "malformed tool call") {
		t.Errorf("errors %q", cols[3])
	}
	more := b.column(1)
	if m := unsafe.Slice((*uint8)(unsafe.Slice(more.buffers, more.nBuffers)[1]), 3); m[0]|m[1]|m[2] != 0 {
		t.Errorf("more %v", m)
	}
	b.release(t)
	for _, tt := range []struct{ spec, want string }{
		{`{"format": "hermez", "id_prefix": "c", "limit": 8}`, "hermes"},
		{`{"format": "hermes", "id_prefix": "c", "limit": 0}`, "limit"},
		{`{"format": "hermes", "limit": 8, "texts": []}`, "texts"},
	} {
		var s batchSlot
		rc := extractLib.toolCalls([]byte(tt.spec), uintptr(len(tt.spec)), &ptrs[0], &lens[0], 3, &s.schema,
			&s.array, &out, &n)
		if msg := take(out, n); rc >= 0 || !strings.Contains(msg, tt.want) || s.filled() {
			t.Errorf("%s: rc %d, %q", tt.spec, rc, msg)
		}
	}
}
