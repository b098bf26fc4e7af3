package reasoninggym

import (
	"errors"
	"math/big"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

type basicArithmeticConfig struct {
	MinTerms         int      `json:"min_terms"`
	MaxTerms         int      `json:"max_terms"`
	MinDigits        int      `json:"min_digits"`
	MaxDigits        int      `json:"max_digits"`
	Operators        []string `json:"operators"`
	AllowParentheses bool     `json:"allow_parentheses"`
	AllowNegation    bool     `json:"allow_negation"`
	FormatStyle      string   `json:"format_style"`
	Whitespace       string   `json:"whitespace"`
}

type basicArithmetic struct {
	c basicArithmeticConfig
	// noDiv is the operator list without "/", used between the terms of an
	// unparenthesised run.
	noDiv []string
}

func init() {
	Register("basic_arithmetic", func(o Options) (Task, error) {
		c := basicArithmeticConfig{
			MinTerms: 2, MaxTerms: 6, MinDigits: 1, MaxDigits: 4,
			Operators:        []string{"+", "-", "*", "/"},
			AllowParentheses: true, AllowNegation: true,
			FormatStyle: "simple", Whitespace: "single",
		}
		if err := decodeParams("basic_arithmetic", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkMin("basic_arithmetic", "min_terms", c.MinTerms, 1),
			checkOrder("basic_arithmetic", "min_terms", c.MinTerms, "max_terms", c.MaxTerms),
			checkMin("basic_arithmetic", "min_digits", c.MinDigits, 1),
			checkOrder("basic_arithmetic", "min_digits", c.MinDigits, "max_digits", c.MaxDigits),
		); err != nil {
			return nil, err
		}
		if len(c.Operators) == 0 {
			return nil, ConfigError("basic_arithmetic", "operators: must provide at least one operator")
		}
		var noDiv []string
		for _, op := range c.Operators {
			switch op {
			case "+", "-", "*", "/":
			default:
				return nil, ConfigError("basic_arithmetic", "operators: unsupported operator: %q", op)
			}
			if op != "/" {
				noDiv = append(noDiv, op)
			}
		}
		return &basicArithmetic{c: c, noDiv: noDiv}, nil
	})
}

var basicArithmeticTemplates = []string{"What is %s?", "Solve %s.", "Compute %s.", "Evaluate: %s."}

func (t *basicArithmetic) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	c := &t.c
	numTerms := r.RandIntn(c.MinTerms, c.MaxTerms)
	numDigits := r.RandIntn(c.MinDigits, c.MaxDigits)
	var (
		expr   string
		result *big.Int
		err    error
	)
	if c.AllowParentheses {
		expr, result, err = t.complexTask(r, numTerms, numDigits)
	} else {
		expr, result, err = t.simpleTask(r, numTerms, numDigits)
	}
	if err != nil {
		return Entry{}, err
	}
	var question string
	if c.FormatStyle == "simple" {
		question = "Calculate " + expr + "."
	} else {
		tpl := basicArithmeticTemplates[r.ChoiceIndex(len(basicArithmeticTemplates))]
		question = strings.Replace(tpl, "%s", expr, 1)
	}
	e := Entry{
		Question: question,
		Answer:   result.String(),
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset": "basic_arithmetic",
			"source_index":   idx,
			"expression":     expr,
			"num_terms":      numTerms,
			"num_digits":     numDigits,
			"difficulty": map[string]any{
				"num_terms":  []int{c.MinTerms, c.MaxTerms},
				"num_digits": []int{c.MinDigits, c.MaxDigits},
			},
		}
	}
	return e, nil
}

var errBasicArithmeticEmptyChoice = errors.New("IndexError: Cannot choose from an empty sequence")

