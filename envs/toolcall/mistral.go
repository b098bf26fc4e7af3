package toolcall

import (
	"encoding/json"
	"strings"

	"github.com/llenvs/llenvs-go/core"
)

// The markers of the Mistral format.
const (
	ToolCallsTag = "[TOOL_CALLS]"
	argsTag      = "[ARGS]"
	callIDTag    = "[CALL_ID]"
	// The tags of a tool result.
	resultsTag      = "[TOOL_RESULTS]"
	resultsCloseTag = "[/TOOL_RESULTS]"
)

// mistral is the format of Mistral's models: [TOOL_CALLS] followed by a
// JSON array of {"name": ..., "arguments": {...}} objects, or the newer
// [TOOL_CALLS]NAME[ARGS]{...} (optionally NAME[CALL_ID]ID[ARGS]{...}), one
// [TOOL_CALLS] per call.
type mistral struct{}

func (mistral) Name() string { return Mistral }

func (mistral) Parse(text, idPrefix string, limit int) ([]Call, bool) {
	c := &collector{prefix: idPrefix, limit: limit}
	rest := text
	for {
		i := strings.Index(rest, ToolCallsTag)
		if i < 0 {
			return c.calls, false
		}
		if c.full() {
			return c.calls, true
		}
		rest = strings.TrimLeft(rest[i+len(ToolCallsTag):], " \t\r\n")
		if strings.HasPrefix(rest, "[") && !strings.HasPrefix(rest, argsTag) && !strings.HasPrefix(rest, callIDTag) { // a JSON array
			raw, after, err := nextValue(rest)
			var items []string
			if err == nil {
				items, err = arrayItems(raw)
			}
			if err != nil {
				c.fail("", ToolCallsTag+" is not followed by a JSON array of {\"name\": ..., \"arguments\": {...}} ("+
					err.Error()+")")
				continue
			}
			if len(items) == 0 {
				c.fail("", ToolCallsTag+" is followed by an empty array")
			}
			for _, item := range items {
				if c.full() {
					return c.calls, true
				}
				c.add(callObject(item, "an item of the "+ToolCallsTag+" array", "arguments"))
			}
			rest = after
			continue
		}
		end := strings.IndexByte(rest, '[')
		if end < 0 || !(strings.HasPrefix(rest[end:], argsTag) || strings.HasPrefix(rest[end:], callIDTag)) {
			c.fail("", ToolCallsTag+" is followed by neither a JSON array nor NAME"+argsTag+"{...}")
			continue
		}
		name := strings.TrimSpace(rest[:end])
		rest = rest[end:]
		if strings.HasPrefix(rest, callIDTag) {
			j := strings.Index(rest, argsTag)
			if j < 0 {
				c.fail(name, callIDTag+" is not followed by "+argsTag)
				continue
			}
			rest = rest[j:]
		}
		rest = rest[len(argsTag):]
		if name == "" {
			c.fail("", ToolCallsTag+" has no function name before "+argsTag)
			continue
		}
		args, after, err := arguments(rest)
		if err != nil {
			c.fail(name, err.Error())
			continue
		}
		c.ok(name, args)
		rest = after
	}
}

// arrayItems is the raw items of raw, a JSON value that starts with "[",
// or json.Unmarshal's error.
func arrayItems(raw string) ([]string, error) {
	if items, ok := elements(raw); ok {
		return items, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &items); err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = string(it)
	}
	return out, nil
}

// Render writes [TOOL_CALLS][{"name": ..., "arguments": {...}}], the form
// of Mistral's v3 chat templates.
func (mistral) Render(c core.ToolCall) string {
	m := []string{ToolCallsTag, argsTag, callIDTag}
	return ToolCallsTag + "[{\"name\": " + jsonText(c.Name, false, m...) + ", \"arguments\": " +
		jsonText(argsOf(c), false, m...) + "}]"
}

// RenderResult writes [TOOL_RESULTS]{"content": ..., "call_id": ...}[/TOOL_RESULTS],
// the v3 form of Render's calls, as mistral_common encodes a tool message:
// a content that is JSON text is written as it is (as Mistral's chat
// templates write every content), any other content as a JSON string
// (where those templates would write it bare, which is not JSON). The
// call id is the call's, as a JSON string.
//
// JSON text that holds one of the format's markers (a string value
// "[/TOOL_RESULTS]") would end the block early: it is written again with
// the markers escaped inside its strings.
func (mistral) RenderResult(c core.ToolCall, content string) string {
	markers := []string{ToolCallsTag, resultsTag, resultsCloseTag}
	body := content
	if !isJSONText(content) {
		body = quoted(content, markers...)
	} else if containsAny(content, markers) {
		dec := json.NewDecoder(strings.NewReader(content))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			body = jsonText(v, false, markers...)
		} else {
			body = quoted(content, markers...)
		}
	}
	return resultsTag + "{\"content\": " + body + ", \"call_id\": " + quoted(c.ID, markers...) + "}" + resultsCloseTag
}

// RenderResults writes the results one after the other, as the templates do.
func (f mistral) RenderResults(results []Result) string { return joinResults(f, results, "") }

func (mistral) ResultHint(string) string { return "in " + resultsTag + resultsCloseTag + " blocks" }
