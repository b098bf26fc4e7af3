package extract

import (
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// Boxed is llenvs' boxed extractor: the content of the last
// balanced \boxed{…} (optional whitespace allowed before the brace). Every
// occurrence counts, nested ones included, so \boxed{\boxed{1}} gives "1";
// an occurrence whose brace never closes is skipped. \boxed{} gives "".
//
// Braces are matched in one pass over the text, so the cost is linear
// even for many unclosed boxes (llenvs rescans the rest of the text for
// each one, which is quadratic).
type Boxed struct {
	Strip bool
}

func init() {
	Register("boxed", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			StripWhitespace bool `json:"strip_whitespace"`
		}{true}
		if err := strictcfg.Decode("boxed extractor config", cfg, &c); err != nil {
			return nil, err
		}
		return &Boxed{Strip: c.StripWhitespace}, nil
	})
}

// Name is "boxed".
func (b *Boxed) Name() string { return "boxed" }

// Extract finds the last balanced box.
func (b *Boxed) Extract(text string) Extraction {
	const marker = `\boxed`
	first := strings.Index(text, marker)
	if first < 0 {
		return Extraction{}
	}
	// One pass over the braces from the first box on. depth counts the
	// braces opened and not yet closed (a stray "}" at depth 0 is ignored,
	// as it is when llenvs counts from a box's own brace); stack holds the
	// boxes still open, with the depth their brace opened at. A box whose
	// brace never closes stays on the stack and is not a match.
	type open struct{ start, brace, depth int }
	var stack []open
	pending := open{brace: -1} // the box whose brace is coming up
	var x Extraction
	var bestBody, bestEnd int
	depth := 0
	for i := first; i < len(text); {
		k := strings.IndexAny(text[i:], "{}\\")
		if k < 0 {
			break
		}
		i += k
		switch text[i] {
		case '\\':
			if strings.HasPrefix(text[i:], marker) {
				if j := skipSpace(text, i+len(marker)); j < len(text) && text[j] == '{' {
					pending = open{start: i, brace: j}
				}
				i += len(marker)
				continue
			}
		case '{':
			depth++
			if i == pending.brace {
				pending.depth = depth
				stack = append(stack, pending)
			}
		case '}':
			if depth == 0 {
				break
			}
			if n := len(stack); n > 0 && stack[n-1].depth == depth {
				c := stack[n-1]
				stack = stack[:n-1]
				x.NumMatches++
				// The last box is the one that starts last, which is not
				// the one that closes last when boxes nest.
				if x.NumMatches == 1 || c.start > x.MatchStart {
					x.MatchStart, x.MatchEnd = c.start, i+1
					bestBody, bestEnd = c.brace+1, i
				}
			}
			depth--
		}
		i++
	}
	if x.NumMatches == 0 {
		return Extraction{}
	}
	x.Found = true
	x.Answer = text[bestBody:bestEnd]
	if b.Strip {
		x.Answer = pycompat.Strip(x.Answer)
	}
	return x
}

// Describe renders llenvs' boxed metadata (byte offsets).
func (b *Boxed) Describe(x Extraction) map[string]any {
	return formatMeta("boxed", x, true)
}

// formatMeta renders the metadata most llenvs extractors report: found and
// format, and on success the match offsets and, when withCount, the number
// of matches.
func formatMeta(format string, x Extraction, withCount bool) map[string]any {
	if !x.Found {
		return map[string]any{"found": false, "format": format}
	}
	m := map[string]any{"found": true, "format": format, "match_start": x.MatchStart, "match_end": x.MatchEnd}
	if withCount {
		m["num_matches"] = x.NumMatches
	}
	return m
}
