package serving

import (
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/recipes"
	"github.com/llenvs/llenvs-go/verify"
)

// Status is the outcome of one item: correct, incorrect, no_answer,
// timeout or error (the names of the Python API's statuses).
type Status = recipes.Status

// Outcome is one scored item.
type Outcome struct {
	Total  float64
	Status Status
	// Answer is the extracted answer; Found is false when none was.
	Answer string
	Found  bool
	// Values holds one value per signal of the Scorer (nil for label rules).
	Values []float64
	// Error says why an item has no verdict ("" for a verdict).
	Error string
	// Unscored marks an item whose label names no task that can be scored
	// (OpenRLHF: reward 0, score 0, counted in llenvs/unscored); Refused
	// and Mismatched say which kind of label failure it was.
	Unscored, Refused, Mismatched bool
}

// Scorer scores responses against the tasks of one environment.
type Scorer interface {
	// Signals are the names of the signals every Outcome's Values hold.
	Signals() []string
	// Check reports whether a task index names a task.
	Check(taskIndex int) error
	// Score scores texts[i] against task indices[i] into outs[i] (indices
	// already checked). It must not panic; it may be called concurrently.
	Score(indices []int64, texts []string, outs []Outcome)
}

// TruthSource is a Scorer that knows each task's ground truth, so that a
// label's ground-truth fingerprint can be checked against it.
type TruthSource interface {
	Truth(taskIndex int) (truth string, ok bool, err error)
}

// Environment is one served environment: its name (the "environment" of
// batch requests), the reference text that training rows built from it
// carry (the JSON configuration; "" when rows cannot name it), and its
// Scorer.
type Environment struct {
	Name      string
	Reference string
	Scorer    Scorer
}

// EnvScorer is the Scorer of a Go environment, scored by core.ScoreBatch.
func EnvScorer(env core.SingleTurn) Scorer { return envScorer{env} }

type envScorer struct{ env core.SingleTurn }

func (s envScorer) Signals() []string {
	specs := s.env.SignalSpecs()
	names := make([]string, len(specs))
	for i, sp := range specs {
		names[i] = sp.Name
	}
	return names
}

func (s envScorer) Check(i int) error { return s.env.Check(i) }

func (s envScorer) Truth(i int) (string, bool, error) {
	if t, ok := s.env.(core.TaskTexter); ok {
		_, truth, err := t.TaskTexts(i)
		if err != nil || truth == nil {
			return "", false, err
		}
		return *truth, true, nil
	}
	if e, ok := s.env.(core.ExpectedAnswers); ok {
		truth, err := e.Expected(i)
		return truth, err == nil, err
	}
	return "", false, nil
}

func (s envScorer) Score(indices []int64, texts []string, outs []Outcome) {
	scored := make([]core.Scored, len(texts))
	core.ScoreBatch(s.env, indices, texts, scored)
	correctness := -1
	for j, sp := range s.env.SignalSpecs() {
		if sp.Name == "correctness" {
			correctness = j
		}
	}
	for i := range scored {
		outs[i] = outcomeOf(&scored[i], correctness)
	}
}

// outcomeOf is a core.Scored as an Outcome, its status as the Python API
// gives it: timeout when scoring stopped at its budget, error when it
// failed, no_answer when nothing was extracted, correct when the
// correctness signal is 1 (without one, when the total is positive).
func outcomeOf(sc *core.Scored, correctness int) Outcome {
	o := Outcome{Total: sc.Total, Values: sc.Values, Answer: sc.Extraction.Answer, Found: sc.Extraction.Found}
	switch {
	case sc.Err != nil && errors.Is(sc.Err, core.ErrOverBudget):
		o.Status, o.Error = recipes.StatusTimeout, sc.Err.Error()
	case sc.Err != nil:
		o.Status, o.Error = recipes.StatusError, sc.Err.Error()
	case !sc.Extraction.Found:
		o.Status = recipes.StatusNoAnswer
	case correctness >= 0 && sc.Values[correctness] >= 1:
		o.Status = recipes.StatusCorrect
	case correctness < 0 && sc.Total > 0:
		o.Status = recipes.StatusCorrect
	default:
		o.Status = recipes.StatusIncorrect
	}
	return o
}

// LabelRule names how a ground-truth label is scored: "math" (the last
// \boxed{} of the response verified against the label as math) or "exact"
// (that box's text equal to the label, both stripped).
type LabelRule string

// The label rules.
const (
	LabelMath  LabelRule = "math"
	LabelExact LabelRule = "exact"
)

var boxed = &extract.Boxed{Strip: true}

// scoreLabel scores one response against a ground-truth label.
func scoreLabel(rule LabelRule, response, truth string) (o Outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = Outcome{Status: recipes.StatusError, Error: fmt.Sprintf("scoring failed: %v", r)}
		}
	}()
	x := boxed.Extract(response)
	o.Answer, o.Found = x.Answer, x.Found
	if !x.Found {
		o.Status = recipes.StatusNoAnswer
		return o
	}
	if rule == LabelExact {
		if x.Answer == strings.TrimSpace(truth) {
			o.Total, o.Status = 1, recipes.StatusCorrect
		} else {
			o.Status = recipes.StatusIncorrect
		}
		return o
	}
	score, reason := verify.ScoreAnswer(truth, x.Answer)
	switch {
	case score == 1:
		o.Total, o.Status = 1, recipes.StatusCorrect
	case strings.Contains(reason, "over budget"):
		o.Status, o.Error = recipes.StatusTimeout, reason
	default:
		o.Status = recipes.StatusIncorrect
	}
	return o
}

// scoreSource scores one response as veRL's default_compute_score scores
// a row of data_source (package recipes).
func scoreSource(source, response, truth string) Outcome {
	r := recipes.ScoreVerl(source, response, truth)
	o := Outcome{Total: r.Score, Status: r.Status, Error: r.Reason}
	if r.Dict {
		o.Answer, o.Found = r.Pred, true
	}
	return o
}

// fingerprint is 8 hex digits of the CRC-32 of a ground truth's UTF-8
// text, as OpenRLHF rows carry it (Python's zlib.crc32).
func fingerprint(truth string) string {
	b := fingerprintDigits(truth)
	return string(b[:])
}

// hasFingerprint reports whether fp is truth's fingerprint, without
// building it as a string.
func hasFingerprint(truth, fp string) bool {
	b := fingerprintDigits(truth)
	return string(b[:]) == fp
}

func fingerprintDigits(truth string) [8]byte {
	const hex = "0123456789abcdef"
	sum := crc32.Update(0, crc32.IEEETable, unsafe.Slice(unsafe.StringData(truth), len(truth)))
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = hex[sum&0xf]
		sum >>= 4
	}
	return b
}
