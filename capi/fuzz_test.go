package main

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/llenvs/llenvs-go/clean"
	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/masking"
)

// These fuzz targets drive the Go side of each export with arbitrary
// inputs: the decoding of configurations, reset and step requests, method
// requests and layouts, and the buffers the exports pack. They run in this
// package, without cgo calls from the tests; capi/abitest drives the
// exports themselves.

// checkReported checks that err is reported as the error buffer of
// llenvs.h: valid JSON whose message is the error's, with a kind.
func checkReported(t *testing.T, err error) {
	t.Helper()
	rep := errorReply{Message: err.Error(), Kind: "invalid"}
	var v struct {
		Message *string `json:"message"`
		Kind    string  `json:"kind"`
	}
	if e := json.Unmarshal(rep.encode(), &v); e != nil || v.Message == nil || v.Kind == "" {
		t.Fatalf("error %q is not reported as valid JSON: %v", err, e)
	}
	if utf8.ValidString(err.Error()) && *v.Message != err.Error() {
		t.Fatalf("error %q reported as %q", err, *v.Message)
	}
	if err.Error() == "" {
		t.Fatal("an error without a message")
	}
}

// notPanic fails when a per-item error is a recovered panic.
func notPanic(t *testing.T, err error) {
	t.Helper()
	if err != nil && (strings.Contains(err.Error(), "failed: runtime error") || strings.Contains(err.Error(), "internal error")) {
		t.Fatalf("a recovered panic: %v", err)
	}
}

// FuzzEnvConfig builds environments from arbitrary configurations, as
// llenvs_env_new does, then describes them, resets task 0 and scores a
// response: a configuration is built or refused with a reported error; a
// built environment describes itself as JSON and scores in [-inf, inf]
// without a panic.
func FuzzEnvConfig(f *testing.F) {
	for _, s := range []string{
		`{"name": "leg_counting", "size": 10, "seed": 42}`,
		`{"name": "leg_counting", "size": 5, "seed": 1, "params": {"min_animals": 1, "max_animals": 2}, "answer_extractor": "boxed"}`,
		`{"name": "countdown", "size": 3, "seed": 2, "answer_extractors": [{"type": "boxed"}, {"type": "numeric"}], "pre_cleaners": ["strip_thinking_tokens"]}`,
		`{"name": "chain_sum", "size": 3, "seed": 3, "answer_extractor": "regex", "answer_extractor_config": {"pattern": "(\\d+)"}}`,
		`{"name": "guess_number", "adapter": "native", "size": 4, "seed": 5, "params": {"max_turns": 3}}`,
		`{"name": "calculator_arithmetic", "adapter": "native", "size": 4, "seed": 6}`,
		`{"name": "leg_counting", "size": 4, "seed": 7, "iterative": {"max_turns": 2}}`,
		`{"name": "composite", "size": 4, "seed": 8, "params": {"datasets": [{"name": "gcd", "weight": 1}]}}`,
		`{"name": "leg_counting", "size": 0}`, `{"name": "leg_counting", "size": -1}`, `{"name": "leg_counting", "size": 1e300}`,
		`{"name": "leg_counting", "seed": 9223372036854775807, "size": 2}`, `{"name": ""}`, `{}`, `[]`, `null`, `{"name": 5}`,
		`{"name": "leg_countin"}`, `{"name": "leg_counting", "adapter": "nope"}`, `{"name": "leg_counting", "extra_rewards": ["format", {"name": "length_penalty", "weight": 0.5}]}`,
		`{"name": "leg_counting", "post_cleaners": [{"type": "truncate_tail", "config": {"max_chars": 2}}], "size": 2, "seed": 1}`,
	} {
		f.Add(s, "<answer>4</answer>")
	}
	f.Fuzz(func(t *testing.T, cfg, text string) {
		env, err := newEnvironment([]byte(cfg))
		if err != nil {
			checkReported(t, err)
			return
		}
		if _, err := marshal(describeEnv(env)); err != nil {
			t.Fatalf("describe: %v", err)
		}
		if env.Len() <= 0 {
			return
		}
		start, err := env.Reset(core.ResetRequest{TaskIndex: 0})
		if err != nil {
			checkReported(t, err)
			return
		}
		if _, err := marshal(map[string]any{"observation": start.Observation, "hidden": start.Hidden, "info": start.Info}); err != nil {
			t.Fatalf("reset reply: %v", err)
		}
		if st, ok := env.(core.SingleTurn); ok {
			outs := make([]core.Scored, 1)
			core.ScoreBatch(st, []int64{0}, []string{text}, outs)
			notPanic(t, outs[0].Err)
			if math.IsNaN(outs[0].Total) {
				t.Fatalf("NaN reward for %q", text)
			}
		}
	})
}

