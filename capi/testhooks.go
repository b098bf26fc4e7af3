//go:build llenvs_testhooks

package main

import (
	"fmt"
	"strings"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// This file is compiled only with -tags llenvs_testhooks: the llenvs_call
// methods and the extractor that exist for tests, never in a library users
// get. Even in a build with them (a development install after make test),
// their names stay out of listings and error suggestions: they are
// registered unlisted, reachable only by their exact names.

func init() {
	testHooks["panic_for_test"] = func() {
		var p *core.Spec
		_ = p.Name // a nil dereference: proves that recovery works from the caller
	}
	// panics_on_marker_for_test is tag_based, except that it panics on a
	// response containing "PANIC": a failure inside one item of a batch.
	extract.RegisterUnlisted("panics_on_marker_for_test", func(cfg map[string]any) (extract.Extractor, error) {
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

func init() {
	core.RegisterAdapter(core.Adapter{
		Name: "test_hooks",
		New: func(cfg core.EnvConfig) (core.Environment, error) {
			if cfg.Name != "fails_on_odd_for_test" {
				return nil, strictcfg.NotFound("test environment", cfg.Name, "not found", []string{"fails_on_odd_for_test"})
			}
			return failsOnOdd{}, nil
		},
		List:     func() []string { return []string{"fails_on_odd_for_test"} },
		Unlisted: true,
	})
}

// failsOnOdd is a ten-task environment whose odd tasks cannot be
// generated: a failure inside one item of a dataset.
type failsOnOdd struct{}

func (failsOnOdd) Spec() core.Spec {
	return core.Spec{Name: "fails_on_odd_for_test", Adapter: "test_hooks", MaxSteps: 1, SupportsTaskIndex: true,
		SupportsLen: true, PureStep: true}
}

func (failsOnOdd) Len() int { return 10 }

func (f failsOnOdd) Reset(r core.ResetRequest) (core.Start, error) {
	if err := core.CheckIndex(r.TaskIndex, f.Len()); err != nil {
		return core.Start{}, err
	}
	if r.TaskIndex%2 == 1 {
		return core.Start{}, fmt.Errorf("task %d is odd", r.TaskIndex)
	}
	q := fmt.Sprintf("question %d", r.TaskIndex)
	a := fmt.Sprint(r.TaskIndex)
	return core.Start{Observation: core.Observation{Prompt: q}, Hidden: core.Hidden{TaskIndex: r.TaskIndex,
		ExpectedAnswer: &a}}, nil
}
