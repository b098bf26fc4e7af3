package core

import (
	"errors"
	"sync"
)

// Wrapper builds an environment around inner from the configuration that
// asked for it (the iterative multi-turn wrapper reads EnvConfig.Iterative
// and EnvConfig.SystemMessage).
type Wrapper func(inner Environment, cfg EnvConfig) (Environment, error)

var (
	iterativeMu sync.RWMutex
	iterative   Wrapper
)

// RegisterIterative installs the wrapper NewEnvironment applies to a
// configuration with an "iterative" section; a second registration panics.
func RegisterIterative(w Wrapper) {
	iterativeMu.Lock()
	defer iterativeMu.Unlock()
	if iterative != nil {
		panic("core: iterative wrapper registered twice")
	}
	iterative = w
}

func wrapIterative(inner Environment, cfg EnvConfig) (Environment, error) {
	iterativeMu.RLock()
	w := iterative
	iterativeMu.RUnlock()
	if w == nil {
		return nil, errors.New("iterative: no iterative wrapper is linked into this build")
	}
	return w(inner, cfg)
}
