// Package dataset serves question/answer rows as a single-turn environment:
// llenvs' "huggingface" adapter. The rows (a HuggingFace dataset, a local
// JSONL/JSON/Parquet/CSV file, rows built in memory) are loaded in Python
// and handed over once as Arrow string columns (capi copies them into
// Columns); from then on every reset, step, score and dataset build runs
// here. The expected answer of each row is read out of its answer cell by a
// ground-truth extractor when the environment is built, and a response is
// scored by extracting its answer with the configured answer extractor and
// comparing the two with a named scoring rule (scoring.go).
package dataset

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// The capabilities of core (core/capabilities.go) this environment offers.
var (
	_ core.SingleTurn        = (*Env)(nil)
	_ core.ExtractorProvider = (*Env)(nil)
	_ core.ExpectedAnswers   = (*Env)(nil)
	_ core.TaskTexter        = (*Env)(nil)
	_ core.EntrySource       = (*Env)(nil)
	_ core.TaskMetadata      = (*Env)(nil)
)

// AdapterName is the adapter name these environments report.
const AdapterName = "huggingface"

// Column is one column of text cells: Values[i] is row i's text, and
// Null[i] marks a missing cell (Null is nil when no cell is missing).
type Column struct {
	Values []string
	Null   []bool
}

// IsNull reports whether row i's cell is missing.
func (c Column) IsNull(i int) bool { return c.Null != nil && c.Null[i] }

// Params are the environment's own settings, decoded strictly from the
// "params" of its configuration.
type Params struct {
	// Split names the split the rows come from ("" when they have none).
	Split string `json:"split"`
	// QuestionColumn and AnswerColumn name the text columns of the
	// question and of the answer cell.
	QuestionColumn string `json:"question_column"`
	AnswerColumn   string `json:"answer_column"`
	// GroundTruthExtractor names how the expected answer is read out of an
	// answer cell (GroundTruthExtractorNames).
	GroundTruthExtractor string `json:"ground_truth_extractor"`
	// Scoring names how an extracted answer is compared with the expected
	// one (ScoringNames).
	Scoring string `json:"scoring"`
	// MetadataColumns are carried into each task's reset info, entry and
	// item metadata, in this order.
	MetadataColumns []string `json:"metadata_columns"`
	// Code is the sandbox that runs programs, for scoring "code" (a
	// sandbox.Spec, decoded strictly when the scoring is built).
	Code map[string]any `json:"code"`
	// EntryPointColumn and SetupColumn name the columns of HumanEval's
	// entry point and MBPP's setup code, for scoring "code"
	// ("entry_point" and "test_setup_code" by default; used when handed
	// over as text).
	EntryPointColumn string `json:"entry_point_column"`
	SetupColumn      string `json:"setup_column"`
	// Columns names the handed-over text columns, in the order given.
	Columns []string `json:"columns"`
	// MetadataValues holds the metadata columns that are not text: column
	// name -> one JSON value per row.
	MetadataValues map[string]any `json:"metadata_values"`
}

// Env is a table of question/answer rows as a single-turn environment:
// reset shows row i's question, step scores a response against row i's
// expected answer.
type Env struct {
	name      string
	params    Params
	questions []string
	answers   []string // the answer cells as given
	truths    []string // the expected answers read out of them
	fallbacks int      // rows whose ground-truth extractor found nothing
	meta      []metaColumn
	extractor extract.Extractor
	score     ScoreFunc
	code      *codeScoring // for scoring "code"
	signals   []core.SignalSpec
}

// metaColumn is one metadata column: text cells or JSON values.
type metaColumn struct {
	name   string
	text   *Column
	values []any
}

func (m *metaColumn) value(i int) any {
	if m.text != nil {
		if m.text.IsNull(i) {
			return nil
		}
		return m.text.Values[i]
	}
	return m.values[i]
}

