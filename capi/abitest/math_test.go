//go:build linux

package abitest

import (
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

var mathLib struct {
	parse func(buf []byte, offs *int64, n uintptr, cfg []byte, cfgLen uintptr, schema *arrowSchema, array *arrowArray,
		out *unsafe.Pointer, outLen *uintptr) int32
	verify func(goldKind, predKind uint8, buf []byte, offs *int64, goldCount, predCount uintptr, opts []byte,
		optsLen uintptr, verdict *uint8, out *unsafe.Pointer, outLen *uintptr) int32
}

// Kinds of math items (LLENVS_MATH_TEXT, LLENVS_MATH_VALUES).
const (
	mathText   = 0
	mathValues = 1
)

func registerMath(h uintptr) {
	purego.RegisterLibFunc(&mathLib.parse, h, "llenvs_math_parse")
	purego.RegisterLibFunc(&mathLib.verify, h, "llenvs_math_verify")
}

// llenvs_math_parse's batch read as a C caller reads it, then its
// encodings sent back as the gold values of llenvs_math_verify.
func TestMathParseAndVerify(t *testing.T) {
	buf, offs := packTexts(`so \boxed{\frac{1}{2}}`, "", `\boxed{10^{10^{10^{10^{10}}}}}`)
	var parsed batchSlot
	var out unsafe.Pointer
	var n uintptr
	if rc := mathLib.parse(buf, &offs[0], 3, nil, 0, &parsed.schema, &parsed.array, &out, &n); rc != 0 {
		t.Fatalf("parse rc %d: %s", rc, take(out, n))
	}
	if parsed.array.length != 3 || parsed.array.nChildren != 2 {
		t.Fatalf("%d rows, %d columns; want 3 rows of values and error", parsed.array.length, parsed.array.nChildren)
	}
	if format, name := parsed.field(0); format != "+l" || name != "values" {
		t.Errorf("column 0 %q %q, want a list named values", format, name)
	}
	values := parsed.column(0)
	ends := unsafe.Slice((*int32)(unsafe.Slice(values.buffers, values.nBuffers)[1]), 4)
	item := unsafe.Slice(values.children, values.nChildren)[0]
	kids := unsafe.Slice(item.children, item.nChildren)
	encs, shown, kinds := utf8Values(kids[0]), utf8Values(kids[1]), utf8Values(kids[2])
	if ends[1] != 2 || *shown[0] != "1/2" || *kinds[0] != "expression" || *kinds[1] != "text" {
		t.Errorf("first text: %d values, %q (%q); want 1/2, an expression, then its text", ends[1], *shown[0], *kinds[0])
	}
	errs := utf8Values(parsed.column(1))
	if errs[0] != nil || errs[1] != nil || ends[2] != ends[1] {
		t.Errorf("errors %v; want none for the first two texts, no values for the empty one", errs)
	}
	pair, pairOffs := packTexts(*encs[0], *encs[1], `\boxed{0.5}`)
	parsed.release(t)

	// llenvs_math_verify_batch has more arguments than purego passes (15);
	// python/tests cover it through cffi.
	opts := []byte(`{"reasons": true}`)

	// One pair: gold strings first, then the prediction's.
	var verdict uint8
	if rc := mathLib.verify(mathValues, mathText, pair, &pairOffs[0], 2, 1, opts, uintptr(len(opts)), &verdict, &out,
		&n); rc != 0 {
		t.Fatalf("verify rc %d: %s", rc, take(out, n))
	}
	if reason := take(out, n); verdict != 1 || reason != "equal" {
		t.Errorf("verify: verdict %d reason %q; want 1 and equal", verdict, reason)
	}
	if rc := mathLib.verify(7, mathText, pair, &pairOffs[0], 2, 1, nil, 0, &verdict, &out, &n); rc == 0 {
		t.Errorf("kind 7 accepted")
	} else {
		take(out, n)
	}
}
