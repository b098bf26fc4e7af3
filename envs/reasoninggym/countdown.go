package reasoninggym

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

// countdownMaxNumbers bounds max_numbers: reasoning-gym has no bound, but
// sympy could not build such expressions in reasonable time either.
const countdownMaxNumbers = 10000

type countdownConfig struct {
	MinNumbers int   `json:"min_numbers"`
	MaxNumbers int   `json:"max_numbers"`
	MinValue   int64 `json:"min_value"`
	MaxValue   int64 `json:"max_value"`
	MinTarget  int64 `json:"min_target"`
	MaxTarget  int64 `json:"max_target"`
	Operators  any   `json:"operators"`
	Shuffle    bool  `json:"shuffle"`
}

type countdown struct {
	c   countdownConfig
	ops []byte
}

func init() {
	Register("countdown", newCountdown)
}

func newCountdown(o Options) (Task, error) {
	c := countdownConfig{MinNumbers: 4, MaxNumbers: 6, MinValue: 1, MaxValue: 100, MinTarget: 100, MaxTarget: 999,
		Operators: []any{"+", "-", "*", "/"}, Shuffle: true}
	if err := decodeParams("countdown", o.Params, &c); err != nil {
		return nil, err
	}
	if err := firstError(
		checkMin("countdown", "min_numbers", c.MinNumbers, 2),
		checkOrder("countdown", "min_numbers", c.MinNumbers, "max_numbers", c.MaxNumbers),
		checkMax("countdown", "max_numbers", c.MaxNumbers, countdownMaxNumbers),
		checkMin("countdown", "min_value", c.MinValue, 1),
		checkOrder("countdown", "min_value", c.MinValue, "max_value", c.MaxValue),
		checkMin("countdown", "min_target", c.MinTarget, 1),
		checkOrder("countdown", "min_target", c.MinTarget, "max_target", c.MaxTarget),
	); err != nil {
		return nil, err
	}
	// operators is a tuple of one-character strings; a plain string works
	// the same way in Python (one operator per character).
	var ops []byte
	bad := func(v any) error {
		return ConfigError("countdown", "invalid operator specified: %v (operators must be among +, -, *, /)", v)
	}
	switch x := c.Operators.(type) {
	case string:
		for _, ch := range x {
			if !strings.ContainsRune("+-*/", ch) {
				return nil, bad(string(ch))
			}
			ops = append(ops, byte(ch))
		}
	case []any:
		for _, it := range x {
			s, ok := it.(string)
			if !ok || len(s) != 1 || !strings.Contains("+-*/", s) {
				return nil, bad(it)
			}
			ops = append(ops, s[0])
		}
	default:
		return nil, ConfigError("countdown", "operators must be a list of operator strings, got %T", c.Operators)
	}
	if len(ops) == 0 {
		return nil, ConfigError("countdown", "must specify at least one operator")
	}
	return &countdown{c: c, ops: ops}, nil
}

const countdownFormat = "%s\n\nFinal answer format instructions:\n" +
	"1. Provide your solution as a arithmetic expression (no '=' sign).\n" +
	"2. Do not include the target number in the expression.\n" +
	"3. Use '*' for multiplication.\n" +
	"4. Use '/' for division.\n" +
	"5. Do not include any other text or formatting.\n"

