package extract

import (
	"fmt"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// LastLine is llenvs' last_line extractor: the last line that is
// not empty after stripping, stripped; nothing for empty or
// whitespace-only text. Lines are split on "\n" only, as Python's
// str.split("\n") does.
type LastLine struct{}

// Raw is llenvs' raw extractor: the whole response, optionally
// stripped. It always succeeds.
type Raw struct {
	Strip bool
}

// Tail is llenvs' tail extractor: the last MaxChars code points
// of the (optionally stripped) response. It always succeeds.
type Tail struct {
	MaxChars int
	Strip    bool
}

func init() {
	Register("last_line", func(cfg map[string]any) (Extractor, error) {
		if err := strictcfg.Decode("last_line extractor config", cfg, &struct{}{}); err != nil {
			return nil, err
		}
		return LastLine{}, nil
	})
	Register("raw", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			StripWhitespace bool `json:"strip_whitespace"`
		}{true}
		if err := strictcfg.Decode("raw extractor config", cfg, &c); err != nil {
			return nil, err
		}
		return &Raw{Strip: c.StripWhitespace}, nil
	})
	Register("tail", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			MaxChars        int  `json:"max_chars"`
			StripWhitespace bool `json:"strip_whitespace"`
		}{256, true}
		if err := strictcfg.Decode("tail extractor config", cfg, &c); err != nil {
			return nil, err
		}
		if c.MaxChars < 1 {
			return nil, fmt.Errorf("tail extractor config: field \"max_chars\": want at least 1, got %d", c.MaxChars)
		}
		return &Tail{MaxChars: c.MaxChars, Strip: c.StripWhitespace}, nil
	})
}

// Name is "last_line".
func (LastLine) Name() string { return "last_line" }

// Extract returns the last non-blank line; NumMatches is the number of
// non-blank lines (llenvs' num_lines).
func (LastLine) Extract(text string) Extraction {
	var x Extraction
	start, blank := 0, true
	for i := 0; i <= len(text); {
		if i == len(text) || text[i] == '\n' {
			if !blank {
				x.NumMatches++
				x.MatchStart, x.MatchEnd = start, i
			}
			i++
			start, blank = i, true
			continue
		}
		if !blank {
			// The rest of this line cannot change anything: skip to its end.
			if k := strings.IndexByte(text[i:], '\n'); k >= 0 {
				i += k
			} else {
				i = len(text)
			}
			continue
		}
		r, w := runeAt(text, i)
		if !pycompat.IsSpace(r) {
			blank = false
		}
		i += w
	}
	if x.NumMatches == 0 {
		return Extraction{}
	}
	x.Found = true
	x.Answer = pycompat.Strip(text[x.MatchStart:x.MatchEnd])
	return x
}

// Describe renders llenvs' last_line metadata.
func (LastLine) Describe(x Extraction) map[string]any {
	if !x.Found {
		return map[string]any{"found": false, "format": "last_line"}
	}
	return map[string]any{"found": true, "format": "last_line", "num_lines": x.NumMatches}
}

// Name is "raw".
func (r *Raw) Name() string { return "raw" }

// Extract returns the whole response.
func (r *Raw) Extract(text string) Extraction {
	x := Extraction{Found: true, Answer: text, MatchEnd: len(text), NumMatches: 1}
	if r.Strip {
		x.Answer, x.MatchStart, x.MatchEnd = stripSpan(text)
	}
	return x
}

// stripSpan is pycompat.Strip(s) with the byte offsets of the result in s.
func stripSpan(s string) (string, int, int) {
	start := len(s) - len(strings.TrimLeftFunc(s, pycompat.IsSpace))
	t := strings.TrimRightFunc(s[start:], pycompat.IsSpace)
	return t, start, start + len(t)
}

// Describe renders llenvs' raw metadata.
func (r *Raw) Describe(x Extraction) map[string]any {
	if !x.Found {
		return map[string]any{"found": false, "format": "raw"}
	}
	return map[string]any{"found": true, "format": "raw", "is_full_response": true}
}

// The Extra keys of a tail extraction: the response's length in code
// points and whether the tail is shorter than the (stripped) response.
const (
	tailLengthKey    = "original_length"
	tailTruncatedKey = "truncated"
)

// Name is "tail".
func (t *Tail) Name() string { return "tail" }

// Extract returns the last MaxChars code points; Extra holds the original
// length of the response in code points and whether anything was cut.
func (t *Tail) Extract(text string) Extraction {
	content, end := text, len(text)
	if t.Strip {
		content, _, end = stripSpan(text)
	}
	tail, truncated := pycompat.Tail(content, t.MaxChars)
	return Extraction{Found: true, Answer: tail, MatchStart: end - len(tail), MatchEnd: end,
		NumMatches: 1, Extra: map[string]any{tailLengthKey: pycompat.Len(text), tailTruncatedKey: truncated}}
}

// Describe renders llenvs' tail metadata.
func (t *Tail) Describe(x Extraction) map[string]any {
	if !x.Found {
		return map[string]any{"found": false, "format": "tail", "max_chars": t.MaxChars}
	}
	return map[string]any{"found": true, "format": "tail", "truncated": x.Extra[tailTruncatedKey],
		"max_chars": t.MaxChars, "original_length": x.Extra[tailLengthKey]}
}
