package extract

import (
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// CodeBlock is llenvs' code_block extractor: the body of the last
// markdown code fence, always stripped. A fence is "```", a language tag
// (any run of word characters, or exactly Language when it is set),
// optional whitespace that must include a newline, the body, and the next
// "```". A fence on a single line ("```py print(1)```") does not count.
type CodeBlock struct {
	// Language, when not empty, keeps only the blocks tagged with it
	// (compared exactly; "py" does not match "```python").
	Language string
}

func init() {
	Register("code_block", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			Language *string `json:"language"`
		}{}
		if err := strictcfg.Decode("code_block extractor config", cfg, &c); err != nil {
			return nil, err
		}
		e := &CodeBlock{}
		if c.Language != nil {
			e.Language = *c.Language
		}
		return e, nil
	})
}

// Name is "code_block".
func (c *CodeBlock) Name() string { return "code_block" }

// Extract finds the last complete code block.
func (c *CodeBlock) Extract(text string) Extraction {
	const fence = "```"
	var x Extraction
	// Without a backtick in the language, once a block has no closing
	// fence no later one can have one either.
	canStop := strings.IndexByte(c.Language, '`') < 0
	for pos := 0; ; {
		k := strings.Index(text[pos:], fence)
		if k < 0 {
			break
		}
		start := pos + k
		j := start + len(fence)
		if c.Language != "" {
			if !strings.HasPrefix(text[j:], c.Language) {
				pos = start + 1
				continue
			}
			j += len(c.Language)
		} else {
			for j < len(text) {
				r, w := runeAt(text, j)
				if !pycompat.IsWordChar(r) {
					break
				}
				j += w
			}
		}
		nl := strings.LastIndexByte(text[j:skipSpace(text, j)], '\n')
		if nl < 0 {
			pos = start + 1
			continue
		}
		body := j + nl + 1
		end := strings.Index(text[body:], fence)
		if end < 0 {
			if canStop {
				break
			}
			pos = start + 1
			continue
		}
		end += body
		x.NumMatches++
		x.MatchStart, x.MatchEnd = start, end+len(fence)
		x.Answer = text[body:end]
		pos = x.MatchEnd
	}
	if x.NumMatches == 0 {
		return Extraction{}
	}
	x.Found = true
	x.Answer = pycompat.Strip(x.Answer)
	return x
}

// Describe renders llenvs' code_block metadata (byte offsets), with the
// language when one is set.
func (c *CodeBlock) Describe(x Extraction) map[string]any {
	m := formatMeta("code_block", x, true)
	if x.Found && c.Language != "" {
		m["language"] = c.Language
	}
	return m
}
