package codetests

import (
	"context"
	"fmt"
	"strings"

	"github.com/llenvs/llenvs-go/sandbox"
)

// ContinuousTests is how many tests prime_code's continuous score counts:
// the first ten. FormatIO tests past them run only when those all pass.
const ContinuousTests = 10

// Test verdicts besides the sandbox statuses that end a run early
// ("timeout", "memory", "output_limit", "killed").
const (
	Passed = "passed"
	Failed = "failed"
)

// Outcome is how one program did on its suite.
type Outcome struct {
	// Results has one verdict per test run, in test order: Passed, Failed
	// or the sandbox status that ended it. FormatIO tests past the first
	// ten are missing when one of those did not pass.
	Results []string
	// Errors has, per test in Results, what went wrong ("" when it passed).
	Errors []string
	// Total is the number of tests in the suite.
	Total int
	// Format is the suite's.
	Format Format
}

// AllPassed reports whether every test of the suite passed.
func (o Outcome) AllPassed() bool {
	if o.Total == 0 || len(o.Results) != o.Total {
		return false
	}
	for _, r := range o.Results {
		if r != Passed {
			return false
		}
	}
	return true
}

// Score is 1 when every test passed; otherwise, for FormatIO, prime_code's
// continuous score (the passed share of the first ten tests), and for the
// other formats the passed share of all tests.
func (o Outcome) Score() float64 {
	if o.AllPassed() {
		return 1
	}
	counted := o.Results
	if o.Format == FormatIO && len(counted) > ContinuousTests {
		counted = counted[:ContinuousTests]
	}
	n := len(counted)
	if o.Format != FormatIO {
		n = o.Total
	}
	if n == 0 {
		return 0
	}
	passed := 0
	for _, r := range counted {
		if r == Passed {
			passed++
		}
	}
	return float64(passed) / float64(n)
}

// Status is the scoring outcome: "correct", "incorrect", or "timeout" when
// a test ran out of time and none failed outright (a timeout is not a wrong
// answer).
func (o Outcome) Status() string {
	if o.AllPassed() {
		return "correct"
	}
	timedOut := false
	for _, r := range o.Results {
		switch r {
		case Failed:
			return "incorrect"
		case string(sandbox.StatusTimeout):
			timedOut = true
		}
	}
	if timedOut {
		return "timeout"
	}
	return "incorrect"
}

