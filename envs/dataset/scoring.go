package dataset

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// ScoreFunc compares a model's answer (pred) with the expected answer
// (gold) and returns the correctness reward and, when it has one to give,
// the reason for it (e.g. why an answer could not be compared). It must be
// deterministic, safe for concurrent use and must not panic on any input.
type ScoreFunc func(gold, pred string) (float64, string)

var (
	scoringMu sync.RWMutex
	// The math verifier adds "math" and "math_verify" (math.go).
	scorings = map[string]ScoreFunc{
		"exact":             Exact,
		"numeric":           Numeric,
		"numeric_tolerance": NumericTolerance,
	}
)

// RegisterScoring makes fn the scoring rule called name. Registering a
// name twice panics, which is a programming error.
func RegisterScoring(name string, fn ScoreFunc) {
	scoringMu.Lock()
	defer scoringMu.Unlock()
	if _, ok := scorings[name]; ok {
		panic("dataset: scoring " + name + " registered twice")
	}
	scorings[name] = fn
}

// ScoringNames lists every scoring name, sorted, with CodeScoring (which
// the environment applies itself: it is not a ScoreFunc).
func ScoringNames() []string {
	scoringMu.RLock()
	defer scoringMu.RUnlock()
	names := make([]string, 0, len(scorings)+1)
	for n := range scorings {
		names = append(names, n)
	}
	names = append(names, CodeScoring)
	sort.Strings(names)
	return names
}

// Scoring returns the scoring rule called name. An unknown name is a
// *strictcfg.NotFoundError listing the valid ones.
func Scoring(name string) (ScoreFunc, error) {
	scoringMu.RLock()
	fn, ok := scorings[name]
	scoringMu.RUnlock()
	if !ok && name == CodeScoring {
		return nil, fmt.Errorf("scoring %q runs programs against tests: only a dataset environment applies it", name)
	}
	if !ok {
		return nil, strictcfg.NotFound("scoring", name, "not found", ScoringNames())
	}
	return fn, nil
}

// Exact is llenvs' "exact" scoring: 1 when the two answers are equal after
// Python's str.strip() and str.lower(), else 0.
func Exact(gold, pred string) (float64, string) {
	if pycompat.Lower(pycompat.Strip(gold)) == pycompat.Lower(pycompat.Strip(pred)) {
		return 1, ""
	}
	return 0, ""
}

// parseNumber is llenvs' reading of an answer as a number: commas removed,
// then Python's float(str).
func parseNumber(s string) (float64, bool) {
	if strings.IndexByte(s, ',') >= 0 {
		s = strings.ReplaceAll(s, ",", "")
	}
	return pycompat.ParseFloat(s)
}

// numberKey is how llenvs' "numeric" scoring writes a number before
// comparing: str(int(x)) for an integral value, f"{x:.10g}" otherwise.
func numberKey(x float64) string {
	if x == math.Trunc(x) && !math.IsInf(x, 0) {
		if math.Abs(x) < 1<<53 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'f', 0, 64) // exact: integral floats print all their digits
	}
	return strconv.FormatFloat(x, 'g', 10, 64)
}

// Numeric is llenvs' "numeric" scoring: both answers are read as numbers
// (commas removed, Python's float()); integral values are compared as
// integers, others by their 10 significant digits. An answer that is not a
// number scores 0. NaN equals nothing.
func Numeric(gold, pred string) (float64, string) {
	g, ok := parseNumber(gold)
	if !ok {
		return 0, "the expected answer is not a number"
	}
	p, ok := parseNumber(pred)
	if !ok {
		return 0, "the answer is not a number"
	}
	if math.IsNaN(g) || math.IsNaN(p) {
		return 0, "NaN equals nothing"
	}
	if numberKey(g) == numberKey(p) {
		return 1, ""
	}
	return 0, ""
}

// ToleranceRTol is the relative tolerance of "numeric_tolerance".
const ToleranceRTol = 1e-5

// NumericTolerance is llenvs' "numeric_tolerance" scoring: 1 when the
// relative error |pred-gold|/|gold| is below 1e-5 (|pred| below 1e-5 when
// gold is 0); an answer that is not a number scores 0.
func NumericTolerance(gold, pred string) (float64, string) {
	g, ok := parseNumber(gold)
	if !ok {
		return 0, "the expected answer is not a number"
	}
	p, ok := parseNumber(pred)
	if !ok {
		return 0, "the answer is not a number"
	}
	if math.IsNaN(g) || math.IsNaN(p) {
		return 0, "NaN equals nothing"
	}
	if g == 0 {
		if math.Abs(p) < ToleranceRTol {
			return 1, ""
		}
		return 0, ""
	}
	if math.IsInf(g, 0) || math.IsInf(p, 0) {
		if g == p {
			return 1, ""
		}
		return 0, ""
	}
	if math.Abs(p-g)/math.Abs(g) < ToleranceRTol {
		return 1, ""
	}
	return 0, ""
}
