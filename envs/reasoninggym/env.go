package reasoninggym

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/verify"
)

// The capabilities of core (core/capabilities.go) this environment offers.
var (
	_ core.SingleTurn        = (*Env)(nil)
	_ core.Prefetcher        = (*Env)(nil)
	_ core.BulkTaskTexter    = (*Env)(nil)
	_ core.TaskScorer        = (*Env)(nil)
	_ core.ExpectedAnswers   = (*Env)(nil)
	_ core.ExtractorProvider = (*Env)(nil)
	_ core.EntrySource       = (*Env)(nil)
	_ core.AnswerScorer      = (*Env)(nil)
	_ core.TaskTexter        = (*Env)(nil)
)

// AdapterName is the adapter this package registers.
const AdapterName = "reasoning_gym"

// randomPool recycles generators: a Random is 2.5 KB of state, and one per
// generated item would dominate the garbage of bulk generation.
var randomPool = sync.Pool{New: func() any { return new(pycompat.Random) }}

// seedGroup is how many generators bulk generation seeds together:
// pycompat.SeedSums seeds 32 at once with vector instructions where the
// processor has them, four at once otherwise.
const seedGroup = 32

// getRandoms takes seedGroup generators from the pool; putRandoms returns them.
func getRandoms() *[seedGroup]*pycompat.Random {
	var rs [seedGroup]*pycompat.Random
	for c := range rs {
		rs[c] = randomPool.Get().(*pycompat.Random)
	}
	return &rs
}

func putRandoms(rs *[seedGroup]*pycompat.Random) {
	for _, r := range rs {
		randomPool.Put(r)
	}
}

// defaultSize is reasoning-gym's default dataset size.
const defaultSize = 500

// cacheLimit bounds the per-environment cache of generated entries.
const cacheLimit = 1 << 16

func init() {
	core.RegisterAdapter(core.Adapter{
		Name: AdapterName,
		New:  func(cfg core.EnvConfig) (core.Environment, error) { return NewEnv(cfg) },
		List: Names,
	})
}

// Env is a reasoning-gym task as a single-turn environment: reset shows
// item i's question, step scores a response with the configured extractor
// and the task's own score_answer. Generated entries are cached, since
// GRPO-style batches score many responses per prompt.
type Env struct {
	name      string
	task      Task
	seed      int64
	size      int
	extractor extract.Extractor
	signals   []core.SignalSpec
	cacheMu   sync.RWMutex
	cache     map[int]*Entry
}

// NewEnv builds the environment cfg describes.
func NewEnv(cfg core.EnvConfig) (*Env, error) {
	size := int64(defaultSize)
	if cfg.Size != nil {
		size = *cfg.Size
	}
	if err := core.CheckSize(cfg.Name, size); err != nil {
		return nil, err
	}
	var seed int64
	if cfg.Seed != nil {
		seed = *cfg.Seed
	} else {
		// reasoning-gym draws Random().randint(0, 2**32) when no seed is given.
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = int64(binary.LittleEndian.Uint64(b[:]) % (1<<32 + 1))
	}
	task, err := NewTask(cfg.Name, Options{Params: cfg.Params, DataDir: cfg.DataDir, Seed: seed, Size: int(size)})
	if err != nil {
		return nil, err
	}
	ex, err := core.BuildExtractor(cfg)
	if err != nil {
		return nil, err
	}
	// math_verify: the response checked by the math answer verifier
	// (verify.Score) against the expected answer.
	signals, err := core.BuildSignalsWith(cfg.ExtraRewards, map[string]core.RewardType{"format": core.Format, "math_verify": core.Outcome})
	if err != nil {
		return nil, err
	}
	return &Env{name: cfg.Name, task: task, seed: seed, size: int(size), extractor: ex,
		signals: signals, cache: map[int]*Entry{}}, nil
}

