package reasoninggym

import (
	"math/big"

	"github.com/llenvs/llenvs-go/pycompat"
)

type lcmConfig struct {
	MinNumbers int   `json:"min_numbers"`
	MaxNumbers int   `json:"max_numbers"`
	MinValue   int64 `json:"min_value"`
	MaxValue   int64 `json:"max_value"`
}

type lcmTask struct{ c lcmConfig }

func init() {
	Register("lcm", func(o Options) (Task, error) {
		c := lcmConfig{MinNumbers: 2, MaxNumbers: 2, MinValue: 1, MaxValue: 100}
		if err := decodeParams("lcm", o.Params, &c); err != nil {
			return nil, err
		}
		if err := checkNumbersConfig("lcm", c.MinNumbers, c.MaxNumbers, c.MinValue, c.MaxValue); err != nil {
			return nil, err
		}
		return &lcmTask{c}, nil
	})
}

func (t *lcmTask) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	c := &t.c
	var numbers []int64
	result := new(big.Int)
	product := new(big.Int)
	var g, x big.Int
	// Up to three rounds to find numbers whose LCM is below their product;
	// the last round's numbers are kept either way.
	for round := 0; round < 3; round++ {
		n := r.RandIntn(c.MinNumbers, c.MaxNumbers)
		numbers = make([]int64, n)
		for i := range numbers {
			numbers[i] = r.RandInt(c.MinValue, c.MaxValue)
		}
		result.SetInt64(numbers[0])
		product.SetInt64(numbers[0])
		for _, v := range numbers[1:] {
			x.SetInt64(v)
			g.GCD(nil, nil, result, &x)
			result.Quo(result, &g).Mul(result, &x)
			product.Mul(product, &x)
		}
		if result.Cmp(product) < 0 {
			break
		}
	}
	answer := result.String()
	e := Entry{
		Question: "Find the Least Common Multiple (LCM) of these numbers: " + joinInts(numbers),
		Answer:   answer,
	}
	e.Meta = func() map[string]any {
		result, _ := new(big.Int).SetString(answer, 10)
		return map[string]any{
			"source_dataset": "lcm",
			"source_index":   idx,
			"numbers":        numbers,
			"result":         metadataInt(result),
			"difficulty": map[string]any{
				"numbers": []int{c.MinNumbers, c.MaxNumbers},
				"value":   []int64{c.MinValue, c.MaxValue},
			},
		}
	}
	return e, nil
}

func (t *lcmTask) Score(answer string, ok bool, e *Entry) float64 {
	return DefaultScore(answer, ok, e.Answer)
}
