package main

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
)

// Bits of the first element of a step's reply (llenvs.h, LLENVS_STEP_*).
const (
	stepTerminated  = 1
	stepTruncated   = 2
	stepObservation = 4 // an observation follows; without it the caller's is unchanged
	stepSameTask    = 8
	stepSameState   = 16
	stepSameTools   = 32
)

// llenvsgo_episode_step steps an episode from step step with the text
// text[textLen] (textLen < 0: no text) and the tool calls in calls (a JSON
// array, callsLen 0: none), and replies with the step sent as an update of the
// observation of version callerVersion (see core.ObservationUpdate), one JSON array
//
//	[bits, version, keep, prompt, new messages, tool_results, available_tools,
//	 task, state, signals, extracted_action, resolved_action, details]
//
// bits holds stepTerminated .. stepSameTools; without stepObservation the
// observation fields are null. available_tools, task and state are null
// when their stepSame* bit is set. Each signal is [name, reward_type,
// reward, feedback, weight, has_metadata] (has_metadata 0: its metadata is
// null). details is a handle of kind
// kindStepDetails: llenvs_step_details gives the step's info and signal
// metadata from it, built only then when the step left them out.
//
//export llenvsgo_episode_step
func llenvsgo_episode_step(h C.uint64_t, step C.int64_t, callerVersion C.uint64_t, text *C.char, textLen C.int64_t,
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
	res, update, err := run.Step(int(step), a, uint64(callerVersion))
	if err != nil {
		return fail(err, out, outLen)
	}
	details := putHandle(kindStepDetails, res.DetailsOf())
	bp := replyBuffers.Get().(*[]byte)
	*bp = appendStep((*bp)[:0], &res, update, details)
	toC(*bp, out, outLen)
	replyBuffers.Put(bp)
	return statusOK
}

// replyBuffers recycles the buffers step replies are written into.
var replyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// appendStep writes the reply of llenvsgo_episode_step.
func appendStep(b []byte, res *core.StepResult, update core.ObservationUpdate, details uint64) []byte {
	bits := 0
	if res.Terminated {
		bits |= stepTerminated
	}
	if res.Truncated {
		bits |= stepTruncated
	}
	o := res.Observation
	if o != nil {
		bits |= stepObservation
		if update.SameTools {
			bits |= stepSameTools
		}
		if update.SameTask {
			bits |= stepSameTask
		}
		if update.SameState {
			bits |= stepSameState
		}
	}
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(bits), 10)
	b = append(b, ',')
	b = strconv.AppendUint(b, update.Version, 10)
	if o == nil {
		b = append(b, ",0,null,null,null,null,null,null,"...)
	} else {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(update.Keep), 10)
		b = append(b, ',')
		b = appendJSONString(b, o.Prompt)
		b = append(b, ",["...)
		for k := range update.New {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendMessage(b, &update.New[k])
		}
		b = append(b, "],"...)
		if len(o.ToolResults) == 0 {
			b = append(b, "null,"...)
		} else {
			b = appendUnlessSame(b, false, o.ToolResults)
		}
		b = appendUnlessSame(b, update.SameTools, o.AvailableTools)
		b = appendUnlessSame(b, update.SameTask, o.Task)
		b = appendUnlessSame(b, update.SameState, o.State)
	}
	b = append(b, '[')
	for k := range res.Signals {
		s := &res.Signals[k]
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendJSONString(b, s.Name)
		b = append(b, ',')
		b = appendJSONString(b, string(s.Type))
		b = append(b, ',')
		b = appendJSON(b, s.Reward)
		b = append(b, ',')
		b = appendJSON(b, s.Feedback)
		b = append(b, ',')
		b = appendNumber(b, s.Weight)
		if s.Metadata != nil || (res.Details != nil && res.Details.HasMetadata(k)) {
			b = append(b, ",1]"...)
		} else {
			b = append(b, ",0]"...)
		}
	}
	b = append(b, "],"...)
	b = appendJSON(b, res.ExtractedAction)
	b = append(b, ',')
	b = appendJSON(b, res.ResolvedAction)
	b = append(b, ',')
	b = strconv.AppendUint(b, details, 10)
	return append(b, ']')
}

// llenvsgo_step_details replies with the details [info, [metadata of each
// signal]] of a step, from the handle its reply carried, and closes the
// handle.
//
//export llenvsgo_step_details
func llenvsgo_step_details(h C.uint64_t, out **C.char, outLen *C.size_t) (rc C.int32_t) {
	defer guard(&rc, out, outLen)
	clearOut(out, outLen)
	v, err := takeHandle(uint64(h), kindStepDetails)
	if err != nil {
		return fail(err, out, outLen)
	}
	info, meta, err := v.(core.StepDetails).Build()
	if err != nil {
		return fail(err, out, outLen)
	}
	bp := replyBuffers.Get().(*[]byte)
	*bp = appendDetails((*bp)[:0], info, meta)
	toC(*bp, out, outLen)
	replyBuffers.Put(bp)
	return statusOK
}

// llenvsgo_step_details_close closes n details handles that were not read
// (a caller closes them in bunches: one call per step would cost as much
// as the step). A handle that is not a live details handle is skipped;
// the status says so.
//
//export llenvsgo_step_details_close
func llenvsgo_step_details_close(hs *C.uint64_t, n C.size_t) (rc C.int32_t) {
	defer func() {
		if r := recover(); r != nil {
			rc = statusPanic
		}
	}()
	if n == 0 {
		return statusOK
	}
	rc = statusOK
	for _, h := range unsafe.Slice((*uint64)(unsafe.Pointer(hs)), int(n)) {
		if err := dropHandle(h, kindStepDetails); err != nil {
			rc = statusHandle
		}
	}
	return rc
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

// appendDetails writes [info, [metadata...]], the details of a step.
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