func (t *countdown) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	c := &t.c
	n := r.RandIntn(c.MinNumbers, c.MaxNumbers)
	var (
		nums   []int64
		expr   *sympyExpr
		target int64
		found  bool
	)
	for attempt := 0; attempt < 100 && !found; attempt++ {
		nums, expr, target, found = t.candidate(r, n)
	}
	if !found {
		return Entry{}, fmt.Errorf("countdown: failed to generate valid expression after 100 attempts")
	}
	exprStr := expr.String(nums)
	if c.Shuffle {
		r.Shuffle(len(nums), func(i, j int) { nums[i], nums[j] = nums[j], nums[i] })
	}
	strs := make([]string, len(nums))
	for i, v := range nums {
		strs[i] = strconv.FormatInt(v, 10)
	}
	numbersStr := strings.Join(strs, ", ")
	ts := strconv.FormatInt(target, 10)
	var q string
	switch r.ChoiceIndex(3) {
	case 0:
		q = "Using all the numbers " + numbersStr + ", create an expression that equals " + ts + ".\nYou can only use each number once."
	case 1:
		q = "Find a way to make " + ts + " using all of these numbers: " + numbersStr + ".\nEach number can only be used once."
	default:
		q = "Calculate " + ts + " using all of these numbers: " + numbersStr + ".\nEach number may be used at most once."
	}
	e := Entry{
		Question: fmt.Sprintf(countdownFormat, q),
		Answer:   exprStr,
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset": "countdown",
			"source_index":   idx,
			"numbers":        nums,
			"target":         target,
			"expression":     exprStr,
			"difficulty": map[string]any{
				"numbers": []int{c.MinNumbers, c.MaxNumbers},
				"target":  []int64{c.MinTarget, c.MaxTarget},
				"value":   []int64{c.MinValue, c.MaxValue},
			},
		}
	}
	return e, nil
}

// candidate draws one candidate expression exactly as reasoning-gym's
// _generate_candidate_expression does and reports whether its value is
// within the target range.
func (t *countdown) candidate(r *pycompat.Random, n int) ([]int64, *sympyExpr, int64, bool) {
	nums := make([]int64, n)
	for i := range nums {
		nums[i] = r.RandInt(t.c.MinValue, t.c.MaxValue)
	}
	e := sympySymbol(0)
	v := big.NewInt(nums[0])
	x := new(big.Int)
	m := new(big.Int)
	for i := 1; i < n; i++ {
		op := t.ops[r.ChoiceIndex(len(t.ops))]
		switch op {
		case '+':
			e = e.add(i, false)
			v.Add(v, x.SetInt64(nums[i]))
		case '-':
			e = e.add(i, true)
			v.Sub(v, x.SetInt64(nums[i]))
		case '*':
			e = e.mul(i, false)
			v.Mul(v, x.SetInt64(nums[i]))
		default:
			if nums[i] == 0 {
				e = e.add(i, false)
				v.Add(v, x.SetInt64(nums[i]))
				continue
			}
			var rem []int64
			for _, y := range nums[i:] {
				if y != 0 {
					rem = append(rem, y)
				}
			}
			r.Shuffle(len(rem), func(a, b int) { rem[a], rem[b] = rem[b], rem[a] })
			divided := false
			for _, d := range rem {
				x.SetInt64(d)
				if m.Rem(v, x).Sign() == 0 {
					nums[i] = d
					e = e.mul(i, true)
					v.Quo(v, x)
					divided = true
					break
				}
			}
			if !divided {
				e = e.add(i, true)
				v.Sub(v, x.SetInt64(nums[i]))
			}
		}
	}
	if !v.IsInt64() {
		return nums, e, 0, false
	}
	target := v.Int64()
	return nums, e, target, target >= t.c.MinTarget && target <= t.c.MaxTarget
}

// sympyExpr is the shape sympy gives the left-fold expression over the symbols
// x_0..x_{n-1}: a symbol, an Add of (possibly negated) symbols and at most
// one Mul, or a Mul of symbols, inverse symbols and at most one Add.
type sympyExpr struct {
	kind  byte // 's' symbol, 'a' Add, 'm' Mul
	sym   int
	terms []sympyTerm // Add
	num   []int       // Mul: symbols with exponent 1
	den   []int       // Mul: symbols with exponent -1
	inner *sympyExpr  // Mul: the Add factor, if any
}

// sympyTerm is one term of an Add, negated for a subtraction.
type sympyTerm struct {
	neg bool
	e   *sympyExpr
}

// sympySymbol is the symbol x_i.
func sympySymbol(i int) *sympyExpr { return &sympyExpr{kind: 's', sym: i} }

