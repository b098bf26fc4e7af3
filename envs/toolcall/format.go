package toolcall

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// Format is the way one model family writes tool calls in its text.
type Format interface {
	// Name is the format's name ("hermes", "qwen3_coder", ...).
	Name() string
	// Parse returns the tool calls in text, in order, at most limit of
	// them; more reports that text holds further calls. Call ids are
	// idPrefix followed by the call's position ("call_1_0", ...). A block
	// that is not a well-formed call is a Call with Err.
	Parse(text, idPrefix string, limit int) (calls []Call, more bool)
	// Render is the text a model of the family writes for call.
	Render(call core.ToolCall) string
	// RenderResult is the text the family's chat template writes for the
	// tool message that answers call, whose content is content (the
	// output, or "Error: " and the message: Content). A turn header that
	// says no more than the role is left out with the turn's end; what
	// marks the text as a tool result, or names the call, is kept. The
	// content is written as the template writes it, unescaped.
	RenderResult(call core.ToolCall, content string) string
	// RenderResults is the text of one turn's results, in order, as the
	// template writes consecutive tool messages; "" for none.
	RenderResults(results []Result) string
	// ResultHint completes the sentence "its result comes back ..." for a
	// prompt that tells the model where the results of the tool named
	// tool appear, e.g. "in <tool_response></tool_response> tags".
	ResultHint(tool string) string
}

// Result is one tool result to render: the call it answers (formats that
// name the call write its ID or Name) and the content of its tool message.
type Result struct {
	Call    core.ToolCall
	Content string
}

// joinResults is RenderResults of a format whose template writes each
// result with f.RenderResult and puts sep between consecutive ones.
func joinResults(f Format, results []Result, sep string) string {
	switch len(results) {
	case 0:
		return ""
	case 1:
		return f.RenderResult(results[0].Call, results[0].Content)
	}
	var b strings.Builder
	for k, r := range results {
		if k > 0 {
			b.WriteString(sep)
		}
		b.WriteString(f.RenderResult(r.Call, r.Content))
	}
	return b.String()
}

// The names of the formats.
const (
	Hermes      = "hermes"
	Qwen3Coder  = "qwen3_coder"
	Llama3JSON  = "llama3_json"
	Mistral     = "mistral"
	GptOss      = "gpt_oss"
	DeepSeek    = "deepseek"
	DefaultName = Hermes
)

var formats = map[string]Format{
	Hermes:     hermes{},
	Qwen3Coder: qwen3Coder{},
	Llama3JSON: llama3JSON{},
	Mistral:    mistral{},
	GptOss:     gptOss{},
	DeepSeek:   deepSeek{},
}

// Names lists the formats, sorted.
func Names() []string {
	names := make([]string, 0, len(formats))
	for n := range formats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// FormatByName returns the format name; an unknown name is a
// *strictcfg.NotFoundError that lists the formats.
func FormatByName(name string) (Format, error) {
	if f, ok := formats[name]; ok {
		return f, nil
	}
	return nil, strictcfg.NotFound("tool-call format", name, "is not known", Names())
}

// detectMarkers maps the markers of a chat template to the format they
// imply, most specific first: Qwen3-Coder templates also hold <tool_call>.
var detectMarkers = []struct{ marker, format string }{
	{"<function=", Qwen3Coder},
	{"tool▁calls▁begin", DeepSeek},
	{"tool▁call▁begin", DeepSeek},
	{"[TOOL_CALLS]", Mistral},
	{"<|channel|>", GptOss},
	{"to=functions", GptOss},
	{"<|python_tag|>", Llama3JSON},
	{"ipython", Llama3JSON},
	{OpenTag, Hermes},
}

// DetectFormat names the format a chat template implies from the markers
// it holds; "" when it holds none.
func DetectFormat(chatTemplate string) string {
	for _, m := range detectMarkers {
		if strings.Contains(chatTemplate, m.marker) {
			return m.format
		}
	}
	return ""
}

// collector gathers the calls of one Parse up to its limit.
type collector struct {
	prefix string
	limit  int
	calls  []Call
}

// full reports that no further call may be added.
func (c *collector) full() bool { return len(c.calls) == c.limit }

// id is the id of the next call.
func (c *collector) id() string { return c.prefix + strconv.Itoa(len(c.calls)) }

// ok adds a well-formed call.
func (c *collector) ok(name string, args map[string]any) {
	c.calls = append(c.calls, Call{Call: core.ToolCall{ID: c.id(), Name: name, Arguments: args}})
}

// fail adds a malformed call named name ("" when unknown).
func (c *collector) fail(name, msg string) {
	c.calls = append(c.calls, Call{Call: core.ToolCall{ID: c.id(), Name: name, Arguments: map[string]any{}},
		Err: "malformed tool call: " + msg})
}

// add adds a call decoded by callObject.
func (c *collector) add(call Call) {
	call.Call.ID = c.id()
	c.calls = append(c.calls, call)
}

// callObject decodes a JSON object {"name": ..., argKey: {...}} (argKey
// the first of argKeys the object holds), the form of a call in the
// JSON-based formats; where names the format's block in errors.
func callObject(raw string, where string, argKeys ...string) Call {
	c := callMembersOf(raw, where, argKeys)
	if c.Call.Arguments == nil {
		c.Call.Arguments = map[string]any{}
	}
	return c
}

// callMembersOf is callObject, the arguments nil where the object gives none.
func callMembersOf(raw string, where string, argKeys []string) Call {
	var c Call
	var name, nameRaw string
	argRaws := make([]string, len(argKeys))
	held := 0 // a bit per argKeys entry the object holds
	ok := members(raw, func(key, value string) {
		if key == "name" {
			nameRaw = value
			return
		}
		for i, k := range argKeys {
			if key == k {
				argRaws[i], held = value, held|1<<i
			}
		}
	})
	if !ok {
		return callObjectSlow(raw, where, argKeys...)
	}
	if nameRaw != "" && nameRaw[0] == '"' {
		name, _, _ = readString(nameRaw, 0)
	}
	if name == "" {
		c.Err = "malformed tool call: the JSON object has no \"name\""
		return c
	}
	c.Call.Name = name
	for i := range argKeys {
		if held&(1<<i) != 0 {
			args, err := argumentsOf(argRaws[i])
			if err != nil {
				c.Err = err.Error()
				return c
			}
			c.Call.Arguments = args
			break
		}
	}
	return c
}

// callObjectSlow is callObject through encoding/json, for a raw that is not
// a well-formed object.
func callObjectSlow(raw string, where string, argKeys ...string) Call {
	c := Call{Call: core.ToolCall{Arguments: map[string]any{}}}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &obj); err != nil || obj == nil {
		c.Err = fmt.Sprintf("malformed tool call: %s is not a JSON object {\"name\": ..., \"%s\": {...}}",
			where, argKeys[0])
		return c
	}
	var name string
	if err := json.Unmarshal(obj["name"], &name); err != nil || name == "" {
		c.Err = "malformed tool call: the JSON object has no \"name\""
		return c
	}
	c.Call.Name = name
	for _, k := range argKeys {
		if v, ok := obj[k]; ok {
			args, err := Arguments(v)
			if err != nil {
				c.Err = err.Error()
				return c
			}
			c.Call.Arguments = args
			break
		}
	}
	return c
}

