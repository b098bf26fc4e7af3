package toolcall

import (
	"strings"

	"github.com/llenvs/llenvs-go/core"
)

// The markers of the DeepSeek format.
const (
	dsCallsBegin = "<｜tool▁calls▁begin｜>"
	dsCallsEnd   = "<｜tool▁calls▁end｜>"
	dsCallBegin  = "<｜tool▁call▁begin｜>"
	dsCallEnd    = "<｜tool▁call▁end｜>"
	dsSep        = "<｜tool▁sep｜>"
	dsFence      = "```"
	// The markers of tool results.
	dsOutputsBegin = "<｜tool▁outputs▁begin｜>"
	dsOutputsEnd   = "<｜tool▁outputs▁end｜>"
	dsOutputBegin  = "<｜tool▁output▁begin｜>"
	dsOutputEnd    = "<｜tool▁output▁end｜>"
)

// deepSeek is the format of DeepSeek V3 and R1,
//
//	<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
//	```json
//	{...}
//	```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
// and of V3.1, <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}<｜tool▁call▁end｜>:
// after <｜tool▁sep｜>, "{" starts V3.1's arguments, anything else V3's
// name line.
type deepSeek struct{}

func (deepSeek) Name() string { return DeepSeek }

func (deepSeek) Parse(text, idPrefix string, limit int) ([]Call, bool) {
	c := &collector{prefix: idPrefix, limit: limit}
	rest := text
	for {
		i := strings.Index(rest, dsCallBegin)
		if i < 0 {
			return c.calls, false
		}
		if c.full() {
			return c.calls, true
		}
		rest = rest[i+len(dsCallBegin):]
		end := strings.Index(rest, dsCallEnd)
		if end < 0 {
			c.fail("", dsCallBegin+" has no closing "+dsCallEnd)
			return c.calls, false
		}
		body := rest[:end]
		rest = rest[end+len(dsCallEnd):]
		name, args, err := deepSeekCall(body)
		if err != "" {
			c.fail(name, err)
			continue
		}
		c.ok(name, args)
	}
}

// deepSeekCall reads the body of one call, between <｜tool▁call▁begin｜>
// and <｜tool▁call▁end｜>: the name, arguments, or an error message.
func deepSeekCall(body string) (string, map[string]any, string) {
	s := strings.Index(body, dsSep)
	if s < 0 {
		return "", nil, "the call has no " + dsSep
	}
	head, tail := strings.TrimSpace(body[:s]), body[s+len(dsSep):]
	var name, argText string
	v31 := false
	if t := strings.TrimLeft(tail, " \t\r\n"); strings.HasPrefix(t, "{") { // V3.1: NAME<sep>{...}
		name, argText, v31 = head, t, true
	} else { // V3: TYPE<sep>NAME\n```json\n{...}\n```
		nl := strings.IndexByte(tail, '\n')
		if nl < 0 {
			return strings.TrimSpace(tail), nil, "the function name is not followed by a ```json block of arguments"
		}
		name, argText = strings.TrimSpace(tail[:nl]), strings.TrimLeft(tail[nl+1:], " \t\r\n")
		if head != "function" {
			return name, nil, "the call type before " + dsSep + " must be \"function\", got " + quote(head, 40)
		}
		if !strings.HasPrefix(argText, dsFence) {
			return name, nil, "the function name is not followed by a ```json block of arguments"
		}
		argText = strings.TrimPrefix(argText[len(dsFence):], "json")
	}
	if name == "" {
		return "", nil, "the call has no function name"
	}
	args, after, err := arguments(argText)
	if err != nil {
		return name, nil, err.Error()
	}
	after = strings.TrimSpace(after)
	if !v31 {
		if !strings.HasPrefix(after, dsFence) {
			return name, nil, "the ```json block of arguments is not closed by ```"
		}
		after = strings.TrimSpace(after[len(dsFence):])
	}
	if after != "" {
		return name, nil, "extra text after the JSON arguments"
	}
	return name, args, ""
}

// Render writes one call in the V3/R1 form, as DeepSeek-V3's chat
// template does.
func (deepSeek) Render(c core.ToolCall) string {
	return dsCallsBegin + dsCallBegin + "function" + dsSep + c.Name + "\n" + dsFence + "json\n" +
		jsonText(argsOf(c), false, "｜") + "\n" + dsFence + dsCallEnd + dsCallsEnd
}

// RenderResult writes <｜tool▁output▁begin｜>content<｜tool▁output▁end｜>,
// as DeepSeek's chat templates write a tool message.
func (deepSeek) RenderResult(_ core.ToolCall, content string) string {
	return dsOutputBegin + content + dsOutputEnd
}

// RenderResults writes the outputs of one turn one a line inside
// <｜tool▁outputs▁begin｜>...<｜tool▁outputs▁end｜>, as DeepSeek-V3's and
// R1's chat templates do (V3.1's has no outer markers and no newlines).
func (f deepSeek) RenderResults(results []Result) string {
	switch len(results) {
	case 0:
		return ""
	case 1:
		return dsOutputsBegin + dsOutputBegin + results[0].Content + dsOutputEnd + dsOutputsEnd
	}
	return dsOutputsBegin + joinResults(f, results, "\n") + dsOutputsEnd
}

func (deepSeek) ResultHint(string) string {
	return "between " + dsOutputBegin + " and " + dsOutputEnd
}
