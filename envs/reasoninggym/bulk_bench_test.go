package reasoninggym

import (
	"os"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

// BenchmarkTaskTextsBulk times bulk question/answer generation (what
// datasets are built from) per task, on one goroutine, per item. Tasks
// that read reasoning-gym's data files need RG_DATA_DIR.
func BenchmarkTaskTextsBulk(b *testing.B) {
	dir := os.Getenv("RG_DATA_DIR")
	for _, name := range []string{"leg_counting", "gcd", "lcm", "fraction_simplification", "chain_sum",
		"number_sorting", "shortest_path", "spell_backward", "letter_counting", "word_sorting"} {
		b.Run(name, func(b *testing.B) {
			size := int64(1 << 40)
			seed := int64(42)
			env, err := NewEnv(core.EnvConfig{Name: name, Size: &size, Seed: &seed, DataDir: dir})
			if err != nil {
				b.Skip(err)
			}
			const n = 1024
			idx := make([]int64, n)
			prompts := make([]string, n)
			truths := make([]*string, n)
			errs := make([]error, n)
			b.ResetTimer()
			for it := 0; it < b.N; it += n {
				for k := range idx {
					idx[k] = int64(it + k)
				}
				env.TaskTextsBulk(idx, prompts, truths, errs)
			}
		})
	}
}
