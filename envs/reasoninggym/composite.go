package reasoninggym

import (
	"fmt"

	"github.com/llenvs/llenvs-go/pycompat"
)

// composite mixes native tasks by weight exactly as reasoning-gym's
// CompositeDataset does: sub-dataset i is seeded seed+i+1 unless its config
// sets a seed, item idx goes to the sub-dataset that
// Random(seed+idx).choices(range(n), weights=weights) picks, and that
// sub-dataset's own item idx is returned and scored by its own rule.
type composite struct {
	names   []string
	weights []float64
	subs    []Task
	seeds   []int64
	byName  map[string]int
}

type compositeSpec struct {
	Name   string         `json:"name"`
	Weight float64        `json:"weight"`
	Config map[string]any `json:"config"`
}

func init() {
	Register("composite", newComposite)
}

func newComposite(o Options) (Task, error) {
	var c struct {
		Datasets []any `json:"datasets"`
	}
	if err := decodeParams("composite", o.Params, &c); err != nil {
		return nil, err
	}
	if len(c.Datasets) == 0 {
		return nil, ConfigError("composite", "datasets must list at least one {name, weight, config}")
	}
	t := &composite{byName: map[string]int{}}
	for i, raw := range c.Datasets {
		m, ok := raw.(map[string]any)
		if !ok {
			return nil, ConfigError("composite", "datasets[%d] must be a mapping with name, weight and config", i)
		}
		if _, ok := m["weight"]; !ok {
			return nil, ConfigError("composite", "datasets[%d]: \"weight\" is required (a positive number)", i)
		}
		spec := compositeSpec{Config: map[string]any{}}
		if err := decodeParams(fmt.Sprintf("composite datasets[%d]", i), m, &spec); err != nil {
			return nil, err
		}
		if spec.Name == "" {
			return nil, ConfigError("composite", "datasets[%d]: name cannot be empty", i)
		}
		if spec.Name == "composite" {
			return nil, ConfigError("composite", "datasets[%d]: a composite cannot contain a composite", i)
		}
		if spec.Weight <= 0 {
			return nil, ConfigError("composite", "datasets[%d] (%s): weight must be positive, got %v", i, spec.Name, spec.Weight)
		}
		if _, dup := t.byName[spec.Name]; dup {
			return nil, ConfigError("composite", "duplicate dataset name %q", spec.Name)
		}
		params := map[string]any{}
		seed := o.Seed + int64(i) + 1
		if seed < o.Seed {
			return nil, ConfigError("composite", "seed %d + %d overflows a signed 64-bit integer; use a smaller seed", o.Seed, i+1)
		}
		for k, v := range spec.Config {
			switch k {
			case "seed":
				s, err := asInt64(v)
				if err != nil {
					return nil, ConfigError("composite", "datasets[%d] (%s): seed: %v", i, spec.Name, err)
				}
				seed = s
			case "size":
				// Sub-dataset sizes do not change which item an index gives.
			default:
				params[k] = v
			}
		}
		sub, err := NewTask(spec.Name, Options{Params: params, DataDir: o.DataDir, Seed: seed, Size: o.Size})
		if err != nil {
			return nil, fmt.Errorf("composite datasets[%d]: %w", i, err)
		}
		t.byName[spec.Name] = len(t.subs)
		t.names = append(t.names, spec.Name)
		t.weights = append(t.weights, spec.Weight)
		t.subs = append(t.subs, sub)
		t.seeds = append(t.seeds, seed)
	}
	return t, nil
}

func asInt64(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int:
		return int64(x), nil
	case float64:
		if x == float64(int64(x)) {
			return int64(x), nil
		}
	}
	return 0, fmt.Errorf("want an integer, got %v", v)
}

// Generate picks the sub-dataset with the composite's own per-item draw and
// generates that sub-dataset's item idx with its own generator.
func (t *composite) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	k := r.WeightedIndex(t.weights)
	var sr pycompat.Random
	sr.SeedSum(t.seeds[k], idx)
	return t.subs[k].Generate(&sr, idx)
}

// Score forwards to the task the entry came from.
func (t *composite) Score(answer string, ok bool, e *Entry) float64 {
	name, _ := e.Metadata["source_dataset"].(string)
	k, found := t.byName[name]
	if !found {
		return 0
	}
	return t.subs[k].Score(answer, ok, e)
}