// nextValue reads the JSON value at the start of s (after spaces): the
// value's text and the rest of s after it.
func nextValue(s string) (string, string, error) {
	i := skipSpace(s, 0)
	if end, ok := skipValue(s, i, 0); ok {
		return s[i:end], s[end:], nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return "", s, err
	}
	return string(raw), s[dec.InputOffset():], nil
}

// arguments reads the JSON object at the start of s (after spaces) as a
// call's arguments: the arguments and the rest of s after it.
func arguments(s string) (map[string]any, string, error) {
	raw, rest, err := nextValue(s)
	if err != nil {
		return nil, s, fmt.Errorf("the arguments are not a JSON object (%v)", err)
	}
	args, err := argumentsOf(raw)
	if err != nil {
		return nil, rest, err
	}
	return args, rest, nil
}

// jsonText encodes v as JSON: Python's separators (", " and ": ") or
// compact ones, object keys sorted, "<", ">" and "&" as they are. When the
// text would hold one of markers, the characters "<", "[" and "｜" inside
// strings are written as \u escapes instead, so that no marker of a format
// appears inside a value.
func jsonText(v any, compact bool, markers ...string) string {
	var b strings.Builder
	writeJSON(&b, v, compact, false)
	plain := b.String()
	for _, m := range markers {
		if strings.Contains(plain, m) {
			b.Reset()
			writeJSON(&b, v, compact, true)
			return b.String()
		}
	}
	return plain
}

// quoted is jsonText of the string s, without its buffers when s is
// printable ASCII that needs no escape and holds none of markers.
func quoted(s string, markers ...string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return jsonText(s, false, markers...)
		}
	}
	for _, m := range markers {
		if strings.Contains(s, m) {
			return jsonText(s, false, markers...)
		}
	}
	return "\"" + s + "\""
}

// isJSONText reports whether s is one JSON value, white space around it
// allowed, as json.Valid does.
func isJSONText(s string) bool {
	end, ok := skipValue(s, skipSpace(s, 0), 0)
	return ok && skipSpace(s, end) == len(s)
}

var escaper = strings.NewReplacer("<", `\u003c`, "[", `\u005b`, "｜", `\uff5c`)

func writeJSON(b *strings.Builder, v any, compact, escape bool) {
	comma, colon := ", ", ": "
	if compact {
		comma, colon = ",", ":"
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		writeString(b, x, escape)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(comma)
			}
			writeString(b, k, escape)
			b.WriteString(colon)
			writeJSON(b, x[k], compact, escape)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(comma)
			}
			writeJSON(b, e, compact, escape)
		}
		b.WriteByte(']')
	default:
		raw, err := json.Marshal(x)
		if err != nil { // e.g. NaN, or a json.Number that is no number
			writeString(b, fmt.Sprint(x), escape)
			return
		}
		if len(raw) > 0 && raw[0] == '"' {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				writeString(b, s, escape)
				return
			}
		}
		b.Write(raw)
	}
}

func writeString(b *strings.Builder, s string, escape bool) {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	lit := strings.TrimSuffix(buf.String(), "\n")
	if escape {
		lit = escaper.Replace(lit)
	}
	b.WriteString(lit)
}

// argsOf is a call's arguments, {} when nil.
func argsOf(c core.ToolCall) map[string]any {
	if c.Arguments == nil {
		return map[string]any{}
	}
	return c.Arguments
}

// Parsed is what one text holds in a format: its calls in order (a
// malformed one has Err set) and whether calls beyond the limit were left
// unread.
type Parsed struct {
	Calls []Call
	More  bool
}

// ParseTexts reads each of texts in format f, at most limit calls each,
// in parallel for a large batch; the calls of text k have ids idPrefix + k
// + "_" + position.
func ParseTexts(f Format, texts []string, idPrefix string, limit int) []Parsed {
	out := make([]Parsed, len(texts))
	core.ParallelFor(len(texts), func(lo, hi int) {
		for k := lo; k < hi; k++ {
			out[k].Calls, out[k].More = f.Parse(texts[k], idPrefix+strconv.Itoa(k)+"_", limit)
		}
	})
	return out
}
