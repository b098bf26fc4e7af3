package recipes

import (
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

// veRL's gsm8k rule (verl/utils/reward_score/gsm8k.py, compute_score with
// its defaults: the strict method, format_score 0.0, score 1.0).
//
// Only the last 300 code points of the response are read, as veRL clips
// them; in them the last "#### " followed by an optional minus sign and a
// run of digits, points and commas is the answer, commas dropped. The
// answer must equal the ground truth string exactly (veRL's own gsm8k
// preprocessing stores it without commas): 1.0 if it does, 0.0 if not,
// and 0.0 when there is no "#### " answer at all.

func init() { Register("gsm8k", gsm8kRule) }

// gsm8kClip is how many code points of the response veRL looks at.
const gsm8kClip = 300

func gsm8kRule(solution, groundTruth string) Result {
	tail, _ := pycompat.Tail(solution, gsm8kClip)
	answer, ok := gsm8kLastAnswer(tail)
	if !ok {
		return Result{Score: 0, Status: StatusNoAnswer, Reason: `no "#### <number>" in the last 300 characters`}
	}
	if answer == groundTruth {
		return Result{Score: 1, Status: StatusCorrect}
	}
	return Result{Score: 0, Status: StatusIncorrect}
}

// gsm8kLastAnswer finds what the last match of the pattern
// `#### (-?[0-9.,]+)` captures, with its commas removed. The pattern is
// anchored on "#### ", which cannot overlap itself, so trying each
// occurrence left to right visits the same matches as re.findall.
func gsm8kLastAnswer(s string) (string, bool) {
	last, found := "", false
	for i := 0; ; {
		k := strings.Index(s[i:], "#### ")
		if k < 0 {
			break
		}
		start := i + k + len("#### ")
		j := start
		if j < len(s) && s[j] == '-' {
			j++
		}
		e := j
		for e < len(s) && (s[e] >= '0' && s[e] <= '9' || s[e] == '.' || s[e] == ',') {
			e++
		}
		if e == j {
			// "#### " not followed by a number (a lone "-" does not count either).
			i = i + k + 1
			continue
		}
		last, found = s[start:e], true
		i = e
	}
	if !found {
		return "", false
	}
	// veRL also drops "$", which the pattern can never capture.
	return strings.ReplaceAll(last, ",", ""), true
}
