package main

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/core"
)

// Bits of the first element of a told step's reply (llenvs.h,
// LLENVS_TOLD_*).
const (
	toldTerminated  = 1
	toldTruncated   = 2
	toldObservation = 4 // an observation follows; without it the caller's is unchanged
	toldSameTask    = 8
	toldSameState   = 16
	toldSameTools   = 32
	// toldDetailsLater: the details are not in the reply; the environment's
	// "details" method rebuilds them from the recipe at the end of the head.
	toldDetailsLater = 64
)

// llenvsgo_episode_step_told steps an episode from step step with the text
// text[textLen] (textLen < 0: no text) and the tool calls in calls (a JSON
// array, callsLen 0: none), and replies with the step told against the
// observation of version known (see core.Told): an 8-byte little-endian
// length n, then n bytes of one JSON array
//
//	[bits, version, keep, prompt, new messages, tool_results, available_tools,
//	 task, state, signals, extracted_action, resolved_action]
//
// then the details, one JSON array [info, [metadata of each signal]], which
// a caller may decode only when it reads them. bits holds toldTerminated ..
// toldSameTools; without toldObservation the observation fields are null.
// available_tools, task and state are null when their toldSame* bit is set.
// Each signal is [name, reward_type, reward, feedback, weight].
//
//export llenvsgo_episode_step_told
func llenvsgo_episode_step_told(h C.uint64_t, step C.int64_t, known C.uint64_t, text *C.char, textLen C.int64_t,
	calls *C.char, callsLen C.size_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	run, err := getEpisode(uint64(h))
	if err != nil {
		return fail(err, out, outLen)
	}
	var a core.Action
	if textLen >= 0 {
		if textLen > 0 && text == nil {
			return fail(errors.New("step: text is NULL but text_len is positive"), out, outLen)
		}
		s := C.GoStringN(text, C.int(textLen)) // a copy: the episode keeps it in its history
		if !utf8.ValidString(s) {
			return fail(errors.New("step: the text is not valid UTF-8"), out, outLen)
		}
		a.Text = &s
	}
	if callsLen > 0 {
		if err := unmarshal(input(calls, callsLen), &a.ToolCalls); err != nil {
			return fail(fmt.Errorf("malformed tool calls: %w", err), out, outLen)
		}
	}
	var head, details []any
	told, ok := core.Told{}, false
	if a.Text != nil && len(a.ToolCalls) == 0 {
		bp := replyBuffers.Get().(*[]byte)
		ok, err = run.TellText(int(step), *a.Text, uint64(known), func(t core.Telling, told core.Told) {
			*bp = appendTelling((*bp)[:0], t, told)
		})
		if ok && err == nil {
			toC(*bp, out, outLen)
		}
		replyBuffers.Put(bp)
		if err != nil {
			return fail(err, out, outLen)
		}
		if ok {
			return statusOK
		}
	}
	if !ok {
		var res core.StepResult
		res, told, err = run.StepTold(int(step), a, uint64(known))
		if err != nil {
			return fail(err, out, outLen)
		}
		head, details = toldReply(res, told)
	}
	hb, err := marshal(head)
	if err != nil {
		return fail(fmt.Errorf("encoding reply: %w", err), out, outLen)
	}
	var db []byte
	if details != nil {
		if db, err = marshal(details); err != nil {
			return fail(fmt.Errorf("encoding reply: %w", err), out, outLen)
		}
	}
	buf := make([]byte, 8, 8+len(hb)+len(db))
	binary.LittleEndian.PutUint64(buf, uint64(len(hb)))
	toC(append(append(buf, hb...), db...), out, outLen)
	return statusOK
}

// toldReply is the reply of llenvsgo_episode_step_told: its head and its
// details.
func toldReply(res core.StepResult, t core.Told) (head, details []any) {
	bits := 0
	if res.Terminated {
		bits |= toldTerminated
	}
	if res.Truncated {
		bits |= toldTruncated
	}
	r := make([]any, 12)
	r[1] = t.Version
	if o := res.Observation; o != nil {
		bits |= toldObservation
		r[2], r[3], r[4], r[5] = t.Keep, o.Prompt, nonNil(t.New), o.ToolResults
		if t.SameTools {
			bits |= toldSameTools
		} else {
			r[6] = o.AvailableTools
		}
		if t.SameTask {
			bits |= toldSameTask
		} else {
			r[7] = o.Task
		}
		if t.SameState {
			bits |= toldSameState
		} else {
			r[8] = o.State
		}
	}
	r[0] = bits
	sig := make([]any, len(res.Signals))
	meta := make([]any, len(res.Signals))
	for k := range res.Signals {
		s := &res.Signals[k]
		sig[k] = []any{s.Name, s.Type, s.Reward, s.Feedback, s.Weight}
		meta[k] = s.Metadata
	}
	r[9], r[10], r[11] = sig, res.ExtractedAction, res.ResolvedAction
	return r, []any{res.Info, meta}
}

