//go:build linux

package abitest

import (
	"encoding/json"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

// codeRun is llenvs_code_run.
var codeRun func(spec []byte, specLen uintptr, sources *unsafe.Pointer, sourceLens *int64, stdins *unsafe.Pointer,
	stdinLens *int64, n uintptr, schema *arrowSchema, array *arrowArray, out *unsafe.Pointer, outLen *uintptr) int32

// codeCheck is llenvs_code_check (the same signature).
var codeCheck func(spec []byte, specLen uintptr, codes *unsafe.Pointer, codeLens *int64, tests *unsafe.Pointer,
	testLens *int64, n uintptr, schema *arrowSchema, array *arrowArray, out *unsafe.Pointer, outLen *uintptr) int32

func registerCode(h uintptr) {
	purego.RegisterLibFunc(&codeRun, h, "llenvs_code_run")
	purego.RegisterLibFunc(&codeCheck, h, "llenvs_code_check")
}

// int64Values reads a non-null int64 array.
func int64Values(a *arrowArray) []int64 {
	bufs := unsafe.Slice(a.buffers, a.nBuffers)
	return unsafe.Slice((*int64)(bufs[1]), a.offset+a.length)[a.offset:]
}

// TestCodeRun checks llenvs_code_run: a row per program with its status,
// exit code and output, the columns in their documented order, and errors
// for a bad spec.
func TestCodeRun(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	var out unsafe.Pointer
	var n uintptr
	if rc := lib.call("sandbox_probe", nil, 0, &out, &n); rc != 0 {
		t.Fatalf("sandbox_probe rc %d", rc)
	}
	var caps map[string]any
	if err := json.Unmarshal([]byte(take(out, n)), &caps); err != nil {
		t.Fatal(err)
	}
	isolation := "namespaces"
	if caps["user_namespaces"] != true {
		isolation = "none"
	}
	srcs, srcLens := textArrays("print(input() * 2)", "raise SystemExit(5)", "while True: pass")
	ins, inLens := textArrays("ab\n", "", "")
	spec := []byte(`{"interpreter": "` + py + `", "isolation": "` + isolation + `", "timeout": 1.5}`)
	var b batchSlot
	if rc := codeRun(spec, uintptr(len(spec)), &srcs[0], &srcLens[0], &ins[0], &inLens[0], 3, &b.schema, &b.array,
		&out, &n); rc != 0 {
		t.Fatalf("code_run rc %d: %s", rc, take(out, n))
	}
	var names []string
	for i := 0; i < int(b.schema.nChildren); i++ {
		_, name := b.field(i)
		names = append(names, name)
	}
	want := []string{"status", "exit_code", "signal", "stdout", "stderr", "stdout_truncated", "stderr_truncated",
		"wall", "cpu", "verdict", "reason"}
	if !reflect.DeepEqual(names, want) || b.array.length != 3 {
		t.Fatalf("columns %v, %d rows", names, b.array.length)
	}
	if got := columnValues(utf8Values(b.column(0))); !reflect.DeepEqual(got, []any{"ok", "error", "timeout"}) {
		t.Errorf("statuses %v", got)
	}
	if got := int64Values(b.column(1)); !reflect.DeepEqual(got, []int64{0, 5, -1}) {
		t.Errorf("exit codes %v", got)
	}
	if got := columnValues(utf8Values(b.column(3))); got[0] != "abab\n" {
		t.Errorf("stdout %v", got)
	}
	b.release(t)
	for _, tt := range []struct{ spec, want string }{
		{`{"interpreter": "` + py + `", "timeout": -1}`, "timeout"},
		{`{"interpreter": "` + py + `", "memory": 5}`, "memory"},
		{`{"interpreter": "` + py + `", "isolation": "jail"}`, "jail"},
		{`{"interpreter": "/nonexistent/python"}`, "/nonexistent/python"},
		{`{"interpreter": "` + py + `", "timout": 1}`, "timout"},
	} {
		var s batchSlot
		rc := codeRun([]byte(tt.spec), uintptr(len(tt.spec)), &srcs[0], &srcLens[0], &ins[0], &inLens[0], 3, &s.schema,
			&s.array, &out, &n)
		if msg := take(out, n); rc >= 0 || !strings.Contains(msg, tt.want) || s.filled() {
			t.Errorf("%s: rc %d, %q", tt.spec, rc, msg)
		}
	}
}

// TestCodeCheck checks llenvs_code_check: a row per program with its
// columns in their documented order, the totals and statuses, and an error
// naming the item whose tests cannot be read.
func TestCodeCheck(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	var out unsafe.Pointer
	var n uintptr
	if rc := lib.call("sandbox_probe", nil, 0, &out, &n); rc != 0 {
		t.Fatalf("sandbox_probe rc %d", rc)
	}
	var caps map[string]any
	if err := json.Unmarshal([]byte(take(out, n)), &caps); err != nil {
		t.Fatal(err)
	}
	isolation := "namespaces"
	if caps["user_namespaces"] != true {
		isolation = "none"
	}
	io := `{"inputs": ["2\n", "5\n"], "outputs": ["4\n", "10\n"]}`
	codes, codeLens := textArrays("print(int(input()) * 2)", "print(int(input()) + 2)", "def f(x):\n    return x\n")
	tests, testLens := textArrays(io, io, `["assert f(1) == 1", "assert f(2) == 3"]`)
	spec := []byte(`{"interpreter": "` + py + `", "isolation": "` + isolation + `", "timeout": 2}`)
	var b batchSlot
	if rc := codeCheck(spec, uintptr(len(spec)), &codes[0], &codeLens[0], &tests[0], &testLens[0], 3, &b.schema,
		&b.array, &out, &n); rc != 0 {
		t.Fatalf("code_check rc %d: %s", rc, take(out, n))
	}
	var names []string
	for i := 0; i < int(b.schema.nChildren); i++ {
		_, name := b.field(i)
		names = append(names, name)
	}
	if want := []string{"results", "total", "score", "status", "feedback"}; !reflect.DeepEqual(names, want) ||
		b.array.length != 3 {
		t.Fatalf("columns %v, %d rows", names, b.array.length)
	}
	if got := int64Values(b.column(1)); !reflect.DeepEqual(got, []int64{2, 2, 2}) {
		t.Errorf("totals %v", got)
	}
	if got := columnValues(utf8Values(b.column(3))); !reflect.DeepEqual(got, []any{"correct", "incorrect",
		"incorrect"}) {
		t.Errorf("statuses %v", got)
	}
	b.release(t)
	bad, badLens := textArrays(io, `{"inputs": ["1"]}`)
	var s batchSlot
	rc := codeCheck(spec, uintptr(len(spec)), &codes[0], &codeLens[0], &bad[0], &badLens[0], 2, &s.schema, &s.array,
		&out, &n)
	if msg := take(out, n); rc >= 0 || !strings.Contains(msg, "tests[1]") || s.filled() {
		t.Errorf("unreadable tests: rc %d, %q", rc, msg)
	}
}
