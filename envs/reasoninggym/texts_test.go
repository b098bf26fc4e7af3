package reasoninggym

import (
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

// TestTextsMatchGenerate checks, for every task that offers Texts, that it
// gives Generate's question and answer (same draws) and no metadata.
func TestTextsMatchGenerate(t *testing.T) {
	dir := testDataDir(t)
	offered := 0
	for _, name := range Names() {
		if name == "composite" { // made of other tasks: its entries come from theirs
			continue
		}
		task, err := NewTask(name, Options{Params: map[string]any{}, DataDir: dir, Seed: 7, Size: 100})
		if err != nil {
			t.Fatalf("NewTask(%s): %v", name, err)
		}
		tt, ok := task.(TextTask)
		if !ok {
			continue
		}
		offered++
		t.Run(name, func(t *testing.T) {
			for _, seed := range []int64{0, 42} {
				for idx := int64(0); idx < 200; idx++ {
					var r1, r2 pycompat.Random
					r1.SeedSum(seed, idx)
					r2.SeedSum(seed, idx)
					want, err1 := task.Generate(&r1, idx)
					got, err2 := tt.Texts(&r2, idx)
					if (err1 == nil) != (err2 == nil) {
						t.Fatalf("seed %d item %d: Generate error %v, Texts error %v", seed, idx, err1, err2)
					}
					if got.Question != want.Question || got.Answer != want.Answer {
						t.Fatalf("seed %d item %d: Texts gave (%q, %q), Generate (%q, %q)", seed, idx,
							got.Question, got.Answer, want.Question, want.Answer)
					}
					if got.Metadata != nil {
						t.Fatalf("seed %d item %d: Texts built metadata %v", seed, idx, got.Metadata)
					}
					if r1.Uint32() != r2.Uint32() {
						t.Fatalf("seed %d item %d: Texts drew a different number of random values", seed, idx)
					}
				}
			}
		})
	}
	if offered < 10 {
		t.Fatalf("only %d tasks offer Texts", offered)
	}
}
