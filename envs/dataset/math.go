package dataset

import "github.com/llenvs/llenvs-go/verify"

// The math verifier serves scoring="math" and llenvs' "math_verify" name.
func init() {
	RegisterScoring("math", verify.Score)
	RegisterScoring("math_verify", verify.Score)
}
