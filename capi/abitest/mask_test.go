//go:build linux

package abitest

import (
	"encoding/binary"
	"reflect"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

var maskLib struct {
	maskBatch func(tokens *int32, tokOffs *int64, nFrag uintptr, segs *int32, segOffs *int64, rewards *float64,
		rewOffs *int64, n uintptr, maxLength int64, out *unsafe.Pointer, outLen *uintptr) int32
	tokenizerNew   func(data []byte, n uintptr, h *uint64, out *unsafe.Pointer, outLen *uintptr) int32
	tokenizerClose func(h uint64) int32
}

const kindTokenizer = 3

func registerMasking(h uintptr) {
	purego.RegisterLibFunc(&maskLib.maskBatch, h, "llenvs_mask_batch")
	purego.RegisterLibFunc(&maskLib.tokenizerNew, h, "llenvs_tokenizer_new")
	purego.RegisterLibFunc(&maskLib.tokenizerClose, h, "llenvs_tokenizer_close")
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
	rc := maskLib.maskBatch(&tokens[0], &tokOffs[0], 3, &segs[0], &segOffs[0], &rewards[0], &rewOffs[0], 1, 5, &out, &outLen)
	buf := []byte(take(out, outLen))
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, buf)
	}
	// header: n, then prompt, response, span and step offsets (2 each)
	at := func(k int) int64 { return int64(binary.LittleEndian.Uint64(buf[8*k:])) }
	if at(0) != 1 || at(2) != 2 || at(4) != 5 || at(6) != 3 || at(8) != 2 {
		t.Fatalf("header %v", buf[:72])
	}
	off := 72 + 8*5 // after token_rewards
	ids := func(k int) []int32 {
		v := make([]int32, k)
		for i := range v {
			v[i] = int32(binary.LittleEndian.Uint32(buf[off+4*i:]))
		}
		off += 4 * k
		return v
	}
	if p := ids(2); !reflect.DeepEqual(p, []int32{'Q', '?'}) {
		t.Fatalf("prompt %v", p)
	}
	if r := ids(5); !reflect.DeepEqual(r, []int32{'a', 'b', 'f', 'b', 'a'}) {
		t.Fatalf("response %v", r)
	}
	off += 4 * 5 * 3 // span records
	if at := ids(2); !reflect.DeepEqual(at, []int32{1, 4}) {
		t.Fatalf("reward positions %v", at)
	}
	if tail := buf[off:]; !reflect.DeepEqual(tail, []byte{1, 1, 1, 0, 0, 1}) { // truncated, then the mask
		t.Fatalf("flags and mask %v", tail)
	}
	segs[0] = 9 // no such fragment
	rc = maskLib.maskBatch(&tokens[0], &tokOffs[0], 3, &segs[0], &segOffs[0], &rewards[0], &rewOffs[0], 1, -1, &out, &outLen)
	if msg := decodeError(t, take(out, outLen)); rc != -1 || msg.Kind != "invalid" {
		t.Fatalf("rc %d, %+v", rc, msg)
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
