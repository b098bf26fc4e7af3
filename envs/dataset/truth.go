package dataset

import (
	"sort"

	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// groundTruthExtractors maps each ground_truth_extractor name to the answer
// extractor that reads the expected answer out of a dataset's answer cell:
// llenvs' boxed, numeric, last_line and direct, plus gsm8k (the number
// after "####", commas removed) and raw (a synonym of direct).
var groundTruthExtractors = map[string]string{
	"boxed":     "boxed",
	"direct":    "raw",
	"gsm8k":     "gsm8k",
	"last_line": "last_line",
	"numeric":   "numeric",
	"raw":       "raw",
}

// GroundTruthExtractorNames lists the valid ground_truth_extractor names,
// sorted.
func GroundTruthExtractorNames() []string {
	names := make([]string, 0, len(groundTruthExtractors))
	for n := range groundTruthExtractors {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// groundTruthExtractor builds the extractor a ground_truth_extractor name
// stands for; an unknown name is a *strictcfg.NotFoundError listing the
// valid ones.
func groundTruthExtractor(name string) (extract.Extractor, error) {
	ex, ok := groundTruthExtractors[name]
	if !ok {
		return nil, strictcfg.NotFound("ground_truth_extractor", name, "not found", GroundTruthExtractorNames())
	}
	return extract.New(ex, nil)
}

// expectedAnswer is the ground truth of one answer cell, as llenvs makes
// it: the extractor's answer, or the stripped cell when the extractor finds
// nothing (fallback is then true).
func expectedAnswer(ex extract.Extractor, cell string) (truth string, fallback bool) {
	x := ex.Extract(cell)
	if x.Found {
		return x.Answer, false
	}
	return pycompat.Strip(cell), true
}