// fuzzEnvs are the environments FuzzEpisode plays: single-turn,
// multi-turn, tool-using and iterative.
var fuzzEnvs = []string{
	`{"name": "leg_counting", "size": 20, "seed": 42}`,
	`{"name": "countdown", "size": 20, "seed": 42}`,
	`{"name": "guess_number", "adapter": "native", "size": 20, "seed": 42, "params": {"max_turns": 4}}`,
	`{"name": "calculator_arithmetic", "adapter": "native", "size": 20, "seed": 42}`,
	`{"name": "chain_sum", "size": 20, "seed": 42, "iterative": {"max_turns": 3}}`,
}

// FuzzEpisode plays episodes with arbitrary reset requests, as
// llenvs_env_reset decodes them, and arbitrary actions (text, tool calls
// and the step they are taken from): a request is decoded or refused with
// a reported error, a step either advances the episode, with a reply and
// details that are valid JSON, or is refused with a reported error.
func FuzzEpisode(f *testing.F) {
	envs := make([]core.Environment, len(fuzzEnvs))
	for i, cfg := range fuzzEnvs {
		env, err := newEnvironment([]byte(cfg))
		if err != nil {
			f.Fatalf("%s: %v", cfg, err)
		}
		envs[i] = env
	}
	steps := []string{
		`{"text": "<answer>4</answer>", "step": 0}`,
		`{"text": "<answer>50</answer>", "step": 1}`,
		`{"text": null, "tool_calls": [{"id": "c1", "name": "calculator", "arguments": {"expression": "2+2"}}], "step": 0}`,
		`{"text": "<tool_call>{\"name\": \"calculator\", \"arguments\": {\"expression\": \"1/0\"}}</tool_call>", "step": 0}`,
		`{"tool_calls": [{"name": "nope", "arguments": "x"}], "step": 0}`, `{"step": -1}`, `{"step": 1e30}`, `{}`, `[]`, ``,
		`{"text": "\ud800", "step": 0}`, `{"text": 5}`,
	}
	for k := range envs {
		for i, s := range steps {
			f.Add(uint8(k), `{"task_index": 0}`, s, steps[(i+1)%len(steps)])
		}
		f.Add(uint8(k), `{"task_index": 19, "seed": 3, "options": {"x": 1}}`, steps[0], steps[1])
		f.Add(uint8(k), `{"task_index": 20}`, steps[0], steps[1])
		f.Add(uint8(k), `{"task_index": -1}`, steps[0], steps[1])
		f.Add(uint8(k), `{"seed": 1}`, steps[0], steps[1])
		f.Add(uint8(k), `{"task_index": "0"}`, steps[0], steps[1])
	}
	f.Fuzz(func(t *testing.T, which uint8, reset, step1, step2 string) {
		env := envs[int(which)%len(envs)]
		rr, _, err := decodeResetRequest([]byte(reset))
		if err != nil {
			checkReported(t, err)
			return
		}
		start, err := env.Reset(rr)
		if err != nil {
			checkReported(t, err)
			var ie *core.IndexError
			if rr.TaskIndex >= 0 && rr.TaskIndex < env.Len() && errors.As(err, &ie) {
				t.Fatalf("task %d of %d refused as out of range", rr.TaskIndex, env.Len())
			}
			return
		}
		run := core.NewRun(env, start)
		for _, req := range []string{step1, step2} {
			var q struct {
				core.Action
				Step int `json:"step"`
			}
			if err := unmarshal([]byte(req), &q); err != nil {
				continue // not an action; llenvs_episode_step takes its parts as arguments
			}
			res, update, err := run.Step(q.Step, q.Action, 0)
			if err != nil {
				checkReported(t, err)
				continue
			}
			if b := appendStep(nil, &res, update, 1); !json.Valid(b) {
				t.Fatalf("step reply is not JSON: %s", b)
			}
			info, meta, err := res.DetailsOf().Build()
			if err != nil {
				checkReported(t, err)
			} else if b := appendDetails(nil, info, meta); !json.Valid(b) || len(meta) != len(res.Signals) {
				t.Fatalf("step details: %s for %d signals", b, len(res.Signals))
			}
			if res.Terminated || res.Truncated {
				break
			}
		}
	})
}

