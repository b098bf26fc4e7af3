package codetests

import (
	"context"
	"math"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/llenvs/llenvs-go/sandbox"
)

func TestStdoutMatches(t *testing.T) {
	tests := []struct {
		name, out, want string
		match           bool
	}{
		{"equal", "4\n", "4\n", true},
		{"trailing spaces stripped", "  4  \n", "4", true},
		{"lines stripped", "1 \n 2\n", "1\n2", true},
		{"crlf lines", "1\r\n2\r\n", "1\n2\n", true},
		{"empty lines dropped", "1\n\n2\n", "1\n2\n", true},
		{"wrong", "5\n", "4\n", false},
		{"numbers within tolerance", "1.0000001\n2\n", "1\n2", true},
		{"numbers outside tolerance", "1.01\n2\n", "1\n2", false},
		{"digits only are never read as numbers", "01\n", "1\n", false},
		{"a line of several numbers is text", "1.0000001 2\n", "1 2", false},
		{"order matters", "b a", "a b", false},
		{"nan never equals", "nan\n", "nan\n", true}, // the texts are equal before any number is read
		{"nan as numbers", "nan\n2\n", "nan\n2.0\n", false},
		{"infinity equals an overflow, as in numpy", "inf\n", "1e400\n", true},
		{"unicode space stripped", "4\u2003\n", "4", true},
		{"empty output", "", "4", false},
		{"empty both", "", "", true},
	}
	for _, tc := range tests {
		if got := StdoutMatches(tc.out, tc.want); got != tc.match {
			t.Errorf("%s: StdoutMatches(%q, %q) = %v, want %v", tc.name, tc.out, tc.want, got, tc.match)
		}
	}
}

