package core

import "fmt"

// TaskTextsBatch fills prompts[k] and truths[k] with the prompt and ground
// truth of task idx[k] for every k, in parallel, through the fastest way
// env offers: BulkTaskTexter, TaskTexter, or a Reset. A task that fails
// (an error or a panic) gets its error in errs[k] and leaves the others
// unaffected, except under BulkTaskTexter, where a panic fails the range
// of tasks built together. Indices must have been checked by the caller.
func TaskTextsBatch(env Environment, idx []int64, prompts []string, truths []*string, errs []error) {
	tt, fast := env.(TaskTexter)
	bt, bulk := env.(BulkTaskTexter)
	ParallelFor(len(idx), func(lo, hi int) {
		if bulk {
			defer func() {
				if r := recover(); r != nil {
					for k := lo; k < hi; k++ {
						errs[k] = fmt.Errorf("building task %d: %v", idx[k], r)
					}
				}
			}()
			bt.TaskTextsBulk(idx[lo:hi], prompts[lo:hi], truths[lo:hi], errs[lo:hi])
			return
		}
		for k := lo; k < hi; k++ {
			errs[k] = func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("building task %d: %v", idx[k], r)
					}
				}()
				if fast {
					prompts[k], truths[k], err = tt.TaskTexts(int(idx[k]))
					return err
				}
				start, err := env.Reset(ResetRequest{TaskIndex: int(idx[k])})
				prompts[k], truths[k] = start.Observation.Prompt, start.Hidden.ExpectedAnswer
				return err
			}()
		}
	})
}

// ChatLayout is how a dataset row's chat messages are made from its task's
// prompt: an optional system message, then the user message, which is
// Template's literal parts with the prompt between each two of them (no
// template: the prompt alone).
type ChatLayout struct {
	System   *string  `json:"system"`
	Template []string `json:"template"`
}

// Normalized is the layout with its default filled in: no template is the
// prompt alone.
func (l ChatLayout) Normalized() ChatLayout {
	if len(l.Template) == 0 {
		l.Template = []string{"", ""}
	}
	return l
}
