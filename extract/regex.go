package extract

import (
	"fmt"
	"regexp"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// Python re flag values accepted in the regex extractor's "flags".
const (
	pyReIgnoreCase = 2
	pyReLocale     = 4
	pyReMultiline  = 8
	pyReDotAll     = 16
	pyReUnicode    = 32
	pyReVerbose    = 64
	pyReDebug      = 128
	pyReASCII      = 256
)

// Regex is llenvs' regex extractor: a capture group of the last
// match of a user pattern, optionally stripped. By default "." also
// matches a newline, as in llenvs (flags=re.DOTALL).
//
// Patterns use Go's RE2 syntax, not Python's: lookahead, lookbehind and
// backreferences are not supported (an invalid pattern is a config error
// that names it); \d, \w, \s and \b are ASCII-only; without the multiline
// flag "$" matches only at the very end of the text (Python's "$" also
// matches before a final newline); an empty match right after another
// match is not counted. A group index the pattern does not have is, as in
// llenvs, no extraction whenever the pattern matches, with the metadata
// error "Group N not found in match".
type Regex struct {
	Pattern    string
	GroupIndex int
	Strip      bool
	it         *matchIter
	// groupError is llenvs' metadata of a match without group GroupIndex
	// (the pattern has no such group); nil when the group exists.
	groupError map[string]any
}

// NewRegex compiles pattern with the Python re flags given (an
// OR of re.IGNORECASE, re.MULTILINE, re.DOTALL, re.UNICODE and re.ASCII;
// llenvs' default is re.DOTALL = 16).
func NewRegex(pattern string, groupIndex int, strip bool, flags int) (*Regex, error) {
	const what = "regex extractor config"
	if _, err := regexp.Compile(pattern); err != nil {
		return nil, fmt.Errorf("%s: invalid pattern %q: %v (patterns use Go RE2 syntax: no lookahead, lookbehind or backreferences)", what, pattern, err)
	}
	if bad := flags &^ (pyReIgnoreCase | pyReMultiline | pyReDotAll | pyReUnicode | pyReASCII); bad != 0 {
		return nil, fmt.Errorf("%s: unsupported flags %d in %d (supported: re.IGNORECASE=2, re.MULTILINE=8, re.DOTALL=16, re.UNICODE=32, re.ASCII=256)", what, bad, flags)
	}
	goFlags := ""
	if flags&pyReIgnoreCase != 0 {
		goFlags += "i"
	}
	if flags&pyReMultiline != 0 {
		goFlags += "m"
	}
	if flags&pyReDotAll != 0 {
		goFlags += "s"
	}
	src := pattern
	if goFlags != "" {
		src = "(?" + goFlags + ":" + pattern + ")"
	}
	it, err := newMatchIter(src)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid pattern %q: %v", what, pattern, err)
	}
	r := &Regex{Pattern: pattern, GroupIndex: groupIndex, Strip: strip, it: it}
	if n := it.re.NumSubexp(); groupIndex < 0 || groupIndex > n {
		r.groupError = map[string]any{"error": fmt.Sprintf("Group %d not found in match", groupIndex)}
	}
	return r, nil
}

func init() {
	Register("regex", func(cfg map[string]any) (Extractor, error) {
		c := struct {
			Pattern         *string `json:"pattern"`
			GroupIndex      int     `json:"group_index"`
			StripWhitespace bool    `json:"strip_whitespace"`
			Flags           int     `json:"flags"`
		}{nil, 1, true, pyReDotAll}
		if err := strictcfg.Decode("regex extractor config", cfg, &c); err != nil {
			return nil, err
		}
		if c.Pattern == nil {
			return nil, fmt.Errorf("regex extractor config: \"pattern\" is required (a regular expression with a capture group for the answer)")
		}
		return NewRegex(*c.Pattern, c.GroupIndex, c.StripWhitespace, c.Flags)
	})
}

// Name is "regex".
func (r *Regex) Name() string { return "regex" }

// Extract returns the group of the last match; a group that did not take
// part in that match is no extraction.
func (r *Regex) Extract(text string) Extraction {
	m, n := r.it.last(text)
	if n == 0 {
		return Extraction{}
	}
	if r.groupError != nil {
		return Extraction{Extra: r.groupError}
	}
	g := 2 * r.GroupIndex
	if m[g] < 0 {
		return Extraction{}
	}
	// Go's regexp reads the three bytes of a surrogatepass-encoded surrogate
	// as three code points; the spans are widened so as never to split one.
	lo, hi := pycompat.CodePointSpan(text, m[g], m[g+1])
	start, end := pycompat.CodePointSpan(text, m[0], m[1])
	x := Extraction{Found: true, Answer: text[lo:hi], MatchStart: start, MatchEnd: end, NumMatches: n}
	if r.Strip {
		x.Answer = pycompat.Strip(x.Answer)
	}
	return x
}

// Describe renders llenvs' regex metadata (byte offsets).
func (r *Regex) Describe(x Extraction) map[string]any {
	if !x.Found {
		if x.Extra != nil {
			return map[string]any{"found": false, "pattern": r.Pattern, "error": x.Extra["error"]}
		}
		return map[string]any{"found": false, "pattern": r.Pattern}
	}
	return map[string]any{"found": true, "pattern": r.Pattern, "match_start": x.MatchStart,
		"match_end": x.MatchEnd, "num_matches": x.NumMatches}
}
