// Package sympyeval evaluates answers the way reasoning-gym's countdown
// task scores them: Eval is float(sympy.parse_expr(answer)), for the
// subset of Python arithmetic that countdown answers are written in. It has
// one job, and no symbols: it is not a computer algebra system.
//
// Eval reproduces parse_expr with the standard transformations for the
// Python arithmetic subset: integer literals (decimal, hex, octal, binary,
// with underscores; more than 4300 digits raise as in Python), float
// literals (sympy Floats, with the precision sympy gives long literals),
// imaginary literals (auto_number's N*I), + - * / // % ** and unary + - ~,
// the Integer bit operators & | ^ << >>, parentheses, postfix ! and !!
// (factorial_notation), == and != over the whole expression, comments,
// line continuations, and newlines inside parentheses. Values follow
// sympy 1.14: exact rationals, Floats rounded at their precision (a zero
// result becomes the exact Zero), exact Gaussian rationals for I, zoo, nan,
// and the ZeroDivisionError/TypeError/ValueError cases, including sympy's
// own quirks (Integer // Rational uses int(rat) - 1 for negative quotients,
// a non-Half Rational // Integer truncates first, Rational / Float rounds
// twice, a Float in (0, 0.5) % 0 is itself, Float == Rational is False).
//
// # Known differences
//
// Eval returns an error (countdown scores 0.01) where sympy may give a
// number for:
//   - names (pi, E, sqrt(4), True, x - x + 5, keywords such as "or" and
//     "if"), strings, brackets, commas, attribute access, the comparisons
//     < <= > >=, and == or != inside parentheses;
//   - chained == and != whose later operands raise: Eval evaluates every
//     operand, Python stops at the first False one;
//   - the repeated-decimal notation 0.[3];
//   - non-real values other than Gaussian rationals ((-2)**(1/3), I**I,
//     Float*I products): they stay non-real to the end, where sympy may
//     turn them real again;
//   - factorial2 of an irrational value (sympy leaves it unevaluated);
//   - inputs on which Python runs for minutes or exhausts memory: decimal
//     exponents beyond ±2**30 and work beyond workBudget.
//
// # Approximations
//
// In the last bits, or for huge values:
//   - irrational powers are computed to about 200 bits and rounded as
//     sympy's evalf (powers of Rationals) or mpf_pow (Float powers) do, but
//     sympy keeps them symbolic, so sums and products of them
//     (2**(1/2)*2**(1/2) is exactly 2 there) can differ in the last bits,
//     and so can a later //, % or == on them;
//   - factorials of non-integers are float64 gamma values;
//   - exact values above maxExactBits bits (about 315,000 digits) continue
//     as 53-bit floats, where Python computes them exactly (9**9**9 takes
//     it hours); values beyond big.Float's exponent range (2**(2**31))
//     saturate there, and still convert to ±inf; float literals with an
//     exponent beyond ±100000 have a few rounding errors;
//   - Python raises RecursionError beyond an AST depth that depends on the
//     caller's stack depth; maxASTDepth is its value for a shallow stack;
//   - Unicode 15 additions (Go's tables) count as digits and letters,
//     which Python 3.11 does not know.
//
// # Layout
//
// lex.go tokenizes as Python's tokenizer and sympy's transformations see
// the text; parse.go evaluates while it parses, in Python's precedence;
// value.go holds the value kinds (rational, Float, zoo, nan, Gaussian,
// bool); arith.go, pow.go, factorial.go and literal.go are sympy's rules
// for each operation; bigmath.go is the big.Float log, exp and roots they
// need.
package sympyeval
