//go:build linux

// Package abitest drives every export of the built libllenvs.so through
// purego, as a C caller would, to check the ABI contract of capi/llenvs.h
// independently of the Python binding.
package abitest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

var lib struct {
	abiVersion  func() int32
	free        func(unsafe.Pointer)
	setMaxProcs func(int32) int32
	liveHandles func(kind int32) int64
	call        func(method string, req []byte, n uintptr, out *unsafe.Pointer, outLen *uintptr) int32
	envNew      func(cfg []byte, n uintptr, h *uint64, out *unsafe.Pointer, outLen *uintptr) int32
	envCall     func(h uint64, method string, req []byte, n uintptr, out *unsafe.Pointer, outLen *uintptr) int32
	envClose    func(h uint64) int32
	envReset    func(h uint64, req []byte, n uintptr, ep *uint64, out *unsafe.Pointer, outLen *uintptr) int32
	epClose     func(ep uint64) int32
	epStep      func(ep uint64, step int64, callerVersion uint64, text []byte, textLen int64, calls []byte, callsLen uintptr,
		out *unsafe.Pointer, outLen *uintptr) int32
	details      func(d uint64, out *unsafe.Pointer, outLen *uintptr) int32
	detailsClose func(ds *uint64, n uintptr) int32
	scoreTexts   func(h uint64, idx *int64, texts *unsafe.Pointer, lens *int64, n uintptr, columns int32,
		totals, values *float64, flags *uint8, schema *arrowSchema, array *arrowArray, out *unsafe.Pointer,
		outLen *uintptr) int32
	describeTexts func(h uint64, idx *int64, texts *unsafe.Pointer, lens *int64, n uintptr, schema *arrowSchema,
		array *arrowArray, out *unsafe.Pointer, outLen *uintptr) int32
	recipeScoreBatch func(sources []byte, sourceOffs *int64, solutions []byte, solutionOffs *int64, truths []byte,
		truthOffs *int64, n uintptr, scores *float64, statuses, flags *uint8, detailsSchema *arrowSchema,
		detailsArray *arrowArray, out *unsafe.Pointer, outLen *uintptr) int32
	recipeScore func(source []byte, sourceLen uintptr, solution []byte, solutionLen uintptr, truth []byte,
		truthLen uintptr, result *recipeResult) int32
}

// Handle kinds of llenvs.h.
const (
	kindAll         = 0
	kindEpisode     = 2
	kindStepDetails = 4
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "llenvs-abi")
	if err != nil {
		panic(err)
	}
	so := filepath.Join(dir, "libllenvs.so")
	build := exec.Command("go", "build", "-buildmode=c-shared", "-tags", "llenvs_testhooks", "-o", so, "../")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building the library: " + err.Error())
	}
	h, err := purego.Dlopen(so, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		panic(err)
	}
	purego.RegisterLibFunc(&lib.abiVersion, h, "llenvs_abi_version")
	purego.RegisterLibFunc(&lib.free, h, "llenvs_free")
	purego.RegisterLibFunc(&lib.setMaxProcs, h, "llenvs_set_max_procs")
	purego.RegisterLibFunc(&lib.liveHandles, h, "llenvs_live_handles")
	purego.RegisterLibFunc(&lib.call, h, "llenvs_call")
	purego.RegisterLibFunc(&lib.recipeScoreBatch, h, "llenvs_recipe_score_batch")
	purego.RegisterLibFunc(&lib.recipeScore, h, "llenvs_recipe_score")
	purego.RegisterLibFunc(&lib.envNew, h, "llenvs_env_new")
	purego.RegisterLibFunc(&lib.envCall, h, "llenvs_env_call")
	purego.RegisterLibFunc(&lib.envClose, h, "llenvs_env_close")
	purego.RegisterLibFunc(&lib.scoreTexts, h, "llenvs_score_texts")
	purego.RegisterLibFunc(&lib.describeTexts, h, "llenvs_describe_texts")
	purego.RegisterLibFunc(&lib.envReset, h, "llenvs_env_reset")
	purego.RegisterLibFunc(&lib.epClose, h, "llenvs_episode_close")
	purego.RegisterLibFunc(&lib.epStep, h, "llenvs_episode_step")
	purego.RegisterLibFunc(&lib.details, h, "llenvs_step_details")
	purego.RegisterLibFunc(&lib.detailsClose, h, "llenvs_step_details_close")
	registerMasking(h)
	registerMath(h)
	registerExtract(h)
	registerCode(h)
	registerServe(h)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// take copies a library-allocated buffer and frees it.
