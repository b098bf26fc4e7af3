package dataset

import (
	"context"
	"fmt"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/codetests"
	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/sandbox"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// CodeScoring is the scoring name that runs the extracted program against
// the row's tests in the code sandbox; the answer cell holds the tests in
// one of codetests' formats.
const CodeScoring = "code"

// codeScoring is the state of an environment scored by running code: the
// parsed suite of every row and the checker that runs them.
type codeScoring struct {
	suites  []codetests.Suite
	bad     []error // per row: why its tests cannot be read (nil when they can)
	checker codetests.Checker
}

// newCodeScoring parses every row's tests (the answer cells; HumanEval's
// entry point and MBPP's setup code from their columns when handed over)
// and gets the sandbox pool the spec names. A row whose tests cannot be read
// is an error when it is scored; when no row's can, the build fails.
func newCodeScoring(p Params, questions, answers []string, cols map[string]Column) (*codeScoring, error) {
	if p.Code == nil {
		return nil, fmt.Errorf("scoring %q needs the sandbox settings (params.code)", CodeScoring)
	}
	var spec sandbox.Spec
	if err := strictcfg.Decode("params.code (the sandbox settings)", p.Code, &spec); err != nil {
		return nil, err
	}
	lim, err := spec.Limits()
	if err != nil {
		return nil, err
	}
	pool, err := sandbox.SharedPool(spec)
	if err != nil {
		return nil, fmt.Errorf("scoring %q: %w", CodeScoring, err)
	}
	entry, hasEntry := cols[orDefault(p.EntryPointColumn, "entry_point")]
	setup, hasSetup := cols[orDefault(p.SetupColumn, "test_setup_code")]
	c := &codeScoring{suites: make([]codetests.Suite, len(answers)), bad: make([]error, len(answers)),
		checker: codetests.Checker{Pool: pool, Limits: lim}}
	good := 0
	for i, cell := range answers {
		ep := ""
		if hasEntry && !entry.IsNull(i) {
			ep = entry.Values[i]
		}
		s, err := codetests.Parse(cell, ep, questions[i])
		if err != nil {
			c.bad[i] = fmt.Errorf("answer column %s, row %d: %w", pycompat.Repr(p.AnswerColumn), i, err)
			continue
		}
		good++
		if hasSetup && !setup.IsNull(i) && s.Format == codetests.FormatAsserts {
			s.Setup = setup.Values[i]
		}
		c.suites[i] = s
	}
	if good == 0 {
		return nil, fmt.Errorf("no row's tests can be read (%w); check answer_column", c.bad[0])
	}
	return c, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// BatchScoring reports whether a batch is scored whole: when responses are
// programs run against tests.
func (e *Env) BatchScoring() bool { return e.code != nil }

// ScoreTexts scores a batch of responses by running every extracted
// program against its row's tests, all runs on the pool at once.
func (e *Env) ScoreTexts(indices []int64, texts []string, outs []core.Scored) {
	e.scoreCode(indices, texts, outs)
}

// codeResult is one response's run against its row's tests (ran is false
// when there was no code to run, or the sandbox failed).
type codeResult struct {
	outcome codetests.Outcome
	ran     bool
}

// scoreCode is ScoreTexts, returning the outcomes. A response with no code
// scores 0; a row whose tests ran out of time and none failed outright is
// a timeout (core.ErrOverBudget), not a wrong answer.
func (e *Env) scoreCode(indices []int64, texts []string, outs []core.Scored) []codeResult {
	var codes []string
	var suites []codetests.Suite
	var owners []int
	for k := range texts {
		i := int(indices[k])
		if err := e.Check(i); err != nil {
			outs[k].Err = err
			continue
		}
		if err := e.code.bad[i]; err != nil {
			outs[k].Err = err
			continue
		}
		x := e.extractor.Extract(texts[k])
		outs[k].Extraction = x
		if x.Found {
			code := x.Answer
			if e.extractor.Name() == "raw" {
				code = texts[k] // the raw extractor strips, which would break a completion's indentation
			}
			codes = append(codes, code)
			suites = append(suites, e.code.suites[i])
			owners = append(owners, k)
		}
	}
	results := make([]codeResult, len(texts))
	if len(codes) > 0 {
		got, err := e.code.checker.CheckBatch(context.Background(), codes, suites)
		for j, k := range owners {
			if err != nil {
				outs[k].Err = fmt.Errorf("row %d: the code sandbox failed: %w", indices[k], err)
				continue
			}
			results[k] = codeResult{got[j], true}
		}
	}
	for k := range texts {
		if outs[k].Err != nil {
			continue
		}
		total := 0.0
		for j, s := range e.signals {
			var v float64
			switch s.Name {
			case "correctness":
				if r := results[k]; r.ran {
					v = r.outcome.Score()
					if r.outcome.Status() == "timeout" {
						outs[k].Err = fmt.Errorf("%w: row %d: the tests ran out of time (%s)", core.ErrOverBudget,
							indices[k], r.outcome.Feedback())
					}
				}
			case "format":
				if outs[k].Extraction.Found {
					v = 1
				}
			}
			outs[k].Values[j] = v
			total += v * s.Weight
		}
		outs[k].Total = total
	}
	return results
}

// codeMetadata is the correctness signal's metadata and feedback for a
// response run against its tests.
func codeMetadata(r codeResult) (map[string]any, *string) {
	if !r.ran {
		fb := "No code found in the response."
		return map[string]any{"extracted": nil}, &fb
	}
	o := r.outcome
	passed := 0
	for _, v := range o.Results {
		if v == codetests.Passed {
			passed++
		}
	}
	fb := o.Feedback()
	results := make([]any, len(o.Results))
	for k, v := range o.Results {
		results[k] = v
	}
	return map[string]any{"scoring": CodeScoring, "tests_format": string(o.Format), "passed": passed,
		"total": o.Total, "results": results, "status": o.Status()}, &fb
}
