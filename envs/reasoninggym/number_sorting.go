package reasoninggym

import (
	"math"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

type numberSortingConfig struct {
	MinNumbers  int     `json:"min_numbers"`
	MaxNumbers  int     `json:"max_numbers"`
	MinDecimals int     `json:"min_decimals"`
	MaxDecimals int     `json:"max_decimals"`
	MinValue    float64 `json:"min_value"`
	MaxValue    float64 `json:"max_value"`
}

type numberSorting struct{ c numberSortingConfig }

func init() {
	Register("number_sorting", func(o Options) (Task, error) {
		c := numberSortingConfig{MinNumbers: 3, MaxNumbers: 10, MinDecimals: 0, MaxDecimals: 2, MinValue: -100, MaxValue: 100}
		if err := decodeParams("number_sorting", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkMin("number_sorting", "min_numbers", c.MinNumbers, 1),
			checkOrder("number_sorting", "min_numbers", c.MinNumbers, "max_numbers", c.MaxNumbers),
			checkMin("number_sorting", "min_decimals", c.MinDecimals, 0),
			checkOrder("number_sorting", "min_decimals", c.MinDecimals, "max_decimals", c.MaxDecimals),
			checkStrictOrder("number_sorting", "min_value", c.MinValue, "max_value", c.MaxValue),
		); err != nil {
			return nil, err
		}
		return &numberSorting{c}, nil
	})
}

const numberSortingInstruction = `
Please follow the instruction below:
## 1. Let all your answers be a list of numbers. Instead of reporting your answer as -69, -13, 1, 7, 11, 43, 59, 61, use ['-69', '-13', '1', '7', '11', '43', '59', '61'] instead
## 2. Convert all numbers in the square brackets as strings. For example, ['-69', '-13', '1', '7', '11', '43', '59', '61']
`

func (t *numberSorting) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	c := &t.c
	count := r.RandIntn(c.MinNumbers, c.MaxNumbers)
	nums := make([]float64, count)
	strs := make([]string, count)
	for i := range nums {
		x := r.Uniform(c.MinValue, c.MaxValue)
		d := r.RandIntn(c.MinDecimals, c.MaxDecimals)
		if d > math.MaxInt32 {
			return Entry{}, ConfigError("number_sorting", "decimals %d do not fit numpy's C int", d)
		}
		nums[i] = pycompat.NumpyRound(x, d)
		strs[i] = pycompat.FloatRepr(nums[i])
	}
	asc := r.ChoiceIndex(2) == 0
	order := pycompat.SortedIndices(nums, !asc)
	sorted := make([]string, count)
	for i, j := range order {
		sorted[i] = strs[j]
	}
	direction := "descending"
	if asc {
		direction = "ascending"
	}
	e := Entry{
		Question: "Sort these numbers in " + direction + " order: " + strings.Join(strs, ", ") + numberSortingInstruction,
		Answer:   nsPyStrList(sorted),
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset":   "number_sorting",
			"source_index":     idx,
			"original_numbers": strs,
			"direction":        direction,
			"sorted_numbers":   sorted,
			"numbers":          count,
			"difficulty": map[string]any{
				"numbers":  []int{c.MinNumbers, c.MaxNumbers},
				"decimals": []int{c.MinDecimals, c.MaxDecimals},
				"value":    []float64{c.MinValue, c.MaxValue},
			},
		}
	}
	return e, nil
}

// nsPyStrList is Python's str() of a list of strings that need no escaping
// (float reprs): ['a', 'b'].
func nsPyStrList(items []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('\'')
		b.WriteString(s)
		b.WriteByte('\'')
	}
	b.WriteByte(']')
	return b.String()
}

// nsParsePyStrList reads back the answer nsPyStrList wrote.
func nsParsePyStrList(s string) []string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ", ")
	for i, p := range parts {
		parts[i] = strings.Trim(p, "'")
	}
	return parts
}

func (t *numberSorting) Score(answer string, ok bool, e *Entry) float64 {
	if !ok {
		return 0
	}
	user, ok := pycompat.JSONFloatList(strings.ReplaceAll(answer, "'", `"`))
	if !ok {
		return 0
	}
	var expStrs []string
	if m, isList := e.Metadata["sorted_numbers"].([]string); isList {
		expStrs = m
	} else {
		expStrs = nsParsePyStrList(e.Answer)
	}
	if len(user) != len(expStrs) {
		return 0
	}
	expected := make([]float64, len(expStrs))
	for i, s := range expStrs {
		x, ok := pycompat.ParseFloat(s)
		if !ok {
			return 0
		}
		expected[i] = x
	}
	direction, _ := e.Metadata["direction"].(string)
	// user == sorted(user): list equality compares identity first, so an
	// element left in place equals itself even when it is NaN.
	order := pycompat.SortedIndices(user, direction != "ascending")
	for i, j := range order {
		if j != i && user[j] != user[i] {
			return 0
		}
	}
	for i := range user {
		if math.Abs(user[i]-expected[i]) > 1 {
			return 0
		}
	}
	return 1
}