func take(p unsafe.Pointer, n uintptr) string {
	if p == nil {
		return ""
	}
	s := string(unsafe.Slice((*byte)(p), n))
	lib.free(p)
	return s
}

func newEnv(t *testing.T, cfg string) uint64 {
	t.Helper()
	var h uint64
	var out unsafe.Pointer
	var n uintptr
	if rc := lib.envNew([]byte(cfg), uintptr(len(cfg)), &h, &out, &n); rc != 0 {
		t.Fatalf("env_new(%s) = %d: %s", cfg, rc, take(out, n))
	}
	take(out, n)
	return h
}

func TestVersionThreadsAndInfo(t *testing.T) {
	if v := lib.abiVersion(); v != 12 {
		t.Fatalf("abi version %d", v)
	}
	prev := lib.setMaxProcs(1)
	if got := lib.setMaxProcs(prev); got != 1 {
		t.Errorf("set_max_procs did not stick: got %d", got)
	}
	// Past max(64, 4*NumCPU) the call is refused and changes nothing.
	if got := lib.setMaxProcs(100_000); got != -1 {
		t.Errorf("set_max_procs(100000) = %d, want LLENVS_ERR_INVALID", got)
	}
	if got := lib.setMaxProcs(0); got != prev {
		t.Errorf("a refused set_max_procs changed GOMAXPROCS to %d (was %d)", got, prev)
	}
	var out unsafe.Pointer
	var n uintptr
	if rc := lib.call("info", nil, 0, &out, &n); rc != 0 {
		t.Fatalf("info rc %d", rc)
	}
	var info map[string]any
	if err := json.Unmarshal([]byte(take(out, n)), &info); err != nil || info["abi_version"] != float64(12) {
		t.Errorf("info = %v, %v", info, err)
	}
	if limit, _ := info["max_procs_limit"].(float64); limit < 64 {
		t.Errorf("info max_procs_limit = %v, want at least 64", info["max_procs_limit"])
	}
}

// errorBuffer is the error buffer of llenvs.h.
type errorBuffer struct {
	Message    string   `json:"message"`
	Kind       string   `json:"kind"`
	Key        *string  `json:"key"`
	Suggestion *string  `json:"suggestion"`
	Valid      []string `json:"valid"`
}

func decodeError(t *testing.T, raw string) errorBuffer {
	t.Helper()
	var e errorBuffer
	if err := json.Unmarshal([]byte(raw), &e); err != nil {
		t.Fatalf("error buffer %q is not the JSON object of llenvs.h: %v", raw, err)
	}
	return e
}

func TestErrorsCarryStatusAndMessage(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name, cfg       string
		rc              int32
		kind, msg       string
		key, suggestion *string
		valid           bool
	}{
		{"malformed JSON", `{"name":`, -1, "invalid", "malformed JSON", nil, nil, false},
		{"unknown task", `{"name":"nope"}`, -6, "not_found", "no native port", str("nope"), nil, true},
		{"unknown adapter", `{"name":"leg_counting","adapter":"reasoning-gym"}`, -6, "not_found", "not registered", str("reasoning-gym"), str("reasoning_gym"), true},
		{"unknown key", `{"name":"leg_counting","sead":1}`, -1, "unknown_key", "did you mean 'seed'?", str("sead"), str("seed"), true},
		{"unknown extractor", `{"name":"leg_counting","answer_extractor":"boxd"}`, -6, "not_found", "extractor 'boxd' not found", str("boxd"), str("boxed"), true},
		{"bad size", `{"name":"leg_counting","size":0}`, -1, "invalid", "size must be a positive", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h uint64
			var out unsafe.Pointer
			var n uintptr
			rc := lib.envNew([]byte(tt.cfg), uintptr(len(tt.cfg)), &h, &out, &n)
			e := decodeError(t, take(out, n))
			if rc != tt.rc || e.Kind != tt.kind || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("rc %d %+v; want rc %d, kind %q, a message containing %q", rc, e, tt.rc, tt.kind, tt.msg)
			}
			if !reflect.DeepEqual(e.Key, tt.key) || !reflect.DeepEqual(e.Suggestion, tt.suggestion) || (e.Valid != nil) != tt.valid {
				t.Errorf("key %v, suggestion %v, valid %v; want %v, %v, valid listed: %v",
					deref(e.Key), deref(e.Suggestion), e.Valid, deref(tt.key), deref(tt.suggestion), tt.valid)
			}
		})
	}
	var out unsafe.Pointer
	var n uintptr
	if rc := lib.call("panic_for_test", nil, 0, &out, &n); rc != -4 {
		t.Errorf("panic rc %d", rc)
	}
	if e := decodeError(t, take(out, n)); e.Kind != "panic" || !strings.Contains(e.Message, "nil pointer") {
		t.Errorf("panic error %+v", e)
	}
}

