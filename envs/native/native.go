// Package native is the "native" adapter: environments written for
// llenvs-go itself (multi-turn games and tool use), each registered by name
// from its own package.
package native

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"sort"
	"sync"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// AdapterName is the adapter this package registers.
const AdapterName = "native"

// DefaultSize is the number of tasks when the config gives no size.
const DefaultSize = 500

// Factory builds an environment from its configuration.
type Factory func(cfg core.EnvConfig) (core.Environment, error)

var (
	mu        sync.RWMutex
	factories = map[string]Factory{}
)

func init() {
	core.RegisterAdapter(core.Adapter{Name: AdapterName, New: New, List: Names})
}

// Register makes an environment available under name; a duplicate panics.
func Register(name string, f Factory) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := factories[name]; dup {
		panic("native: environment " + name + " registered twice")
	}
	factories[name] = f
}

// Names lists the registered environments, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]string, 0, len(factories))
	for n := range factories {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// New builds the environment cfg names.
func New(cfg core.EnvConfig) (core.Environment, error) {
	mu.RLock()
	f, ok := factories[cfg.Name]
	mu.RUnlock()
	if !ok {
		return nil, strictcfg.NotFound("native environment", cfg.Name, "not found", Names())
	}
	return f(cfg)
}

// SizeSeed returns the configured size (DefaultSize when unset) and seed (a
// random one when unset), checking both.
func SizeSeed(cfg core.EnvConfig) (size int, seed int64, err error) {
	size = DefaultSize
	if cfg.Size != nil {
		if err := core.CheckSize(cfg.Name, *cfg.Size); err != nil {
			return 0, 0, err
		}
		size = int(*cfg.Size)
	}
	if cfg.Seed != nil {
		return size, *cfg.Seed, nil
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return size, int64(binary.LittleEndian.Uint64(b[:]) % (1<<32 + 1)), nil
}

// NoExtras refuses the settings a native environment does not use:
// extra reward signals and cleaners.
func NoExtras(cfg core.EnvConfig) error {
	if len(cfg.ExtraRewards) > 0 {
		return fmt.Errorf("%s: extra_rewards are not supported by this environment; its signals are fixed "+
			"(see docs/multi-turn.md)", cfg.Name)
	}
	return nil
}

// NoText is the error of a step whose action has no text where text is
// needed.
func NoText(env, example string) error {
	return fmt.Errorf("%s: the action has no text (text=None); answer with text, e.g. Action.from_text(%q)",
		env, example)
}

// FinishedError is a step of an episode that has ended.
func FinishedError(env string) error {
	return fmt.Errorf("%s: this episode is finished (terminated or truncated); reset a new episode", env)
}
