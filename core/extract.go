package core

import (
	"fmt"
	"sort"
	"sync"
)

// Extraction is what an extractor found in a response. Found is false when
// nothing was extracted; an empty Answer with Found true is a valid
// extraction (llenvs' "" versus None).
type Extraction struct {
	Answer string
	Found  bool
	// MatchStart and MatchEnd are the byte offsets of the whole match in
	// the searched text, NumMatches how many matches there were; extractors
	// that have no such notion leave them zero.
	MatchStart, MatchEnd, NumMatches int
	// Extra holds extractor-specific metadata that does not fit the fields
	// above; nil on the hot path of the common extractors.
	Extra map[string]any
}

// Extractor pulls an answer out of a model response. Extract must be
// deterministic and free of side effects: it runs concurrently and may run
// more than once on the same text.
type Extractor interface {
	Name() string
	Extract(text string) Extraction
	// Describe renders the metadata llenvs reports for an extraction.
	Describe(x Extraction) map[string]any
}

// ExtractorFactory builds an extractor from its (strictly decoded) config.
type ExtractorFactory func(cfg map[string]any) (Extractor, error)

var (
	extractorsMu sync.RWMutex
	extractors   = map[string]ExtractorFactory{}
)

// RegisterExtractor makes an extractor available by name; it panics on a
// duplicate name, which is a programming error.
func RegisterExtractor(name string, f ExtractorFactory) {
	extractorsMu.Lock()
	defer extractorsMu.Unlock()
	if _, dup := extractors[name]; dup {
		panic("core: extractor " + name + " registered twice")
	}
	extractors[name] = f
}

// ExtractorNames lists the registered extractors, sorted.
func ExtractorNames() []string {
	extractorsMu.RLock()
	defer extractorsMu.RUnlock()
	names := make([]string, 0, len(extractors))
	for n := range extractors {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewExtractor builds the extractor registered as name with cfg. An unknown
// name is an error that lists the available extractors.
func NewExtractor(name string, cfg map[string]any) (Extractor, error) {
	extractorsMu.RLock()
	f, ok := extractors[name]
	extractorsMu.RUnlock()
	if !ok {
		names := ExtractorNames()
		msg := fmt.Sprintf("extractor %q not found", name)
		if near := Nearest(name, names); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		return nil, &NotFoundError{Msg: fmt.Sprintf("%s. Available: %v", msg, names)}
	}
	if cfg == nil {
		cfg = map[string]any{}
	}
	return f(cfg)
}

// NotFoundError is an unknown name: an extractor, an adapter or an
// environment. Its message lists what is available.
type NotFoundError struct{ Msg string }

func (e *NotFoundError) Error() string { return e.Msg }