func TestHandleLifecycleAndScoring(t *testing.T) {
	base := lib.liveHandles(kindAll)
	h := newEnv(t, `{"name":"leg_counting","seed":42,"size":10}`)
	if lib.liveHandles(kindAll) != base+1 {
		t.Fatalf("live handles %d, want %d", lib.liveHandles(kindAll), base+1)
	}
	var out unsafe.Pointer
	var n uintptr
	req := []byte(`{"task_index":0}`)
	var ep uint64
	if rc := lib.envReset(h, req, uintptr(len(req)), &ep, &out, &n); rc != 0 {
		t.Fatalf("reset rc %d: %s", rc, take(out, n))
	}
	var start struct {
		Hidden struct {
			ExpectedAnswer string `json:"expected_answer"`
		} `json:"hidden"`
	}
	if err := json.Unmarshal([]byte(take(out, n)), &start); err != nil || start.Hidden.ExpectedAnswer != "100" {
		t.Fatalf("reset gave %+v, %v (seed 42 item 0 of reasoning-gym is 100)", start, err)
	}
	if lib.liveHandles(kindEpisode) != 1 {
		t.Errorf("live episodes %d, want 1", lib.liveHandles(kindEpisode))
	}
	action := []byte("<answer>100</answer>")
	if rc := lib.epStep(ep, 0, 0, action, int64(len(action)), nil, 0, &out, &n); rc != 0 {
		t.Fatalf("step rc %d: %s", rc, take(out, n))
	}
	var res []any
	if err := json.Unmarshal([]byte(take(out, n)), &res); err != nil || len(res) != 13 || int(res[0].(float64))&1 == 0 ||
		res[9].([]any)[0].([]any)[2] != 1.0 {
		t.Errorf("step gave %v, %v", res, err)
	}
	if d := uint64(res[12].(float64)); lib.liveHandles(kindStepDetails) != 1 || lib.detailsClose(&d, 1) != 0 ||
		lib.detailsClose(&d, 1) != -2 || lib.liveHandles(kindStepDetails) != 0 {
		t.Errorf("the step's details handle %d was not closed once", d)
	}
	if rc := lib.epStep(h, 0, 0, action, int64(len(action)), nil, 0, &out, &n); rc != -2 {
		t.Errorf("environment handle used as an episode: rc %d", rc)
	}
	take(out, n)
	if rc := lib.envClose(ep); rc != -2 {
		t.Errorf("episode closed as an environment: rc %d", rc)
	}
	if rc := lib.epClose(ep); rc != 0 || lib.epClose(ep) != -2 {
		t.Errorf("episode close rc %d, or a second close succeeded", rc)
	}

	texts := []string{"<answer>100</answer>", "<answer>99</answer>", "none"}
	ptrs := make([]unsafe.Pointer, len(texts))
	lens := make([]int64, len(texts))
	for i, s := range texts {
		b := append([]byte(s), 0)
		ptrs[i] = unsafe.Pointer(&b[0])
		lens[i] = int64(len(s))
	}
	idx := []int64{0, 0, 0}
	totals := make([]float64, 3)
	values := make([]float64, 3)
	flags := make([]uint8, 3)
	var scored batchSlot
	if rc := lib.scoreTexts(h, &idx[0], &ptrs[0], &lens[0], 3, 1, &totals[0], &values[0], &flags[0], &scored.schema,
		&scored.array, &out, &n); rc != 0 {
		t.Fatalf("score rc %d: %s", rc, take(out, n))
	}
	if totals[0] != 1 || totals[1] != 0 || totals[2] != 0 || flags[0] != 1 || flags[1] != 1 || flags[2] != 0 {
		t.Errorf("totals %v flags %v", totals, flags)
	}
	// The answers' record batch (LLENVS_SCORE_ANSWERS): answer and error, nullable utf8.
	if _, a := scored.field(0); a != "answer" || scored.array.length != 3 {
		t.Fatalf("scored batch: first column %q, %d rows", a, scored.array.length)
	}
	if _, e := scored.field(1); e != "error" {
		t.Fatalf("scored batch: second column %q", e)
	}
	if got := columnValues(utf8Values(scored.column(0))); !reflect.DeepEqual(got, []any{"100", "99", nil}) {
		t.Errorf("answers %v", got)
	}
	if got := columnValues(utf8Values(scored.column(1))); !reflect.DeepEqual(got, []any{nil, nil, nil}) {
		t.Errorf("errors %v", got)
	}
	scored.release(t)
	var described batchSlot
	if rc := lib.describeTexts(h, &idx[0], &ptrs[0], &lens[0], 3, &described.schema, &described.array, &out,
		&n); rc != 0 {
		t.Fatalf("describe rc %d: %s", rc, take(out, n))
	}
	if _, x := described.field(0); x != "extraction" {
		t.Fatalf("described batch: first column %q", x)
	}
	var first map[string]any
	if desc := utf8Values(described.column(0)); desc[0] == nil || json.Unmarshal([]byte(*desc[0]), &first) != nil ||
		first["found"] != true {
		t.Errorf("extraction descriptions %v", columnValues(desc))
	}
	if got := columnValues(utf8Values(described.column(1))); !reflect.DeepEqual(got, []any{"100", "100", "100"}) {
		t.Errorf("expected answers %v", got)
	}
	described.release(t)
	// NULL structs to fill are an error, not a crash.
	if rc := lib.describeTexts(h, &idx[0], &ptrs[0], &lens[0], 3, nil, nil, &out, &n); rc != -1 ||
		!strings.Contains(take(out, n), "NULL") {
		t.Errorf("describe with NULL structs: rc %d", rc)
	}
	if rc := lib.scoreTexts(h, &idx[0], &ptrs[0], &lens[0], 3, 1, &totals[0], &values[0], &flags[0], nil, nil, &out,
		&n); rc != -1 || !strings.Contains(take(out, n), "NULL") {
		t.Errorf("score_texts with LLENVS_SCORE_ANSWERS and NULL structs: rc %d", rc)
	}
	bad := []int64{0, 10, 0}
	if rc := lib.scoreTexts(h, &bad[0], &ptrs[0], &lens[0], 3, 0, &totals[0], &values[0], &flags[0], nil, nil, &out,
		&n); rc != -3 {
		t.Errorf("out-of-range index rc %d", rc)
	}
	if msg := take(out, n); !strings.Contains(msg, "task_indices[1]") {
		t.Errorf("index error message %q", msg)
	}

	if rc := lib.envClose(h); rc != 0 {
		t.Fatalf("close rc %d", rc)
	}
	if rc := lib.envClose(h); rc != -2 {
		t.Errorf("second close rc %d, want -2", rc)
	}
	if rc := lib.envReset(h, req, uintptr(len(req)), &ep, &out, &n); rc != -2 {
		t.Errorf("stale handle rc %d", rc)
	}
	take(out, n)
	if lib.liveHandles(kindAll) != base {
		t.Errorf("live handles %d after close, want %d", lib.liveHandles(kindAll), base)
	}
}

