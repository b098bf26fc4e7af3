package reasoninggym

import (
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

type gcdConfig struct {
	MinNumbers int   `json:"min_numbers"`
	MaxNumbers int   `json:"max_numbers"`
	MinValue   int64 `json:"min_value"`
	MaxValue   int64 `json:"max_value"`
}

type gcdTask struct{ c gcdConfig }

func init() {
	Register("gcd", func(o Options) (Task, error) {
		c := gcdConfig{MinNumbers: 2, MaxNumbers: 2, MinValue: 1, MaxValue: 1000}
		if err := decodeParams("gcd", o.Params, &c); err != nil {
			return nil, err
		}
		if err := checkNumbersConfig("gcd", c.MinNumbers, c.MaxNumbers, c.MinValue, c.MaxValue); err != nil {
			return nil, err
		}
		return &gcdTask{c}, nil
	})
}

// checkNumbersConfig is the validate() shared by gcd and lcm.
func checkNumbersConfig(task string, minN, maxN int, minV, maxV int64) error {
	return firstError(
		checkMin(task, "min_numbers", minN, 2),
		checkOrder(task, "min_numbers", minN, "max_numbers", maxN),
		checkMin(task, "min_value", minV, 1),
		checkStrictOrder(task, "min_value", minV, "max_value", maxV),
	)
}

// joinInts is ", ".join(str(n) for n in nums).
func joinInts(nums []int64) string {
	var b strings.Builder
	for i, n := range nums {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(n, 10))
	}
	return b.String()
}

func (t *gcdTask) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	c := &t.c
	var numbers []int64
	var result int64
	// Up to three rounds to find numbers with a GCD above 1; the last
	// round's numbers are kept either way.
	for round := 0; round < 3; round++ {
		n := r.RandIntn(c.MinNumbers, c.MaxNumbers)
		numbers = make([]int64, n)
		for i := range numbers {
			numbers[i] = r.RandInt(c.MinValue, c.MaxValue)
		}
		result = numbers[0]
		for _, x := range numbers[1:] {
			result = int64(gcd64(uint64(result), uint64(x)))
		}
		if result > 1 {
			break
		}
	}
	e := Entry{
		Question: "Find the Greatest Common Divisor (GCD) of these numbers: " + joinInts(numbers) + ". Give only the GCD as your final answer.",
		Answer:   strconv.FormatInt(result, 10),
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset": "gcd",
			"source_index":   idx,
			"numbers":        numbers,
			"result":         result,
			"num_terms":      len(numbers),
			"difficulty": map[string]any{
				"num_terms": []int{c.MinNumbers, c.MaxNumbers},
				"value":     []int64{c.MinValue, c.MaxValue},
			},
		}
	}
	return e, nil
}

func (t *gcdTask) Score(answer string, ok bool, e *Entry) float64 {
	return DefaultScore(answer, ok, e.Answer)
}
