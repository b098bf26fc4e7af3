package reasoninggym

import (
	"errors"
	"math"
	"math/big"
	"strconv"

	"github.com/llenvs/llenvs-go/pycompat"
)

type simpleEquationsConfig struct {
	MinTerms         int       `json:"min_terms"`
	MaxTerms         int       `json:"max_terms"`
	MinValue         int64     `json:"min_value"`
	MaxValue         int64     `json:"max_value"`
	Operators        []string  `json:"operators"`
	OperatorsWeights []float64 `json:"operators_weights"`
}

type simpleEquations struct {
	c      simpleEquationsConfig
	hasMul bool
}

func init() {
	Register("simple_equations", func(o Options) (Task, error) {
		c := simpleEquationsConfig{
			MinTerms: 2, MaxTerms: 4, MinValue: 1, MaxValue: 100,
			Operators:        []string{"+", "-", "*"},
			OperatorsWeights: []float64{0.4, 0.4, 0.2},
		}
		if err := decodeParams("simple_equations", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkMin("simple_equations", "min_terms", c.MinTerms, 1),
			checkOrder("simple_equations", "min_terms", c.MinTerms, "max_terms", c.MaxTerms),
			checkMin("simple_equations", "min_value", c.MinValue, 1),
			checkOrder("simple_equations", "min_value", c.MinValue, "max_value", c.MaxValue),
		); err != nil {
			return nil, err
		}
		if len(c.Operators) == 0 {
			return nil, ConfigError("simple_equations", "operators: must specify at least one operator")
		}
		hasMul := false
		for _, op := range c.Operators {
			switch op {
			case "+", "-":
			case "*":
				hasMul = true
			default:
				return nil, ConfigError("simple_equations", "operators: invalid operator specified: %q", op)
			}
		}
		sum := 0.0 // Python 3.11's sum(): plain left-to-right addition
		for _, w := range c.OperatorsWeights {
			sum += w
		}
		if !simpleEquationsRoundsToOne(sum) {
			return nil, ConfigError("simple_equations", "operators_weights must sum to 1.0 (rounded to one decimal), got %v summing to %v", c.OperatorsWeights, sum)
		}
		return &simpleEquations{c: c, hasMul: hasMul}, nil
	})
}

// simpleEquationsRoundsToOne reports whether Python's round(x, 1) == 1.0,
// i.e. whether the exact value of x lies strictly between 0.95 and 1.05
// (neither bound is a binary fraction, so there are no ties).
func simpleEquationsRoundsToOne(x float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return false
	}
	v := new(big.Rat).SetFloat64(x)
	return v.Cmp(big.NewRat(95, 100)) > 0 && v.Cmp(big.NewRat(105, 100)) < 0
}

var simpleEquationsTemplates = [][2]string{
	{"Find the value of ", " in the equation: "},
	{"Solve for ", ": "},
	{"Determine the value of ", " that satisfies: "},
}

const simpleEquationsLetters = "abcdefghijklmnopqrstuvwxyz"

func (t *simpleEquations) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	c := &t.c
	variable := string(simpleEquationsLetters[r.ChoiceIndex(len(simpleEquationsLetters))])
	numTerms := r.RandIntn(c.MinTerms, c.MaxTerms)
	terms := make([]int64, numTerms)
	for i := range terms {
		terms[i] = r.RandInt(c.MinValue, c.MaxValue)
	}
	varPos := r.RandIntn(0, numTerms-1)
	coef := r.RandInt(c.MinValue, c.MaxValue)
	xCoef := big.NewInt(1)
	if t.hasMul {
		xCoef.SetInt64(coef)
	}

	// The left side is always a*x + b: there is one x term and sympy
	// distributes numeric factors over sums.
	a, b := new(big.Int), new(big.Int)
	if varPos == 0 {
		a.Set(xCoef)
	} else {
		b.SetInt64(terms[0])
	}
	var k big.Int
	for i := 1; i < numTerms; i++ {
		if len(c.OperatorsWeights) != len(c.Operators) {
			return Entry{}, errors.New("ValueError: The number of weights does not match the population")
		}
		op := c.Operators[r.WeightedIndex(c.OperatorsWeights)]
		isX := i == varPos
		k.SetInt64(terms[i])
		switch op {
		case "+":
			if isX {
				a.Add(a, xCoef)
			} else {
				b.Add(b, &k)
			}
		case "-":
			if isX {
				a.Sub(a, xCoef)
			} else {
				b.Sub(b, &k)
			}
		default: // "*"
			if isX {
				a.Mul(b, xCoef)
				b.SetInt64(0)
			} else {
				a.Mul(a, &k)
				b.Mul(b, &k)
			}
		}
	}
	solution := r.RandInt(c.MinValue, c.MaxValue)
	rhs := new(big.Int).Mul(a, big.NewInt(solution))
	rhs.Add(rhs, b)
	equation := simpleEquationsLinear(a, b, variable) + " = " + rhs.String()
	tpl := simpleEquationsTemplates[r.ChoiceIndex(len(simpleEquationsTemplates))]
	weights := make([]float64, len(c.OperatorsWeights))
	copy(weights, c.OperatorsWeights)
	e := Entry{
		Question: tpl[0] + variable + tpl[1] + equation,
		Answer:   strconv.FormatInt(solution, 10),
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset": "simple_equations",
			"source_index":   idx,
			"equation":       equation,
			"variable":       variable,
			"difficulty": map[string]any{
				"min_terms":         c.MinTerms,
				"max_terms":         c.MaxTerms,
				"min_value":         c.MinValue,
				"max_value":         c.MaxValue,
				"operators_weights": weights,
			},
		}
	}
	return e, nil
}

// simpleEquationsLinear prints a*x + b the way sympy's str() does.
func simpleEquationsLinear(a, b *big.Int, x string) string {
	term := func(a *big.Int) string {
		switch {
		case a.IsInt64() && a.Int64() == 1:
			return x
		case a.IsInt64() && a.Int64() == -1:
			return "-" + x
		}
		return a.String() + "*" + x
	}
	switch {
	case a.Sign() == 0:
		return b.String()
	case b.Sign() == 0:
		return term(a)
	case a.Sign() < 0 && b.Sign() > 0:
		return b.String() + " - " + term(new(big.Int).Neg(a))
	case b.Sign() > 0:
		return term(a) + " + " + b.String()
	}
	return term(a) + " - " + new(big.Int).Neg(b).String()
}

func (t *simpleEquations) Score(answer string, ok bool, e *Entry) float64 {
	return DefaultScore(answer, ok, e.Answer)
}
