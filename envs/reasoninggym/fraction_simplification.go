package reasoninggym

import (
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

type fractionSimplificationConfig struct {
	MinValue  int      `json:"min_value"`
	MaxValue  int      `json:"max_value"`
	MinFactor int      `json:"min_factor"`
	MaxFactor int      `json:"max_factor"`
	Styles    []string `json:"styles"`
}

type fractionSimplification struct{ c fractionSimplificationConfig }

func init() {
	Register("fraction_simplification", func(o Options) (Task, error) {
		c := fractionSimplificationConfig{
			MinValue: 1, MaxValue: 1000, MinFactor: 1, MaxFactor: 100,
			Styles: []string{"plain", "latex_inline", "latex_frac", "latex_dfrac"},
		}
		if err := decodeParams("fraction_simplification", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkMin("fraction_simplification", "min_value", c.MinValue, 1),
			checkStrictOrder("fraction_simplification", "min_value", c.MinValue, "max_value", c.MaxValue),
			checkMin("fraction_simplification", "min_factor", c.MinFactor, 1),
			checkOrder("fraction_simplification", "min_factor", c.MinFactor, "max_factor", c.MaxFactor),
		); err != nil {
			return nil, err
		}
		for _, s := range c.Styles {
			switch s {
			case "plain", "latex_inline", "latex_frac", "latex_dfrac":
			default:
				return nil, ConfigError("fraction_simplification", "invalid style %q in styles; must be one of plain, latex_inline, latex_frac, latex_dfrac", s)
			}
		}
		return &fractionSimplification{c}, nil
	})
}

func fracSimpGCD(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// fracSimpMul is a*b for positive ints as an int when it fits, else a *big.Int,
// so that metadata carries Python's exact integer either way.
func fracSimpMul(a, b int) any {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi == 0 && lo <= 1<<63-1 {
		return int(lo)
	}
	return new(big.Int).Mul(big.NewInt(int64(a)), big.NewInt(int64(b)))
}

func fracSimpFormat(num, den any, style string) string {
	n, d := fracSimpItoa(num), fracSimpItoa(den)
	switch style {
	case "latex_inline":
		return "$" + n + "/" + d + "$"
	case "latex_frac":
		return `$\frac{` + n + "}{" + d + "}$"
	case "latex_dfrac":
		return `$\dfrac{` + n + "}{" + d + "}$"
	}
	return n + "/" + d
}

func fracSimpItoa(v any) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case *big.Int:
		return x.String()
	}
	return ""
}

func (t *fractionSimplification) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	c := &t.c
	sn, sd, factor := 0, 0, 0
	found := false
	for attempt := 0; attempt < 10; attempt++ {
		sn = r.RandIntn(c.MinValue, c.MaxValue)
		sd = r.RandIntn(c.MinValue, c.MaxValue)
		g := fracSimpGCD(sn, sd)
		sn /= g
		sd /= g
		if c.MinValue <= sn && sn <= c.MaxValue && c.MinValue <= sd && sd <= c.MaxValue {
			if sn > sd {
				sn, sd = sd, sn
			}
			factor = r.RandIntn(c.MinFactor, c.MaxFactor)
			found = true
			break
		}
	}
	if !found {
		sn = r.RandIntn(c.MinValue, c.MaxValue)
		sd = r.RandIntn(c.MinValue, c.MaxValue)
		if sn > sd {
			sn, sd = sd, sn
		}
		factor = r.RandIntn(c.MinFactor, c.MaxFactor)
	}
	if len(c.Styles) == 0 {
		return Entry{}, ConfigError("fraction_simplification", "styles is empty, so randint(0, -1) has an empty range")
	}
	style := c.Styles[r.RandIntn(0, len(c.Styles)-1)]
	num, den := fracSimpMul(sn, factor), fracSimpMul(sd, factor)
	e := Entry{
		Question: "Simplify the fraction " + fracSimpFormat(num, den, style) + " to its lowest terms. Give only the simplified fraction as your final answer.",
		Answer:   fracSimpFormat(sn, sd, style),
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset":         "fraction_simplification",
			"source_index":           idx,
			"numerator":              num,
			"denominator":            den,
			"simplified_numerator":   sn,
			"simplified_denominator": sd,
			// num // simple_num, which is the factor since num = simple_num * factor.
			"reduction_factor": factor,
			"style":            style,
			"factor":           factor,
			"difficulty": map[string]any{
				"value":  []int{c.MinValue, c.MaxValue},
				"factor": []int{c.MinFactor, c.MaxFactor},
			},
		}
	}
	return e, nil
}

