package core

import (
	"fmt"
	"sort"
	"sync"

	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// EnvConfig is the configuration of one environment as it crosses the ABI:
// llenvs' EnvironmentConfig fields that the Go core acts on.
type EnvConfig struct {
	Name                  string         `json:"name"`
	Adapter               string         `json:"adapter"`
	Size                  *int64         `json:"size"`
	Seed                  *int64         `json:"seed"`
	Params                map[string]any `json:"params"`
	AnswerExtractor       string         `json:"answer_extractor"`
	AnswerExtractorConfig map[string]any `json:"answer_extractor_config"`
	AnswerExtractors      []any          `json:"answer_extractors"`
	PreCleaners           []any          `json:"pre_cleaners"`
	PostCleaners          []any          `json:"post_cleaners"`
	ExtraRewards          []any          `json:"extra_rewards"`
	DataDir               string         `json:"data_dir"`
	Options               map[string]any `json:"options"`
	// Iterative, when set, wraps the environment in the iterative
	// multi-turn wrapper with these settings (llenvs' IterativeConfig).
	Iterative map[string]any `json:"iterative"`
	// SystemMessage, when set, is the system message a multi-turn
	// environment opens its conversation with (the text of the
	// environment's system_prompt): the model is asked there for the
	// answer format it is scored on. Single-turn environments leave
	// messages to the dataset rows and ignore it.
	SystemMessage *string `json:"system_message"`
}

// OpeningMessages are the first messages of a multi-turn conversation: the
// system message, when there is one, then the first user turn.
func OpeningMessages(system *string, user string) []Message {
	if system == nil {
		return []Message{{Role: "user", Content: user}}
	}
	return []Message{{Role: "system", Content: *system}, {Role: "user", Content: user}}
}

// MaxSize is the most tasks an environment may have (EnvConfig.Size).
const MaxSize = 1 << 40

// CheckSize refuses a size outside [1, MaxSize] with an error that names the
// environment, the range and the value.
func CheckSize(name string, size int64) error {
	if size <= 0 || size > MaxSize {
		return fmt.Errorf("%s: size must be a positive integer from 1 to 2**40 (%d), got %d", name, int64(MaxSize), size)
	}
	return nil
}

// DecodeEnvConfig strictly decodes a configuration mapping.
func DecodeEnvConfig(raw map[string]any) (EnvConfig, error) {
	c := EnvConfig{Adapter: "reasoning_gym", AnswerExtractor: "tag_based"}
	if err := strictcfg.Decode("environment config", raw, &c); err != nil {
		return c, err
	}
	if c.Name == "" {
		return c, fmt.Errorf("environment config: \"name\" is required (the task name, e.g. \"leg_counting\")")
	}
	return c, nil
}

// Adapter builds environments of one family (e.g. "reasoning_gym").
type Adapter struct {
	Name string
	// New builds the environment cfg names.
	New func(cfg EnvConfig) (Environment, error)
	// List names the environments this adapter serves natively.
	List func() []string
	// Unlisted keeps the adapter out of AdapterNames and ListEnvironments
	// (so out of listings and error suggestions) while NewEnvironment
	// still builds its environments: for adapters that exist for tests.
	Unlisted bool
}

var (
	adaptersMu sync.RWMutex
	adapters   = map[string]Adapter{}
)

// RegisterAdapter makes an adapter available; a duplicate name panics.
func RegisterAdapter(a Adapter) {
	adaptersMu.Lock()
	defer adaptersMu.Unlock()
	if _, dup := adapters[a.Name]; dup {
		panic("core: adapter " + a.Name + " registered twice")
	}
	adapters[a.Name] = a
}

// AdapterNames lists the registered adapters, sorted (without the Unlisted ones).
func AdapterNames() []string {
	adaptersMu.RLock()
	defer adaptersMu.RUnlock()
	names := make([]string, 0, len(adapters))
	for n, a := range adapters {
		if !a.Unlisted {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// ListEnvironments returns, per adapter (the Unlisted ones left out), the environments it serves.
func ListEnvironments() map[string][]string {
	adaptersMu.RLock()
	defer adaptersMu.RUnlock()
	out := map[string][]string{}
	for n, a := range adapters {
		if !a.Unlisted {
			out[n] = a.List()
		}
	}
	return out
}

// NewEnvironment builds the environment cfg describes. An unknown adapter is
// a *strictcfg.NotFoundError that lists the registered ones.
func NewEnvironment(cfg EnvConfig) (Environment, error) {
	adaptersMu.RLock()
	a, ok := adapters[cfg.Adapter]
	adaptersMu.RUnlock()
	if !ok {
		return nil, strictcfg.NotFound("Adapter", cfg.Adapter, "not registered", AdapterNames())
	}
	env, err := a.New(cfg)
	if err != nil || cfg.Iterative == nil {
		return env, err
	}
	return wrapIterative(env, cfg)
}

// BuildSignals returns the reward signals of a single-turn environment:
// correctness (weight 1) first, then the opt-in extras, each given as a
// name ("format") or a mapping {"name": "format", "weight": 0.5}.
func BuildSignals(extra []any) ([]SignalSpec, error) {
	return BuildSignalsWith(extra, map[string]RewardType{"format": Format})
}

// BuildSignalsWith is BuildSignals for an environment that knows the
// extra signals in known (name -> type).
func BuildSignalsWith(extra []any, known map[string]RewardType) ([]SignalSpec, error) {
	specs := []SignalSpec{{Name: "correctness", Type: Outcome, Weight: 1}}
	for i, e := range extra {
		var s struct {
			Name   string  `json:"name"`
			Weight float64 `json:"weight"`
		}
		s.Weight = 1
		switch v := e.(type) {
		case string:
			s.Name = v
		case map[string]any:
			if err := strictcfg.Decode(fmt.Sprintf("extra_rewards[%d]", i), v, &s); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("extra_rewards[%d]: want a name or a mapping with \"name\" and \"weight\", got %s", i, strictcfg.Describe(e))
		}
		t, ok := known[s.Name]
		if !ok {
			names := make([]string, 0, len(known))
			for n := range known {
				names = append(names, n)
			}
			return nil, strictcfg.UnknownKey(fmt.Sprintf("extra_rewards[%d]", i), s.Name, names)
		}
		specs = append(specs, SignalSpec{Name: s.Name, Type: t, Weight: s.Weight})
	}
	return specs, nil
}

// BuildExtractor returns the answer extractor cfg asks for: the chain in
// AnswerExtractors when set, else AnswerExtractor with its config, wrapped
// in the configured cleaners.
func BuildExtractor(cfg EnvConfig) (extract.Extractor, error) {
	var ex extract.Extractor
	var err error
	if cfg.AnswerExtractors != nil {
		ex, err = extract.NewCompositeFromSpecs(cfg.AnswerExtractors)
	} else {
		name := cfg.AnswerExtractor
		if name == "" {
			name = "tag_based"
		}
		ex, err = extract.New(name, cfg.AnswerExtractorConfig)
	}
	if err != nil {
		return nil, err
	}
	return extract.WithCleaners(ex, cfg.PreCleaners, cfg.PostCleaners)
}
