package extract

import "github.com/llenvs/llenvs-go/clean"

// Cleaned is llenvs' CleanedExtractor: pre-cleaners applied to
// the response, the inner extractor, then post-cleaners applied to the
// answer when one was found. Its Name is the inner extractor's.
type Cleaned struct {
	Inner     Extractor
	Pre, Post []clean.Cleaner
}

// WithCleaners wraps ex in the pre- and post-cleaners the two lists name
// (see clean.Resolve). When both lists are nil or empty, ex is returned
// unchanged: llenvs-go applies no cleaners unless configured, where
// llenvs' config path applies strip_special_tokens and
// strip_trailing_punctuation by default.
func WithCleaners(ex Extractor, pre, post []any) (Extractor, error) {
	if len(pre) == 0 && len(post) == 0 {
		return ex, nil
	}
	p, err := clean.Resolve("pre", pre)
	if err != nil {
		return nil, err
	}
	q, err := clean.Resolve("post", post)
	if err != nil {
		return nil, err
	}
	return &Cleaned{Inner: ex, Pre: p, Post: q}, nil
}

// Name is the inner extractor's name.
func (c *Cleaned) Name() string { return c.Inner.Name() }

// Extract cleans, extracts and cleans the answer.
func (c *Cleaned) Extract(text string) Extraction {
	for _, f := range c.Pre {
		text = f(text)
	}
	x := c.Inner.Extract(text)
	if x.Found {
		for _, f := range c.Post {
			x.Answer = f(x.Answer)
		}
	}
	return x
}

// Describe renders the inner extractor's metadata with
// pre_cleaners_applied and post_cleaners_applied, both always true as in
// llenvs (offsets refer to the pre-cleaned text).
func (c *Cleaned) Describe(x Extraction) map[string]any {
	m := c.Inner.Describe(x)
	m["pre_cleaners_applied"] = true
	m["post_cleaners_applied"] = true
	return m
}