// columnValues is a column's values as any (nil for nulls), for comparisons.
func columnValues(col []*string) []any {
	out := make([]any, len(col))
	for i, p := range col {
		out[i] = deref(p)
	}
	return out
}

func deref(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestStepUpdate drives llenvs_episode_step on an iterative episode: the
// reply, the messages told against the version reset gave, the details
// read from their handle, and the errors.
func TestStepUpdate(t *testing.T) {
	h := newEnv(t, `{"name":"leg_counting","seed":42,"size":10,"iterative":{"max_turns":3}}`)
	defer lib.envClose(h)
	var out unsafe.Pointer
	var n uintptr
	req := []byte(`{"task_index":0,"entry":false}`)
	var ep uint64
	if rc := lib.envReset(h, req, uintptr(len(req)), &ep, &out, &n); rc != 0 {
		t.Fatalf("reset rc %d: %s", rc, take(out, n))
	}
	var start struct {
		Version    uint64 `json:"version"`
		EntryLater bool   `json:"entry_later"`
		Hidden     struct {
			Entry any `json:"entry"`
		} `json:"hidden"`
	}
	if err := json.Unmarshal([]byte(take(out, n)), &start); err != nil || start.Version == 0 || !start.EntryLater ||
		start.Hidden.Entry != nil {
		t.Fatalf("reset gave %+v, %v", start, err)
	}
	text := []byte("<answer>-1</answer>")
	step := func(stepNo int64, callerVersion uint64, txt []byte, textLen int64) (int32, string) {
		rc := lib.epStep(ep, stepNo, callerVersion, txt, textLen, nil, 0, &out, &n)
		return rc, take(out, n)
	}
	rc, reply := step(0, start.Version, text, int64(len(text)))
	if rc != 0 {
		t.Fatalf("step rc %d: %q", rc, reply)
	}
	var head []any
	if err := json.Unmarshal([]byte(reply), &head); err != nil || len(head) != 13 {
		t.Fatalf("reply %q: %v", reply, err)
	}
	const observation, sameTask = 4, 8
	bits := int(head[0].(float64))
	if bits&observation == 0 || bits&sameTask == 0 || head[2].(float64) != 1 ||
		head[3] != "Incorrect, 2 attempts left." {
		t.Fatalf("reply %v", head)
	}
	msgs := head[4].([]any)
	if len(msgs) != 2 || msgs[0].(map[string]any)["content"] != string(text) {
		t.Fatalf("new messages %v", msgs)
	}
	d := uint64(head[12].(float64))
	if rc := lib.details(d, &out, &n); rc != 0 {
		t.Fatalf("details rc %d: %s", rc, take(out, n))
	}
	var details []any
	if err := json.Unmarshal([]byte(take(out, n)), &details); err != nil || len(details) != 2 ||
		details[0].(map[string]any)["turn"] != 1.0 {
		t.Fatalf("details %v: %v", details, err)
	}
	if rc := lib.details(d, &out, &n); rc != -2 || take(out, n) == "" {
		t.Fatalf("details read twice: rc %d", rc)
	}
	// an unknown version gets the whole conversation
	if rc, reply = step(1, 12345, text, int64(len(text))); rc != 0 {
		t.Fatalf("step rc %d: %q", rc, reply)
	}
	if err := json.Unmarshal([]byte(reply), &head); err != nil || head[2].(float64) != 0 ||
		len(head[4].([]any)) != 5 {
		t.Fatalf("reply after an unknown version: %v, %v", head, err)
	}
	last := uint64(head[12].(float64))
	lib.detailsClose(&last, 1)
	tests := []struct {
		name    string
		stepNo  int64
		txt     []byte
		textLen int64
		wantRC  int32
	}{
		{"stale step", 0, text, int64(len(text)), -8},
		{"invalid UTF-8", 2, []byte{0xff, 0xfe}, 2, -1},
		{"no text", 2, nil, -1, -1},
	}
	for _, tt := range tests {
		if rc, msg := step(tt.stepNo, 0, tt.txt, tt.textLen); rc != tt.wantRC || msg == "" {
			t.Errorf("%s: rc %d (%s), want %d", tt.name, rc, msg, tt.wantRC)
		}
	}
	if rc := lib.epClose(ep); rc != 0 {
		t.Fatalf("close rc %d", rc)
	}
	if rc, _ := step(2, 0, text, int64(len(text))); rc != -2 {
		t.Errorf("closed episode: rc %d, want -2", rc)
	}
}

// packTexts lays texts out as one buffer and n+1 offsets, as the recipe entry point takes them.
func packTexts(texts ...string) ([]byte, []int64) {
	buf := []byte{0} // never empty, so the slice has an address
	offs := []int64{0}
	for _, t := range texts {
		buf = append(buf[:offs[len(offs)-1]], t...)
		offs = append(offs, int64(len(buf)))
	}
	return append(buf, 0), offs
}

func TestRecipeScoreBatch(t *testing.T) {
	src, srcOffs := packTexts("no/such/source", "openai/gsm8k")
	sol, solOffs := packTexts("x", "#### 72")
	gt, gtOffs := packTexts("1", "72")
	scores := make([]float64, 2)
	statuses := make([]uint8, 2)
	flags := make([]uint8, 2)
	var out unsafe.Pointer
	var n uintptr
	var details batchSlot
	rc := lib.recipeScoreBatch(src, &srcOffs[0], sol, &solOffs[0], gt, &gtOffs[0], 2, &scores[0], &statuses[0],
		&flags[0], &details.schema, &details.array, &out, &n)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, take(out, n))
	}
	if statuses[0] != 4 || scores[1] != 1 || statuses[1] != 0 {
		t.Errorf("statuses %v, scores %v; want the unknown source an error (4) and #### 72 correct (0, 1.0)", statuses, scores)
	}
	if !details.filled() || details.array.length != 2 || details.array.nChildren != 2 {
		t.Fatalf("details: filled %v, %d rows, %d columns; want 2 rows of pred and reason", details.filled(),
			details.array.length, details.array.nChildren)
	}
	for i, want := range []string{"pred", "reason"} {
		if format, name := details.field(i); format != "u" || name != want {
			t.Errorf("details column %d: %q %q, want utf8 %q", i, format, name, want)
		}
	}
	pred, reason := utf8Values(details.column(0)), utf8Values(details.column(1))
	if pred[0] != nil || pred[1] != nil || details.column(0).nullCount != 2 {
		t.Errorf("preds %v (%d nulls); want no pred for float families", pred, details.column(0).nullCount)
	}
	if reason[0] == nil || !strings.Contains(*reason[0], "no rule for data_source") || reason[1] == nil || *reason[1] != "" {
		t.Errorf("reasons %v; want the unknown source's reason only", reason)
	}
	details.release(t)
	// A batch with nothing to say leaves the details unfilled and allocates nothing.
	var none batchSlot
	if rc := lib.recipeScoreBatch(src[srcOffs[1]:], &[]int64{0, 12}[0], sol[solOffs[1]:], &[]int64{0, 7}[0],
		gt[gtOffs[1]:], &[]int64{0, 2}[0], 1, &scores[0], &statuses[0], &flags[0], &none.schema, &none.array, &out,
		&n); rc != 0 || none.filled() {
		t.Errorf("gsm8k row alone: rc %d (%s), details filled %v; want 0 and no details", rc, take(out, n), none.filled())
	}
	// Offsets that go backwards are an error reply, never a crash.
	badOffs := []int64{5, 2}
	if rc := lib.recipeScoreBatch(src, &srcOffs[0], sol, &badOffs[0], gt, &gtOffs[0], 1, &scores[0], &statuses[0],
		&flags[0], &none.schema, &none.array, &out, &n); rc == 0 {
		t.Errorf("offsets going backwards accepted")
	} else {
		take(out, n)
	}
}

