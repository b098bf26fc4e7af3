package extract

import (
	"fmt"
	"strings"

	"github.com/llenvs/llenvs-go/strictcfg"
)

// Composite is llenvs' CompositeExtractor: it tries its
// extractors in order and the first that finds an answer wins. Describe
// adds extractor_index and extractor_type (llenvs' class name, e.g.
// "BoxedExtractor") to the winner's metadata; when none finds anything the
// metadata is {found: false, tried_extractors: [class names]}.
type Composite struct {
	Extractors []Extractor
	// extras[i] is the Extra of a result of extractor i whose own Extra
	// is nil; shared and read-only.
	extras []map[string]any
}

// compositeIndexKey is the Extra key under which a composite records which
// of its extractors produced an extraction.
const compositeIndexKey = "\x00composite_index"

// NewComposite chains exs; it needs at least one.
func NewComposite(exs []Extractor) (*Composite, error) {
	if len(exs) == 0 {
		return nil, fmt.Errorf("answer_extractors: the list is empty, so nothing could ever be extracted; give at least one {\"type\": ..., \"config\": {...}} or leave it out")
	}
	c := &Composite{Extractors: exs, extras: make([]map[string]any, len(exs))}
	for i := range exs {
		c.extras[i] = map[string]any{compositeIndexKey: i}
	}
	return c, nil
}

// NewCompositeFromSpecs builds the chain of extractors of llenvs'
// answer_extractors config: a list of {"type": name, "config": {...}}, the
// first successful extraction winning. Unknown keys, a missing "type" and
// an unknown extractor are errors that name the entry's index; "native"
// (the adapter's own extraction) is not available in the Go core.
func NewCompositeFromSpecs(specs []any) (Extractor, error) {
	exs := make([]Extractor, 0, len(specs))
	for i, e := range specs {
		what := fmt.Sprintf("answer_extractors[%d]", i)
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: want a mapping {\"type\": name, \"config\": {...}}, got %s", what, strictcfg.Describe(e))
		}
		var s struct {
			Type   *string        `json:"type"`
			Config map[string]any `json:"config"`
		}
		if err := strictcfg.Decode(what, m, &s); err != nil {
			return nil, err
		}
		if s.Type == nil {
			return nil, fmt.Errorf("%s: \"type\" is required (one of: %s)", what, strings.Join(Names(), ", "))
		}
		if *s.Type == "native" {
			return nil, fmt.Errorf("%s: native extraction is not available in the Go core (it calls the adapter's own Python function); use one of: %s",
				what, strings.Join(Names(), ", "))
		}
		ex, err := New(*s.Type, s.Config)
		if err != nil {
			if nf, ok := err.(*strictcfg.NotFoundError); ok {
				located := *nf
				located.Context = what
				return nil, &located
			}
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		exs = append(exs, ex)
	}
	return NewComposite(exs)
}

// Name is "composite".
func (c *Composite) Name() string { return "composite" }

// Extract returns the first successful extraction; its Extra records
// which extractor produced it.
func (c *Composite) Extract(text string) Extraction {
	for i, ex := range c.Extractors {
		x := ex.Extract(text)
		if !x.Found {
			continue
		}
		if x.Extra == nil {
			x.Extra = c.extras[i]
		} else {
			extra := make(map[string]any, len(x.Extra)+1)
			for k, v := range x.Extra {
				extra[k] = v
			}
			extra[compositeIndexKey] = i
			x.Extra = extra
		}
		return x
	}
	return Extraction{}
}

// Describe renders the winner's metadata with extractor_index and
// extractor_type, or the list of extractors tried.
func (c *Composite) Describe(x Extraction) map[string]any {
	i, ok := x.Extra[compositeIndexKey].(int)
	if !x.Found || !ok || i < 0 || i >= len(c.Extractors) {
		tried := make([]any, len(c.Extractors))
		for j, ex := range c.Extractors {
			tried[j] = llenvsClassName(ex)
		}
		return map[string]any{"found": false, "tried_extractors": tried}
	}
	inner := x
	inner.Extra = nil
	if len(x.Extra) > 1 {
		inner.Extra = make(map[string]any, len(x.Extra)-1)
		for k, v := range x.Extra {
			if k != compositeIndexKey {
				inner.Extra[k] = v
			}
		}
	}
	m := c.Extractors[i].Describe(inner)
	m["extractor_index"] = i
	m["extractor_type"] = llenvsClassName(c.Extractors[i])
	return m
}

// llenvsClassNames maps extractor names to the class names llenvs reports
// as extractor_type.
var llenvsClassNames = map[string]string{
	"tag_based":       "TagBasedExtractor",
	"regex":           "RegexExtractor",
	"gsm8k":           "GSM8KExtractor",
	"multiple_choice": "MultipleChoiceExtractor",
	"boxed":           "BoxedExtractor",
	"numeric":         "NumericExtractor",
	"last_number":     "NumericExtractor",
	"last_line":       "LastLineExtractor",
	"code_block":      "CodeBlockExtractor",
	"pattern_answer":  "PatternAnswerExtractor",
	"raw":             "RawGenerationExtractor",
	"tail":            "TailExtractor",
	"composite":       "CompositeExtractor",
}

func llenvsClassName(ex Extractor) string {
	if _, ok := ex.(*Cleaned); ok {
		return "CleanedExtractor"
	}
	if n, ok := llenvsClassNames[ex.Name()]; ok {
		return n
	}
	return ex.Name()
}
