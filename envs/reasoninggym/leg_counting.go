package reasoninggym

import (
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

// legCountingAnimals is reasoning-gym's table of animals and leg counts, in
// the dict's insertion order, which is the population order random.sample
// draws from.
var legCountingAnimals = []struct {
	name string
	legs int
}{
	{"snake", 0}, {"sea slug", 0}, {"jellyfish", 0}, {"flatworm", 0}, {"leech", 0},
	{"chicken", 2}, {"bird", 2}, {"human", 2}, {"duck", 2},
	{"dog", 4}, {"cat", 4}, {"cow", 4}, {"horse", 4}, {"lion", 4}, {"elephant", 4},
	{"giraffe", 4}, {"tiger", 4}, {"deer", 4}, {"sheep", 4},
	{"starfish", 5},
	{"insect", 6}, {"ant", 6}, {"butterfly", 6}, {"beetle", 6}, {"bee", 6}, {"wasp", 6},
	{"grasshopper", 6}, {"cricket", 6}, {"cockroach", 6}, {"praying mantis", 6}, {"firefly", 6},
	{"spider", 8}, {"scorpion", 8},
	{"crab", 10}, {"lobster", 10}, {"shrimp", 10},
	{"woodlouse", 14},
}

type legCountingConfig struct {
	MinAnimals   int `json:"min_animals"`
	MaxAnimals   int `json:"max_animals"`
	MinInstances int `json:"min_instances"`
	MaxInstances int `json:"max_instances"`
}

type legCounting struct{ c legCountingConfig }

func init() {
	Register("leg_counting", func(o Options) (Task, error) {
		c := legCountingConfig{MinAnimals: 3, MaxAnimals: 10, MinInstances: 1, MaxInstances: 15}
		if err := decodeParams("leg_counting", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkMin("leg_counting", "min_animals", c.MinAnimals, 1),
			checkOrder("leg_counting", "min_animals", c.MinAnimals, "max_animals", c.MaxAnimals),
			checkMax("leg_counting", "max_animals", c.MaxAnimals, len(legCountingAnimals)),
			checkMin("leg_counting", "min_instances", c.MinInstances, 1),
			checkOrder("leg_counting", "min_instances", c.MinInstances, "max_instances", c.MaxInstances),
		); err != nil {
			return nil, err
		}
		return &legCounting{c}, nil
	})
}

const legCountingPrefix = "Your task is to count how many legs there are in total when given a list of animals.\n\nNow, how many legs are there in total if you have "

// Generate is reasoning-gym's __getitem__ for item idx: the same draws, in
// the same order. The metadata is left to Entry.Meta, built from the drawn
// values (picks, counts, total) only where it is read.
func (t *legCounting) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	c := &t.c
	k := r.RandIntn(c.MinAnimals, c.MaxAnimals)
	picks := r.SampleIndices(len(legCountingAnimals), k)
	var b strings.Builder
	b.Grow(len(legCountingPrefix) + 24*k + 2)
	b.WriteString(legCountingPrefix)
	counts := make([]int, k)
	total := 0
	for j, p := range picks {
		a := legCountingAnimals[p]
		count := r.RandIntn(c.MinInstances, c.MaxInstances)
		counts[j] = count
		total += count * a.legs
		if j > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(count))
		b.WriteByte(' ')
		b.WriteString(a.name)
		if count > 1 {
			b.WriteByte('s')
		}
	}
	b.WriteString("?\n")
	return Entry{
		Question: b.String(),
		Answer:   strconv.Itoa(total),
		Meta: func() map[string]any {
			animals := make(map[string]any, k)
			for j, p := range picks {
				animals[legCountingAnimals[p].name] = counts[j]
			}
			return map[string]any{
				"source_dataset": "leg_counting",
				"source_index":   idx,
				"animals":        animals,
				"num_animals":    len(animals),
				"total_legs":     total,
				"difficulty": map[string]any{
					"num_animals":   []int{c.MinAnimals, c.MaxAnimals},
					"num_instances": []int{c.MinInstances, c.MaxInstances},
				},
			}
		},
	}, nil
}

func (t *legCounting) Score(answer string, ok bool, e *Entry) float64 {
	return DefaultScore(answer, ok, e.Answer)
}