// Spec describes the environment; spec.name is the task name.
func (e *Env) Spec() core.Spec {
	return core.Spec{Name: e.name, Adapter: AdapterName, MaxSteps: 1, SupportsTaskIndex: true,
		SupportsLen: true, SupportsSeed: true, PureStep: true,
		Metadata: map[string]any{"dataset_size": e.size, "dataset_name": e.name, "seed": e.seed,
			"backend": "native", "extractor": e.extractor.Name()}}
}

// Len is the dataset size.
func (e *Env) Len() int { return e.size }

// Check reports whether i is a task index of this environment.
func (e *Env) Check(i int) error { return core.CheckIndex(i, e.size) }

// SignalSpecs lists correctness and the opt-in signals.
func (e *Env) SignalSpecs() []core.SignalSpec { return e.signals }

// Entry returns item i, generating and caching it on first use.
func (e *Env) Entry(i int) (*Entry, error) {
	if err := e.Check(i); err != nil {
		return nil, err
	}
	e.cacheMu.RLock()
	ent, ok := e.cache[i]
	e.cacheMu.RUnlock()
	if ok {
		return ent, nil
	}
	r := randomPool.Get().(*pycompat.Random)
	r.SeedSum(e.seed, int64(i))
	gen, err := Generate(e.task, r, int64(i))
	randomPool.Put(r)
	if err != nil {
		return nil, fmt.Errorf("%s: generating item %d: %w", e.name, i, err)
	}
	ent = &gen
	e.cacheMu.Lock()
	if len(e.cache) >= cacheLimit {
		clear(e.cache)
	}
	e.cache[i] = ent
	e.cacheMu.Unlock()
	return ent, nil
}

// Prefetch generates and caches the entries of the tasks in idx that are
// not cached yet, seeding generators seedGroup at a time (see
// pycompat.SeedSums). A task whose generation fails is skipped here; Entry
// reports its error when it is read.
func (e *Env) Prefetch(idx []int64) {
	if len(idx) < 4 {
		return // nothing to gain over generating on demand
	}
	todo := make([]int64, 0, len(idx))
	seen := make(map[int64]struct{}, len(idx))
	e.cacheMu.RLock()
	for _, i := range idx {
		if _, dup := seen[i]; dup || i < 0 || i >= int64(e.size) {
			continue
		}
		seen[i] = struct{}{}
		if _, ok := e.cache[int(i)]; !ok {
			todo = append(todo, i)
		}
	}
	e.cacheMu.RUnlock()
	if len(todo) > cacheLimit/2 {
		todo = todo[:cacheLimit/2] // the rest is generated on demand
	}
	rs := getRandoms()
	defer putRandoms(rs)
	var made [seedGroup]*Entry
	for k := 0; k < len(todo); k += seedGroup {
		group := todo[k:min(k+seedGroup, len(todo))]
		pycompat.SeedSums(rs[:len(group)], e.seed, group)
		for c, i := range group {
			made[c] = e.generate(rs[c], i)
		}
		e.cacheMu.Lock()
		if len(e.cache)+len(group) > cacheLimit {
			clear(e.cache)
		}
		for c, i := range group {
			if made[c] != nil {
				e.cache[int(i)] = made[c]
			}
		}
		e.cacheMu.Unlock()
	}
}