// FuzzCallMethods sends arbitrary requests to an environment's
// llenvs_env_call methods: each replies with valid JSON or a reported
// error.
func FuzzCallMethods(f *testing.F) {
	env, err := newEnvironment([]byte(`{"name": "leg_counting", "size": 10, "seed": 42}`))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		`{"indices": [0, 9, 10]}`, `{"indices": [-1]}`, `{"indices": "0"}`, `{}`,
		`{"task_index": 0, "answers": ["4", null, 5]}`, `{"task_index": 100, "answers": ["4"]}`, `{"task_index": 1.5}`,
	} {
		for _, m := range []string{"describe", "entries", "score_answers", "nope"} {
			f.Add(m, s)
		}
	}
	f.Fuzz(func(t *testing.T, method, req string) {
		raw, err := decodeObject([]byte(req))
		if err != nil {
			checkReported(t, err)
			return
		}
		var reply []byte
		var res any
		if res, err = dispatch(env, method, raw); err == nil {
			reply, err = marshal(res)
			if err != nil {
				t.Fatalf("%s reply does not encode: %v", method, err)
			}
		}
		if err != nil {
			checkReported(t, err)
			return
		}
		var items []any
		var obj map[string]any
		if json.Unmarshal(reply, &items) != nil && json.Unmarshal(reply, &obj) != nil {
			t.Fatalf("%s replied with invalid JSON %q", method, reply)
		}
	})
}

// validWTF8 reports whether s is UTF-8 once each surrogatepass-encoded
// surrogate (ED A0..BF 80..BF) is taken as one code point.
func validWTF8(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		if i+3 <= len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			i += 3
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			return false
		}
		i += w
	}
	return true
}

// FuzzExtractCleanTexts builds the batches of llenvs_extract_texts and
// llenvs_clean_texts from arbitrary specs and texts: each has one row per
// text, or the spec is a reported error; metadata is a JSON object, and
// when the texts are valid "surrogatepass" UTF-8 (lone surrogates
// included), so are the answers and cleaned texts (no surrogate split).
func FuzzExtractCleanTexts(f *testing.F) {
	for _, s := range []string{
		`{"extractor": {"type": "tag_based"}}`,
		`{"extractor": [{"type": "boxed"}, {"type": "numeric"}], "pre_cleaners": ["strip_thinking_tokens"]}`,
		`{"extractor": {"type": "tail", "config": {"max_chars": 2}}}`,
		`{"extractor": {"type": "regex", "config": {"pattern": "(.)"}}}`,
		`{"extractor": {"type": "pattern_answer", "config": {"patterns": ["is."]}}}`,
		`{"extractor": {"type": "multiple_choice"}, "post_cleaners": [{"type": "truncate_tail", "config": {"max_chars": 1}}]}`,
		`{"extractor": {"type": "native"}}`, `{"extractor": 5}`, `{}`, `{"extractor": {"type": "regex", "config": {"pattern": "("}}}`,
		`{"kind": "pre", "cleaners": ["strip_special_tokens"]}`,
		`{"kind": "post", "cleaners": [{"type": "truncate_tail", "config": {"max_chars": 1}}]}`,
		`{"kind": "post", "cleaners": ["strip_surrounding_quotes", "strip_trailing_punctuation"]}`, `{"kind": "side", "cleaners": []}`,
	} {
		for _, texts := range [][2]string{{"<answer>1</answer>", ""}, {"a\xed\xa0\x80", "\xed\xbf\xbf b."}, {"\xff<answer>\xed\xa0</answer>", "\"x\xed\xb0\x81\""}} {
			f.Add(s, texts[0], texts[1])
		}
	}
	f.Fuzz(func(t *testing.T, spec, a, b string) {
		texts := []string{a, b, a + b}
		valid := validWTF8(a) && validWTF8(b)
		var batch *cColumn
		var err error
		if strings.Contains(spec, `"kind"`) {
			var cs []clean.Cleaner
			if cs, err = decodeCleaners([]byte(spec)); err == nil {
				batch, err = cleanedBatch(cs, texts)
			}
		} else {
			var ex extract.Extractor
			if ex, err = decodeExtractor([]byte(spec)); err == nil {
				batch, err = extractedBatch(ex, texts)
			}
		}
		if err != nil {
			checkReported(t, err)
			return
		}
		defer batch.free()
		if batch.length != int64(len(texts)) {
			t.Fatalf("%d rows for %d texts", batch.length, len(texts))
		}
		for k := range texts {
			got := utf8At(batch.children[0], k)
			if got != nil && valid && !validWTF8(*got) {
				t.Fatalf("text %d %q gave %q, which splits a code point", k, texts[k], *got)
			}
			if len(batch.children) > 1 {
				var m map[string]any
				if meta := utf8At(batch.children[1], k); meta == nil || json.Unmarshal([]byte(*meta), &m) != nil {
					t.Fatalf("text %d: metadata %v is not a JSON object", k, meta)
				}
			}
		}
	})
}

