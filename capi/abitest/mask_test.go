//go:build linux

package abitest

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

var maskLib struct {
	maskBatch func(tokens *int32, tokOffs *int64, nFrag uintptr, segs *int32, segOffs *int64, rewards *float64,
		rewOffs *int64, n uintptr, maxLength int64, schema *arrowSchema, array *arrowArray, out *unsafe.Pointer,
		outLen *uintptr) int32
	tokenizerNew   func(data []byte, n uintptr, h *uint64, out *unsafe.Pointer, outLen *uintptr) int32
	tokenizerClose func(h uint64) int32
}

const kindTokenizer = 3

func registerMasking(h uintptr) {
	purego.RegisterLibFunc(&maskLib.maskBatch, h, "llenvs_mask_batch")
	purego.RegisterLibFunc(&maskLib.tokenizerNew, h, "llenvs_tokenizer_new")
	purego.RegisterLibFunc(&maskLib.tokenizerClose, h, "llenvs_tokenizer_close")
}

// child is column k of a batch (or child k of a nested array); the structs are arrow_test.go's.
func (a *arrowArray) child(k int) *arrowArray {
	return unsafe.Slice(a.children, a.nChildren)[k]
}

func (s *arrowSchema) child(k int) *arrowSchema {
	return unsafe.Slice(s.children, s.nChildren)[k]
}

// listRows reads a list column of fixed-width T values as one slice per row.
func listRows[T any](a *arrowArray) [][]T {
	bufs := unsafe.Slice(a.buffers, a.nBuffers)
	offs := unsafe.Slice((*int32)(bufs[1]), a.length+1)
	kid := a.child(0)
	vals := unsafe.Slice((*T)(unsafe.Slice(kid.buffers, kid.nBuffers)[1]), offs[a.length])
	rows := make([][]T, a.length)
	for i := range rows {
		rows[i] = append([]T{}, vals[offs[i]:offs[i+1]]...)
	}
	return rows
}

// llenvs_mask_batch as a C caller uses it: fragments "Q?", "ab", "fb";
// one trajectory prompt, model, environment, model.
func TestMaskBatch(t *testing.T) {
	tokens := []int32{'Q', '?', 'a', 'b', 'f', 'b'}
	tokOffs := []int64{0, 2, 4, 6}
	segs := []int32{0, 0, 0, 1, 1, 0, 2, 2, 0, 1, 1, 1}
	segOffs := []int64{0, 4}
	rewards := []float64{0.5, 1}
	rewOffs := []int64{0, 2}
	var out unsafe.Pointer
	var outLen uintptr
	var schema arrowSchema
	var array arrowArray
	rc := maskLib.maskBatch(&tokens[0], &tokOffs[0], 3, &segs[0], &segOffs[0], &rewards[0], &rewOffs[0], 1, 5,
		&schema, &array, &out, &outLen)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, take(out, outLen))
	}
	defer purego.SyscallN(array.release, uintptr(unsafe.Pointer(&array)))
	defer purego.SyscallN(schema.release, uintptr(unsafe.Pointer(&schema)))
	names := []string{}
	for k := range int(schema.nChildren) {
		names = append(names, cString(schema.child(k).name)+":"+cString(schema.child(k).format))
	}
	want := []string{"prompt_ids:+l", "response_ids:+l", "response_mask:+l", "token_rewards:+l", "spans:+l",
		"reward_at:+l", "truncated:C"}
	if cString(schema.format) != "+s" || !reflect.DeepEqual(names, want) || array.length != 1 {
		t.Fatalf("batch %s of %d rows, columns %v", cString(schema.format), array.length, names)
	}
	if p := listRows[int32](array.child(0)); !reflect.DeepEqual(p, [][]int32{{'Q', '?'}}) {
		t.Fatalf("prompt %v", p)
	}
	if r := listRows[int32](array.child(1)); !reflect.DeepEqual(r, [][]int32{{'a', 'b', 'f', 'b', 'a'}}) {
		t.Fatalf("response %v", r)
	}
	if m := listRows[uint8](array.child(2)); !reflect.DeepEqual(m, [][]uint8{{1, 1, 0, 0, 1}}) {
		t.Fatalf("mask %v", m)
	}
	if r := listRows[float64](array.child(3)); !reflect.DeepEqual(r, [][]float64{{0, 0.5, 0, 0, 1}}) {
		t.Fatalf("token rewards %v", r)
	}
	spans := array.child(4).child(0)
	if spans.length != 3 || spans.nChildren != 5 {
		t.Fatalf("%d spans of %d fields", spans.length, spans.nChildren)
	}
	if at := listRows[int32](array.child(5)); !reflect.DeepEqual(at, [][]int32{{1, 4}}) {
		t.Fatalf("reward positions %v", at)
	}
	if tr := *(*uint8)(unsafe.Slice(array.child(6).buffers, 2)[1]); tr != 1 {
		t.Fatalf("truncated %d", tr)
	}
	segs[0] = 9 // no such fragment
	var schema2 arrowSchema
	var array2 arrowArray
	rc = maskLib.maskBatch(&tokens[0], &tokOffs[0], 3, &segs[0], &segOffs[0], &rewards[0], &rewOffs[0], 1, -1,
		&schema2, &array2, &out, &outLen)
	if msg := decodeError(t, take(out, outLen)); rc != -1 || msg.Kind != "invalid" {
		t.Fatalf("rc %d, %+v", rc, msg)
	}
	if schema2.release != 0 || array2.release != 0 {
		t.Fatal("the structs were filled on error")
	}
	segs[0] = 0
	rc = maskLib.maskBatch(&tokens[0], &tokOffs[0], 3, &segs[0], &segOffs[0], &rewards[0], &rewOffs[0], 1, -1,
		nil, nil, &out, &outLen)
	if msg := decodeError(t, take(out, outLen)); rc != -1 || msg.Kind != "invalid" {
		t.Fatalf("NULL structs: rc %d, %+v", rc, msg)
	}
}

func TestTokenizerHandles(t *testing.T) {
	var h uint64
	var out unsafe.Pointer
	var outLen uintptr
	bad := []byte(`{"model": {"type": "WordPiece"}}`)
	if rc := maskLib.tokenizerNew(bad, uintptr(len(bad)), &h, &out, &outLen); rc != -1 {
		t.Fatalf("a WordPiece tokenizer loaded: rc %d", rc)
	}
	if msg := decodeError(t, take(out, outLen)); msg.Message == "" {
		t.Fatal("no message")
	}
	if rc := maskLib.tokenizerClose(12345678); rc != -2 {
		t.Fatalf("closing an unknown tokenizer: rc %d", rc)
	}
	if n := lib.liveHandles(kindTokenizer); n != 0 {
		t.Fatalf("%d live tokenizers", n)
	}
}
