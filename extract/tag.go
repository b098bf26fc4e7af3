package extract

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// Tag is llenvs' tag_based extractor: the content of the last
// complete <tag>…</tag> pair, tags matched case-insensitively, pairs found
// left to right without overlap (as Python's re.finditer with a non-greedy
// body does), the content optionally stripped.
type Tag struct {
	Tag   string
	Strip bool
	open  string // lowercase "<tag>"
	close string // lowercase "</tag>"
	re    *regexp.Regexp
}

// NewTag returns a tag_based extractor for tag.
func NewTag(tag string, strip bool) *Tag {
	t := &Tag{Tag: tag, Strip: strip}
	if pycompat.IsASCII(tag) {
		t.open, t.close = "<"+strings.ToLower(tag)+">", "</"+strings.ToLower(tag)+">"
	} else {
		t.re = regexp.MustCompile("(?is)<" + regexp.QuoteMeta(tag) + ">(.*?)</" + regexp.QuoteMeta(tag) + ">")
	}
	return t
}

func init() {
	Register("tag_based", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			TagName         string `json:"tag_name"`
			StripWhitespace bool   `json:"strip_whitespace"`
		}{"answer", true}
		if err := strictcfg.Decode("tag_based extractor config", cfg, &c); err != nil {
			return nil, err
		}
		return NewTag(c.TagName, c.StripWhitespace), nil
	})
}

// Name is "tag_based".
func (t *Tag) Name() string { return "tag_based" }

// Extract finds the last complete pair.
func (t *Tag) Extract(text string) Extraction {
	if t.re != nil {
		return t.extractRegexp(text)
	}
	var x Extraction
	from := 0
	for {
		o := indexFold(text, t.open, from)
		if o < 0 {
			break
		}
		body := o + len(t.open)
		c := indexFold(text, t.close, body)
		if c < 0 {
			break
		}
		x.NumMatches++
		x.MatchStart, x.MatchEnd = o, c+len(t.close)
		x.Answer = text[body:c]
		from = x.MatchEnd
	}
	if x.NumMatches == 0 {
		return Extraction{}
	}
	x.Found = true
	if t.Strip {
		x.Answer = pycompat.Strip(x.Answer)
	}
	return x
}

func (t *Tag) extractRegexp(text string) Extraction {
	all := t.re.FindAllStringSubmatchIndex(text, -1)
	if len(all) == 0 {
		return Extraction{}
	}
	m := all[len(all)-1]
	x := Extraction{Found: true, Answer: text[m[2]:m[3]], MatchStart: m[0], MatchEnd: m[1], NumMatches: len(all)}
	if t.Strip {
		x.Answer = pycompat.Strip(x.Answer)
	}
	return x
}

// Describe renders llenvs' tag_based metadata; offsets are in bytes of the
// UTF-8 response.
func (t *Tag) Describe(x Extraction) map[string]any {
	if !x.Found {
		return map[string]any{"found": false, "tag_name": t.Tag}
	}
	return map[string]any{"found": true, "tag_name": t.Tag, "match_start": x.MatchStart,
		"match_end": x.MatchEnd, "num_matches": x.NumMatches}
}

// AppendDescription appends Describe(x) as JSON without building the map:
// the tag extractor is the default, so its metadata is on the hot path of
// rich scoring results.
func (t *Tag) AppendDescription(b []byte, x Extraction, appendString func([]byte, string) []byte) []byte {
	if !x.Found {
		b = append(b, `{"found":false,"tag_name":`...)
		b = appendString(b, t.Tag)
		return append(b, '}')
	}
	b = append(b, `{"found":true,"match_end":`...)
	b = strconv.AppendInt(b, int64(x.MatchEnd), 10)
	b = append(b, `,"match_start":`...)
	b = strconv.AppendInt(b, int64(x.MatchStart), 10)
	b = append(b, `,"num_matches":`...)
	b = strconv.AppendInt(b, int64(x.NumMatches), 10)
	b = append(b, `,"tag_name":`...)
	b = appendString(b, t.Tag)
	return append(b, '}')
}