// TaskTextsBulk fills the prompt and ground truth of every task in idx (or
// its error), seeding generators seedGroup at a time. Entries already cached are
// reused; new ones are not cached, since a dataset build reads each once.
func (e *Env) TaskTextsBulk(idx []int64, prompts []string, truths []*string, errs []error) {
	rs := getRandoms()
	defer putRandoms(rs)
	var group [seedGroup]int64
	var at [seedGroup]int
	flush := func(g int) {
		pycompat.SeedSums(rs[:g], e.seed, group[:g])
		// The group's answers share one allocation, which truths point into.
		answers := make([]string, g)
		for c := 0; c < g; c++ {
			k := at[c]
			q, a, err := e.texts(rs[c], group[c])
			if err != nil {
				errs[k] = err
				continue
			}
			answers[c] = a
			prompts[k], truths[k] = q, &answers[c]
		}
	}
	g := 0
	// The cache is looked up under one read lock per window of tasks, not
	// one per task: the lock's reader count is shared by the goroutines.
	const window = 256
	var cached [window]bool
	for lo := 0; lo < len(idx); lo += window {
		hi := min(lo+window, len(idx))
		e.cacheMu.RLock()
		for k := lo; k < hi; k++ {
			i := idx[k]
			ent, ok := e.cache[int(i)]
			if ok {
				prompts[k], truths[k] = ent.Question, &ent.Answer
			}
			cached[k-lo] = ok
		}
		e.cacheMu.RUnlock()
		for k := lo; k < hi; k++ {
			if cached[k-lo] {
				continue
			}
			i := idx[k]
			if err := e.Check(int(i)); err != nil {
				errs[k] = err
				continue
			}
			group[g], at[g] = i, k
			g++
			if g == seedGroup {
				flush(g)
				g = 0
			}
		}
	}
	if g > 0 {
		flush(g)
	}
}

// texts generates entry i and keeps only its question and answer.
func (e *Env) texts(r *pycompat.Random, i int64) (q, a string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: generating item %d: %v", e.name, i, p)
		}
	}()
	// Task.Generate, not Generate: the metadata, if left to Entry.Meta, is
	// never built.
	gen, err := e.task.Generate(r, i)
	if err != nil {
		return "", "", fmt.Errorf("%s: generating item %d: %w", e.name, i, err)
	}
	return gen.Question, gen.Answer, nil
}

// generateErr makes entry i from a generator seeded for it, turning a
// failure or a panic of the task into an error.
func (e *Env) generateErr(r *pycompat.Random, i int64) (ent *Entry, err error) {
	defer func() {
		if p := recover(); p != nil {
			ent, err = nil, fmt.Errorf("%s: generating item %d: %v", e.name, i, p)
		}
	}()
	gen, err := Generate(e.task, r, i)
	if err != nil {
		return nil, fmt.Errorf("%s: generating item %d: %w", e.name, i, err)
	}
	return &gen, nil
}

// generate makes entry i from a generator seeded for it; nil when the task
// fails or panics.
func (e *Env) generate(r *pycompat.Random, i int64) *Entry {
	ent, _ := e.generateErr(r, i)
	return ent
}

// Reset starts the one-step episode of task r.TaskIndex; the seed is
// ignored, since items are fixed by index once the dataset seed is.
func (e *Env) Reset(r core.ResetRequest) (core.Start, error) {
	ent, err := e.Entry(r.TaskIndex)
	if err != nil {
		return core.Start{}, err
	}
	gt := ent.Answer
	return core.Start{
		Episode:     &core.SingleTurnEpisode{Env: e, TaskIndex: r.TaskIndex},
		Observation: core.Observation{Prompt: ent.Question, Task: &core.Content{Text: ent.Question}},
		Hidden:      core.Hidden{TaskIndex: r.TaskIndex, ExpectedAnswer: &gt, Entry: ent},
		Info:        map[string]any{"task_index": r.TaskIndex, "dataset_name": e.name, "question": ent.Question},
	}, nil
}

// ScoreText scores one response to task i.
func (e *Env) ScoreText(i int, text string, out *core.Scored) {
	ent, err := e.Entry(i)
	if err != nil {
		out.Err = err
		return
	}
	e.scoreEntry(ent, text, out)
}

// Task is the entry of task i, for ScoreTask (core.TaskScorer).
func (e *Env) Task(i int) (any, error) { return e.Entry(i) }

// ScoreTask is ScoreText against an entry Task returned.
func (e *Env) ScoreTask(task any, text string, out *core.Scored) {
	e.scoreEntry(task.(*Entry), text, out)
}

