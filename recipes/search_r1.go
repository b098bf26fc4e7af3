package recipes

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
)

// veRL's search_r1 rule (verl/utils/reward_score/search_r1_like_qa_em.py,
// compute_score with its defaults: format_score 0.0, score 1.0).
//
// The answer is the text of the last <answer>…</answer> (the first closing
// tag after each opening one, across newlines), stripped. It scores 1.0
// when its SQuAD-style normalization (lower case, ASCII punctuation
// removed, the words "a", "an", "the" removed, whitespace collapsed)
// equals that of one of the targets, and 0.0 otherwise; with no complete
// answer tag it scores 0.0. A matching answer in a response that has more
// than 10 "<answer>" or more than 10 "</answer>" anywhere scores 0.25
// instead: veRL's guard against spraying tags. The whole response is read
// (veRL does not clip it); every step is linear in its length.
//
// Ground truth. veRL passes the row's reward_model.ground_truth, which
// Search-R1's preprocessing makes {"target": [answers]}. Our Rule takes a
// string, so the caller passes the JSON text of a ground truth that is not
// a str (json.dumps, with numpy arrays made lists) and a str as it is:
//   - a JSON object is veRL's dict: its "target" is one string or a list
//     of strings. Another shape is StatusError wherever veRL raises (a
//     missing "target", a non-string target met before a match);
//   - a JSON array of strings is the list of targets (veRL itself would
//     raise on a list; em_check accepts one);
//   - any other string is the one target (veRL would raise on a str).
//
// veRL also prints the item for one call in 64, at random, reading
// ground_truth["target"] before anything else, so with a ground truth that
// is not a dict it raises on those calls even when there is no answer. We
// follow its other 63 calls.

func init() { Register("search_r1", searchR1Rule) }

// searchR1MaxTags is the number of opening or closing answer tags beyond
// which veRL quarters the score of a correct answer.
const searchR1MaxTags = 10

func searchR1Rule(solution, groundTruth string) Result {
	answer, ok := lastAnswerTag(solution)
	if !ok {
		return Result{Score: 0, Status: StatusNoAnswer, Reason: "no <answer>...</answer>"}
	}
	targets, err := searchR1Targets(groundTruth)
	if err != nil {
		return Result{Status: StatusError, Reason: err.Error()}
	}
	pred := squadNormalize(pycompat.Strip(answer))
	matched := false
	for _, t := range targets {
		s, isStr := t.(string)
		if !isStr {
			// Python calls .lower() on it and raises.
			return Result{Status: StatusError, Reason: fmt.Sprintf("search_r1 ground truth: target %v is not a string", t)}
		}
		if squadNormalize(s) == pred {
			matched = true
			break
		}
	}
	if !matched {
		return Result{Score: 0, Status: StatusIncorrect}
	}
	if strings.Count(solution, "<answer>") > searchR1MaxTags || strings.Count(solution, "</answer>") > searchR1MaxTags {
		return Result{Score: 0.25, Status: StatusIncorrect, Reason: "the answer matched, but the response has more than 10 answer tags (veRL gives a quarter of the score)"}
	}
	return Result{Score: 1, Status: StatusCorrect}
}

// lastAnswerTag is what the last match of `<answer>(.*?)</answer>` (with
// re.DOTALL) captures: each opening tag is paired with the first closing
// tag after it, and the search resumes after that closing tag.
func lastAnswerTag(s string) (string, bool) {
	const open, close = "<answer>", "</answer>"
	last, found := "", false
	for i := 0; ; {
		k := strings.Index(s[i:], open)
		if k < 0 {
			break
		}
		body := i + k + len(open)
		e := strings.Index(s[body:], close)
		if e < 0 {
			// No closing tag after this opening one, so none after a later one.
			break
		}
		last, found = s[body:body+e], true
		i = body + e + len(close)
	}
	return last, found
}

// searchR1Targets decodes the ground truth as described in the file
// comment. An item is a string unless the JSON says otherwise; checking
// items is left to the caller, which meets them in veRL's order.
func searchR1Targets(gt string) ([]any, error) {
	trimmed := strings.TrimSpace(gt)
	if strings.HasPrefix(trimmed, "{") {
		var obj map[string]any
		if json.Unmarshal([]byte(trimmed), &obj) == nil {
			t, ok := obj["target"]
			if !ok {
				return nil, fmt.Errorf(`search_r1 ground truth: the dict has no "target" (veRL raises KeyError)`)
			}
			switch v := t.(type) {
			case string:
				return []any{v}, nil
			case []any:
				return v, nil
			default:
				return nil, fmt.Errorf(`search_r1 ground truth: "target" must be a string or a list of strings, not %T`, t)
			}
		}
	}
	if strings.HasPrefix(trimmed, "[") {
		var list []string
		if json.Unmarshal([]byte(trimmed), &list) == nil {
			out := make([]any, len(list))
			for i, s := range list {
				out[i] = s
			}
			return out, nil
		}
	}
	return []any{gt}, nil
}

// squadNormalize is normalize_answer of the Search-R1 rule: Python's
// str.lower(), ASCII punctuation (string.punctuation) removed, each whole
// word "a", "an" or "the" (a maximal run of Python \w characters, which is
// what \b(a|an|the)\b matches) replaced by a space, then the words split
// on Unicode whitespace and joined by single spaces.
func squadNormalize(s string) string {
	s = pycompat.Lower(s)

	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if !isASCIIPunct(s[i]) {
			b.WriteByte(s[i])
		}
	}
	s = b.String()

	b.Reset()
	b.Grow(len(s))
	wordStart := -1
	flush := func(end int) {
		switch w := s[wordStart:end]; w {
		case "a", "an", "the":
			b.WriteByte(' ')
		default:
			b.WriteString(w)
		}
		wordStart = -1
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			r = -1 // an invalid byte is in no class
		}
		if pycompat.IsWordChar(r) {
			if wordStart < 0 {
				wordStart = i
			}
		} else {
			if wordStart >= 0 {
				flush(i)
			}
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	if wordStart >= 0 {
		flush(len(s))
	}
	return strings.Join(strings.FieldsFunc(b.String(), pycompat.IsSpace), " ")
}

// isASCIIPunct reports whether c is in Python's string.punctuation.
func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
