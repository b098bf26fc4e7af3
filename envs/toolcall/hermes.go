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

// RenderResult writes "<tool_response>\n" + content + "\n</tool_response>",
// as Qwen's chat templates write a tool message inside their user turn.
func (hermes) RenderResult(_ core.ToolCall, content string) string {
	return ResponseOpenTag + "\n" + content + "\n" + ResponseCloseTag
}

// RenderResults writes the results one a line, as Qwen's templates do.
func (f hermes) RenderResults(results []Result) string { return joinResults(f, results, "\n") }

func (hermes) ResultHint(string) string {
	return "in " + ResponseOpenTag + ResponseCloseTag + " tags"
}
