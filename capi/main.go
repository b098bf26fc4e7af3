// Command capi is the C ABI of llenvs-go, built with -buildmode=c-shared
// into libllenvs.so. llenvs.h is the contract; shim.c holds the exported C
// entry points (fork guard, free, Python tuple reading) and calls the Go
// functions here, each of which recovers panics into an error status.
package main

/*
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/dataset"
	_ "github.com/llenvs/llenvs-go/envs/external"
	_ "github.com/llenvs/llenvs-go/envs/reasoninggym"
	"github.com/llenvs/llenvs-go/envs/toolcall"
	"github.com/llenvs/llenvs-go/recipes"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// Status codes of llenvs.h.
const (
	statusOK       = 0
	statusInvalid  = -1
	statusHandle   = -2
	statusIndex    = -3
	statusPanic    = -4
	statusNotFound = -6
	statusStale    = -8
)

// Per-item flags of llenvs.h.
const (
	itemFound   = 1
	itemError   = 2
	itemSpan    = 4
	itemTimeout = 8
)

// itemErrorFlags are the flags of a scoring error: itemError, and
// itemTimeout when the scoring stopped at its budget.
func itemErrorFlags(err error) uint8 {
	if errors.Is(err, core.ErrOverBudget) {
		return itemError | itemTimeout
	}
	return itemError
}

func main() {}

// toC copies b into a malloc'd, NUL-terminated buffer: the only way a
// result leaves Go.
func toC(b []byte, out **C.char, outLen *C.size_t) {
	if out == nil {
		return
	}
	p := C.malloc(C.size_t(len(b)) + 1)
	if len(b) > 0 {
		C.memcpy(p, unsafe.Pointer(&b[0]), C.size_t(len(b)))
	}
	*(*byte)(unsafe.Add(p, len(b))) = 0
	*out = (*C.char)(p)
	if outLen != nil {
		*outLen = C.size_t(len(b))
	}
}

// fail reports err through out as the error buffer of llenvs.h and
// returns its status class.
func fail(err error, out **C.char, outLen *C.size_t) C.int32_t {
	rep := errorReply{Message: err.Error(), Kind: "invalid"}
	status := C.int32_t(statusInvalid)
	var ie *core.IndexError
	var nf *strictcfg.NotFoundError
	var uk *strictcfg.UnknownKeyError
	var he *handleError
	var se *core.StaleStateError
	switch {
	case errors.As(err, &se):
		rep.Kind, status = "stale", statusStale
	case errors.As(err, &ie):
		rep.Kind, status = "index", statusIndex
	case errors.As(err, &nf):
		rep.Kind, status = "not_found", statusNotFound
		rep.Key, rep.Suggestion, rep.Valid = nf.Name, nf.Suggestion, nf.Valid
	case errors.As(err, &uk):
		rep.Kind = "unknown_key"
		rep.Key, rep.Suggestion, rep.Valid = uk.Key, uk.Suggestion, uk.Valid
	case errors.As(err, &he):
		rep.Kind, status = "handle", statusHandle
	}
	toC(rep.encode(), out, outLen)
	return status
}

// guard turns a panic in an export into statusPanic with a message.
func guard(rc *C.int32_t, out **C.char, outLen *C.size_t) {
	if r := recover(); r != nil {
		buf := make([]byte, 4096)
		buf = buf[:runtime.Stack(buf, false)]
		rep := errorReply{Message: fmt.Sprintf("internal error in llenvs-go (please report): %v\n%s", r, buf), Kind: "panic"}
		toC(rep.encode(), out, outLen)
		*rc = statusPanic
	}
}

// clearOut sets an entry point's out-buffer to none before any work, so
// that a caller may free *out after every call, success included.
func clearOut(out **C.char, outLen *C.size_t) {
	if out != nil {
		*out = nil
	}
	if outLen != nil {
		*outLen = 0
	}
}

// needBatchSlots is the error of an entry point given NULL record-batch
// structs to fill; nil when both are present.
func needBatchSlots(schema *C.struct_ArrowSchema, array *C.struct_ArrowArray) error {
	if schema == nil || array == nil {
		return errors.New("the ArrowSchema or ArrowArray to fill is NULL")
	}
	return nil
}

// input copies a caller buffer into Go memory before it is decoded.
func input(p *C.char, n C.size_t) []byte {
	if p == nil || n == 0 {
		return nil
	}
	return C.GoBytes(unsafe.Pointer(p), C.int(n))
}

func decodeObject(b []byte) (map[string]any, error) {
	m := map[string]any{}
	if len(b) == 0 {
		return m, nil
	}
	if err := unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("malformed JSON request: %w", err)
	}
	return m, nil
}

func reply(v any, out **C.char, outLen *C.size_t) C.int32_t {
	b, err := marshal(v)
	if err != nil {
		return fail(fmt.Errorf("encoding reply: %w", err), out, outLen)
	}
	toC(b, out, outLen)
	return statusOK
}

// maxProcsLimit is the most OS threads llenvs_set_max_procs lets run Go
// code at once: 4 per CPU the process may use, and at least 64. Far more
// than that only costs memory (a P per thread) and, past the Go runtime's
// 10,000-thread limit, ends the process with "thread exhaustion".
func maxProcsLimit() int {
	return max(64, 4*runtime.NumCPU())
}

// setMaxProcs is llenvs_set_max_procs: n <= 0 only queries; 1 <= n <=
// maxProcsLimit() sets GOMAXPROCS and returns the previous value; a larger n
// changes nothing and returns statusInvalid.
func setMaxProcs(n int) int {
	if n > maxProcsLimit() {
		return statusInvalid
	}
	if n < 0 {
		n = 0
	}
	return runtime.GOMAXPROCS(n)
}

//export llenvsgo_set_max_procs
func llenvsgo_set_max_procs(n C.int32_t) (rc C.int32_t) {
	defer func() {
		if recover() != nil {
			rc = statusPanic
		}
	}()
	return C.int32_t(setMaxProcs(int(n)))
}

//export llenvsgo_live_handles
func llenvsgo_live_handles(kind C.int32_t) C.int64_t { return C.int64_t(liveHandles(handleKind(kind))) }

// testHooks are the extra llenvs_call methods of a library built with
// -tags llenvs_testhooks (testhooks.go); without the tag there are none.
var testHooks = map[string]func(){}

//export llenvsgo_call
func llenvsgo_call(method *C.char, req *C.char, reqLen C.size_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	switch m := C.GoString(method); m {
	case "info":
		return reply(map[string]any{"abi_version": 12, "go_version": runtime.Version(), "json": codecName, // LLENVS_ABI_VERSION in llenvs.h
			"max_procs": runtime.GOMAXPROCS(0), "max_procs_limit": maxProcsLimit(), "num_cpu": runtime.NumCPU(), "test_hooks": len(testHooks) > 0}, out, outLen)
	case "list_environments":
		return reply(core.ListEnvironments(), out, outLen)
	case "huggingface_options":
		return reply(dataset.Describe(), out, outLen)
	case "verl_sources":
		return reply(map[string]any{"sources": recipes.VerlSourceFamilies(), "families": recipes.Families()}, out, outLen)
	case "tool_call_formats":
		return toolCallFormats(input(req, reqLen), out, outLen)
	case "render_tool_text":
		return renderToolText(input(req, reqLen), out, outLen)
	case "sandbox_probe":
		return sandboxProbe(out, outLen)
	default:
		if hook, ok := testHooks[m]; ok {
			hook()
			return statusOK
		}
		return fail(fmt.Errorf("unknown method %q", m), out, outLen)
	}
}

// toolCallFormats answers llenvs_call "tool_call_formats": req is
// {"chat_template": str} (optional); the reply is {"formats": [names],
// "detected": the format the template implies, or null}.
func toolCallFormats(req []byte, out **C.char, outLen *C.size_t) C.int32_t {
	args, err := decodeObject(req)
	if err != nil {
		return fail(err, out, outLen)
	}
	var detected any
	if raw, ok := args["chat_template"]; ok && raw != nil {
		tpl, ok := raw.(string)
		if !ok {
			return fail(fmt.Errorf("tool_call_formats: \"chat_template\" must be a string, got %s", strictcfg.Describe(raw)),
				out, outLen)
		}
		if f := toolcall.DetectFormat(tpl); f != "" {
			detected = f
		}
	}
	return reply(map[string]any{"formats": toolcall.Names(), "detected": detected}, out, outLen)
}

// renderToolText answers llenvs_call "render_tool_text": req is a
// toolcall.RenderRequest ({"format", "call"} or {"format", "results"}); the
// reply is {"text": the call or the turn's results as the format writes
// them}.
func renderToolText(req []byte, out **C.char, outLen *C.size_t) C.int32_t {
	args, err := decodeObject(req)
	if err != nil {
		return fail(err, out, outLen)
	}
	r, err := toolcall.DecodeRenderRequest(args)
	if err != nil {
		return fail(err, out, outLen)
	}
	text, err := toolcall.RenderText(r)
	if err != nil {
		return fail(err, out, outLen)
	}
	return reply(map[string]any{"text": text}, out, outLen)
}

//export llenvsgo_env_new
func llenvsgo_env_new(cfg *C.char, cfgLen C.size_t, handle *C.uint64_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	env, err := newEnvironment(input(cfg, cfgLen))
	if err != nil {
		return fail(err, out, outLen)
	}
	*handle = C.uint64_t(putHandle(kindEnvironment, env))
	return reply(describeEnv(env), out, outLen)
}

// newEnvironment builds the environment a JSON configuration (Go-owned
// bytes) describes: the decoding behind llenvs_env_new.
func newEnvironment(cfg []byte) (core.Environment, error) {
	raw, err := decodeObject(cfg)
	if err != nil {
		return nil, err
	}
	ec, err := core.DecodeEnvConfig(raw)
	if err != nil {
		return nil, err
	}
	return core.NewEnvironment(ec)
}

func describeEnv(env core.Environment) map[string]any {
	d := map[string]any{"spec": env.Spec(), "len": env.Len()}
	if st, ok := env.(core.SignalLister); ok {
		d["signals"] = st.SignalSpecs()
	}
	if t, ok := env.(core.ToolProvider); ok {
		d["tools"] = t.Tools()
	}
	return d
}

//export llenvsgo_env_close
func llenvsgo_env_close(h C.uint64_t) (rc C.int32_t) {
	defer func() {
		if recover() != nil {
			rc = statusPanic
		}
	}()
	if err := dropHandle(uint64(h), kindEnvironment); err != nil {
		return statusHandle
	}
	return statusOK
}

//export llenvsgo_env_reset
func llenvsgo_env_reset(h C.uint64_t, req *C.char, reqLen C.size_t, episode *C.uint64_t, out **C.char,
	outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	env, err := getEnv(uint64(h))
	if err != nil {
		return fail(err, out, outLen)
	}
	rr, entry, err := decodeResetRequest(input(req, reqLen))
	if err != nil {
		return fail(err, out, outLen)
	}
	start, err := env.Reset(rr)
	if err != nil {
		return fail(err, out, outLen)
	}
	run := core.NewRun(env, start)
	version := run.Begin(&start.Observation) // for llenvs_episode_step
	*episode = C.uint64_t(putHandle(kindEpisode, run))
	rep := map[string]any{"observation": start.Observation, "hidden": start.Hidden, "info": start.Info,
		"version": version}
	if !entry && servesEntries(env) {
		start.Hidden.Entry = nil
		rep["hidden"], rep["entry_later"] = start.Hidden, true
	}
	return reply(rep, out, outLen)
}

// decodeResetRequest decodes the request of llenvs_env_reset (Go-owned
// bytes): {"task_index": int, "seed": int | null, "options": {...},
// "entry": bool}. entry is false when the request asks to leave
// hidden.entry out (for an environment that serves it through its
// "entries" method; the reply then says "entry_later": true).
func decodeResetRequest(b []byte) (r core.ResetRequest, entry bool, err error) {
	var q struct {
		TaskIndex *int64         `json:"task_index"`
		Seed      *int64         `json:"seed"`
		Options   map[string]any `json:"options"`
		Entry     *bool          `json:"entry"`
	}
	if err := unmarshal(b, &q); err != nil {
		return r, true, fmt.Errorf("malformed reset request: %w", err)
	}
	if q.TaskIndex == nil {
		return r, true, errors.New("options must contain 'task_index'")
	}
	return core.ResetRequest{TaskIndex: int(*q.TaskIndex), Seed: q.Seed, Options: q.Options}, q.Entry == nil || *q.Entry, nil
}

// servesEntries reports whether env answers the "entries" method.
func servesEntries(env core.Environment) bool {
	if s, ok := env.(core.EntryGate); ok {
		return s.ServesEntries()
	}
	_, ok := env.(core.EntrySource)
	return ok
}

//export llenvsgo_episode_close
func llenvsgo_episode_close(h C.uint64_t) (rc C.int32_t) {
	defer func() {
		if recover() != nil {
			rc = statusPanic
		}
	}()
	if err := dropHandle(uint64(h), kindEpisode); err != nil {
		return statusHandle
	}
	return statusOK
}

//export llenvsgo_env_call
func llenvsgo_env_call(h C.uint64_t, method *C.char, req *C.char, reqLen C.size_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	env, err := getEnv(uint64(h))
	if err != nil {
		return fail(err, out, outLen)
	}
	args, err := decodeObject(input(req, reqLen))
	if err != nil {
		return fail(err, out, outLen)
	}
	res, err := dispatch(env, C.GoString(method), args)
	if err != nil {
		return fail(err, out, outLen)
	}
	return reply(res, out, outLen)
}

// indexArg reads an integer task index argument.
func indexArg(args map[string]any, key string) (int, error) {
	raw, ok := args[key]
	if !ok {
		return 0, fmt.Errorf("missing %q", key)
	}
	i, err := strictcfg.AsInt(raw)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", key, err)
	}
	return int(i), nil
}

func dispatch(env core.Environment, method string, args map[string]any) (any, error) {
	switch method {
	case "describe":
		return describeEnv(env), nil
	case "entries":
		ep, ok := env.(core.EntrySource)
		if !ok {
			break
		}
		raw, _ := args["indices"].([]any)
		entries := make([]any, len(raw))
		for k, r := range raw {
			i, err := strictcfg.AsInt(r)
			if err != nil {
				return nil, fmt.Errorf("indices[%d]: %w", k, err)
			}
			if entries[k], err = ep.EntryAny(int(i)); err != nil {
				return nil, err
			}
		}
		return entries, nil
	case "metadata":
		md, ok := env.(core.TaskMetadata)
		if !ok {
			break
		}
		raw, _ := args["indices"].([]any)
		rows := make([]any, len(raw))
		for k, r := range raw {
			i, err := strictcfg.AsInt(r)
			if err != nil {
				return nil, fmt.Errorf("indices[%d]: %w", k, err)
			}
			if rows[k], err = md.Metadata(int(i)); err != nil {
				return nil, err
			}
		}
		return rows, nil
	case "score_answers":
		sa, ok := env.(core.AnswerScorer)
		if !ok {
			break
		}
		i, err := indexArg(args, "task_index")
		if err != nil {
			return nil, err
		}
		raw, _ := args["answers"].([]any)
		scores := make([]float64, len(raw))
		for k, r := range raw {
			var a *string
			if s, isStr := r.(string); isStr {
				a = &s
			} else if r != nil {
				return nil, fmt.Errorf("answers[%d]: want a string or null", k)
			}
			if scores[k], err = sa.ScoreAnswer(i, a); err != nil {
				return nil, err
			}
		}
		return scores, nil
	}
	return nil, fmt.Errorf("environment %q has no method %q", env.Spec().Name, method)
}

// llenvsgo_score_one scores one response (UTF-8, read in place during the
// call) into result's slots, laid out as llenvs_score_one documents.
//
//export llenvsgo_score_one
func llenvsgo_score_one(h C.uint64_t, index C.int64_t, text *C.char, n C.int64_t, result *C.double) (rc C.int32_t) {
	words := unsafe.Slice((*int64)(unsafe.Pointer(result)), 6)
	out := (**C.char)(unsafe.Pointer(&words[4]))
	outLen := (*C.size_t)(unsafe.Pointer(&words[5]))
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	env, err := getEnv(uint64(h))
	if err != nil {
		return fail(err, out, outLen)
	}
	st, ok := env.(core.SingleTurn)
	if !ok {
		return fail(fmt.Errorf("environment %q is not single-turn and cannot be scored", env.Spec().Name), out, outLen)
	}
	i := int(index)
	if err := st.Check(i); err != nil {
		return fail(fmt.Errorf("task_indices[0]: %w", err), out, outLen)
	}
	nsig := len(st.SignalSpecs())
	slots := unsafe.Slice((*float64)(unsafe.Pointer(result)), 6+nsig)
	var s string
	if n > 0 {
		s = unsafe.String((*byte)(unsafe.Pointer(text)), int(n)) // read only during this call
	}
	o := core.Scored{Values: slots[6 : 6+nsig : 6+nsig]}
	core.ScoreOne(st, i, s, &o)
	var f int64
	if o.Extraction.Found {
		f |= itemFound
		if a, b, ok := spanOf(s, o.Extraction.Answer); ok {
			words[2], words[3] = a, b
			f |= itemSpan
		}
	}
	if o.Err != nil {
		f |= int64(itemErrorFlags(o.Err))
	}
	slots[0] = o.Total
	words[1] = f
	return statusOK
}

//export llenvsgo_score_texts
func llenvsgo_score_texts(h C.uint64_t, indices *C.int64_t, texts **C.char, lens *C.int64_t, n C.size_t,
	columns C.int32_t, totals *C.double, values *C.double, flags *C.uint8_t, schema *C.struct_ArrowSchema,
	array *C.struct_ArrowArray, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	if columns&scoreAnswers != 0 {
		if err := needBatchSlots(schema, array); err != nil {
			return fail(fmt.Errorf("score_texts: %w", err), out, outLen)
		}
	}
	st, idx, strs, err := scoringArgs(h, indices, texts, lens, n)
	if err != nil {
		return fail(err, out, outLen)
	}
	count := len(strs)
	outs := make([]core.Scored, count)
	core.ScoreBatch(st, idx, strs, outs)
	nsig := len(st.SignalSpecs())
	tot := unsafe.Slice((*float64)(unsafe.Pointer(totals)), count)
	var vals []float64
	if values != nil {
		vals = unsafe.Slice((*float64)(unsafe.Pointer(values)), count*nsig)
	}
	var fl []uint8
	if flags != nil {
		fl = unsafe.Slice((*uint8)(unsafe.Pointer(flags)), count)
	}
	for k := range outs {
		o := &outs[k]
		tot[k] = o.Total
		if vals != nil {
			copy(vals[k*nsig:(k+1)*nsig], o.Values)
		}
		if fl != nil {
			var f uint8
			if o.Extraction.Found {
				f |= itemFound
			}
			if o.Err != nil {
				f |= itemErrorFlags(o.Err)
			}
			fl[k] = f
		}
	}
	*out, *outLen = nil, 0 // nothing to free
	if columns&scoreAnswers != 0 {
		batch, err := scoredBatch(outs)
		if err != nil {
			return fail(fmt.Errorf("score_texts: %w", err), out, outLen)
		}
		exportBatch(batch, schema, array)
	}
	return statusOK
}
