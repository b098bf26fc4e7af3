// Package toolcall reads tool calls written in a model's text, and writes
// calls and their results as each model family's chat template does. Each
// family writes calls in its own Format (format.go): hermes (Hermes/Qwen,
// <tool_call>{"name": ..., "arguments": {...}}</tool_call>, read by Parse),
// qwen3_coder, llama3_json, mistral, gpt_oss and deepseek, one file each.
// A block that starts a call but is not a well-formed one is a Call with
// Err, never a Go error or a panic; DetectFormat names the format a chat
// template implies.
//
// A Format's RenderResult writes a tool result (its content as Content
// gives it) in the family's own syntax, as its chat template writes a tool
// message. A turn header that says no more than the role (Qwen's
// <|im_start|>user, Llama's <|start_header_id|>ipython<|end_header_id|>)
// is left out with the turn's end; harmony's header names the tool that
// answers, and is kept:
//
//	hermes, qwen3_coder  <tool_response>\nCONTENT\n</tool_response>
//	llama3_json          CONTENT (the body of the ipython turn)
//	mistral              [TOOL_RESULTS]{"content": CONTENT, "call_id": "ID"}[/TOOL_RESULTS]
//	                     (CONTENT as it is when it is JSON text, else as a JSON string)
//	gpt_oss              <|start|>functions.NAME to=assistant<|channel|>commentary<|message|>CONTENT<|end|>
//	deepseek             <｜tool▁output▁begin｜>CONTENT<｜tool▁output▁end｜>
//
// RenderResults writes one turn's results together: one a line for hermes,
// qwen3_coder and llama3_json; back to back for mistral and gpt_oss; one a
// line inside <｜tool▁outputs▁begin｜>...<｜tool▁outputs▁end｜> for deepseek.
// The messages of a conversation keep a result's plain content in a "tool"
// message: the chat template adds the syntax there.
package toolcall

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/core"
)

// The tags of the Hermes format, its calls' and its results'.
const (
	OpenTag          = "<tool_call>"
	CloseTag         = "</tool_call>"
	ResponseOpenTag  = "<tool_response>"
	ResponseCloseTag = "</tool_response>"
)

// Call is one tool call found in text: the call, or Err when the block is
// not a well-formed call (Call then has only its ID).
type Call struct {
	Call core.ToolCall
	Err  string
}

// Parse returns the tool calls in text, in order, at most limit of them;
// more reports that text holds further calls. Call ids are idPrefix
// followed by the call's position ("call_1_0", ...).
func Parse(text string, idPrefix string, limit int) (calls []Call, more bool) {
	if n := strings.Count(text, OpenTag); n > 0 {
		calls = make([]Call, 0, min(n, limit))
	}
	rest := text
	for {
		i := strings.Index(rest, OpenTag)
		if i < 0 {
			return calls, false
		}
		if len(calls) == limit {
			return calls, true
		}
		rest = rest[i+len(OpenTag):]
		id := idPrefix + strconv.Itoa(len(calls))
		j := strings.Index(rest, CloseTag)
		if j < 0 {
			calls = append(calls, Call{Call: core.ToolCall{ID: id, Arguments: map[string]any{}},
				Err: "malformed tool call: " + OpenTag + " has no closing " + CloseTag})
			return calls, false
		}
		calls = append(calls, decode(id, rest[:j]))
		rest = rest[j+len(CloseTag):]
	}
}

// decode reads the JSON object of one <tool_call> block.
func decode(id, body string) Call {
	c := Call{Call: core.ToolCall{ID: id}}
	if name, args, ok := callMembers(body); ok {
		c = named(c, name, args)
	} else {
		c = decodeSlow(c, body)
	}
	if c.Call.Arguments == nil {
		c.Call.Arguments = map[string]any{}
	}
	return c
}

