package main

// The multi-turn environments: the iterative wrapper and the "native"
// adapter's environments, linked in for their registrations.
import (
	_ "github.com/llenvs/llenvs-go/envs/calculator"
	_ "github.com/llenvs/llenvs-go/envs/guessnumber"
	_ "github.com/llenvs/llenvs-go/envs/iterative"
)