// fracSimpBig reads an integer metadata value (int, int64, *big.Int, or a
// float64 from a JSON round trip).
func fracSimpBig(v any) *big.Int {
	switch x := v.(type) {
	case int:
		return big.NewInt(int64(x))
	case int64:
		return big.NewInt(x)
	case *big.Int:
		return x
	case float64:
		b, _ := new(big.Float).SetFloat64(x).Int(nil)
		return b
	}
	return nil
}

func fracSimpEq(a *big.Int, v any) bool {
	b := fracSimpBig(v)
	return b != nil && a.Cmp(b) == 0
}

// fracSimpMatchLatex is re.match of \\(?:frac|dfrac)\s*{\s*(\d+)\s*}\s*{\s*(\d+)\s*}
// with IGNORECASE, returning the two digit groups.
func fracSimpMatchLatex(s string) (string, string, bool) {
	rs := []rune(s)
	i := 0
	if i >= len(rs) || rs[i] != '\\' {
		return "", "", false
	}
	i++
	word := func(w string) bool {
		if len(rs)-i < len(w) {
			return false
		}
		for k := 0; k < len(w); k++ {
			c := rs[i+k]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != rune(w[k]) {
				return false
			}
		}
		i += len(w)
		return true
	}
	if !word("frac") && !word("dfrac") {
		return "", "", false
	}
	spaces := func() {
		for i < len(rs) && pycompat.IsSpace(rs[i]) {
			i++
		}
	}
	group := func() (string, bool) {
		spaces()
		if i >= len(rs) || rs[i] != '{' {
			return "", false
		}
		i++
		spaces()
		st := i
		for i < len(rs) && pycompat.IsDecimal(rs[i]) {
			i++
		}
		if i == st {
			return "", false
		}
		g := string(rs[st:i])
		spaces()
		if i >= len(rs) || rs[i] != '}' {
			return "", false
		}
		i++
		return g, true
	}
	a, ok := group()
	if !ok {
		return "", "", false
	}
	b, ok := group()
	if !ok {
		return "", "", false
	}
	return a, b, true
}

// fracSimpExtract is the scorer's fraction parser; ok is false where Python ends
// up with None (no fraction found, or int() failing).
func fracSimpExtract(answer string) (*big.Int, *big.Int, bool) {
	cleaned := pycompat.Strip(strings.Trim(pycompat.Strip(answer), "$"))
	if a, b, ok := fracSimpMatchLatex(cleaned); ok {
		n, ok1 := pycompat.ParseInt(a)
		d, ok2 := pycompat.ParseInt(b)
		return n, d, ok1 && ok2
	}
	if k := strings.IndexByte(cleaned, '/'); k >= 0 {
		n, ok1 := pycompat.ParseInt(pycompat.Strip(cleaned[:k]))
		if !ok1 {
			return nil, nil, false
		}
		d, ok2 := pycompat.ParseInt(pycompat.Strip(cleaned[k+1:]))
		return n, d, ok2
	}
	return nil, nil, false
}

func (t *fractionSimplification) Score(answer string, ok bool, e *Entry) float64 {
	if !ok {
		return 0.01
	}
	n, d, parsed := fracSimpExtract(answer)
	if !parsed {
		return 0.01
	}
	m := e.Metadata
	switch {
	case fracSimpEq(n, m["simplified_numerator"]) && fracSimpEq(d, m["simplified_denominator"]):
		return 1
	case fracSimpEq(n, m["numerator"]) || fracSimpEq(d, m["denominator"]):
		return 0.1
	case pycompat.Strip(answer) != "":
		return 0.05
	}
	return 0.01
}
