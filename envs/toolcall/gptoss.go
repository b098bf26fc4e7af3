package toolcall

import (
	"strings"

	"github.com/llenvs/llenvs-go/core"
)

// The markers of the harmony format.
const (
	hStart     = "<|start|>"
	hChannel   = "<|channel|>"
	hMessage   = "<|message|>"
	hCall      = "<|call|>"
	hEnd       = "<|end|>"
	hReturn    = "<|return|>"
	hConstrain = "<|constrain|>"
	hRecipient = "to="
	hFunctions = "functions."
)

// gptOss is the harmony format of gpt-oss: a message whose header names a
// recipient, e.g.
//
//	<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}<|call|>
//
// optionally after <|start|>assistant, with the recipient before or after
// <|channel|>. Messages without a recipient (analysis, final) are not
// calls; a recipient without "functions." (a built-in tool) is the call's
// name as written. A missing <|call|> at the end of the text is accepted
// (it is often the stop token).
type gptOss struct{}

func (gptOss) Name() string { return GptOss }

func (gptOss) Parse(text, idPrefix string, limit int) ([]Call, bool) {
	c := &collector{prefix: idPrefix, limit: limit}
	pos := 0
	for {
		m := strings.Index(text[pos:], hMessage)
		if m < 0 {
			return c.calls, false
		}
		m += pos
		header, ok := harmonyHeader(text[pos:m])
		bodyAt := m + len(hMessage)
		name, isCall := harmonyRecipient(header)
		if !ok || !isCall {
			pos = bodyAt
			continue
		}
		if c.full() {
			return c.calls, true
		}
		next := harmonyBoundary(text, bodyAt)
		if name == "" {
			c.fail("", "the recipient \"to=\" names no function")
			pos = next
			continue
		}
		args, rest, err := arguments(text[bodyAt:])
		if err != nil {
			c.fail(name, err.Error())
			pos = next
			continue
		}
		after := len(text) - len(rest)
		tail := strings.TrimLeft(rest, " \t\r\n")
		switch {
		case tail == "":
			pos = len(text)
		case strings.HasPrefix(tail, hCall):
			pos = len(text) - len(tail) + len(hCall)
		case strings.HasPrefix(tail, hEnd), strings.HasPrefix(tail, hStart), strings.HasPrefix(tail, hReturn):
			pos = len(text) - len(tail)
		default:
			c.fail(name, "extra text after the JSON arguments, before "+hCall)
			pos = max(after, harmonyBoundary(text, after))
			continue
		}
		c.ok(name, args)
	}
}

// harmonyHeader is the header of the message whose <|message|> ends
// before: the text after the last <|start|>, or else from the last
// <|channel|> (with a recipient just before it), after any earlier
// message; ok is false when before holds neither.
func harmonyHeader(before string) (string, bool) {
	cut := 0
	for _, b := range []string{hEnd, hCall, hReturn} {
		if i := strings.LastIndex(before, b); i >= 0 && i+len(b) > cut {
			cut = i + len(b)
		}
	}
	before = before[cut:]
	if i := strings.LastIndex(before, hStart); i >= 0 {
		return before[i+len(hStart):], true
	}
	if i := strings.LastIndex(before, hChannel); i >= 0 {
		// A completion of "<|start|>assistant" may open with the recipient:
		// " to=functions.NAME<|channel|>commentary json<|message|>".
		pre := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(before[:i]), "assistant"))
		if strings.HasPrefix(pre, hRecipient) && !strings.ContainsAny(pre, " \t\r\n") {
			return pre + " " + before[i:], true
		}
		return before[i:], true
	}
	return "", false
}

// harmonyRecipient reads "to=NAME" from a header: NAME without its
// "functions." namespace, and whether the header names a recipient.
func harmonyRecipient(header string) (string, bool) {
	i := strings.Index(header, hRecipient)
	for i > 0 && !strings.ContainsRune(" \t\n>", rune(header[i-1])) {
		j := strings.Index(header[i+1:], hRecipient)
		if j < 0 {
			return "", false
		}
		i += 1 + j
	}
	if i < 0 {
		return "", false
	}
	r := header[i+len(hRecipient):]
	if j := strings.IndexAny(r, " \t\r\n<"); j >= 0 {
		r = r[:j]
	}
	return strings.TrimPrefix(r, hFunctions), true
}

// harmonyBoundary is the position after the message that starts at from:
// after its <|call|>, or at the next <|end|>, <|start|> or <|return|>, or
// the end of text.
func harmonyBoundary(text string, from int) int {
	best, end := len(text), len(text)
	for _, b := range []string{hCall, hEnd, hStart, hReturn} {
		if i := strings.Index(text[from:], b); i >= 0 && from+i < best {
			best, end = from+i, from+i
			if b == hCall {
				end += len(hCall)
			}
		}
	}
	return end
}

// Render writes the message gpt-oss writes after <|start|>assistant:
// <|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}<|call|>.
func (gptOss) Render(c core.ToolCall) string {
	return hChannel + "commentary " + hRecipient + hFunctions + c.Name + " " + hConstrain + "json" + hMessage +
		jsonText(argsOf(c), true, "<|") + hCall
}

// RenderResult writes the harmony message a tool's result is:
// <|start|>functions.NAME to=assistant<|channel|>commentary<|message|>content<|end|>,
// NAME the call's name, the content as it is: what openai-harmony's
// renderer writes for a tool message. Hugging Face's gpt-oss template
// writes the content JSON-encoded ("42" with its quotes) and names every
// tool message after the turn's last call.
func (gptOss) RenderResult(c core.ToolCall, content string) string {
	return hStart + hFunctions + c.Name + " " + hRecipient + "assistant" + hChannel + "commentary" + hMessage +
		content + hEnd
}

// RenderResults writes the results' messages one after the other.
func (f gptOss) RenderResults(results []Result) string { return joinResults(f, results, "") }

func (gptOss) ResultHint(tool string) string {
	return "in a commentary message from " + hFunctions + tool
}
