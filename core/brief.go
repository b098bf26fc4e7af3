package core

// Brief is what stepping many episodes at once needs from one step: the
// weighted reward, how the episode stands, and the next prompt.
type Brief struct {
	Total      float64
	Terminated bool
	Truncated  bool
	// Prompt is the next observation's prompt ("" when it did not change).
	Prompt string
}

// BriefOf summarises a step result.
func BriefOf(res StepResult) Brief {
	b := Brief{Terminated: res.Terminated, Truncated: res.Truncated}
	for _, s := range res.Signals {
		if s.Reward != nil {
			b.Total += *s.Reward * s.Weight
		}
	}
	if res.Observation != nil {
		b.Prompt = res.Observation.Prompt
	}
	return b
}

// StepBrief advances the episode with text, taken from the state at step
// fromStep, as Step does, and returns the step's Brief.
func (r *Run) StepBrief(fromStep int, text string) (Brief, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.pure && fromStep != r.step {
		return Brief{}, &StaleStateError{Env: r.name, Expected: r.step, Got: fromStep}
	}
	var b Brief
	if br, ok := r.episode.(Briefer); ok {
		var err error
		if b, err = br.Brief(text); err != nil {
			return Brief{}, err
		}
	} else {
		res, err := r.episode.Step(Action{Text: &text})
		if err != nil {
			return Brief{}, err
		}
		b = BriefOf(res)
	}
	r.step = fromStep + 1
	return b, nil
}