// New builds the environment cfg describes from the text columns cols
// (by name; they must include the question and answer columns and every
// text metadata column). cfg.Params decodes into Params.
func New(cfg core.EnvConfig, cols map[string]Column) (*Env, error) {
	p := Params{QuestionColumn: "problem", AnswerColumn: "solution", GroundTruthExtractor: "boxed", Scoring: "numeric"}
	what := cfg.Name + " (huggingface adapter)"
	if err := strictcfg.Decode(what+" params", cfg.Params, &p); err != nil {
		return nil, err
	}
	gte, err := groundTruthExtractor(p.GroundTruthExtractor)
	if err != nil {
		return nil, err
	}
	var score ScoreFunc
	if p.Scoring != CodeScoring {
		if score, err = Scoring(p.Scoring); err != nil {
			return nil, err
		}
	}
	q, err := textColumn(cols, p.QuestionColumn, "question")
	if err != nil {
		return nil, err
	}
	a, err := textColumn(cols, p.AnswerColumn, "answer")
	if err != nil {
		return nil, err
	}
	n := len(q.Values)
	if n == 0 {
		return nil, fmt.Errorf("%s: the dataset has no rows; check the split, the file or the size", cfg.Name)
	}
	for _, c := range cols {
		if len(c.Values) != n || (c.Null != nil && len(c.Null) != n) {
			return nil, fmt.Errorf("%s: columns of different lengths (%d and %d rows)", cfg.Name, n, len(c.Values))
		}
	}
	if err := checkCells(q, p.QuestionColumn, "question"); err != nil {
		return nil, err
	}
	if err := checkCells(a, p.AnswerColumn, "answer"); err != nil {
		return nil, err
	}
	meta, err := metadataColumns(p, cols, n)
	if err != nil {
		return nil, err
	}
	ex, err := core.BuildExtractor(cfg)
	if err != nil {
		return nil, err
	}
	signals, err := core.BuildSignals(cfg.ExtraRewards)
	if err != nil {
		return nil, err
	}
	e := &Env{name: cfg.Name, params: p, questions: q.Values, answers: a.Values, truths: make([]string, n),
		meta: meta, extractor: ex, score: score, signals: signals}
	if p.Scoring == CodeScoring {
		// The tests are the cell as given: no ground-truth extractor applies.
		if e.code, err = newCodeScoring(p, q.Values, a.Values, cols); err != nil {
			return nil, fmt.Errorf("%s: %w", cfg.Name, err)
		}
		copy(e.truths, e.answers)
		return e, nil
	}
	fallbacks := make([]int, n)
	core.ParallelFor(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var fb bool
			e.truths[i], fb = expectedAnswer(gte, e.answers[i])
			if fb {
				fallbacks[i] = 1
			}
		}
	})
	for _, f := range fallbacks {
		e.fallbacks += f
	}
	return e, nil
}

// textColumn returns the handed-over column called name (the role says
// which setting names it, for the message).
func textColumn(cols map[string]Column, name, role string) (Column, error) {
	c, ok := cols[name]
	if !ok {
		return Column{}, fmt.Errorf("%s column %s was not handed over as text", role, pycompat.Repr(name))
	}
	return c, nil
}

// checkCells refuses missing cells and text that is not UTF-8, naming the
// first bad row and how many there are.
func checkCells(c Column, name, role string) error {
	nulls, first := 0, -1
	for i := range c.Values {
		if c.IsNull(i) {
			nulls++
			if first < 0 {
				first = i
			}
		}
	}
	if nulls > 0 {
		return fmt.Errorf("%s column %s has %d missing (None) cells, the first in row %d; drop those rows "+
			"(e.g. dataset.filter(lambda r: r[%s] is not None)) or pick another column", role, pycompat.Repr(name),
			nulls, first, pycompat.Repr(name))
	}
	for i, s := range c.Values {
		if !utf8.ValidString(s) {
			return fmt.Errorf("%s column %s: row %d is not valid UTF-8", role, pycompat.Repr(name), i)
		}
	}
	return nil
}

