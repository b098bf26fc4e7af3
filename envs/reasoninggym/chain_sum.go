package reasoninggym

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

type chainSumConfig struct {
	MinTerms      int  `json:"min_terms"`
	MaxTerms      int  `json:"max_terms"`
	MinDigits     int  `json:"min_digits"`
	MaxDigits     int  `json:"max_digits"`
	AllowNegation bool `json:"allow_negation"`
}

type chainSum struct{ c chainSumConfig }

func init() {
	Register("chain_sum", func(o Options) (Task, error) {
		c := chainSumConfig{MinTerms: 2, MaxTerms: 6, MinDigits: 1, MaxDigits: 4}
		if err := decodeParams("chain_sum", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkMin("chain_sum", "min_terms", c.MinTerms, 1),
			checkOrder("chain_sum", "min_terms", c.MinTerms, "max_terms", c.MaxTerms),
			checkMin("chain_sum", "min_digits", c.MinDigits, 1),
			checkOrder("chain_sum", "min_digits", c.MinDigits, "max_digits", c.MaxDigits),
		); err != nil {
			return nil, err
		}
		return &chainSum{c}, nil
	})
}

func (t *chainSum) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	c := &t.c
	numTerms := r.RandIntn(c.MinTerms, c.MaxTerms)
	numDigits := r.RandIntn(c.MinDigits, c.MaxDigits)
	var expr, answer string
	if numDigits <= 15 && numTerms <= 1000 {
		// Small enough for int64 sums: the same draws as with big.Int.
		expr, answer = chainSumSmall(r, numTerms, numDigits, c.AllowNegation)
	} else {
		expr, answer = chainSumBig(r, numTerms, numDigits, c.AllowNegation)
	}
	e := Entry{
		Question: "State the final answer to the following arithmetic problem: " + expr + " =",
		Answer:   answer,
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset": "chain_sum",
			"source_index":   idx,
			"num_terms":      numTerms,
			"num_digits":     numDigits,
			"expression":     expr,
			"difficulty": map[string]any{
				"num_terms":  []int{c.MinTerms, c.MaxTerms},
				"num_digits": []int{c.MinDigits, c.MaxDigits},
			},
		}
	}
	return e, nil
}

// Score is compute_decimal_reward with commas stripped: a numerically
// equal Decimal scores 1, else partial credit when the answer contains the
// oracle.
func (t *chainSum) Score(answer string, ok bool, e *Entry) float64 {
	return computeDecimalReward(answer, ok, e.Answer)
}

// chainSumSmall draws the terms and signs of a chain of numTerms values of
// numDigits digits (as chainSumBig does) with int64 arithmetic.
func chainSumSmall(r *pycompat.Random, numTerms, numDigits int, allowNegation bool) (string, string) {
	hi := int64(1)
	for k := 0; k < numDigits; k++ {
		hi *= 10
	}
	hi--
	lo := int64(0)
	if numDigits > 1 {
		lo = (hi + 1) / 10
	}
	if allowNegation {
		lo = -hi
	}
	consts := make([]int64, numTerms)
	for i := range consts {
		consts[i] = r.RandInt(lo, hi)
	}
	b := make([]byte, 0, numTerms*(numDigits+4))
	result := consts[0]
	b = strconv.AppendInt(b, consts[0], 10)
	for i := 1; i < numTerms; i++ {
		k := consts[i]
		if r.ChoiceIndex(2) == 0 {
			b = append(b, " + "...)
			result += k
		} else {
			b = append(b, " - "...)
			result -= k
		}
		b = strconv.AppendInt(b, k, 10)
	}
	return string(b), strconv.FormatInt(result, 10)
}

// chainSumBig is the chain with values of any size.
func chainSumBig(r *pycompat.Random, numTerms, numDigits int, allowNegation bool) (string, string) {
	// Values have num_digits digits, except that one digit also allows 0.
	hi := pow10(numDigits)
	hi.Sub(hi, bigOne)
	lo := new(big.Int)
	if numDigits > 1 {
		lo = pow10(numDigits - 1)
	}
	if allowNegation {
		lo = new(big.Int).Neg(hi)
	}
	consts := make([]*big.Int, numTerms)
	for i := range consts {
		consts[i] = r.RandIntBig(lo, hi)
	}
	var b strings.Builder
	result := new(big.Int).Set(consts[0])
	b.WriteString(consts[0].String())
	for i := 1; i < numTerms; i++ {
		k := consts[i]
		if r.ChoiceIndex(2) == 0 {
			b.WriteString(" + ")
			result.Add(result, k)
		} else {
			b.WriteString(" - ")
			result.Sub(result, k)
		}
		b.WriteString(k.String())
	}
	expr := b.String()
	return expr, result.String()
}
