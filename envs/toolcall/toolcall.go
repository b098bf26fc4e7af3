// Package toolcall reads tool calls written in a model's text and renders
// tool results as <tool_response> blocks. Each model family writes calls in
// its own Format (format.go): hermes (Hermes/Qwen,
// <tool_call>{"name": ..., "arguments": {...}}</tool_call>, read by Parse),
// qwen3_coder, llama3_json, mistral, gpt_oss and deepseek, one file each.
// A block that starts a call but is not a well-formed one is a Call with
// Err, never a Go error or a panic; DetectFormat names the format a chat
// template implies.
package toolcall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llenvs/llenvs-go/core"
)

// The tags of the format.
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
		id := fmt.Sprintf("%s%d", idPrefix, len(calls))
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
	c := Call{Call: core.ToolCall{ID: id, Arguments: map[string]any{}}}
	var raw struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	// json.Unmarshal reads a body that is one object exactly as the decoder below does, without its
	// buffers; the decoder runs only to say what is wrong with one that is not.
	if json.Unmarshal([]byte(body), &raw) == nil {
		return named(c, raw.Name, raw.Arguments)
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
	return named(c, raw.Name, raw.Arguments)
}

// named completes c, a call read from a well-formed JSON object, with its name and arguments.
func named(c Call, name *string, arguments json.RawMessage) Call {
	if name == nil || *name == "" {
		c.Err = "malformed tool call: the JSON object has no \"name\""
		return c
	}
	c.Call.Name = *name
	args, err := Arguments(arguments)
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
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("invalid arguments: %v", err)
		}
		raw = json.RawMessage(s)
	}
	var args map[string]any
	if !hasNumber(raw) { // without numbers, UseNumber changes nothing: decode without the decoder's buffers
		if json.Unmarshal(raw, &args) == nil && args != nil {
			return args, nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil || args == nil {
		return nil, fmt.Errorf("invalid arguments: \"arguments\" must be a JSON object, got %.60s", string(raw))
	}
	return args, nil
}

// hasNumber reports whether the JSON text raw holds a number outside its strings.
func hasNumber(raw []byte) bool {
	in, esc := false, false
	for _, c := range raw {
		switch {
		case in:
			if esc {
				esc = false
			} else if c == '\\' {
				esc = true
			} else if c == '"' {
				in = false
			}
		case c == '"':
			in = true
		case c == '-' || (c >= '0' && c <= '9'):
			return true
		}
	}
	return false
}

// Response renders one tool result as the model reads it:
// "<tool_response>\n" + content + "\n</tool_response>".
func Response(content string) string {
	return ResponseOpenTag + "\n" + content + "\n" + ResponseCloseTag
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
