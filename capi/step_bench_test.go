package main

import (
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

// BenchmarkStepReply is one step of an iterative episode, told against the
// caller's observation and its reply encoded, with 20,000 other episodes
// alive (as a trainer holds them).
func BenchmarkStepReply(b *testing.B) {
	cfg, err := core.DecodeEnvConfig(map[string]any{"name": "leg_counting", "size": 20000, "seed": 1,
		"iterative": map[string]any{"max_turns": 3}})
	if err != nil {
		b.Fatal(err)
	}
	env, err := core.NewEnvironment(cfg)
	if err != nil {
		b.Fatal(err)
	}
	live := make([]*core.Run, 20000)
	versions := make([]uint64, len(live))
	for i := range live {
		start, err := env.Reset(core.ResetRequest{TaskIndex: i})
		if err != nil {
			b.Fatal(err)
		}
		live[i] = core.NewRun(env, start)
		versions[i] = live[i].Begin(&start.Observation)
	}
	text := "Counting legs animal by animal, then adding them up. <answer>-1</answer>"
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(live)
		if i > 0 && k == 0 {
			b.StopTimer()
			for j := range live {
				start, _ := env.Reset(core.ResetRequest{TaskIndex: j})
				live[j] = core.NewRun(env, start)
				versions[j] = live[j].Begin(&start.Observation)
			}
			b.StartTimer()
		}
		res, update, err := live[k].Step(0, core.Action{Text: &text}, versions[k])
		if err != nil {
			b.Fatal(err)
		}
		buf = appendStep(buf[:0], &res, update, 1)
	}
}

// BenchmarkResetReply is one reset as llenvs_env_reset makes it (episode,
// told version, reply encoded) with 20,000 episodes alive.
func BenchmarkResetReply(b *testing.B) {
	cfg, err := core.DecodeEnvConfig(map[string]any{"name": "leg_counting", "size": 20000, "seed": 1,
		"iterative": map[string]any{"max_turns": 3}})
	if err != nil {
		b.Fatal(err)
	}
	env, err := core.NewEnvironment(cfg)
	if err != nil {
		b.Fatal(err)
	}
	live := make([]*core.Run, 20000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start, err := env.Reset(core.ResetRequest{TaskIndex: i % len(live)})
		if err != nil {
			b.Fatal(err)
		}
		run := core.NewRun(env, start)
		version := run.Begin(&start.Observation)
		live[i%len(live)] = run
		start.Hidden.Entry = nil
		if _, err := marshal(map[string]any{"observation": start.Observation, "hidden": start.Hidden,
			"info": start.Info, "version": version, "entry_later": true}); err != nil {
			b.Fatal(err)
		}
	}
}
