package toolcall

import (
	"sort"
	"strings"

	"github.com/llenvs/llenvs-go/core"
)

// The tags of the Qwen3-Coder format.
const (
	qcFunction      = "<function="
	qcFunctionClose = "</function>"
	qcParam         = "<parameter="
	qcParamClose    = "</parameter>"
)

// qwen3Coder is the XML format of Qwen3-Coder and Qwen3.5:
//
//	<tool_call>
//	<function=NAME>
//	<parameter=ARG>
//	VALUE
//	</parameter>
//	</function>
//	</tool_call>
//
// A value is text: one newline after the opening tag and one before the
// closing tag belong to the layout; the rest is read as JSON when it is a
// JSON value, and kept as a string otherwise. A <function=...> block
// without the <tool_call> tags around it is read as well.
type qwen3Coder struct{}

func (qwen3Coder) Name() string { return Qwen3Coder }

func (qwen3Coder) Parse(text, idPrefix string, limit int) ([]Call, bool) {
	c := &collector{prefix: idPrefix, limit: limit}
	rest := text
	for {
		i, j := strings.Index(rest, OpenTag), strings.Index(rest, qcFunction)
		if i < 0 && j < 0 {
			return c.calls, false
		}
		if c.full() {
			return c.calls, true
		}
		if i >= 0 && (j < 0 || i < j) { // a <tool_call> block
			rest = rest[i+len(OpenTag):]
			end := strings.Index(rest, CloseTag)
			if end < 0 {
				c.fail("", OpenTag+" has no closing "+CloseTag)
				return c.calls, false
			}
			body := strings.TrimSpace(rest[:end])
			rest = rest[end+len(CloseTag):]
			if !strings.HasPrefix(body, qcFunction) {
				c.fail("", "a "+OpenTag+" block must hold one <function=NAME> ... "+qcFunctionClose)
				continue
			}
			name, args, after, err := qcFunctionBlock(body[len(qcFunction):])
			switch {
			case err != "":
				c.fail(name, err)
			case strings.TrimSpace(after) != "":
				c.fail(name, "extra text after "+qcFunctionClose+" inside "+OpenTag)
			default:
				c.ok(name, args)
			}
			continue
		}
		rest = rest[j+len(qcFunction):] // a bare <function=...> block
		name, args, after, err := qcFunctionBlock(rest)
		if err != "" {
			c.fail(name, err)
			end := strings.Index(rest, qcFunctionClose)
			if end < 0 {
				return c.calls, false
			}
			rest = rest[end+len(qcFunctionClose):]
			continue
		}
		c.ok(name, args)
		rest = after
	}
}

// qcFunctionBlock reads "NAME>" and the parameters up to </function> from
// s (which follows "<function="): the name, arguments, the text after the
// block, or an error message.
func qcFunctionBlock(s string) (name string, args map[string]any, after string, errMsg string) {
	gt := strings.IndexByte(s, '>')
	if gt < 0 {
		return "", nil, "", qcFunction + " has no closing '>'"
	}
	name = strings.TrimSpace(s[:gt])
	if name == "" || strings.ContainsAny(name, "<\n") {
		return "", nil, "", "<function=NAME> has no valid name"
	}
	rest := s[gt+1:]
	args = map[string]any{}
	for {
		rest = strings.TrimLeft(rest, " \t\r\n")
		switch {
		case strings.HasPrefix(rest, qcFunctionClose):
			return name, args, rest[len(qcFunctionClose):], ""
		case strings.HasPrefix(rest, qcParam):
			rest = rest[len(qcParam):]
			gt := strings.IndexByte(rest, '>')
			if gt < 0 {
				return name, nil, "", qcParam + " has no closing '>'"
			}
			key := strings.TrimSpace(rest[:gt])
			if key == "" || strings.ContainsAny(key, "<\n") {
				return name, nil, "", "<parameter=NAME> has no valid name"
			}
			rest = rest[gt+1:]
			end := strings.Index(rest, qcParamClose)
			if end < 0 {
				return name, nil, "", "<parameter=" + key + "> has no closing " + qcParamClose
			}
			if _, dup := args[key]; dup {
				return name, nil, "", "parameter \"" + key + "\" is given twice"
			}
			args[key] = qcValue(qcStrip(rest[:end]))
			rest = rest[end+len(qcParamClose):]
		case rest == "":
			return name, nil, "", "<function=" + name + "> has no closing " + qcFunctionClose
		default:
			return name, nil, "", "inside <function=" + name + "> only <parameter=NAME> blocks may appear"
		}
	}
}

// qcStrip removes the newline after <parameter=...> and the one before
// </parameter>.
func qcStrip(v string) string {
	v = strings.TrimPrefix(v, "\n")
	return strings.TrimSuffix(v, "\n")
}

// qcValue is a parameter's value: the JSON value v holds, or v itself.
func qcValue(v string) any {
	x, end, ok := readValue(v, skipSpace(v, 0), 0)
	if !ok || strings.TrimSpace(v[end:]) != "" {
		return v
	}
	return x
}

// Render writes the block as the Qwen3-Coder chat template does, one
// parameter per argument in sorted order. A string is written as it is
// unless it would read back as another value (e.g. "5") or holds a tag of
// the format: then it is written as a JSON string; other values are JSON.
func (qwen3Coder) Render(c core.ToolCall) string {
	args := argsOf(c)
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(OpenTag + "\n" + qcFunction + c.Name + ">\n")
	markers := []string{qcParamClose, qcFunctionClose, CloseTag}
	for _, k := range keys {
		v := args[k]
		text := ""
		if s, ok := v.(string); ok && !containsAny(s, markers) {
			if back, ok := qcValue(s).(string); ok && back == s {
				text = s
			}
		}
		if text == "" {
			text = jsonText(v, false, markers...)
		}
		b.WriteString(qcParam + k + ">\n" + text + "\n" + qcParamClose + "\n")
	}
	b.WriteString(qcFunctionClose + "\n" + CloseTag)
	return b.String()
}

func containsAny(s string, subs []string) bool {
	for _, m := range subs {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// RenderResult writes "<tool_response>\n" + content + "\n</tool_response>",
// as the Qwen3-Coder chat template writes a tool message inside its user
// turn (it ends each with a newline, which joins consecutive results).
func (qwen3Coder) RenderResult(_ core.ToolCall, content string) string {
	return hermes{}.RenderResult(core.ToolCall{}, content)
}

// RenderResults writes the results one a line, as the template does.
func (f qwen3Coder) RenderResults(results []Result) string { return joinResults(f, results, "\n") }

func (qwen3Coder) ResultHint(tool string) string { return hermes{}.ResultHint(tool) }
