package iterative

import (
	"testing"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/reasoninggym"
)

// BenchmarkStep is one wrong attempt of a fresh leg_counting episode.
func BenchmarkStep(b *testing.B) {
	seed, size := int64(42), int64(10000)
	inner, err := reasoninggym.NewEnv(core.EnvConfig{Name: "leg_counting", Seed: &seed, Size: &size,
		AnswerExtractor: "tag_based"})
	if err != nil {
		b.Fatal(err)
	}
	env, _ := New(inner, nil)
	text := "Counting legs animal by animal, then adding them up. <answer>-1</answer>"
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s, _ := env.Reset(core.ResetRequest{TaskIndex: i % 10000})
		if _, err := s.Episode.Step(core.Action{Text: &text}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepOnly is one step of an episode reset outside the timer, in
// batches of 10,000 stepped in parallel as a batch step does.
func BenchmarkStepOnly(b *testing.B) {
	seed, size := int64(42), int64(10000)
	inner, err := reasoninggym.NewEnv(core.EnvConfig{Name: "leg_counting", Seed: &seed, Size: &size,
		AnswerExtractor: "tag_based"})
	if err != nil {
		b.Fatal(err)
	}
	env, _ := New(inner, nil)
	text := "Counting legs animal by animal, then adding them up. <answer>-1</answer>"
	runs := make([]*core.Run, 10000)
	b.ReportAllocs()
	for done := 0; done < b.N; done += len(runs) {
		b.StopTimer()
		for i := range runs {
			s, _ := env.Reset(core.ResetRequest{TaskIndex: i})
			runs[i] = core.NewRun(env, s)
		}
		b.StartTimer()
		core.ParallelFor(len(runs), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if _, _, err := runs[i].Step(0, core.Action{Text: &text}, 0); err != nil {
					panic(err)
				}
			}
		})
	}
}
