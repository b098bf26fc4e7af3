package toolcall

import (
	"strings"

	"github.com/llenvs/llenvs-go/core"
)

// The markers of the Llama 3 format.
const (
	PythonTag = "<|python_tag|>"
	eomID     = "<|eom_id|>"
	eotID     = "<|eot_id|>"
)

// llama3JSON is the JSON format of Llama 3.1 and later: a JSON object
// {"name": ..., "parameters": {...}} ("arguments" is read too), either
// after <|python_tag|> or as the whole message, several calls separated by
// ";". A message that starts with "{" is read as calls; so is the text
// after each <|python_tag|> (up to the next one or <|eom_id|>/<|eot_id|>).
type llama3JSON struct{}

func (llama3JSON) Name() string { return Llama3JSON }

func (llama3JSON) Parse(text, idPrefix string, limit int) ([]Call, bool) {
	c := &collector{prefix: idPrefix, limit: limit}
	if !strings.Contains(text, PythonTag) {
		if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") {
			return c.calls, llamaSegment(c, t)
		}
		return nil, false
	}
	rest := text
	for {
		i := strings.Index(rest, PythonTag)
		if i < 0 {
			return c.calls, false
		}
		rest = rest[i+len(PythonTag):]
		seg := rest
		if j := strings.Index(seg, PythonTag); j >= 0 {
			seg = seg[:j]
		}
		for _, end := range []string{eomID, eotID} {
			if j := strings.Index(seg, end); j >= 0 {
				seg = seg[:j]
			}
		}
		seg = strings.TrimSpace(seg)
		if seg == "" {
			continue
		}
		if c.full() {
			return c.calls, true
		}
		if llamaSegment(c, seg) {
			return c.calls, true
		}
	}
}

// llamaSegment reads the calls of seg, a non-empty text of calls separated
// by ";"; it reports whether calls were left unread for the limit.
func llamaSegment(c *collector, seg string) (more bool) {
	for {
		if c.full() {
			return true
		}
		raw, rest, err := nextValue(seg)
		if err != nil {
			c.fail("", "the call is not a JSON object {\"name\": ..., \"parameters\": {...}} ("+err.Error()+")")
			return false
		}
		c.add(callObject(raw, "the call", "parameters", "arguments"))
		rest = strings.TrimSpace(rest)
		if rest == "" {
			return false
		}
		if rest[0] != ';' {
			if c.full() {
				return true
			}
			c.fail("", "calls must be separated by \";\", got "+quote(rest, 40))
			return false
		}
		seg = strings.TrimSpace(rest[1:])
		if seg == "" {
			return false
		}
	}
}

// quote is s, cut to n bytes, as a JSON string.
func quote(s string, n int) string {
	if len(s) > n {
		s = s[:n] + "..."
	}
	return jsonText(s, true)
}

// Render writes {"name": ..., "parameters": {...}}, the form of Llama 3.1's
// chat template for custom tools.
func (llama3JSON) Render(c core.ToolCall) string {
	return "{\"name\": " + jsonText(c.Name, false, PythonTag, eomID, eotID) + ", \"parameters\": " +
		jsonText(argsOf(c), false, PythonTag, eomID, eotID) + "}"
}

// RenderResult writes content as it is: the body of the ipython turn that
// carries a tool result, as Meta's reference chat format writes it. The
// turn's header (<|start_header_id|>ipython<|end_header_id|>) and its
// <|eot_id|> are the chat template's, like every role's header, and are
// left out. Hugging Face's Llama 3.1 template writes a string content
// JSON-encoded ("42" with its quotes); a Llama 3 template without an
// ipython role writes it under a "tool" header.
func (llama3JSON) RenderResult(_ core.ToolCall, content string) string { return content }

// RenderResults writes the results one a line (the chat template gives
// each its own ipython turn).
func (f llama3JSON) RenderResults(results []Result) string { return joinResults(f, results, "\n") }

func (llama3JSON) ResultHint(string) string { return "in the ipython (tool) turn after your call" }
