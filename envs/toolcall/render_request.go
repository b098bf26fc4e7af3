package toolcall

import (
	"errors"
	"fmt"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// RenderRequest asks for the text of one tool call, or of one turn's tool
// results, as a format writes it: exactly one of Call and Results is set.
type RenderRequest struct {
	// Format names the format (required: "" is not a format's name).
	Format string `json:"format"`
	// Call is the call to render as the family's model writes it.
	Call *core.ToolCall `json:"call"`
	// Results are the results of one turn, in order; each is rendered with
	// the content its tool message holds (Content).
	Results []core.ToolResult `json:"results"`
}

// maxRenderResults bounds the results of one RenderRequest.
const maxRenderResults = 1 << 12

// DecodeRenderRequest strictly decodes a RenderRequest from its JSON form.
func DecodeRenderRequest(raw map[string]any) (RenderRequest, error) {
	var r RenderRequest
	if err := strictcfg.Decode("render_tool_text request", raw, &r); err != nil {
		return r, err
	}
	switch {
	case r.Call == nil && r.Results == nil:
		return r, errors.New("render_tool_text request: give \"call\" (one tool call) or \"results\" (one turn's " +
			"tool results)")
	case r.Call != nil && r.Results != nil:
		return r, errors.New("render_tool_text request: give \"call\" or \"results\", not both")
	case len(r.Results) > maxRenderResults:
		return r, fmt.Errorf("render_tool_text request: at most %d results, got %d", maxRenderResults, len(r.Results))
	}
	if r.Call != nil && !ValidToolName(r.Call.Name) {
		return r, fmt.Errorf("render_tool_text request: call name %q is not a tool name: use 1 to %d letters, "+
			"digits, '_' or '-' (every format writes and reads such names)", r.Call.Name, maxToolName)
	}
	for k, res := range r.Results {
		switch res.Status {
		case core.ToolSuccess, core.ToolError, core.ToolInvalidTool, core.ToolInvalidArguments:
		default:
			return r, fmt.Errorf("render_tool_text request: results[%d]: status must be one of success, error, "+
				"invalid_tool, invalid_arguments; got %q", k, res.Status)
		}
	}
	return r, nil
}

// maxToolName is the longest tool name ValidToolName accepts (OpenAI's
// function-name limit).
const maxToolName = 64

// ValidToolName reports whether name is a tool name every format writes in
// a way its Parse reads back: 1 to 64 ASCII letters, digits, '_' or '-'.
func ValidToolName(name string) bool {
	if name == "" || len(name) > maxToolName {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// RenderText is the text r asks for: r.Call as the format's model writes
// it, or r.Results as the format's chat template writes one turn's tool
// messages ("" for no results).
func RenderText(r RenderRequest) (string, error) {
	f, err := FormatByName(r.Format)
	if err != nil {
		return "", err
	}
	if r.Call != nil {
		return f.Render(*r.Call), nil // every Render writes nil arguments as {}
	}
	results := make([]Result, len(r.Results))
	for k, res := range r.Results {
		results[k] = Result{Call: core.ToolCall{ID: res.CallID, Name: res.ToolName}, Content: Content(res)}
	}
	return f.RenderResults(results), nil
}
