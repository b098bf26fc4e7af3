package reasoninggym

import (
	"encoding/json"
	"testing"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/pycompat"
)

// TestLazyMetadata checks, for every task, the contract of Entry.Meta: the
// metadata a task leaves to it is the same whether it is built at once or
// after the generator has made another item, and building it draws nothing
// from the generator.
func TestLazyMetadata(t *testing.T) {
	dir := testDataDir(t)
	lazy := 0
	for _, name := range Names() {
		task, err := NewTask(name, Options{Params: textsTestParams(name), DataDir: dir, Seed: 7, Size: 100})
		if err != nil {
			t.Fatalf("NewTask(%s): %v", name, err)
		}
		var probe pycompat.Random
		probe.SeedSum(0, 0)
		if e, err := task.Generate(&probe, 0); err == nil && e.Meta != nil {
			lazy++
		}
		t.Run(name, func(t *testing.T) {
			for _, seed := range []int64{0, 42} {
				var r, again pycompat.Random
				for idx := int64(0); idx < 200; idx++ {
					r.SeedSum(seed, idx)
					e, err := task.Generate(&r, idx)
					if err != nil {
						continue
					}
					// Another item from the same generator: state a task reuses
					// between items would change under the pending Meta.
					r.SeedSum(seed, idx+1)
					_, _ = task.Generate(&r, idx+1)
					if e.Meta != nil && e.Metadata != nil {
						t.Fatalf("seed %d item %d: both Metadata and Meta set", seed, idx)
					}
					snap := r
					e.BuildMetadata()
					if r.Uint32() != snap.Uint32() {
						t.Fatalf("seed %d item %d: building the metadata drew from the generator", seed, idx)
					}
					// The same item made again, its metadata built while the
					// generator is still at the item's end.
					again.SeedSum(seed, idx)
					want, err := Generate(task, &again, idx)
					if err != nil {
						t.Fatalf("seed %d item %d: Generate: %v", seed, idx, err)
					}
					if e.Question != want.Question || e.Answer != want.Answer || e.Meta != nil || want.Meta != nil {
						t.Fatalf("seed %d item %d: entries differ: %q/%q vs %q/%q", seed, idx,
							e.Question, e.Answer, want.Question, want.Answer)
					}
					got, err1 := json.Marshal(e)
					exp, err2 := json.Marshal(want)
					if err1 != nil || err2 != nil {
						t.Fatalf("seed %d item %d: json: %v, %v", seed, idx, err1, err2)
					}
					if string(got) != string(exp) {
						t.Fatalf("seed %d item %d: metadata built late differs:\n%s\nwant\n%s", seed, idx, got, exp)
					}
				}
			}
		})
	}
	if lazy < 10 {
		t.Fatalf("only %d tasks leave their metadata to Entry.Meta", lazy)
	}
}

// TestBulkTextsMatchEntries checks that the bulk text path (which never
// builds metadata) gives the questions and answers of the full entries.
func TestBulkTextsMatchEntries(t *testing.T) {
	dir := testDataDir(t)
	size, seed := int64(300), int64(42)
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			bulk, err := NewEnv(core.EnvConfig{Name: name, Size: &size, Seed: &seed, DataDir: dir,
				Params: textsTestParams(name)})
			if err != nil {
				t.Fatalf("NewEnv: %v", err)
			}
			full, err := NewEnv(core.EnvConfig{Name: name, Size: &size, Seed: &seed, DataDir: dir,
				Params: textsTestParams(name)})
			if err != nil {
				t.Fatalf("NewEnv: %v", err)
			}
			idx := make([]int64, size)
			for k := range idx {
				idx[k] = int64(k)
			}
			prompts := make([]string, size)
			truths := make([]*string, size)
			errs := make([]error, size)
			bulk.TaskTextsBulk(idx, prompts, truths, errs)
			for k := range idx {
				ent, err := full.Entry(k)
				if (err == nil) != (errs[k] == nil) {
					t.Fatalf("item %d: Entry error %v, bulk error %v", k, err, errs[k])
				}
				if err != nil {
					continue
				}
				if ent.Metadata == nil || ent.Meta != nil {
					t.Fatalf("item %d: Entry's metadata not built", k)
				}
				if prompts[k] != ent.Question || *truths[k] != ent.Answer {
					t.Fatalf("item %d: bulk gave (%q, %q), Entry (%q, %q)", k, prompts[k], *truths[k],
						ent.Question, ent.Answer)
				}
			}
		})
	}
}

// textsTestParams is the default config of a task, or for composite one
// made of two tasks.
func textsTestParams(name string) map[string]any {
	if name != "composite" {
		return map[string]any{}
	}
	return map[string]any{"datasets": []any{
		map[string]any{"name": "leg_counting", "weight": 1.0},
		map[string]any{"name": "gcd", "weight": 2.0},
	}}
}
