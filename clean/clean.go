// Package clean holds llenvs' text cleaners: pre-cleaners applied to a
// response before extraction (strip_special_tokens, strip_thinking_tokens)
// and post-cleaners applied to an extracted answer (strip_trailing_punctuation
// and others), resolved by name from a configuration.
package clean

import (
	"fmt"
	"sort"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// Cleaner transforms text: a pre-cleaner the response before extraction, a
// post-cleaner the extracted answer. Cleaners are pure and safe for
// concurrent use.
type Cleaner func(string) string

// The cleaners of llenvs' cleaning module, by the names configs use.
var (
	preCleaners = map[string]Cleaner{
		"strip_special_tokens":  StripSpecialTokens,
		"strip_thinking_tokens": StripThinkingTokens,
	}
	postCleaners = map[string]Cleaner{
		"strip_trailing_punctuation": StripTrailingPunctuation,
		"strip_surrounding_quotes":   StripSurroundingQuotes,
		"strip_latex_dollars":        StripLatexDollars,
	}
	// cleanerFactories build the parameterised cleaners, written as
	// {"type": name, "config": {...}} in either list.
	cleanerFactories = map[string]func(what string, cfg map[string]any) (Cleaner, error){
		"truncate_tail": func(what string, cfg map[string]any) (Cleaner, error) {
			c := struct {
				MaxChars int `json:"max_chars"`
			}{256}
			if err := strictcfg.Decode(what, cfg, &c); err != nil {
				return nil, err
			}
			if c.MaxChars < 1 {
				return nil, fmt.Errorf("%s: field \"max_chars\": want at least 1, got %d", what, c.MaxChars)
			}
			return TruncateTail(c.MaxChars), nil
		},
		"take_first_nonempty_line": func(what string, cfg map[string]any) (Cleaner, error) {
			c := struct {
				MaxChars *int `json:"max_chars"`
			}{}
			if err := strictcfg.Decode(what, cfg, &c); err != nil {
				return nil, err
			}
			if c.MaxChars == nil {
				return TakeFirstNonemptyLine(0), nil
			}
			if *c.MaxChars < 1 {
				return nil, fmt.Errorf("%s: field \"max_chars\": want at least 1 (or null for the whole line), got %d",
					what, *c.MaxChars)
			}
			return TakeFirstNonemptyLine(*c.MaxChars), nil
		},
	}
)

// Names lists the cleaners of kind "pre" or "post" that are written
// as plain names, sorted; nil for any other kind.
func Names(kind string) []string {
	var reg map[string]Cleaner
	switch kind {
	case "pre":
		reg = preCleaners
	case "post":
		reg = postCleaners
	default:
		return nil
	}
	return sortedKeys(reg)
}

// ParameterizedNames lists the cleaners written as a mapping
// {"type": name, "config": {...}}, sorted.
func ParameterizedNames() []string { return sortedKeys(cleanerFactories) }

func sortedKeys[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Resolve builds the cleaners a pre_cleaners (kind "pre") or
// post_cleaners (kind "post") list names, in order. Each entry is a
// cleaner name or a mapping {"type": "truncate_tail", "config": {...}}.
// Errors name the entry's position and list what is available.
func Resolve(kind string, specs []any) ([]Cleaner, error) {
	var reg, other map[string]Cleaner
	switch kind {
	case "pre":
		reg, other = preCleaners, postCleaners
	case "post":
		reg, other = postCleaners, preCleaners
	default:
		return nil, fmt.Errorf("invalid cleaner kind %q: must be \"pre\" or \"post\"", kind)
	}
	out := make([]Cleaner, 0, len(specs))
	for i, e := range specs {
		what := fmt.Sprintf("%s_cleaners[%d]", kind, i)
		switch v := e.(type) {
		case string:
			c, ok := reg[v]
			if !ok {
				return nil, unknownCleanerError(what, kind, v, reg, other)
			}
			out = append(out, c)
		case map[string]any:
			var s struct {
				Type   *string        `json:"type"`
				Config map[string]any `json:"config"`
			}
			if err := strictcfg.Decode(what, v, &s); err != nil {
				return nil, err
			}
			if s.Type == nil {
				return nil, fmt.Errorf("%s: \"type\" is required (one of: %s)", what, pycompat.ReprStrings(ParameterizedNames()))
			}
			f, ok := cleanerFactories[*s.Type]
			if !ok {
				msg := fmt.Sprintf("%s: unknown parameterized cleaner %s", what, pycompat.Repr(*s.Type))
				if _, plain := reg[*s.Type]; plain {
					msg += "; it takes no config, write it as a plain name"
				} else if near := strictcfg.Nearest(*s.Type, ParameterizedNames()); near != "" {
					msg += fmt.Sprintf("; did you mean %s?", pycompat.Repr(near))
				}
				return nil, fmt.Errorf("%s. Available: %s", msg, pycompat.ReprStrings(ParameterizedNames()))
			}
			if s.Config == nil {
				s.Config = map[string]any{}
			}
			c, err := f(what+" "+*s.Type+" config", s.Config)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		default:
			return nil, fmt.Errorf("%s: want a cleaner name or a mapping {\"type\": ..., \"config\": {...}}, got %s", what, strictcfg.Describe(e))
		}
	}
	return out, nil
}

func unknownCleanerError(what, kind, name string, reg, other map[string]Cleaner) error {
	msg := fmt.Sprintf("%s: unknown %s-cleaner %s", what, kind, pycompat.Repr(name))
	if _, ok := other[name]; ok {
		otherKind := "post"
		if kind == "post" {
			otherKind = "pre"
		}
		msg += fmt.Sprintf("; it is a %s-cleaner, list it in %s_cleaners", otherKind, otherKind)
	} else if _, ok := cleanerFactories[name]; ok {
		msg += fmt.Sprintf("; it takes a config, write it as {'type': %s, 'config': {...}}", pycompat.Repr(name))
	} else if near := strictcfg.Nearest(name, sortedKeys(reg)); near != "" {
		msg += fmt.Sprintf("; did you mean %s?", pycompat.Repr(near))
	}
	return fmt.Errorf("%s. Available: %s (and, as a mapping, %s)", msg, pycompat.ReprStrings(sortedKeys(reg)),
		pycompat.ReprStrings(ParameterizedNames()))
}

// specialTokens are the tokens StripSpecialTokens removes.
var specialTokens = []string{"<|endoftext|>", "<|im_end|>", "<|im_start|>", "<pad>", "</s>", "<s>"}

// StripSpecialTokens is the pre-cleaner strip_special_tokens: it removes
// every <|endoftext|>, <|im_end|>, <|im_start|>, <pad>, </s> and <s> in one
// left-to-right pass (text that a removal brings together is not scanned
// again). Other tokens, such as <|eot_id|>, stay.
func StripSpecialTokens(s string) string {
	i := strings.IndexByte(s, '<')
	if i < 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for i >= 0 {
		n := 0
		for _, t := range specialTokens {
			if strings.HasPrefix(s[i:], t) {
				n = len(t)
				break
			}
		}
		if n > 0 {
			if last == 0 {
				b.Grow(len(s))
			}
			b.WriteString(s[last:i])
			i += n
			last = i
		} else {
			i++
		}
		k := strings.IndexByte(s[i:], '<')
		if k < 0 {
			break
		}
		i += k
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// StripThinkingTokens is the pre-cleaner strip_thinking_tokens. It removes
// the closed <think>…</think> blocks, then an unclosed <think> and
// everything after it; then, if a </think> remains without any <think>
// (the opening tag was in the prompt), everything up to and including the
// first </think>. Tags are matched case-sensitively.
func StripThinkingTokens(s string) string {
	const open, close = "<think>", "</think>"
	if strings.Contains(s, open) {
		var b strings.Builder
		last := 0
		for pos := 0; ; {
			i := strings.Index(s[pos:], open)
			if i < 0 {
				break
			}
			i += pos
			j := strings.Index(s[i+len(open):], close)
			if j < 0 {
				break
			}
			j += i + len(open)
			b.WriteString(s[last:i])
			last = j + len(close)
			pos = last
		}
		if last > 0 {
			b.WriteString(s[last:])
			s = b.String()
		}
		if i := strings.Index(s, open); i >= 0 {
			s = s[:i]
		}
	}
	if i := strings.Index(s, close); i >= 0 && !strings.Contains(s, open) {
		s = s[i+len(close):]
	}
	return s
}

// StripTrailingPunctuation is the post-cleaner strip_trailing_punctuation:
// it removes one trailing "." or ",". ("42." gives "42", "3.14" stays;
// llenvs' exception for decimal numbers can never apply to a text that
// ends in punctuation.)
func StripTrailingPunctuation(s string) string {
	if n := len(s); n > 0 && (s[n-1] == '.' || s[n-1] == ',') {
		return s[:n-1]
	}
	return s
}

// StripSurroundingQuotes is the post-cleaner strip_surrounding_quotes: it
// removes one pair of quotes when the text is at least two characters
// long and starts and ends with the same quote, " or '.
func StripSurroundingQuotes(s string) string {
	if n := len(s); n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n-1] == s[0] {
		return s[1 : n-1]
	}
	return s
}

// StripLatexDollars is the post-cleaner strip_latex_dollars: $$x$$ gives
// x, then $x$ gives x when x holds no "$"; x must not be empty. As with
// Python's "$", one newline after the closing dollars is allowed, and
// dropped.
func StripLatexDollars(s string) string {
	if inner, ok := betweenDelims(s, "$$"); ok {
		return inner
	}
	if inner, ok := betweenDelims(s, "$"); ok && !strings.Contains(inner, "$") {
		return inner
	}
	return s
}

// betweenDelims returns x when s is d+x+d or d+x+d+"\n" with x not empty.
func betweenDelims(s, d string) (string, bool) {
	if !strings.HasPrefix(s, d) {
		return "", false
	}
	body := s[len(d):]
	switch {
	case strings.HasSuffix(body, d):
		body = body[:len(body)-len(d)]
	case strings.HasSuffix(body, d+"\n"):
		body = body[:len(body)-len(d)-1]
	default:
		return "", false
	}
	return body, body != ""
}

// TruncateTail returns the parameterised cleaner truncate_tail: it strips
// the text, then keeps its last maxChars code points.
func TruncateTail(maxChars int) Cleaner {
	return func(s string) string {
		t, _ := pycompat.Tail(pycompat.Strip(s), maxChars)
		return t
	}
}

// TakeFirstNonemptyLine returns the parameterised cleaner
// take_first_nonempty_line: the first line (as str.splitlines() splits)
// that is not blank, stripped, cut to its first maxChars code points when
// maxChars > 0; "" when every line is blank. It turns a chatty response
// into the one command a text environment reads.
func TakeFirstNonemptyLine(maxChars int) Cleaner {
	return func(s string) string {
		for _, line := range pycompat.SplitLines(s) {
			if line = pycompat.Strip(line); line != "" {
				return head(line, maxChars)
			}
		}
		return ""
	}
}

// head is the first n code points of s (all of s when n <= 0); a
// surrogatepass-encoded surrogate is one code point.
func head(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, w := pycompat.DecodeRune(s[i:])
		i += w
	}
	return s[:i]
}
