package core

import (
	"fmt"
	"sync"
)

// Run is one live episode: it counts steps and, for an environment that is
// not pure_step, refuses a step taken from any state but the latest one.
// Its methods may be called from many goroutines; steps are serialised.
type Run struct {
	mu      sync.Mutex
	name    string
	pure    bool
	episode Episode
	step    int
	last    lastObservation // the last observation sent to the caller (see ObservationUpdate)
}

// NewRun starts tracking the episode reset returned for env.
func NewRun(env Environment, s Start) *Run {
	if id, ok := env.(Identifier); ok {
		name, pure := id.Identity()
		return &Run{name: name, pure: pure, episode: s.Episode}
	}
	spec := env.Spec()
	return &Run{name: spec.Name, pure: spec.PureStep, episode: s.Episode}
}

// Step advances the episode with a, taken from the state at step
// fromStep, and tells the next observation against the caller's of
// version callerVersion (see ObservationUpdate; 0 for a caller that keeps none).
func (r *Run) Step(fromStep int, a Action, callerVersion uint64) (StepResult, ObservationUpdate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.pure && fromStep != r.step {
		return StepResult{}, ObservationUpdate{}, &StaleStateError{Env: r.name, Expected: r.step, Got: fromStep}
	}
	res, err := r.episode.Step(a)
	if err != nil {
		return StepResult{}, ObservationUpdate{}, err
	}
	r.step = fromStep + 1
	return res, r.last.tell(res.Observation, callerVersion), nil
}

// StaleStateError is a step from a state that is not the episode's latest,
// in an environment whose step is not a pure function of the state.
type StaleStateError struct {
	Env           string
	Expected, Got int
}

func (e *StaleStateError) Error() string {
	return fmt.Sprintf("%s has pure_step=False and cannot step from a stale state (expected step %d, got %d); "+
		"step from the latest state, or reset a new episode", e.Env, e.Expected, e.Got)
}
