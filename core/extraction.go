package core

import "github.com/llenvs/llenvs-go/extract"

// Extraction is what an extractor found in a response; Scored carries the
// one its score was computed from.
type Extraction = extract.Extraction
