package reasoninggym

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// Entry is one generated item: reasoning-gym's {"question", "answer",
// "metadata"} dict. Metadata values are plain Go values that encode to the
// JSON of the Python metadata (tuples become lists).
//
// A task's Generate may leave Metadata nil and set Meta instead: a func that
// builds the metadata from the values the generator drew. The bulk paths
// that need only the question and answer (datasets) then never build it,
// and Generate (the package function) runs Meta for every other caller.
// Meta must draw nothing from the generator and must not read state that a
// later Generate changes: it may run after the generator has moved on.
type Entry struct {
	Question string                `json:"question"`
	Answer   string                `json:"answer"`
	Metadata map[string]any        `json:"metadata"`
	Meta     func() map[string]any `json:"-"`
}

// BuildMetadata runs e.Meta, if set, into e.Metadata and clears it.
func (e *Entry) BuildMetadata() {
	if e.Meta != nil {
		e.Metadata = e.Meta()
		e.Meta = nil
	}
}

// Task is one configured reasoning-gym dataset.
type Task interface {
	// Generate builds item idx; r is random.Random(seed + idx), already
	// seeded, exactly as reasoning-gym seeds its per-item generator. The
	// entry's metadata may be left to Entry.Meta; the package function
	// Generate returns it built.
	Generate(r *pycompat.Random, idx int64) (Entry, error)
	// Score is the dataset's score_answer(answer, entry); ok is false when
	// answer is Python's None.
	Score(answer string, ok bool, e *Entry) float64
}

// Generate is t's item idx with its metadata built (Task.Generate, then
// Entry.BuildMetadata).
func Generate(t Task, r *pycompat.Random, idx int64) (Entry, error) {
	e, err := t.Generate(r, idx)
	if err != nil {
		return e, err
	}
	e.BuildMetadata()
	return e, nil
}

// Options is what a task factory gets: the task's own config fields (those
// of its reasoning-gym config class, minus seed and size) and the directory
// holding reasoning-gym's data files, for the tasks that need them.
type Options struct {
	Params  map[string]any
	DataDir string
	// Seed and Size are the dataset's; only tasks made of other tasks
	// (composite) need them.
	Seed int64
	Size int
}

// Factory validates a config and builds a Task.
type Factory func(o Options) (Task, error)

var (
	tasksMu sync.RWMutex
	tasks   = map[string]Factory{}
)

// Register makes a task available by its reasoning-gym name.
func Register(name string, f Factory) {
	tasksMu.Lock()
	defer tasksMu.Unlock()
	if _, dup := tasks[name]; dup {
		panic("reasoninggym: task " + name + " registered twice")
	}
	tasks[name] = f
}

// Names lists the natively ported tasks, sorted.
func Names() []string {
	tasksMu.RLock()
	defer tasksMu.RUnlock()
	names := make([]string, 0, len(tasks))
	for n := range tasks {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewTask builds the named task from its config.
func NewTask(name string, o Options) (Task, error) {
	tasksMu.RLock()
	f, ok := tasks[name]
	tasksMu.RUnlock()
	if !ok {
		return nil, strictcfg.NotFound("reasoning-gym task", name, "has no native port", Names())
	}
	if o.Params == nil {
		o.Params = map[string]any{}
	}
	return f(o)
}

// ConfigError is an invalid task configuration, worded like the assertion
// reasoning-gym's validate() would fail on.
func ConfigError(task, format string, args ...any) error {
	return fmt.Errorf("invalid %s config: %s", task, fmt.Sprintf(format, args...))
}

// DefaultScore is reasoning-gym's base score_answer: 0 for None or "",
// 1 for an exact match, len(oracle)/len(answer) in code points when the
// oracle is a substring of the answer, else 0.
func DefaultScore(answer string, ok bool, oracle string) float64 {
	if !ok || answer == "" {
		return 0
	}
	if answer == oracle {
		return 1
	}
	if strings.Contains(answer, oracle) {
		return float64(pycompat.Len(oracle)) / float64(pycompat.Len(answer))
	}
	return 0
}
