package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
)

// FuzzScoredBatch scores arbitrary responses and builds the batches a
// scoring call returns: the answers read back as the extractions' answers
// (null where nothing was found), and every description as a JSON object
// that says whether an answer was found.
func FuzzScoredBatch(f *testing.F) {
	f.Add("<answer>4</answer>", "no tags")
	f.Add("<answer></answer>", "<answer>\xff\xfe</answer>")
	f.Add("<think><answer>1</answer></think>", strings.Repeat("<answer>", 100))
	n, seed := int64(8), int64(1)
	env, err := core.NewEnvironment(core.EnvConfig{Name: "leg_counting", Adapter: "reasoning_gym", Size: &n,
		Seed: &seed, PreCleaners: []any{"strip_thinking_tokens"}})
	if err != nil {
		f.Fatal(err)
	}
	st := env.(core.SingleTurn)
	f.Fuzz(func(t *testing.T, a, b string) {
		idx := []int64{0, 0, 7}
		texts := []string{a, b, a + b}
		outs := make([]core.Scored, len(texts))
		core.ScoreBatch(st, idx, texts, outs)
		scored, err := scoredBatch(outs)
		if err != nil {
			t.Fatal(err)
		}
		defer scored.free()
		described, err := describedBatch(st, idx, texts)
		if err != nil {
			t.Fatal(err)
		}
		defer described.free()
		for k, o := range outs {
			got := utf8At(scored.children[0], k)
			if (got != nil) != o.Extraction.Found || got != nil && *got != o.Extraction.Answer {
				t.Fatalf("item %d answer %v, extraction %+v", k, got, o.Extraction)
			}
			desc := utf8At(described.children[0], k)
			var m map[string]any
			if desc == nil || json.Unmarshal([]byte(*desc), &m) != nil || m["found"] != o.Extraction.Found {
				t.Fatalf("item %d description %v for extraction %+v", k, desc, o.Extraction)
			}
			if utf8At(described.children[1], k) == nil {
				t.Fatalf("item %d has no expected answer", k)
			}
		}
	})
}