// replyBuffers recycles the buffers told replies are written into.
var replyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// appendTelling writes the told reply of a step taken as a Telling: the
// length-prefixed head, written directly (no intermediate values: a step
// of a many-episode loop allocates next to nothing), with the recipe as its
// 13th element and no details (toldDetailsLater).
func appendTelling(b []byte, t core.Telling, told core.Told) []byte {
	bits := toldObservation | toldDetailsLater
	if t.Terminated {
		bits |= toldTerminated
	}
	if t.Truncated {
		bits |= toldTruncated
	}
	if told.SameTools {
		bits |= toldSameTools
	}
	if told.SameTask {
		bits |= toldSameTask
	}
	if told.SameState {
		bits |= toldSameState
	}
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0, '[')
	b = strconv.AppendInt(b, int64(bits), 10)
	b = append(b, ',')
	b = strconv.AppendUint(b, told.Version, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(told.Keep), 10)
	b = append(b, ',')
	b = appendJSONString(b, t.Prompt)
	b = append(b, ",["...)
	for k := range told.New {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendMessage(b, &told.New[k])
	}
	b = append(b, "],null,"...)
	o := &t.Observation
	b = appendUnlessSame(b, told.SameTools, o.AvailableTools)
	b = appendUnlessSame(b, told.SameTask, o.Task)
	b = appendUnlessSame(b, told.SameState, o.State)
	b = append(b, '[')
	for k, s := range t.Specs {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendJSONString(b, s.Name)
		b = append(b, ',')
		b = appendJSONString(b, string(s.Type))
		b = append(b, ',')
		b = appendNumber(b, t.Values[k])
		b = append(b, ",null,"...)
		b = appendNumber(b, s.Weight)
		b = append(b, ']')
	}
	b = append(b, "],"...)
	b = appendJSON(b, t.Extracted)
	b = append(b, ',')
	b = appendJSON(b, t.Resolved)
	b = append(b, ',')
	// The recipe as a string holding its JSON: the caller hands it back as is.
	recipe := appendJSON(nil, t.Recipe)
	b = appendJSONString(b, string(recipe))
	b = append(b, ']')
	binary.LittleEndian.PutUint64(b[:8], uint64(len(b)-8))
	return b
}

// llenvsgo_env_details returns the details [info, [metadata of each
// signal]] of a told step from the recipe its reply carried (a JSON array,
// recipe[n]), rebuilt by the environment (core.Detailer).
//
//export llenvsgo_env_details
func llenvsgo_env_details(h C.uint64_t, recipe *C.char, n C.size_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	env, err := getEnv(uint64(h))
	if err != nil {
		return fail(err, out, outLen)
	}
	d, ok := env.(core.Detailer)
	if !ok {
		return fail(fmt.Errorf("environment %q has no step details to rebuild", env.Spec().Name), out, outLen)
	}
	var r []any
	if err := unmarshal(input(recipe, n), &r); err != nil {
		return fail(fmt.Errorf("malformed details recipe: %w", err), out, outLen)
	}
	info, meta, err := d.Details(r)
	if err != nil {
		return fail(err, out, outLen)
	}
	bp := replyBuffers.Get().(*[]byte)
	*bp = appendDetails((*bp)[:0], info, meta)
	toC(*bp, out, outLen)
	replyBuffers.Put(bp)
	return statusOK
}

// appendMessage writes a message as encoding/json would (fields in order,
// empty optional ones left out).
func appendMessage(b []byte, m *core.Message) []byte {
	if len(m.ToolCalls) > 0 {
		enc, err := marshal(m)
		if err != nil {
			return append(b, "null"...)
		}
		return append(b, enc...)
	}
	b = append(b, `{"role":`...)
	b = appendJSONString(b, m.Role)
	b = append(b, `,"content":`...)
	b = appendJSONString(b, m.Content)
	if m.ToolCallID != "" {
		b = append(b, `,"tool_call_id":`...)
		b = appendJSONString(b, m.ToolCallID)
	}
	if m.Name != "" {
		b = append(b, `,"name":`...)
		b = appendJSONString(b, m.Name)
	}
	return append(b, '}')
}

// appendUnlessSame writes null and a comma when same, else v and a comma.
func appendUnlessSame(b []byte, same bool, v any) []byte {
	if same {
		return append(b, "null,"...)
	}
	enc, err := marshal(v)
	if err != nil {
		enc = []byte("null")
	}
	return append(append(b, enc...), ',')
}

func nonNil(m []core.Message) []core.Message {
	if m == nil {
		return []core.Message{}
	}
	return m
}

// appendDetails writes [info, [metadata...]], the details of a told step.
func appendDetails(b []byte, info map[string]any, meta []map[string]any) []byte {
	b = append(b, '[')
	b = appendJSON(b, info)
	b = append(b, ",["...)
	for k, m := range meta {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendJSON(b, m)
	}
	return append(b, "]]"...)
}