// recipeResult is llenvs_recipe_result.
type recipeResult struct {
	score         float64
	status, flags uint8
	pred          *byte
	predCap       uintptr
	predLen       uintptr
	out           unsafe.Pointer
	outLen        uintptr
}

// A pred longer than the caller's buffer is not copied; its length says how much room to give.
func TestRecipeScoreOnePredOverflow(t *testing.T) {
	var res recipeResult
	buf := []byte{'#', '#'}
	res.pred, res.predCap = &buf[0], 1
	src, sol, gt := "math_dapo", "Answer: 345", "34"
	if rc := lib.recipeScore([]byte(src), uintptr(len(src)), []byte(sol), uintptr(len(sol)), []byte(gt), uintptr(len(gt)),
		&res); rc != 0 {
		t.Fatalf("rc %d: %s", rc, take(res.out, res.outLen))
	}
	if res.predLen != 3 || string(buf) != "##" {
		t.Errorf("pred_len %d, buffer %q; want 3 and the buffer untouched", res.predLen, buf)
	}
}

func TestRecipeScoreOne(t *testing.T) {
	cases := []struct {
		source, solution, truth string
		score                   float64
		status, flags           uint8
		pred                    string
	}{
		{"openai/gsm8k", "so #### 72", "72", 1, 0, 0, ""},
		{"math_dapo", "Answer: 34", "34", 1, 0, 3, "34"},
		{"math_dapo", "Answer: 35", "34", -1, 1, 2, "35"},
	}
	for _, c := range cases {
		var res recipeResult
		buf := make([]byte, 64)
		res.pred, res.predCap = &buf[0], uintptr(len(buf))
		rc := lib.recipeScore([]byte(c.source), uintptr(len(c.source)), []byte(c.solution), uintptr(len(c.solution)),
			[]byte(c.truth), uintptr(len(c.truth)), &res)
		if rc != 0 {
			t.Fatalf("%s %q: rc %d: %s", c.source, c.solution, rc, take(res.out, res.outLen))
		}
		score, codes := res.score, []uint8{res.status, res.flags}
		pred := string(buf[:res.predLen])
		if score != c.score || codes[0] != c.status || codes[1] != c.flags || pred != c.pred {
			t.Errorf("%s %q: score %v codes %v pred %q; want %v [%d %d] %q", c.source, c.solution, score, codes, pred,
				c.score, c.status, c.flags, c.pred)
		}
	}
}
