//go:build llenvs_testhooks

package main

import (
	"strings"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
)

// This file is compiled only with -tags llenvs_testhooks: the llenvs_call
// methods and the extractor that exist for tests, never in a library users
// get.

func init() {
	testHooks["panic_for_test"] = func() {
		var p *core.Spec
		_ = p.Name // a nil dereference: proves that recovery works from the caller
	}
	// panics_on_marker_for_test is tag_based, except that it panics on a
	// response containing "PANIC": a failure inside one item of a batch.
	extract.Register("panics_on_marker_for_test", func(cfg map[string]any) (extract.Extractor, error) {
		return panicsOnMarker{extract.NewTag("answer", true)}, nil
	})
}

type panicsOnMarker struct{ *extract.Tag }

func (p panicsOnMarker) Extract(text string) extract.Extraction {
	if strings.Contains(text, "PANIC") {
		panic("the test extractor met its marker")
	}
	return p.Tag.Extract(text)
}
