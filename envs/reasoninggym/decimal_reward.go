package reasoninggym

import (
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

// computeDecimalReward is reasoning_gym.utils.compute_decimal_reward(answer,
// oracle, strip_commas=True): 1.0 when the comma-free answer and oracle are
// equal Decimals, else len(oracle)/len(answer) (code points, commas
// removed) when the oracle occurs in the answer, else 0.0.
func computeDecimalReward(answer string, ok bool, oracle string) float64 {
	if !ok || answer == "" {
		return 0
	}
	a := strings.ReplaceAll(answer, ",", "")
	o := strings.ReplaceAll(oracle, ",", "")
	if pycompat.ParseDecimal(a).Equal(pycompat.ParseDecimal(o)) {
		return 1
	}
	if strings.Contains(a, o) {
		la := pycompat.Len(a)
		if la == 0 {
			return 0
		}
		return float64(pycompat.Len(o)) / float64(la)
	}
	return 0
}
