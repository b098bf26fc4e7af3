// Package external serves environments whose tasks live outside Go (for
// example reasoning-gym tasks without a native port, generated and scored
// by the Python package). Go applies the configured answer extractor and
// the extraction-based signals, so every backend extracts answers the same
// way; the caller fills in correctness.
package external

import (
	"fmt"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
)

// The capabilities of core (core/capabilities.go) this environment offers.
var (
	_ core.SignalLister      = (*Env)(nil)
	_ core.ExtractorProvider = (*Env)(nil)
)

// AdapterName is the adapter this package registers.
const AdapterName = "external"

func init() {
	core.RegisterAdapter(core.Adapter{
		Name: AdapterName,
		New:  func(cfg core.EnvConfig) (core.Environment, error) { return New(cfg) },
		List: func() []string { return nil },
	})
}

// Env extracts answers for tasks it does not own.
type Env struct {
	name      string
	size      int
	extractor extract.Extractor
	signals   []core.SignalSpec
}

// New builds an extraction-only environment; cfg.Size is required.
func New(cfg core.EnvConfig) (*Env, error) {
	if cfg.Size == nil || *cfg.Size <= 0 {
		return nil, fmt.Errorf("%s: an external environment needs a positive size", cfg.Name)
	}
	if len(cfg.Params) > 0 {
		return nil, fmt.Errorf("%s: an external environment takes no task params", cfg.Name)
	}
	ex, err := core.BuildExtractor(cfg)
	if err != nil {
		return nil, err
	}
	signals, err := core.BuildSignals(cfg.ExtraRewards)
	if err != nil {
		return nil, err
	}
	return &Env{name: cfg.Name, size: int(*cfg.Size), extractor: ex, signals: signals}, nil
}

// Spec describes the environment.
func (e *Env) Spec() core.Spec {
	return core.Spec{Name: e.name, Adapter: AdapterName, MaxSteps: 1, SupportsTaskIndex: true, SupportsLen: true,
		PureStep: true, Metadata: map[string]any{"dataset_size": e.size, "backend": "external"}}
}

// Len is the number of tasks.
func (e *Env) Len() int { return e.size }

// Check reports whether i is a task index.
func (e *Env) Check(i int) error { return core.CheckIndex(i, e.size) }

// SignalSpecs lists correctness and the opt-in signals.
func (e *Env) SignalSpecs() []core.SignalSpec { return e.signals }

// Extractor is the configured extractor.
func (e *Env) Extractor() extract.Extractor { return e.extractor }

// Reset is not available: the tasks live with the caller.
func (e *Env) Reset(r core.ResetRequest) (core.Start, error) {
	return core.Start{}, fmt.Errorf("%s: tasks of an external environment live with the caller", e.name)
}

// StepTask is not available: correctness is the caller's.
func (e *Env) StepTask(i int, a core.Action) (core.StepResult, error) {
	return core.StepResult{}, fmt.Errorf("%s: an external environment only extracts; score with score_texts", e.name)
}

// ScoreText extracts the answer and computes every signal but correctness,
// which is left at 0 for the caller.
func (e *Env) ScoreText(i int, text string, out *core.Scored) {
	x := e.extractor.Extract(text)
	out.Extraction = x
	total := 0.0
	for j, s := range e.signals {
		v := 0.0
		if s.Name == "format" && x.Found {
			v = 1
		}
		out.Values[j] = v
		total += v * s.Weight
	}
	out.Total = total
}
