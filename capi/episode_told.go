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
	res, told, err := run.StepTold(int(step), a, uint64(known))
	if err != nil {
		return fail(err, out, outLen)
	}
	head, details := toldReply(res, told)
	hb, err := marshal(head)
	if err != nil {
		return fail(fmt.Errorf("encoding reply: %w", err), out, outLen)
	}
	db, err := marshal(details)
	if err != nil {
		return fail(fmt.Errorf("encoding reply: %w", err), out, outLen)
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

func nonNil(m []core.Message) []core.Message {
	if m == nil {
		return []core.Message{}
	}
	return m
}