func TestReturnedMatches(t *testing.T) {
	tests := []struct {
		name, out, want string
		match           bool
	}{
		{"equal ints", "3", "3", true},
		{"int equals float", "3", "3.0", true},
		{"true equals 1", "true", "1", true},
		{"first element of a list", "7", "[7]", true},
		{"a list equals a list", "[1, 2]", "[1, 2]", true},
		{"a list is not its first element's list", "[1]", "[[2]]", false},
		{"empty list has no first element", "1", "[]", false},
		{"objects ignore key order", `{"a": 1, "b": [2]}`, `{"b": [2.0], "a": true}`, true},
		{"objects differ", `{"a": 1}`, `{"a": 2}`, false},
		{"strings", `"x"`, `"x"`, true},
		{"string is not a number", `"1"`, `1`, false},
		{"null", "null", "null", true},
		{"null is not zero", "null", "0", false},
		{"big ints are exact", "123456789012345678901234567890", "123456789012345678901234567891", false},
		{"big int equals itself", "123456789012345678901234567890", "123456789012345678901234567890", true},
		{"float is not a nearby int", "9007199254740993", "9007199254740992.0", false},
		{"nan equals nothing", "NaN", "NaN", false},
		{"infinity equals infinity", "Infinity", "Infinity", true},
		{"infinity in a list", "[1, -Infinity]", "[1, -Infinity]", true},
		{"a string holding NaN stays a string", `"NaN"`, `"NaN"`, true},
		{"not JSON", "[1,", "[1]", false},
		{"trailing data", "1 2", "1", false},
	}
	for _, tc := range tests {
		if got := ReturnedMatches(tc.out, tc.want); got != tc.match {
			t.Errorf("%s: ReturnedMatches(%q, %q) = %v, want %v", tc.name, tc.out, tc.want, got, tc.match)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, cell, entry string
		format            Format
		n                 int
		err               string
	}{
		{"stdin cases", `{"inputs": ["1\n", "2\n"], "outputs": ["2\n", "4\n"]}`, "", FormatIO, 2, ""},
		{"call cases", `{"fn_name": "f", "inputs": ["1"], "outputs": ["1"]}`, "", FormatIO, 1, ""},
		{"code contests keys", `{"input": ["1"], "output": ["1"]}`, "", FormatIO, 1, ""},
		{"list cases are kept, unreadable", `{"inputs": [["a"]], "outputs": [["b"]]}`, "", FormatIO, 1, ""},
		{"assert list", `["assert f(1) == 1", "assert f(2) == 2"]`, "", FormatAsserts, 2, ""},
		{"assert lines", "assert f(1) == 1\n\nassert f(2) == 2\n", "", FormatAsserts, 2, ""},
		{"a block is one test", "x = f(1)\nassert x == 1", "", FormatAsserts, 1, ""},
		{"humaneval", "def check(candidate):\n    assert candidate(1) == 1\n", "f", FormatCheck, 1, ""},
		{"humaneval without entry point", "def check(candidate):\n    pass\n", "", "", 0, "entry point"},
		{"empty", "  ", "", "", 0, "empty"},
		{"ragged cases", `{"inputs": ["1"], "outputs": []}`, "", "", 0, "1 inputs for 0 outputs"},
		{"missing outputs", `{"inputs": ["1"]}`, "", "", 0, `need "inputs" and "outputs"`},
		{"number case", `{"inputs": [1], "outputs": ["1"]}`, "", "", 0, "must be a string"},
		{"bad fn_name", `{"fn_name": 3, "inputs": [], "outputs": []}`, "", "", 0, "fn_name"},
		{"bad object", `{"inputs": `, "", "", 0, "not a JSON object"},
		{"empty list", `[]`, "", "", 0, "empty list"},
		{"list of numbers", `[1, 2]`, "", "", 0, "not a JSON list of assert"},
	}
	for _, tc := range tests {
		s, err := Parse(tc.cell, tc.entry, "")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err = %v, want it to contain %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if s.Format != tc.format || s.Len() != tc.n {
			t.Errorf("%s: format %q with %d tests, want %q with %d", tc.name, s.Format, s.Len(), tc.format, tc.n)
		}
	}
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		name    string
		o       Outcome
		score   float64
		status  string
		allPass bool
	}{
		{"all passed", Outcome{Results: []string{Passed, Passed}, Total: 2, Format: FormatIO}, 1, "correct", true},
		{"half", Outcome{Results: []string{Passed, Failed}, Total: 2, Format: FormatIO}, 0.5, "incorrect", false},
		{"timeout only", Outcome{Results: []string{Passed, "timeout"}, Total: 2, Format: FormatIO}, 0.5, "timeout",
			false},
		{"a failure beats a timeout", Outcome{Results: []string{Failed, "timeout"}, Total: 2, Format: FormatIO}, 0,
			"incorrect", false},
		{"first ten of twelve", Outcome{Results: append(repeat(Passed, 9), Failed), Total: 12, Format: FormatIO}, 0.9,
			"incorrect", false},
		{"asserts count all", Outcome{Results: []string{Passed, Failed, Failed, Passed}, Total: 4,
			Format: FormatAsserts}, 0.5, "incorrect", false},
		{"memory is incorrect", Outcome{Results: []string{"memory"}, Total: 1, Format: FormatCheck}, 0, "incorrect",
			false},
		{"no tests", Outcome{Total: 0, Format: FormatIO}, 0, "incorrect", false},
	}
	for _, tc := range tests {
		tc.o.Errors = make([]string, len(tc.o.Results))
		if got := tc.o.Score(); math.Abs(got-tc.score) > 1e-12 {
			t.Errorf("%s: Score() = %v, want %v", tc.name, got, tc.score)
		}
		if got := tc.o.Status(); got != tc.status {
			t.Errorf("%s: Status() = %q, want %q", tc.name, got, tc.status)
		}
		if got := tc.o.AllPassed(); got != tc.allPass {
			t.Errorf("%s: AllPassed() = %v, want %v", tc.name, got, tc.allPass)
		}
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for k := range out {
		out[k] = s
	}
	return out
}

func testChecker(t testing.TB) Checker {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this machine")
	}
	if !sandbox.Probe().UserNamespaces {
		t.Skip(sandbox.Probe().Problem)
	}
	p, err := sandbox.NewPool(sandbox.Config{Interpreter: py, Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	lim := sandbox.DefaultLimits()
	lim.Wall, lim.CPU = 2*time.Second, 2*time.Second
	return Checker{Pool: p, Limits: lim}
}

func TestCheckBatch(t *testing.T) {
	c := testChecker(t)
	must := func(cell, entry, prompt string) Suite {
		s, err := Parse(cell, entry, prompt)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	doubling := must(`{"inputs": ["2\n", "5\n"], "outputs": ["4\n", "10\n"]}`, "", "")
	twelve := must(`{"inputs": [`+strings.Repeat(`"1\n", `, 11)+`"1\n"], "outputs": [`+
		strings.Repeat(`"2\n", `, 11)+`"3\n"]}`, "", "")
	tests := []struct {
		name, code string
		suite      Suite
		results    []string
		status     string
		feedback   string
	}{
		{"stdin right", "print(int(input()) * 2)", doubling, []string{Passed, Passed}, "correct", "2/2 tests passed."},
		{"stdin wrong", "print(int(input()) + 2)", doubling, []string{Passed, Failed}, "incorrect", "wrong output"},
		{"prelude gives math's names", "print(int(sqrt(int(input()) ** 2)) * 2)", doubling, []string{Passed, Passed},
			"correct", ""},
		{"an exception fails", "raise ValueError('no')", doubling, []string{Failed, Failed}, "incorrect", "ValueError"},
		{"a hang is a timeout", "while True: pass", doubling, []string{"timeout", "timeout"}, "timeout", "timeout"},
		{"past the tenth when the ten pass", "print(2)", twelve, append(repeat(Passed, 11), Failed), "incorrect", ""},
		{"call based", "class Solution:\n    def add(self, a, b):\n        return a + b\n",
			must(`{"fn_name": "add", "inputs": ["1\n2", "3\n4"], "outputs": ["3", "[7]"]}`, "", ""),
			[]string{Passed, Passed}, "correct", ""},
		{"call based sees the prelude's names", "def total(nums: List[int]) -> int:\n    return sum(nums)\n",
			must(`{"fn_name": "total", "inputs": ["[1, 2]"], "outputs": ["3"]}`, "", ""), []string{Passed}, "correct", ""},
		{"asserts with setup", "def f(x):\n    return x + K\n",
			Suite{Format: FormatAsserts, Asserts: []string{"assert f(1) == 2", "assert f(2) == 4"}, Setup: "K = 1"},
			[]string{Passed, Failed}, "incorrect", "test 2: assert f(2) == 4 (AssertionError)"},
		{"humaneval", "    return x * 2\n", must("def check(candidate):\n    assert candidate(3) == 6\n", "double",
			"def double(x):\n"), []string{Passed}, "correct", ""},
		{"humaneval output is swallowed, exit disabled", "    print('x')\n    exit(0)\n",
			must("def check(candidate):\n    assert candidate(3) == 6\n", "double", "def double(x):\n"),
			[]string{Failed}, "incorrect", ""},
		{"list cases fail without a run", "print(1)", must(`{"inputs": [["1"]], "outputs": ["1"]}`, "", ""),
			[]string{Failed}, "incorrect", "not text"},
	}
	codes := make([]string, len(tests))
	suites := make([]Suite, len(tests))
	for k, tc := range tests {
		codes[k], suites[k] = tc.code, tc.suite
	}
	got, err := c.CheckBatch(context.Background(), codes, suites)
	if err != nil {
		t.Fatal(err)
	}
	for k, tc := range tests {
		o := got[k]
		if strings.Join(o.Results, ",") != strings.Join(tc.results, ",") {
			t.Errorf("%s: results %v, want %v (errors %q)", tc.name, o.Results, tc.results, o.Errors)
		}
		if o.Status() != tc.status {
			t.Errorf("%s: status %q, want %q", tc.name, o.Status(), tc.status)
		}
		if !strings.Contains(o.Feedback(), tc.feedback) {
			t.Errorf("%s: feedback %q lacks %q", tc.name, o.Feedback(), tc.feedback)
		}
	}
	if _, err := c.CheckBatch(context.Background(), codes[:1], nil); err == nil {
		t.Error("CheckBatch took 1 program for 0 suites")
	}
}

// FuzzParse reads arbitrary tests cells: an error or a suite whose tests
// can all be assembled into programs, never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"inputs": ["1"], "outputs": ["1"]}`, `["assert 1"]`, "assert x\nassert y",
		"def check(c): pass", `{"input": [[1]], "output": [[2]], "fn_name": "f"}`, `{"inputs": [1]}`, "[", "{"} {
		f.Add(s, "f")
	}
	f.Fuzz(func(t *testing.T, cell, entry string) {
		s, err := Parse(cell, entry, "")
		if err != nil {
			return
		}
		progs, tests := Programs("print(1)", s, 0, s.Len(), sandbox.DefaultLimits())
		if len(progs) != len(tests) || len(progs) > s.Len() {
			t.Fatalf("%d programs for %d tests of a %d-test suite", len(progs), len(tests), s.Len())
		}
	})
}

// FuzzCompare runs both comparisons on arbitrary texts: never a panic, and
// a text of printable ASCII lines always matches itself as stdout.
func FuzzCompare(f *testing.F) {
	for _, s := range [][2]string{{"1\n", "1"}, {"[1, NaN]", "[1, NaN]"}, {`{"a": Infinity}`, "1e5"}, {"1.5", "3/2"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, out, want string) {
		_ = ReturnedMatches(out, want)
		_ = StdoutMatches(out, want)
		for _, r := range want {
			if r != '\n' && (r < ' ' || r > '~') {
				return
			}
		}
		if !StdoutMatches(want, want) {
			t.Fatalf("StdoutMatches(%q, itself) = false", want)
		}
	})
}