// add returns e + x_i (or e - x_i); sympy flattens nested Adds.
func (e *sympyExpr) add(i int, neg bool) *sympyExpr {
	if e.kind == 'a' {
		e.terms = append(e.terms, sympyTerm{neg, sympySymbol(i)})
		return e
	}
	return &sympyExpr{kind: 'a', terms: []sympyTerm{{false, e}, {neg, sympySymbol(i)}}}
}

// mul returns e * x_i (or e / x_i); sympy flattens nested Muls.
func (e *sympyExpr) mul(i int, inv bool) *sympyExpr {
	var m *sympyExpr
	switch e.kind {
	case 'm':
		m = e
	case 's':
		m = &sympyExpr{kind: 'm', num: []int{e.sym}}
	default:
		m = &sympyExpr{kind: 'm', inner: e}
	}
	if inv {
		m.den = append(m.den, i)
	} else {
		m.num = append(m.num, i)
	}
	return m
}

// symbolName is the sympy symbol name of x_i, which orders the printed terms.
func symbolName(i int) string { return "x_" + strconv.Itoa(i) }

func symbolNameLess(a, b int) bool { return symbolName(a) < symbolName(b) }

// String prints e as sympy's str() does, with each symbol x_i replaced by
// nums[i].
func (e *sympyExpr) String(nums []int64) string {
	var b strings.Builder
	e.write(&b, nums)
	return b.String()
}

// lead returns the first generator of e in sympy's order (the symbol with
// the smallest name; an Add factor sorts after every symbol) and its
// exponent: the term that has it decides the lexicographic comparison.
func (e *sympyExpr) lead() (int, int) {
	if e.kind == 's' {
		return e.sym, 1
	}
	best, exp := -1, 0
	for _, s := range e.num {
		if best < 0 || symbolNameLess(s, best) {
			best, exp = s, 1
		}
	}
	for _, s := range e.den {
		if best < 0 || symbolNameLess(s, best) {
			best, exp = s, -1
		}
	}
	return best, exp
}

func (e *sympyExpr) write(b *strings.Builder, nums []int64) {
	switch e.kind {
	case 's':
		b.WriteString(strconv.FormatInt(nums[e.sym], 10))
	case 'm':
		num := append([]int(nil), e.num...)
		den := append([]int(nil), e.den...)
		sort.Slice(num, func(i, j int) bool { return symbolNameLess(num[i], num[j]) })
		sort.Slice(den, func(i, j int) bool { return symbolNameLess(den[i], den[j]) })
		for k, s := range num {
			if k > 0 {
				b.WriteByte('*')
			}
			b.WriteString(strconv.FormatInt(nums[s], 10))
		}
		if e.inner != nil {
			if len(num) > 0 {
				b.WriteByte('*')
			}
			b.WriteByte('(')
			e.inner.write(b, nums)
			b.WriteByte(')')
		}
		if len(den) == 0 {
			return
		}
		b.WriteByte('/')
		if len(den) > 1 {
			b.WriteByte('(')
		}
		for k, s := range den {
			if k > 0 {
				b.WriteByte('*')
			}
			b.WriteString(strconv.FormatInt(nums[s], 10))
		}
		if len(den) > 1 {
			b.WriteByte(')')
		}
	case 'a':
		// as_ordered_terms: monomials over the sorted generators in
		// descending lexicographic order. Every symbol occurs in exactly
		// one term, so two terms compare at the first generator of
		// either, and the term holding it comes first iff its exponent
		// there is positive.
		type keyed struct {
			t   sympyTerm
			g   int
			exp int
		}
		ts := make([]keyed, len(e.terms))
		for k, t := range e.terms {
			g, x := t.e.lead()
			ts[k] = keyed{t, g, x}
		}
		sort.SliceStable(ts, func(i, j int) bool {
			if symbolNameLess(ts[i].g, ts[j].g) {
				return ts[i].exp > 0
			}
			return ts[j].exp < 0
		})
		for k, t := range ts {
			switch {
			case k == 0 && t.t.neg:
				b.WriteByte('-')
			case k > 0 && t.t.neg:
				b.WriteString(" - ")
			case k > 0:
				b.WriteString(" + ")
			}
			t.t.e.write(b, nums)
		}
	}
}