// complexTask builds a random expression tree with parentheses, divisions
// made exact by construction, and evaluates it with Python's semantics.
func (t *basicArithmetic) complexTask(r *pycompat.Random, numTerms, numDigits int) (string, *big.Int, error) {
	c := t.c
	hi := pow10(numDigits)
	hi.Sub(hi, bigOne) // 10**num_digits - 1
	lo := new(big.Int).Neg(hi)

	// divisorFor draws the divisor placed right after "/" for dividend.
	divisorFor := func(dividend *big.Int) string {
		if dividend.Sign() != 0 {
			divs := commonDivisors(new(big.Int).Abs(dividend))
			return divs[r.ChoiceIndex(len(divs))].String()
		}
		return r.RandIntBig(bigOne, hi).String()
	}

	var addTerms func(remaining int) ([]string, error)
	addTerms = func(remaining int) ([]string, error) {
		numLeft := r.RandIntn(1, remaining)
		numRight := remaining - numLeft

		var left []string
		if numLeft > 1 && r.Float() > 0.5 {
			if r.Float() > 0.5 && c.AllowNegation {
				left = append(left, "-(")
			} else {
				left = append(left, "(")
			}
			inner, err := addTerms(numLeft)
			if err != nil {
				return nil, err
			}
			left = append(left, inner...)
			left = append(left, ")")
		} else {
			for i := 0; i < numLeft; i++ {
				left = append(left, r.RandIntBig(lo, hi).String())
				if i+1 < numLeft {
					if len(t.noDiv) == 0 {
						return nil, errBasicArithmeticEmptyChoice
					}
					left = append(left, t.noDiv[r.ChoiceIndex(len(t.noDiv))])
				}
			}
		}
		if numRight == 0 {
			return left, nil
		}

		op := c.Operators[r.ChoiceIndex(len(c.Operators))]
		if op != "/" {
			left = append(left, op)
			right, err := addTerms(numRight)
			if err != nil {
				return nil, err
			}
			return append(left, right...), nil
		}

		src := left[len(left)-1]
		if src == ")" {
			src = strings.Join(left, "")
		}
		dividend, err := evalFloorDiv(src)
		if err != nil {
			return nil, err
		}
		left = append(left, op)
		if numRight == 1 {
			return append(left, divisorFor(dividend)), nil
		}
		right, err := addTerms(numRight - 1)
		if err != nil {
			return nil, err
		}
		if right[len(right)-1] == ")" {
			rv, err := evalFloorDiv(strings.Join(right, ""))
			if err != nil {
				return nil, err
			}
			var correction *big.Int
			if rv.Sign() == 0 {
				correction = big.NewInt(1)
			} else {
				g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(dividend), new(big.Int).Abs(rv))
				divs := commonDivisors(g)
				correction = new(big.Int).Sub(divs[r.ChoiceIndex(len(divs))], rv)
			}
			right = append(right[:len(right)-1], "+", correction.String(), ")")
		} else {
			left = append(left, divisorFor(dividend), "+")
		}
		return append(left, right...), nil
	}

	parts, err := addTerms(numTerms)
	if err != nil {
		return "", nil, err
	}
	var expr string
	switch c.Whitespace {
	case "no_space":
		expr = strings.Join(parts, "")
	case "single":
		expr = strings.Join(parts, " ")
	default:
		var b strings.Builder
		for _, p := range parts {
			if r.Float() < 0.15 {
				b.WriteByte(' ')
			}
			b.WriteString(p)
		}
		expr = strings.Trim(b.String(), " ")
	}
	expr = strings.ReplaceAll(expr, "/ 0", "/ 1")
	result, err := evalFloorDiv(expr)
	if err != nil {
		return "", nil, err
	}
	return expr, result, nil
}

// simpleTask builds a flat expression evaluated left to right; a division
// that cannot be exact is silently computed as a multiplication by a fresh
// constant while the text keeps the original "/ c" (as upstream does).
func (t *basicArithmetic) simpleTask(r *pycompat.Random, numTerms, numDigits int) (string, *big.Int, error) {
	c := t.c
	d := pow10(numDigits)
	consts := make([]*big.Int, numTerms)
	for i := range consts {
		consts[i] = r.RandIntBig(new(big.Int), d)
	}
	ops := make([]string, numTerms-1)
	for i := range ops {
		ops[i] = c.Operators[r.ChoiceIndex(len(c.Operators))]
	}
	dm1 := new(big.Int).Sub(d, bigOne)

	var b strings.Builder
	result := new(big.Int).Set(consts[0])
	b.WriteString(consts[0].String())
	for i, op := range ops {
		k := consts[i+1]
		b.WriteByte(' ')
		b.WriteString(op)
		b.WriteByte(' ')
		b.WriteString(k.String())
		switch op {
		case "+":
			result.Add(result, k)
		case "-":
			result.Sub(result, k)
		case "*":
			result.Mul(result, k)
		case "/":
			divs := basicArithmeticSmallDivisors(result, d)
			if len(divs) > 0 {
				floorDiv(result, result, big.NewInt(divs[r.ChoiceIndex(len(divs))]))
			} else {
				result.Mul(result, r.RandIntBig(bigOne, dm1))
			}
		}
	}
	return b.String(), result, nil
}

// basicArithmeticSmallDivisors lists d in [2, min(|x|, limit)) dividing x,
// ascending.
func basicArithmeticSmallDivisors(x, limit *big.Int) []int64 {
	bound := new(big.Int).Abs(x)
	if limit.Cmp(bound) < 0 {
		bound.Set(limit)
	}
	if !bound.IsInt64() {
		// Unreachable in practice: Python would loop for ages as well.
		bound.SetInt64(1<<63 - 1)
	}
	n := bound.Int64()
	var out []int64
	if x.IsInt64() {
		v := x.Int64()
		for d := int64(2); d < n; d++ {
			if v%d == 0 {
				out = append(out, d)
			}
		}
		return out
	}
	var bd, m big.Int
	for d := int64(2); d < n; d++ {
		bd.SetInt64(d)
		if m.Rem(x, &bd).Sign() == 0 {
			out = append(out, d)
		}
	}
	return out
}

func (t *basicArithmetic) Score(answer string, ok bool, e *Entry) float64 {
	return DefaultScore(answer, ok, e.Answer)
}
