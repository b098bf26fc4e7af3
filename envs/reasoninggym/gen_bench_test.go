package reasoninggym

import (
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/pycompat"
)

func BenchmarkGenerateLegCounting(b *testing.B) {
	size := int64(1 << 30)
	seed := int64(42)
	env, err := NewEnv(core.EnvConfig{Name: "leg_counting", Size: &size, Seed: &seed})
	if err != nil {
		b.Fatal(err)
	}
	r := new(pycompat.Random)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.SeedSum(42, int64(i))
		if _, err := Generate(env.task, r, int64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTaskTextsLegCounting(b *testing.B) {
	size := int64(1 << 30)
	seed := int64(42)
	env, err := NewEnv(core.EnvConfig{Name: "leg_counting", Size: &size, Seed: &seed})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := env.TaskTexts(i); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPrefetchLegCounting(b *testing.B) {
	size := int64(1 << 30)
	seed := int64(42)
	env, err := NewEnv(core.EnvConfig{Name: "leg_counting", Size: &size, Seed: &seed})
	if err != nil {
		b.Fatal(err)
	}
	idx := make([]int64, 1024)
	b.ResetTimer()
	for i := 0; i < b.N; i += len(idx) {
		for k := range idx {
			idx[k] = int64(i + k)
		}
		env.Prefetch(idx)
	}
}

func BenchmarkScoreBatchOne(b *testing.B) {
	size := int64(512)
	seed := int64(42)
	env, err := NewEnv(core.EnvConfig{Name: "leg_counting", Size: &size, Seed: &seed})
	if err != nil {
		b.Fatal(err)
	}
	texts := []string{strings.Repeat("x", 1000) + "<answer>3</answer>"}
	idx := []int64{3}
	outs := make([]core.Scored, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		core.ScoreBatch(env, idx, texts, outs)
	}
}
