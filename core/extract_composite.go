package core

import "fmt"

// NewCompositeFromSpecs builds the chain of extractors of llenvs'
// answer_extractors config: a list of {"type": name, "config": {...}}, the
// first non-empty result winning.
func NewCompositeFromSpecs(specs []any) (Extractor, error) {
	return nil, fmt.Errorf("answer_extractors: chains are not supported yet")
}

// WithCleaners wraps ex in the named pre- and post-cleaners; nil lists mean
// no cleaning.
func WithCleaners(ex Extractor, pre, post []any) (Extractor, error) {
	if len(pre) == 0 && len(post) == 0 {
		return ex, nil
	}
	return nil, fmt.Errorf("cleaners are not supported yet")
}