// FuzzErrorReply checks the hand-written error buffer: valid JSON for any
// message, key and suggestion, which reads back as given (valid UTF-8).
func FuzzErrorReply(f *testing.F) {
	f.Add("unknown key 'x'", "x", "y", "a,b")
	f.Add("\x00\xff\"\\\u2028\n", "", "", "")
	f.Add("task_index 5 out of bounds [0, 3)", "k", "", ",")
	f.Fuzz(func(t *testing.T, msg, key, suggestion, valid string) {
		rep := errorReply{Message: msg, Kind: "invalid", Key: key, Suggestion: suggestion}
		if valid != "" {
			rep.Valid = strings.Split(valid, ",")
		}
		b := rep.encode()
		var got struct {
			Message    string   `json:"message"`
			Kind       string   `json:"kind"`
			Key        string   `json:"key"`
			Suggestion string   `json:"suggestion"`
			Valid      []string `json:"valid"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("error buffer %q is not valid JSON: %v", b, err)
		}
		if !utf8.ValidString(msg) || !utf8.ValidString(key) || !utf8.ValidString(suggestion) || !utf8.ValidString(valid) {
			return
		}
		if got.Message != msg || got.Kind != "invalid" || got.Suggestion != suggestion || len(got.Valid) != len(rep.Valid) {
			t.Fatalf("error buffer %q reads back as %+v", b, got)
		}
		if (key != "" || rep.Valid != nil) && got.Key != key {
			t.Fatalf("key %q reads back as %q", key, got.Key)
		}
	})
}

// utf8At reads row r of a utf8 column before export (nil when null).
func utf8At(c *cColumn, r int) *string {
	if v := c.buffers[0]; v != nil && (*(*byte)(unsafe.Add(v, r/8)))&(1<<(r%8)) == 0 {
		return nil
	}
	offs := unsafe.Slice((*int32)(c.buffers[1]), c.length+1)
	s := string(unsafe.Slice((*byte)(c.buffers[2]), offs[c.length])[offs[r]:offs[r+1]])
	return &s
}

// FuzzEpisodesBatch builds the record batches of llenvs_env_reset_many
// (prompts and ground truths) and llenvs_episodes_step_texts (next prompts,
// error messages where a step failed) and reads them back before export.
func FuzzEpisodesBatch(f *testing.F) {
	f.Add("How many legs?", "4", "caf\u00e9 \U0001f600", true)
	f.Add("", "", "", false)
	f.Add("a\x00b", "\u2028", "x", true)
	f.Add("\xed\xa0\x80", "\xff", "", true)
	f.Fuzz(func(t *testing.T, p1, truth, p2 string, has bool) {
		// Any bytes: a step's text, so a next prompt, may hold lone
		// surrogates encoded with Python's surrogatepass.
		truths := []*string{nil, nil, nil}
		if has {
			truths[0], truths[2] = &truth, &p1
		}
		prompts := []string{p1, p2, truth}
		starts, err := startsBatch(prompts, truths)
		if err != nil {
			t.Fatalf("startsBatch: %v", err)
		}
		defer starts.free()
		if starts.length != 3 || len(starts.children) != 2 || starts.children[0].name != "prompt" ||
			starts.children[1].name != "ground_truth" {
			t.Fatalf("reset batch: %d rows, columns %v", starts.length, starts.children)
		}
		wantNulls := int64(3)
		if has {
			wantNulls = 1
		}
		if starts.children[0].nulls != 0 || starts.children[1].nulls != wantNulls {
			t.Fatalf("null counts %d and %d, want 0 and %d", starts.children[0].nulls, starts.children[1].nulls,
				wantNulls)
		}
		for k := range prompts {
			gotP, gotT := utf8At(starts.children[0], k), utf8At(starts.children[1], k)
			if gotP == nil || *gotP != prompts[k] || (gotT == nil) != (truths[k] == nil) ||
				(gotT != nil && *gotT != *truths[k]) {
				t.Fatalf("row %d: built %q %v, read back %v %v", k, prompts[k], truths[k], gotP, gotT)
			}
		}

		errs := []error{nil, nil, nil}
		if has {
			errs[1] = errors.New(truth)
		}
		steps, err := stepBatch(prompts, errs)
		if err != nil {
			t.Fatalf("stepBatch: %v", err)
		}
		defer steps.free()
		if steps.length != 3 || len(steps.children) != 2 || steps.children[0].name != "prompt" ||
			steps.children[1].name != "error" {
			t.Fatalf("step batch: %d rows, columns %v", steps.length, steps.children)
		}
		for k := range prompts {
			gotP, gotE := utf8At(steps.children[0], k), utf8At(steps.children[1], k)
			if errs[k] != nil {
				if gotP != nil || gotE == nil || *gotE != errs[k].Error() {
					t.Fatalf("row %d failed with %q, read back prompt %v, error %v", k, errs[k], gotP, gotE)
				}
				continue
			}
			if gotE != nil || gotP == nil || *gotP != prompts[k] {
				t.Fatalf("row %d: next prompt %q, read back prompt %v, error %v", k, prompts[k], gotP, gotE)
			}
		}
		failed := int64(0)
		if has {
			failed = 1
		}
		if steps.children[0].nulls != failed || steps.children[1].nulls != 3-failed {
			t.Fatalf("null counts %d and %d with %d failed", steps.children[0].nulls, steps.children[1].nulls, failed)
		}
	})
}

// FuzzItemsBatch decodes arbitrary item layouts and builds rows as
// llenvs_items_batch does: a layout is decoded or refused with a reported
// error; the columns read back as the prompts, ground truths and the chat
// messages the layout describes, and failed rows as the error batch.
func FuzzItemsBatch(f *testing.F) {
	f.Add(`{"system": "Answer in <answer> tags.", "template": ["Q: ", "\nA:"]}`, "How many legs?", "4")
	f.Add(`{"template": ["", "", ""]}`, "x", "")
	f.Add(`{"system": null, "template": []}`, "", "y")
	f.Add(`{"template": ["only"]}`, "p", "t")
	f.Add(`{"template": "x"}`, "p", "t")
	f.Add(``, "p", "t")
	f.Fuzz(func(t *testing.T, layout, prompt, truth string) {
		lay, err := decodeItemsLayout([]byte(layout))
		if err != nil {
			checkReported(t, err)
			return
		}
		idx := []int64{3, 5, 7, 9}
		prompts := []string{prompt, "", truth, prompt}
		truths := []*string{&truth, nil, &prompt, nil}
		errs := []error{nil, errors.New("task 5 failed"), nil, nil}
		rows, failed, err := itemsBatch(idx, prompts, truths, errs, lay)
		if err != nil {
			checkReported(t, err)
			return
		}
		defer rows.free()
		defer failed.free()
		if rows.length != 3 || failed.length != 1 {
			t.Fatalf("%d rows and %d errors, want 3 and 1", rows.length, failed.length)
		}
		perRow := 1
		if lay.System != nil {
			perRow = 2
		}
		taskIndex := unsafe.Slice((*int64)(rows.children[0].buffers[1]), 3)
		content := rows.children[3].children[0].children[1]
		for r, k := range []int{0, 2, 3} {
			if taskIndex[r] != idx[k] {
				t.Fatalf("row %d task_index %d, want %d", r, taskIndex[r], idx[k])
			}
			if got := *utf8At(rows.children[1], r); got != prompts[k] {
				t.Fatalf("row %d prompt %q, want %q", r, got, prompts[k])
			}
			if got := utf8At(rows.children[2], r); (got == nil) != (truths[k] == nil) || got != nil && *got != *truths[k] {
				t.Fatalf("row %d ground truth %v, want %v", r, got, truths[k])
			}
			user := lay.Template[0]
			for _, lit := range lay.Template[1:] {
				user += prompts[k] + lit
			}
			if got := *utf8At(content, r*perRow+perRow-1); got != user {
				t.Fatalf("row %d user message %q, want %q", r, got, user)
			}
			if lay.System != nil && *utf8At(content, r*perRow) != *lay.System {
				t.Fatalf("row %d system message lost", r)
			}
		}
		if rows.children[2].nulls != 1 {
			t.Fatalf("ground_truth null count %d, want 1", rows.children[2].nulls)
		}
		if pos := *(*int64)(failed.children[0].buffers[1]); pos != 1 {
			t.Fatalf("error position %d, want 1", pos)
		}
		if got := *utf8At(failed.children[1], 0); got != "task 5 failed" {
			t.Fatalf("error %q", got)
		}
	})
}

// FuzzOffsets checks the offsets arrays of the masking exports: accepted
// exactly when they start at 0 and never decrease; accepted token offsets
// (of a modest total) then make the fragments of a batch whose record
// batch reads back as masking lays it out.
func FuzzOffsets(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		offs := make([]int64, len(b)/8)
		for i := range offs {
			offs[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
		}
		ok := len(offs) > 0 && offs[0] == 0
		for i := 1; ok && i < len(offs); i++ {
			ok = offs[i] >= offs[i-1]
		}
		if err := checkOffsets(offs, "token"); (err == nil) != ok {
			t.Fatalf("checkOffsets(%v) = %v", offs, err)
		} else if err != nil {
			checkReported(t, err)
			return
		}
		if offs[len(offs)-1] > 1<<12 || len(offs) > 64 {
			return
		}
		frags := masking.Fragments{Tokens: make([]int32, offs[len(offs)-1]), Offsets: offs}
		for i := range frags.Tokens {
			frags.Tokens[i] = int32(i)
		}
		// Every fragment once: the first as the prompt, the others alternating model and environment turns.
		var traj masking.Trajectory
		for f := 0; f < frags.Len(); f++ {
			src := masking.Source(min(f, 1+f%2))
			traj.Segments = append(traj.Segments, masking.Segment{Fragment: int32(f), Source: src, Step: int32(f / 2)})
			traj.Rewards = append(traj.Rewards, float64(f))
		}
		checkMaskColumns(t, []masking.Trajectory{traj, {}, traj}, frags, 3)
	})
}

// FuzzMaskColumns builds the record batch of llenvs_mask_batch from
// arbitrary trajectories (fragments, then segments of three bytes each,
// out-of-range values included): a batch masking refuses is refused with a
// reported error and nothing left allocated; an accepted one reads back,
// column by column, as masking lays the trajectories out.
func FuzzMaskColumns(f *testing.F) {
	f.Add([]byte{3, 2, 1, 2, 3, 4, 5, 6, 1, 7, 0, 0, 0, 1, 1, 0, 2, 2, 0, 1, 1, 1}, 2)
	f.Add([]byte{1, 0, 1, 0, 0}, -1)
	f.Add([]byte{2, 1, 9, 2, 8, 8, 1, 1, 0, 0, 0, 0}, 0)
	f.Add([]byte{}, 5)
	f.Fuzz(func(t *testing.T, data []byte, maxLength int) {
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(b)
		}
		frags := masking.Fragments{Offsets: []int64{0}}
		for k, nf := 0, next()%6; k < nf; k++ {
			for j, n := 0, next()%8; j < n; j++ {
				frags.Tokens = append(frags.Tokens, int32(next()*100+j))
			}
			frags.Offsets = append(frags.Offsets, int64(len(frags.Tokens)))
		}
		var traj masking.Trajectory
		for len(data) >= 3 {
			traj.Segments = append(traj.Segments, masking.Segment{Fragment: int32(next()%8) - 1,
				Source: masking.Source(next() % 4), Step: int32(next() % 3)})
		}
		traj.Rewards = []float64{0.5, -1}
		checkMaskColumns(t, []masking.Trajectory{traj, {}, traj}, frags, max(maxLength, -1))
	})
}

// checkMaskColumns builds the record batch of trajs with maskColumns and
// checks it against masking.AssembleBatch's Go columns: the same
// acceptance, and the same values in every row of every column.
func checkMaskColumns(t *testing.T, trajs []masking.Trajectory, frags masking.Fragments, maxLength int) {
	t.Helper()
	want, werr := masking.AssembleBatch(trajs, frags, maxLength, masking.NewColumns)
	batch, err := maskColumns(trajs, frags, maxLength)
	if (err == nil) != (werr == nil) {
		t.Fatalf("maskColumns: %v; masking: %v", err, werr)
	}
	if err != nil {
		checkReported(t, err)
		return
	}
	defer batch.free()
	names := []string{}
	for _, c := range batch.children {
		names = append(names, c.name+":"+c.format)
	}
	if got := strings.Join(names, " "); got != "prompt_ids:+l response_ids:+l response_mask:+l token_rewards:+l "+
		"spans:+l reward_at:+l truncated:C" || batch.length != int64(len(trajs)) {
		t.Fatalf("columns %s of %d rows", got, batch.length)
	}
	n := len(trajs)
	list := func(k int) ([]int32, *cColumn) {
		c := batch.children[k]
		if c.length != int64(n) {
			t.Fatalf("column %s has %d rows, want %d", c.name, c.length, n)
		}
		return unsafe.Slice((*int32)(c.buffers[1]), n+1), c.children[0]
	}
	vals := func(c *cColumn) unsafe.Pointer { return c.buffers[1] }
	spansOffs, spans := list(4)
	for i := range trajs {
		r := want.Result(i)
		got := masking.Result{Truncated: unsafe.Slice((*uint8)(vals(batch.children[6])), n)[i] != 0, Spans: []masking.Span{}}
		offs, c := list(0)
		got.PromptIDs = append([]int32{}, unsafe.Slice((*int32)(vals(c)), offs[n])[offs[i]:offs[i+1]]...)
		offs, c = list(1)
		got.ResponseIDs = append([]int32{}, unsafe.Slice((*int32)(vals(c)), offs[n])[offs[i]:offs[i+1]]...)
		offs, c = list(2)
		got.Mask = append([]uint8{}, unsafe.Slice((*uint8)(vals(c)), offs[n])[offs[i]:offs[i+1]]...)
		offs, c = list(3)
		got.TokenRewards = append([]float64{}, unsafe.Slice((*float64)(vals(c)), offs[n])[offs[i]:offs[i+1]]...)
		offs, c = list(5)
		got.RewardAt = append([]int32{}, unsafe.Slice((*int32)(vals(c)), offs[n])[offs[i]:offs[i+1]]...)
		if spans.length != int64(spansOffs[n]) || len(spans.children) != 5 {
			t.Fatalf("%d spans of %d fields for offsets ending at %d", spans.length, len(spans.children), spansOffs[n])
		}
		field := func(f int) []int32 { return unsafe.Slice((*int32)(vals(spans.children[f])), spans.length) }
		for k := spansOffs[i]; k < spansOffs[i+1]; k++ {
			got.Spans = append(got.Spans, masking.Span{Start: field(0)[k], End: field(1)[k],
				Source: masking.Source(field(2)[k]), Step: field(3)[k], Fragment: field(4)[k]})
		}
		if !reflect.DeepEqual(got, r) { // the rewards are finite: no NaN to compare
			t.Fatalf("row %d: %+v, want %+v", i, got, r)
		}
	}
}

// FuzzWhich checks the episode positions of llenvs_episodes_step_texts:
// accepted exactly when each is inside the batch and none repeats.
func FuzzWhich(f *testing.F) {
	f.Add([]byte{0, 1, 2}, uint8(3))
	f.Add([]byte{1, 1}, uint8(3))
	f.Add([]byte{5}, uint8(3))
	f.Add([]byte{}, uint8(0))
	f.Add([]byte{0xff}, uint8(0))
	f.Fuzz(func(t *testing.T, b []byte, size uint8) {
		wh := make([]int64, len(b))
		for i, c := range b {
			wh[i] = int64(int8(c)) // negative positions included
		}
		ok, seen := true, map[int64]bool{}
		for _, i := range wh {
			ok = ok && i >= 0 && i < int64(size) && !seen[i]
			seen[i] = true
		}
		if err := checkWhich(wh, int(size)); (err == nil) != ok {
			t.Fatalf("checkWhich(%v, %d) = %v", wh, size, err)
		} else if err != nil {
			checkReported(t, err)
		}
	})
}
