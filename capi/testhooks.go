//go:build llenvs_testhooks

package main

import "github.com/llenvs/llenvs-go/core"

// This file is compiled only with -tags llenvs_testhooks: the llenvs_call
// methods that exist for tests, never in a library users get.

func init() {
	testHooks["panic_for_test"] = func() {
		var p *core.Spec
		_ = p.Name // a nil dereference: proves that recovery works from the caller
	}
}