func metadataColumns(p Params, cols map[string]Column, n int) ([]metaColumn, error) {
	out := make([]metaColumn, 0, len(p.MetadataColumns))
	for _, name := range p.MetadataColumns {
		if c, ok := cols[name]; ok {
			c := c
			out = append(out, metaColumn{name: name, text: &c})
			continue
		}
		raw, ok := p.MetadataValues[name]
		if !ok {
			return nil, fmt.Errorf("metadata column %s was not handed over", pycompat.Repr(name))
		}
		values, ok := raw.([]any)
		if !ok || len(values) != n {
			return nil, fmt.Errorf("metadata column %s: want one value per row (%d)", pycompat.Repr(name), n)
		}
		out = append(out, metaColumn{name: name, values: values})
	}
	return out, nil
}

// Spec describes the environment with llenvs' metadata keys for this
// adapter, plus how answers are read and compared.
func (e *Env) Spec() core.Spec {
	return core.Spec{Name: e.name, Adapter: AdapterName, MaxSteps: 1, SupportsTaskIndex: true, SupportsLen: true,
		SupportsSeed: true, PureStep: true,
		Metadata: map[string]any{"dataset_size": len(e.questions), "dataset_name": e.name, "split": e.params.Split,
			"question_column": e.params.QuestionColumn, "answer_column": e.params.AnswerColumn,
			"ground_truth_extractor": e.params.GroundTruthExtractor, "scoring": e.params.Scoring,
			"ground_truth_fallbacks": e.fallbacks, "extractor": e.extractor.Name(), "backend": "native"}}
}

// Len is the number of rows.
func (e *Env) Len() int { return len(e.questions) }

// Check reports whether i is a row index.
func (e *Env) Check(i int) error { return core.CheckIndex(i, len(e.questions)) }

// SignalSpecs lists correctness and the opt-in signals.
func (e *Env) SignalSpecs() []core.SignalSpec { return e.signals }

// Extractor is the answer extractor applied to responses.
func (e *Env) Extractor() extract.Extractor { return e.extractor }

// Expected is the ground truth of row i.
func (e *Env) Expected(i int) (string, error) {
	if err := e.Check(i); err != nil {
		return "", err
	}
	return e.truths[i], nil
}

// TaskTexts is the question and expected answer of row i, for building
// dataset items in bulk.
func (e *Env) TaskTexts(i int) (string, *string, error) {
	if err := e.Check(i); err != nil {
		return "", nil, err
	}
	return e.questions[i], &e.truths[i], nil
}

// EntryAny is row i as a mapping: the question, the answer cell as given
// and the metadata columns, by column name.
func (e *Env) EntryAny(i int) (any, error) {
	if err := e.Check(i); err != nil {
		return nil, err
	}
	row := make(map[string]any, 2+len(e.meta))
	row[e.params.QuestionColumn] = e.questions[i]
	row[e.params.AnswerColumn] = e.answers[i]
	for k := range e.meta {
		row[e.meta[k].name] = e.meta[k].value(i)
	}
	return row, nil
}

// Metadata is row i's metadata columns by name (empty without any).
func (e *Env) Metadata(i int) (map[string]any, error) {
	if err := e.Check(i); err != nil {
		return nil, err
	}
	m := make(map[string]any, len(e.meta))
	for k := range e.meta {
		m[e.meta[k].name] = e.meta[k].value(i)
	}
	return m, nil
}

// Reset starts the one-step episode of row r.TaskIndex; the seed is
// ignored, since rows are fixed by index.
func (e *Env) Reset(r core.ResetRequest) (core.Start, error) {
	i := r.TaskIndex
	if err := e.Check(i); err != nil {
		return core.Start{}, err
	}
	entry, _ := e.EntryAny(i)
	info := map[string]any{"task_index": i, "dataset_name": e.name, "split": e.params.Split,
		"question": e.questions[i]}
	for k := range e.meta {
		if _, taken := info[e.meta[k].name]; !taken {
			info[e.meta[k].name] = e.meta[k].value(i)
		}
	}
	truth := e.truths[i]
	return core.Start{
		Episode:     &core.SingleTurnEpisode{Env: e, TaskIndex: i},
		Observation: core.Observation{Prompt: e.questions[i]},
		Hidden:      core.Hidden{TaskIndex: i, ExpectedAnswer: &truth, Entry: entry},
		Info:        info,
	}, nil
}

