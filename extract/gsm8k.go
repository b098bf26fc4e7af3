package extract

import (
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// GSM8K is llenvs' gsm8k extractor: the number after the last
// "####" (optional whitespace and an optional "$" between them), a run of
// digits and commas with an optional decimal part, commas removed.
//
// Deliberate fix: a minus sign before the number (before or after the
// "$") is kept, so "#### -5" gives "-5" where llenvs finds nothing.
type GSM8K struct {
	Strip bool
}

func init() {
	Register("gsm8k", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			StripWhitespace bool `json:"strip_whitespace"`
		}{true}
		if err := strictcfg.Decode("gsm8k extractor config", cfg, &c); err != nil {
			return nil, err
		}
		return &GSM8K{Strip: c.StripWhitespace}, nil
	})
}

// Name is "gsm8k".
func (g *GSM8K) Name() string { return "gsm8k" }

// Extract finds the last "#### <number>".
func (g *GSM8K) Extract(text string) Extraction {
	var x Extraction
	var last gsm8kMatch
	for start := strings.Index(text, "####"); start >= 0; {
		m, ok := gsm8kNumber(text, start+4)
		next := start + 1
		if ok {
			x.NumMatches++
			x.MatchStart, x.MatchEnd = start, m.end
			last = m
			next = m.end
		} else if start+4 < len(text) && text[start+4] == '#' {
			start = next // a run of "#": the next candidate is right here
			continue
		}
		k := strings.Index(text[next:], "####")
		if k < 0 {
			break
		}
		start = next + k
	}
	if x.NumMatches == 0 {
		return Extraction{}
	}
	x.Found = true
	x.Answer = text[last.digits:last.end]
	if strings.IndexByte(x.Answer, ',') >= 0 {
		x.Answer = strings.ReplaceAll(x.Answer, ",", "")
	}
	if last.neg {
		x.Answer = "-" + x.Answer
	}
	if g.Strip {
		x.Answer = pycompat.Strip(x.Answer)
	}
	return x
}

// gsm8kMatch is the number after one "####": whether it is negative, where
// its digits start and where it ends.
type gsm8kMatch struct {
	neg         bool
	digits, end int
}

// gsm8kNumber matches `\s*\$?-?[\d,]+(?:\.\d+)?` at i, the sign taken only
// when a digit follows it and also accepted before the "$".
func gsm8kNumber(text string, i int) (gsm8kMatch, bool) {
	var m gsm8kMatch
	i = skipSpace(text, i)
	if i+1 < len(text) && text[i] == '-' && text[i+1] == '$' && digitAt(text, i+2) > 0 {
		m.neg = true
		i += 2
	} else {
		if i < len(text) && text[i] == '$' {
			i++
		}
		if i < len(text) && text[i] == '-' && digitAt(text, i+1) > 0 {
			m.neg = true
			i++
		}
	}
	m.digits = i
	for i < len(text) {
		if text[i] == ',' {
			i++
			continue
		}
		w := digitAt(text, i)
		if w == 0 {
			break
		}
		i += w
	}
	if i == m.digits {
		return m, false
	}
	if i < len(text) && text[i] == '.' {
		if e, n := skipDigits(text, i+1); n > 0 {
			i = e
		}
	}
	m.end = i
	return m, true
}

// Describe renders llenvs' gsm8k metadata (byte offsets).
func (g *GSM8K) Describe(x Extraction) map[string]any {
	return formatMeta("gsm8k", x, true)
}
