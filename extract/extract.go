// Package extract holds the answer extractors of llenvs: each pulls an
// answer out of a model response (the last <answer> tag, a regex match, the
// last number, a boxed expression, ...). Extractors are registered by the
// names llenvs' configs use, built from a strictly decoded config, chained
// by Composite and wrapped with cleaners by WithCleaners.
package extract

import (
	"sort"
	"sync"

	"github.com/llenvs/llenvs-go/strictcfg"
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

// DescriptionAppender is an Extractor that appends Describe's metadata as
// JSON without building the map (rich scoring results of large batches).
type DescriptionAppender interface {
	AppendDescription(b []byte, x Extraction, appendString func([]byte, string) []byte) []byte
}

// Factory builds an extractor from its (strictly decoded) config.
type Factory func(cfg map[string]any) (Extractor, error)

var (
	extractorsMu sync.RWMutex
	extractors   = map[string]Factory{}
	// unlisted holds the names RegisterUnlisted added: built by New, never
	// offered by Names (so never suggested in an error).
	unlisted = map[string]bool{}
)

// Register makes an extractor available by name; it panics on a
// duplicate name, which is a programming error.
func Register(name string, f Factory) {
	extractorsMu.Lock()
	defer extractorsMu.Unlock()
	if _, dup := extractors[name]; dup {
		panic("core: extractor " + name + " registered twice")
	}
	extractors[name] = f
}

// RegisterUnlisted is Register for an extractor that exists for tests
// only: New builds it by its exact name, but Names leaves it out, so no
// error message offers it to a user.
func RegisterUnlisted(name string, f Factory) {
	Register(name, f)
	extractorsMu.Lock()
	defer extractorsMu.Unlock()
	unlisted[name] = true
}

// Names lists the registered extractors, sorted (without the unlisted
// ones of RegisterUnlisted).
func Names() []string {
	extractorsMu.RLock()
	defer extractorsMu.RUnlock()
	names := make([]string, 0, len(extractors))
	for n := range extractors {
		if !unlisted[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// New builds the extractor registered as name with cfg. An unknown name is
// a *strictcfg.NotFoundError that lists the available extractors.
func New(name string, cfg map[string]any) (Extractor, error) {
	extractorsMu.RLock()
	f, ok := extractors[name]
	extractorsMu.RUnlock()
	if !ok {
		return nil, strictcfg.NotFound("extractor", name, "not found", Names())
	}
	if cfg == nil {
		cfg = map[string]any{}
	}
	return f(cfg)
}