// correctness is the correctness reward of an extraction of a response to
// row i, with the scoring rule's reason.
func (e *Env) correctness(i int, x extract.Extraction) (float64, string) {
	if !x.Found {
		return 0, ""
	}
	v, reason := e.score(e.truths[i], x.Answer)
	return core.FiniteOrZero(v), reason
}

// overBudget reports whether a scoring's reason says it stopped at its
// budget (the verifier's reasons are "over budget: ...", possibly after the
// side that overran).
func overBudget(reason string) bool { return strings.Contains(reason, "over budget: ") }

// ScoreText scores one response to row i.
func (e *Env) ScoreText(i int, text string, out *core.Scored) {
	if err := e.Check(i); err != nil {
		out.Err = err
		return
	}
	if e.code != nil {
		e.scoreCode([]int64{int64(i)}, []string{text}, unsafe.Slice(out, 1))
		return
	}
	x := e.extractor.Extract(text)
	out.Extraction = x
	total := 0.0
	for j, s := range e.signals {
		var v float64
		switch s.Name {
		case "correctness":
			var reason string
			v, reason = e.correctness(i, x)
			if overBudget(reason) {
				out.Err = fmt.Errorf("%w: row %d: %s", core.ErrOverBudget, i, reason)
			}
		case "format":
			if x.Found {
				v = 1
			}
		}
		out.Values[j] = v
		total += v * s.Weight
	}
	out.Total = total
}

// StepTask scores action a against row i (through ScoreText, as a batch
// does) and reports what llenvs' step reports.
func (e *Env) StepTask(i int, a core.Action) (core.StepResult, error) {
	if err := e.Check(i); err != nil {
		return core.StepResult{}, err
	}
	out := core.Scored{Values: make([]float64, len(e.signals))}
	var code codeResult
	if a.Text != nil && e.code != nil {
		code = e.scoreCode([]int64{int64(i)}, []string{*a.Text}, unsafe.Slice(&out, 1))[0]
		// A program that runs out of time is the model's doing: the step reports it (status "timeout" in
		// the signal's metadata, the feedback naming the tests) rather than failing.
		if out.Err != nil && !(code.ran && errors.Is(out.Err, core.ErrOverBudget)) {
			return core.StepResult{}, out.Err
		}
	} else if a.Text != nil {
		e.ScoreText(i, *a.Text, &out)
		if out.Err != nil {
			return core.StepResult{}, out.Err
		}
	}
	x := out.Extraction
	extMeta := e.extractor.Describe(x)
	var extracted any
	var extractedPtr *string
	if x.Found {
		extracted = x.Answer
		extractedPtr = &x.Answer
	}
	expected := e.truths[i]
	signals := make([]core.Signal, len(e.signals))
	for j, s := range e.signals {
		var meta map[string]any
		var feedback *string
		switch {
		case s.Name == "correctness" && e.code != nil:
			meta, feedback = codeMetadata(code)
			meta["extraction"] = extMeta
		case s.Name == "correctness":
			if x.Found {
				meta = map[string]any{"extracted": extracted, "expected": expected, "extraction": extMeta,
					"scoring": e.params.Scoring}
				if _, reason := e.correctness(i, x); reason != "" {
					meta["reason"] = reason
				}
			} else {
				meta = map[string]any{"extracted": nil, "extraction": extMeta}
			}
		case s.Name == "format":
			meta = map[string]any{"extraction": extMeta}
		}
		signals[j] = core.Signal{Name: s.Name, Type: s.Type, Reward: core.Float(out.Values[j]), Feedback: feedback,
			Weight: s.Weight, Metadata: meta}
	}
	return core.StepResult{Signals: signals, Terminated: true, ExtractedAction: extractedPtr,
		ResolvedAction: extractedPtr,
		Info: map[string]any{"extracted_answer": extracted, "expected_answer": expected,
			"extraction_metadata": extMeta, "backend": "native"}}, nil
}

// Describe lists the options of this adapter for callers that validate
// settings before loading any rows: the ground-truth extractors and the
// scoring names.
func Describe() map[string]any {
	return map[string]any{"ground_truth_extractors": GroundTruthExtractorNames(), "scorings": ScoringNames()}
}
