package recipes

import (
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

// veRL's geo3k rule (verl/utils/reward_score/geo3k.py, for
// hiyouga/geometry3k): 0.9 * accuracy + 0.1 * format, in that float
// arithmetic, so the scores are 0.0, 0.1, 0.9 and 1.0.
//
// Format is re.fullmatch(r"<think>.*</think>.*\\boxed\{.*\}.*", DOTALL):
// the response starts with "<think>", and a "</think>", a "\boxed{" and a
// "}" follow in that order. Accuracy is mathruler's grade_answer of
// extract_boxed_content: the content of the last "\boxed{" up to the
// brace that closes it, stripped, or the text "None" when there is none
// (which is then graded like any answer). mathruler's grader is the
// prm800k one of prime_math_grader.go in its mathruler flavor, run in
// process without a timeout; our budget bounds it (StatusTimeout, score
// 0.0 for the accuracy part).

func init() { Register("geo3k", geo3kRule) }

// geo3kFormatScore is compute_score's default format_score.
var geo3kFormatScore = 0.1

func geo3kRule(solution, groundTruth string) (res Result) {
	format := 0.0
	if geo3kFormatOK(solution) {
		format = 1
	}
	answer, boxed := extractBoxedContent(solution)
	acc := 0.0
	w := &pmWork{left: pmStepBudget}
	res = func() (r Result) {
		defer recoverPM(&r)
		if gradeAnswer(answer, groundTruth, flavorMathruler, w) {
			acc = 1
		}
		return Result{Status: StatusCorrect}
	}()
	// (1.0 - format_score) * acc + format_score * format, as veRL computes it.
	fs := geo3kFormatScore
	res.Score = (1.0-fs)*acc + fs*format
	switch {
	case res.Status != StatusCorrect: // timeout or undecided; the reason says which
	case acc == 1:
	case !boxed:
		res.Status, res.Reason = StatusNoAnswer, `no \boxed{} answer`
	default:
		res.Status = StatusIncorrect
	}
	return res
}

// geo3kFormatOK is format_reward's full match.
func geo3kFormatOK(s string) bool {
	if !strings.HasPrefix(s, "<think>") {
		return false
	}
	rest := s[len("<think>"):]
	k := strings.Index(rest, "</think>")
	if k < 0 {
		return false
	}
	rest = rest[k+len("</think>"):]
	k = strings.Index(rest, `\boxed{`)
	if k < 0 {
		return false
	}
	return strings.IndexByte(rest[k+len(`\boxed{`):], '}') >= 0
}

// extractBoxedContent is mathruler's extract_boxed_content; false when it
// returns "None" for want of a closed box.
func extractBoxedContent(s string) (string, bool) {
	k := strings.LastIndex(s, `\boxed{`)
	if k < 0 {
		return "None", false
	}
	body := s[k+len(`\boxed{`):]
	depth := 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == -1 {
				return pycompat.Strip(body[:i]), true
			}
		}
	}
	return "None", false
}
