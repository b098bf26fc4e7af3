package toolcall

import "github.com/llenvs/llenvs-go/core"

// hermes is the Hermes/Qwen format: each call is a JSON object
// {"name": ..., "arguments": {...}} inside <tool_call></tool_call> tags.
type hermes struct{}

func (hermes) Name() string { return Hermes }

func (hermes) Parse(text, idPrefix string, limit int) ([]Call, bool) {
	return Parse(text, idPrefix, limit)
}

// Render writes "<tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call>",
// as Qwen's chat templates do.
func (hermes) Render(c core.ToolCall) string {
	return OpenTag + "\n{\"name\": " + jsonText(c.Name, false, CloseTag) + ", \"arguments\": " +
		jsonText(argsOf(c), false, CloseTag) + "}\n" + CloseTag
}
