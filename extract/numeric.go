package extract

import (
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// Numeric is llenvs' numeric extractor: the last number in the
// text, with an optional minus sign, optional thousands separators and an
// optional decimal part; commas are removed from the answer.
//
// Deliberate fix: a run of digits is never split. llenvs' regular
// expression tries `\d{1,3}(,\d{3})*` first, so "1000" gives "0" and
// "12345" gives "45"; here a number is scanned as
//
//	-?  D  (,DDD)*  (.D+)?
//
// where D is the whole run of digits, the comma groups are only taken when
// D has at most three digits and each group is exactly three digits not
// followed by another digit, and a "." counts only when a digit follows.
// "1,234,567" gives "1234567", "1234.5" gives "1234.5", "3 + 4 = 7" gives
// "7". Digits are Python's \d (any Unicode decimal digit).
type Numeric struct {
	Strip bool
	name  string
}

func init() {
	for _, name := range []string{"numeric", "last_number"} {
		name := name
		Register(name, func(cfg map[string]any) (Extractor, error) {
			c := struct {
				StripWhitespace bool `json:"strip_whitespace"`
			}{true}
			if err := strictcfg.Decode(name+" extractor config", cfg, &c); err != nil {
				return nil, err
			}
			return &Numeric{Strip: c.StripWhitespace, name: name}, nil
		})
	}
}

// Name is "numeric", or "last_number" when built under that alias.
func (n *Numeric) Name() string {
	if n.name == "" {
		return "numeric"
	}
	return n.name
}

// Extract finds the last number.
func (n *Numeric) Extract(text string) Extraction {
	var x Extraction
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
		case c == '-':
			if digitAt(text, i+1) == 0 {
				i++
				continue
			}
		case c < utf8.RuneSelf:
			i++
			continue
		default:
			r, w := utf8.DecodeRuneInString(text[i:])
			if w == 1 || !pycompat.IsDecimal(r) {
				i += w
				continue
			}
		}
		end := scanNumber(text, i)
		x.NumMatches++
		x.MatchStart, x.MatchEnd = i, end
		i = end
	}
	if x.NumMatches == 0 {
		return Extraction{}
	}
	x.Found = true
	x.Answer = text[x.MatchStart:x.MatchEnd]
	if strings.IndexByte(x.Answer, ',') >= 0 {
		x.Answer = strings.ReplaceAll(x.Answer, ",", "")
	}
	if n.Strip {
		x.Answer = pycompat.Strip(x.Answer)
	}
	return x
}

// scanNumber returns the end of the number that starts at i with a digit
// or with a minus sign followed by a digit.
func scanNumber(text string, i int) int {
	if text[i] == '-' {
		i++
	}
	i, nd := skipDigits(text, i)
	if nd <= 3 {
		// Thousands groups: ",DDD" not followed by another digit.
		for i < len(text) && text[i] == ',' {
			e, k := skipDigits(text, i+1)
			if k != 3 {
				break
			}
			i = e
		}
	}
	if i < len(text) && text[i] == '.' {
		if e, k := skipDigits(text, i+1); k > 0 {
			i = e
		}
	}
	return i
}

// Describe renders llenvs' numeric metadata (byte offsets).
func (n *Numeric) Describe(x Extraction) map[string]any {
	return formatMeta("numeric", x, true)
}
