package calculator

import (
	"testing"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/toolcall"
)

// benchEpisodes is the environment of scripts/bench_tool_episodes.py in
// one tool-call format, with each task's two actions: one call of the
// calculator, then the right answer.
func benchEpisodes(b *testing.B, format string, size int) (env *Env, calls, answers []string) {
	b.Helper()
	f, _ := toolcall.FormatByName(format)
	seed, n := int64(11), int64(size)
	env, err := New(core.EnvConfig{Name: Name, Adapter: "native", Seed: &seed, Size: &n,
		Params: map[string]any{"tool_call_format": format, "max_turns": int64(4)}})
	if err != nil {
		b.Fatal(err)
	}
	calls, answers = make([]string, size), make([]string, size)
	for i := range calls {
		ent, _ := env.tasks.Entry(i)
		call := f.Render(core.ToolCall{Name: ToolName, Arguments: map[string]any{"expression": "12 * (3 + 4)"}})
		if format == toolcall.Llama3JSON {
			call = toolcall.PythonTag + call
		}
		calls[i] = "I will use the calculator.\n" + call
		answers[i] = "<answer>" + ent.Answer + "</answer>"
	}
	return env, calls, answers
}

// BenchmarkEpisode is an episode of scripts/bench_tool_episodes.py per
// format: reset, one call of the calculator, then the right answer.
func BenchmarkEpisode(b *testing.B) {
	for _, name := range toolcall.Names() {
		const size = 2000
		env, calls, answers := benchEpisodes(b, name, size)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				k := i % size
				start, err := env.Reset(core.ResetRequest{TaskIndex: k})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := start.Episode.Step(core.Action{Text: &calls[k]}); err != nil {
					b.Fatal(err)
				}
				if _, err := start.Episode.Step(core.Action{Text: &answers[k]}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSteps is the part of BenchmarkEpisode that the script times: the
// two steps of an episode already reset (the resets are not timed).
func BenchmarkSteps(b *testing.B) {
	for _, name := range toolcall.Names() {
		const size = 2000
		env, calls, answers := benchEpisodes(b, name, size)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			episodes := make([]core.Episode, size)
			for i := 0; i < b.N; i++ {
				k := i % size
				if k == 0 {
					b.StopTimer()
					for j := range episodes {
						start, err := env.Reset(core.ResetRequest{TaskIndex: j})
						if err != nil {
							b.Fatal(err)
						}
						episodes[j] = start.Episode
					}
					b.StartTimer()
				}
				if _, err := episodes[k].Step(core.Action{Text: &calls[k]}); err != nil {
					b.Fatal(err)
				}
				if _, err := episodes[k].Step(core.Action{Text: &answers[k]}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
