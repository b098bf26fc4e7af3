package main

import (
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

func BenchmarkToldStep(b *testing.B) {
	cfg, err := core.DecodeEnvConfig(map[string]any{"name": "leg_counting", "size": 100, "seed": 1,
		"iterative": map[string]any{"max_turns": 3}})
	if err != nil {
		b.Fatal(err)
	}
	env, err := core.NewEnvironment(cfg)
	if err != nil {
		b.Fatal(err)
	}
	text := "Counting legs animal by animal. <answer>-1</answer>"
	b.Run("reset", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			start, _ := env.Reset(core.ResetRequest{TaskIndex: i % 100})
			run := core.NewRun(env, start)
			run.Begin(&start.Observation)
		}
	})
	b.Run("step", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			start, _ := env.Reset(core.ResetRequest{TaskIndex: i % 100})
			run := core.NewRun(env, start)
			v := run.Begin(&start.Observation)
			b.StartTimer()
			_, _, _ = run.StepTold(0, core.Action{Text: &text}, v)
		}
	})
	b.Run("step+marshal", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			start, _ := env.Reset(core.ResetRequest{TaskIndex: i % 100})
			run := core.NewRun(env, start)
			v := run.Begin(&start.Observation)
			b.StartTimer()
			res, told, _ := run.StepTold(0, core.Action{Text: &text}, v)
			head, details := toldReply(res, told)
			if _, err := marshal(head); err != nil {
				b.Fatal(err)
			}
			if _, err := marshal(details); err != nil {
				b.Fatal(err)
			}
		}
	})
}
