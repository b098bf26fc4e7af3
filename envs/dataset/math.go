package dataset

import "github.com/llenvs/llenvs-go/verify"

// The math verifier serves scoring="math" and llenvs' "math_verify" name.
// It is given the answer the answer extractor found, which it reads whole
// (verify.ScoreAnswer): it never looks inside it for a smaller answer.
func init() {
	RegisterScoring("math", verify.ScoreAnswer)
	RegisterScoring("math_verify", verify.ScoreAnswer)
}
