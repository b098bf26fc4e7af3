package sympyeval

import (
	"errors"

	"github.com/llenvs/llenvs-go/pycompat"
)

// Limits: Python's own, and the ones that keep an answer's work bounded
// where Python would run for minutes.
const (
	// maxExactBits bounds the size of exact intermediate values; larger
	// ones continue as 53-bit floats.
	maxExactBits = 1 << 20

	// maxFloatPrec bounds the precision of Floats (sympy gives long float
	// literals more precision).
	maxFloatPrec = 1 << 14

	// maxASTDepth is the AST depth at which CPython 3.11 (recursion limit
	// 1000, called from a shallow stack) raises RecursionError during
	// compilation.
	maxASTDepth = 2979

	// maxParens is CPython's limit on nested parentheses (the literal's
	// own Integer( call counts as one).
	maxParens = 200

	// workBudget bounds the total size of the big-number work of one
	// answer.
	workBudget = 1 << 30
)

// errNoValue is every failure: reasoning-gym catches any exception of
// parse_expr and float() alike, so no caller needs to tell them apart.
var errNoValue = errors.New("sympyeval: no float value (Python raises, float() refuses the result, or the expression is outside the supported subset)")

// Eval is float(sympy.parse_expr(answer)) with the standard
// transformations, for answers in the supported subset (see the package
// documentation). An error stands for any Python exception, including
// float() refusing a complex or infinite (zoo) result; a nan result (0/0)
// is math.NaN() without an error, as in Python.
func Eval(answer string) (float64, error) {
	s := pycompat.Strip(answer)
	toks, err := lex(s)
	if err != nil {
		return 0, err
	}
	p := &parser{toks: toks, budget: workBudget}
	v, info, err := p.comparison()
	if err != nil {
		return 0, err
	}
	if p.toks[p.pos].kind != tokEOF {
		return 0, errNoValue
	}
	if info.parens > maxParens || info.depth > maxASTDepth {
		return 0, errNoValue
	}
	return v.float64()
}
