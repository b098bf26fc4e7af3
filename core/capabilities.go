package core

import "github.com/llenvs/llenvs-go/extract"

// The capabilities an environment may offer beyond Environment (and
// SingleTurn). Each is optional: the library asks for it with a type
// assertion and falls back to the general path when it is missing. An
// environment's author reads this file to know what makes an environment
// complete (the listings, entries and expected answers that the Python
// API shows) and what makes it fast (the bulk and step shortcuts).

// Describing an environment.

// Identifier is an environment that gives the name and pure_step of its
// Spec without building the rest (a Spec may copy metadata maps; a reset
// needs only these two).
type Identifier interface {
	Identity() (name string, pure bool)
}

// SignalLister is an environment that lists the signals every step
// reports, in order (SingleTurn environments always do).
type SignalLister interface {
	SignalSpecs() []SignalSpec
}

// ToolProvider is an environment that offers tools to the model; they are
// shown in its description and rendered into prompts.
type ToolProvider interface {
	Tools() []ToolDefinition
}

// Tasks and their answers.

// EntrySource is an environment that keeps its own record of each task
// (reasoning-gym's entry {"question", "answer", "metadata"}), served as the
// "entries" method and as a state's hidden entry.
type EntrySource interface {
	EntryAny(taskIndex int) (any, error)
}

// EntryGate is an EntrySource that may keep no entries this time (a
// wrapper whose inner environment has none); ServesEntries says whether
// EntryAny works.
type EntryGate interface {
	ServesEntries() bool
}

// ExpectedAnswers is a SingleTurn environment that knows each task's
// ground truth as text, reported with rich scoring results.
type ExpectedAnswers interface {
	Expected(taskIndex int) (string, error)
}

// ExtractorProvider is an environment whose answers are found by an
// answer extractor; rich results describe the extraction with it.
type ExtractorProvider interface {
	Extractor() extract.Extractor
}

// TaskMetadata is an environment that gives a task's metadata (the
// "metadata" method).
type TaskMetadata interface {
	Metadata(taskIndex int) (map[string]any, error)
}

// AnswerScorer is an environment that scores an answer already extracted
// (nil: none) against task taskIndex, as its task's own score_answer does
// (the "score_answers" method).
type AnswerScorer interface {
	ScoreAnswer(taskIndex int, answer *string) (float64, error)
}

// Speed: shortcuts the library takes when they exist.

// TaskTexter is an environment that gives a task's prompt and ground truth
// directly, so that dataset items are built in bulk without a reset each.
type TaskTexter interface {
	TaskTexts(i int) (prompt string, truth *string, err error)
}

// BulkTaskTexter is an environment that builds many tasks faster together
// than one at a time; it reports each task's error in errs.
type BulkTaskTexter interface {
	TaskTextsBulk(idx []int64, prompts []string, truths []*string, errs []error)
}

// Prefetcher is a SingleTurn environment that can prepare a range of tasks
// before they are scored (ScoreBatch calls it once per range).
type Prefetcher interface {
	Prefetch(taskIndices []int64)
}

// BatchScorer is a SingleTurn environment whose batch is scored faster
// whole than item by item (programs run against tests: every run of the
// batch on the sandbox pool at once). ScoreBatch hands the whole batch to
// ScoreTexts when BatchScoring reports true.
type BatchScorer interface {
	BatchScoring() bool
	// ScoreTexts is ScoreText for every item; outs' Values are sized.
	ScoreTexts(indices []int64, texts []string, outs []Scored)
}

// TaskScorer is a SingleTurn environment that can look a task up once and
// score texts against it afterwards without looking it up again (an
// episode that scores many attempts at one task keeps it).
type TaskScorer interface {
	// Task returns task taskIndex, for ScoreTask.
	Task(taskIndex int) (any, error)
	// ScoreTask is ScoreText against a task Task returned.
	ScoreTask(task any, text string, out *Scored)
}
