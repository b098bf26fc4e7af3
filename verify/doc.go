// Package verify checks math answers: it finds the answer in a model's
// free-text response (\boxed{…}, $…$, "the final answer is …", a plain
// number), parses it (LaTeX or plain notation) into a value and decides
// whether two values are equal the way a careful grader would.
//
// Values are numbers (integers, decimals, fractions, mixed numbers,
// percentages, scientific notation, roots, π, e), algebraic expressions,
// equations and inequalities, tuples, finite sets, intervals and unions of
// intervals, and text. Numbers are exact big rationals; expressions are
// compared in a canonical rational-function form over exact rationals, and
// where that cannot decide (roots, π, functions), numerically at fixed and
// random points. A decimal written by the model is compared with the
// reference after rounding both to Options.FloatRounding places.
//
// Every Parse and Equal runs under a Budget (input size, expression depth
// and size, arithmetic steps, size of exact numbers): past it the verdict is
// false with a Reason that says which limit was hit. Nothing here hangs,
// panics out of the package or allocates without bound; power towers such
// as 9^9^9^9 are refused, not computed.
//
// The rules follow the Python package math-verify (0.9) closely so that
// scores agree with it; docs/math-verify.md lists the grammar, the
// equality rules, the budgets and the known differences.
package verify