// decodeSlow completes c with the call in body through encoding/json, for
// a body that callMembers cannot read.
func decodeSlow(c Call, body string) Call {
	var raw struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	// json.Unmarshal reads a body that is one object exactly as the decoder below does, without its
	// buffers; the decoder runs only to say what is wrong with one that is not.
	if json.Unmarshal([]byte(body), &raw) == nil {
		return named(c, raw.Name, string(raw.Arguments))
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		c.Err = fmt.Sprintf("malformed tool call: the text inside %s is not a JSON object {\"name\": ..., "+
			"\"arguments\": {...}} (%v)", OpenTag, err)
		return c
	}
	if dec.More() {
		c.Err = "malformed tool call: extra text after the JSON object inside " + OpenTag
		return c
	}
	return named(c, raw.Name, string(raw.Arguments))
}

// callMembers reads body as json.Unmarshal reads it into a struct of a
// *string "name" and a raw "arguments", when body is an object whose
// members need nothing of encoding/json's (no key that matches only by
// case folding, a name that is a string or null); ok is false otherwise.
func callMembers(body string) (name *string, args string, ok bool) {
	unsure := false
	ok = members(body, func(key, raw string) {
		switch key {
		case "name":
			switch {
			case raw == "null":
				name = nil
			case raw[0] == '"':
				s, _, _ := readString(raw, 0)
				name = &s
			default: // a type error, told by encoding/json
				unsure = true
			}
		case "arguments":
			args = raw
		default:
			unsure = unsure || foldsToField(key)
		}
	})
	return name, args, ok && !unsure
}

// foldsToField reports whether encoding/json might match key, which is
// neither, to the field "name" or "arguments" (it folds case, Unicode's
// included).
func foldsToField(key string) bool {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			return true
		}
	}
	return strings.EqualFold(key, "name") || strings.EqualFold(key, "arguments")
}

// named completes c, a call read from a well-formed JSON object, with its name and arguments.
func named(c Call, name *string, arguments string) Call {
	if name == nil || *name == "" {
		c.Err = "malformed tool call: the JSON object has no \"name\""
		return c
	}
	c.Call.Name = *name
	args, err := argumentsOf(arguments)
	if err != nil {
		c.Err = err.Error()
		return c
	}
	c.Call.Arguments = args
	return c
}

// Arguments decodes a call's arguments: a JSON object, or a string that
// holds one (the OpenAI wire form); absent or null is no arguments.
func Arguments(raw json.RawMessage) (map[string]any, error) {
	return argumentsOf(string(raw))
}

// argumentsOf is Arguments of the JSON text raw.
func argumentsOf(raw string) (map[string]any, error) {
	raw = strings.TrimSpace(raw)
	if len(raw) == 0 || raw == "null" {
		return map[string]any{}, nil
	}
	text := raw
	if raw[0] == '"' {
		s, end, ok := readString(raw, 0)
		if !ok || end != len(raw) {
			return argumentsSlow(raw)
		}
		text = s
	}
	if i := skipSpace(text, 0); i < len(text) && text[i] == '{' {
		if v, _, ok := readObject(text, i, 1); ok {
			return v.(map[string]any), nil
		}
	}
	return argumentsSlow(raw)
}

// argumentsSlow is argumentsOf of a trimmed, non-empty raw through
// encoding/json, for its errors.
func argumentsSlow(raw string) (map[string]any, error) {
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal([]byte(raw), &s); err != nil {
			return nil, fmt.Errorf("invalid arguments: %v", err)
		}
		raw = s
	}
	var args map[string]any
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil || args == nil {
		return nil, fmt.Errorf("invalid arguments: \"arguments\" must be a JSON object, got %.60s", raw)
	}
	return args, nil
}

// Content is the text of a tool result in the conversation: the output on
// success, "Error: " and the message otherwise.
func Content(r core.ToolResult) string {
	if r.Status == core.ToolSuccess {
		return r.Output
	}
	if r.Error != nil {
		return "Error: " + *r.Error
	}
	return "Error"
}
