// Package reasoninggym holds native Go ports of reasoning-gym tasks. For the
// same (seed, index, config) each port produces the question, answer and
// metadata that reasoning-gym 0.1.25 produces, and scores answers exactly as
// its score_answer does. Random draws go through pycompat.Random, a call-for-call
// reproduction of CPython's random.Random.
package reasoninggym