// Feedback says, for the model's next turn, how many tests passed and how
// the others failed.
func (o Outcome) Feedback() string {
	passed := 0
	for _, r := range o.Results {
		if r == Passed {
			passed++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d tests passed.", passed, o.Total)
	if passed < len(o.Results) {
		b.WriteString("\nFailures:")
		shown := 0
		for k, r := range o.Results {
			if r == Passed {
				continue
			}
			if shown == 5 {
				fmt.Fprintf(&b, "\n  - and %d more", len(o.Results)-passed-shown)
				break
			}
			msg := r
			if o.Errors[k] != "" {
				msg = o.Errors[k]
			}
			fmt.Fprintf(&b, "\n  - test %d: %s", k+1, clipLines(msg, 300))
			shown++
		}
	}
	return b.String()
}

func clipLines(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = s[:n] + "..."
	}
	return strings.ReplaceAll(s, "\n", " | ")
}

// Checker runs programs against suites on a pool.
type Checker struct {
	Pool   *sandbox.Pool
	Limits sandbox.Limits
}

// CheckBatch checks codes[k] against suites[k], every run of the batch on
// the pool at once, in at most two rounds (FormatIO tests past the first
// ten run only for the programs that passed those).
func (c Checker) CheckBatch(ctx context.Context, codes []string, suites []Suite) ([]Outcome, error) {
	if len(codes) != len(suites) {
		return nil, fmt.Errorf("codetests: %d programs for %d suites", len(codes), len(suites))
	}
	out := make([]Outcome, len(codes))
	for k, s := range suites {
		out[k] = Outcome{Total: s.Len(), Format: s.Format}
	}
	firstLast := func(k int) int {
		if suites[k].Format == FormatIO && suites[k].Len() > ContinuousTests {
			return ContinuousTests
		}
		return suites[k].Len()
	}
	if err := c.round(ctx, codes, suites, out, func(k int) (int, int) { return 0, firstLast(k) }); err != nil {
		return nil, err
	}
	rest := func(k int) (int, int) {
		lo := firstLast(k)
		if lo == suites[k].Len() {
			return 0, 0
		}
		for _, r := range out[k].Results {
			if r != Passed {
				return 0, 0
			}
		}
		return lo, suites[k].Len()
	}
	if err := c.round(ctx, codes, suites, out, rest); err != nil {
		return nil, err
	}
	return out, nil
}

func (c Checker) round(ctx context.Context, codes []string, suites []Suite, out []Outcome,
	span func(int) (int, int)) error {
	type slot struct{ item, test int }
	var progs []sandbox.Program
	var owners []slot
	verdicts := make([]map[int][2]string, len(codes))
	for k := range codes {
		lo, hi := span(k)
		if lo >= hi {
			continue
		}
		verdicts[k] = map[int][2]string{}
		ps, tests := Programs(codes[k], suites[k], lo, hi, c.Limits)
		for j := range ps {
			progs = append(progs, ps[j])
			owners = append(owners, slot{k, tests[j]})
		}
		for t := lo; t < hi; t++ {
			if suites[k].Format == FormatIO && suites[k].Unreadable[t] {
				verdicts[k][t] = [2]string{Failed, "a test input or output that is not text"}
			}
		}
	}
	if len(progs) > 0 {
		results, err := c.Pool.RunBatch(ctx, progs)
		if err != nil {
			return err
		}
		for j, r := range results {
			o := owners[j]
			v, msg := verdict(suites[o.item], o.test, r)
			verdicts[o.item][o.test] = [2]string{v, msg}
		}
	}
	for k := range codes {
		lo, hi := span(k)
		for t := lo; t < hi; t++ {
			v := verdicts[k][t]
			out[k].Results = append(out[k].Results, v[0])
			out[k].Errors = append(out[k].Errors, v[1])
		}
	}
	return nil
}

// verdict is test t's verdict from its run, with what went wrong.
func verdict(s Suite, t int, r sandbox.Result) (string, string) {
	switch r.Status {
	case sandbox.StatusTimeout, sandbox.StatusMemory, sandbox.StatusOutputLimit, sandbox.StatusKilled:
		return string(r.Status), string(r.Status) + ": " + r.Reason
	}
	switch {
	case s.Format == FormatIO && s.FnName != "":
		if r.Status == sandbox.StatusOK && ReturnedMatches(r.Stdout, s.Outputs[t]) {
			return Passed, ""
		}
		if r.Status != sandbox.StatusOK {
			return Failed, lastLine(r.Stderr)
		}
		return Failed, "returned " + clipLines(r.Stdout, 200) + ", expected " + clipLines(s.Outputs[t], 200)
	case s.Format == FormatIO:
		// prime_code lets a program leave through SystemExit; an uncaught exception fails the test.
		if strings.HasPrefix(r.Verdict, "exception ") {
			return Failed, lastLine(r.Stderr)
		}
		if StdoutMatches(r.Stdout, s.Outputs[t]) {
			return Passed, ""
		}
		return Failed, "wrong output for input " + clipLines(s.Inputs[t], 100)
	default:
		if r.Verdict == Passed {
			return Passed, ""
		}
		msg := strings.TrimPrefix(r.Verdict, "failed: ")
		if r.Verdict == "" {
			msg = "the test did not finish (exit code " + fmt.Sprint(r.ExitCode) + ")"
		} else if msg == "" {
			msg = "AssertionError"
		}
		if s.Format == FormatAsserts {
			msg = clipLines(s.Asserts[t], 200) + " (" + msg + ")" // the model sees which assert failed
		}
		return Failed, msg
	}
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "the program raised an error"
	}
	return clipLines(s, 300)
}