func (e *Env) scoreEntry(ent *Entry, text string, out *core.Scored) {
	x := e.extractor.Extract(text)
	out.Extraction = x
	total := 0.0
	for j, s := range e.signals {
		var v float64
		switch s.Name {
		case "correctness":
			if x.Found {
				v = core.FiniteOrZero(e.task.Score(x.Answer, true, ent))
			}
		case "format":
			if x.Found {
				v = 1
			}
		case "math_verify":
			var reason string
			v, reason = verify.Score(ent.Answer, text)
			if strings.Contains(reason, "over budget: ") {
				out.Err = fmt.Errorf("%w: math_verify: %s", core.ErrOverBudget, reason)
			}
		}
		out.Values[j] = v
		total += v * s.Weight
	}
	out.Total = total
}

// StepTask scores action a against task i (through ScoreText, as a batch
// does) and reports what llenvs' step reports.
func (e *Env) StepTask(i int, a core.Action) (core.StepResult, error) {
	ent, err := e.Entry(i)
	if err != nil {
		return core.StepResult{}, err
	}
	out := core.Scored{Values: make([]float64, len(e.signals))}
	if a.Text != nil {
		e.ScoreText(i, *a.Text, &out)
		if out.Err != nil {
			return core.StepResult{}, out.Err
		}
	}
	x := out.Extraction
	extMeta := e.extractor.Describe(x)
	var extracted any
	var extractedPtr *string
	if x.Found {
		extracted = x.Answer
		extractedPtr = &x.Answer
	}
	signals := make([]core.Signal, len(e.signals))
	for j, s := range e.signals {
		var meta map[string]any
		switch s.Name {
		case "correctness":
			if x.Found {
				meta = map[string]any{"extracted": extracted, "expected": ent.Answer, "extraction": extMeta}
			} else {
				meta = map[string]any{"extracted": nil, "extraction": extMeta}
			}
		case "format":
			meta = map[string]any{"extraction": extMeta}
		case "math_verify":
			reason := string(verify.ReasonNoAnswer)
			if a.Text != nil {
				_, reason = verify.Score(ent.Answer, *a.Text)
			}
			meta = map[string]any{"expected": ent.Answer, "reason": reason}
		}
		signals[j] = core.Signal{Name: s.Name, Type: s.Type, Reward: core.Float(out.Values[j]), Weight: s.Weight,
			Metadata: meta}
	}
	return core.StepResult{Signals: signals, Terminated: true, ExtractedAction: extractedPtr,
		ResolvedAction: extractedPtr,
		Info: map[string]any{"extracted_answer": extracted, "expected_answer": ent.Answer,
			"extraction_metadata": extMeta, "backend": "native"}}, nil
}

// Expected is the ground-truth answer of task i.
func (e *Env) Expected(i int) (string, error) {
	ent, err := e.Entry(i)
	if err != nil {
		return "", err
	}
	return ent.Answer, nil
}

// Extractor is the environment's answer extractor.
func (e *Env) Extractor() extract.Extractor { return e.extractor }

// EntryAny returns item i as reasoning-gym's entry dict would encode.
func (e *Env) EntryAny(i int) (any, error) {
	ent, err := e.Entry(i)
	if err != nil {
		return nil, err
	}
	return ent, nil
}

// ScoreAnswer is the task's own score_answer(answer, entry) for task i,
// with no extraction; a nil answer is Python's None.
func (e *Env) ScoreAnswer(i int, answer *string) (float64, error) {
	ent, err := e.Entry(i)
	if err != nil {
		return 0, err
	}
	return e.ScoreEntry(ent, answer), nil
}

// ScoreEntry is ScoreAnswer for the entry of a task already at hand (from
// Entry).
func (e *Env) ScoreEntry(ent *Entry, answer *string) float64 {
	if answer == nil {
		return e.task.Score("", false, ent)
	}
	return e.task.Score(*answer, true, ent)
}

// TaskTexts is the prompt and ground truth of task i, for building dataset
// items in bulk.
func (e *Env) TaskTexts(i int) (string, *string, error) {
	ent, err := e.Entry(i)
	if err != nil {
		return "", nil, err
	}
	return ent.Question, &ent.Answer, nil
}
