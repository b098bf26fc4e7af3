package serving

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/core"
)

// OpenRLHF's remote reward protocol (openrlhf/utils/agent.py, 0.11): a
// POST of {"query": [...], "prompts": [...], "labels": [...]}, answered
// with {"rewards": [...], "scores": [...], "extra_logs": {...}}.

// labelPrefix starts the labels of make_openrlhf_dataset's rows:
// llenvs:<task_index>:<fingerprint>:<environment reference>.
const labelPrefix = "llenvs:"

// unscoredScore is the score (OpenRLHF's dynamic-filtering value) of an
// item that timed out or failed: outside [0, 1], so that a filter on the
// range drops it instead of reading it as a wrong answer.
const unscoredScore = -1.0

// The extra_logs keys, as the in-process reward_func logs them.
const (
	logUnscored = "llenvs/unscored"
	logMismatch = "llenvs/env_mismatch"
	logRefused  = "llenvs/refused_reference"
	logTimeout  = "llenvs/timeout"
	logError    = "llenvs/error"
)

type openrlhfRequest struct {
	Query   []string `json:"query"`
	Prompts []string `json:"prompts"` // a null prompt is "", as an empty one
	Labels  []any    `json:"labels"`  // strings, json.Numbers (their own text) or anything else, refused
	// labelTexts holds the labels instead of Labels when every one is a
	// non-empty string, as trainers send them.
	labelTexts []string
}

// openrlhfTexts is the request decoded without an interface per label.
type openrlhfTexts struct {
	Query   []string `json:"query"`
	Prompts []string `json:"prompts"`
	Labels  []string `json:"labels"`
}

// decodeOpenRLHF decodes a /get_reward body. Labels are decoded as
// strings; a body with a label of another type, a null or an empty one is
// decoded again in the general form, which tells them apart.
func decodeOpenRLHF(body []byte) (openrlhfRequest, error) {
	var texts openrlhfTexts
	if fastDecode(body, &texts, false) == nil && texts.Labels != nil && !slices.Contains(texts.Labels, "") {
		return openrlhfRequest{Query: texts.Query, Prompts: texts.Prompts, labelTexts: texts.Labels}, nil
	}
	var req openrlhfRequest
	err := decodeBody(body, &req, false)
	return req, err
}

// labels is how many labels the request holds, and whether it has any.
func (r *openrlhfRequest) labels() (int, bool) {
	if r.labelTexts != nil {
		return len(r.labelTexts), true
	}
	return len(r.Labels), r.Labels != nil
}

type openrlhfReply struct {
	Rewards   []float64          `json:"rewards"`
	Scores    []float64          `json:"scores"`
	ExtraLogs map[string]float64 `json:"extra_logs"`
	Statuses  []string           `json:"statuses"`
}

func (s *Server) getReward(ctx context.Context, r *http.Request, body []byte) (any, []Outcome, error) {
	if err := jsonOnly(r); err != nil {
		return nil, nil, err
	}
	req, err := decodeOpenRLHF(body)
	if err != nil {
		return nil, nil, err
	}
	n := len(req.Query)
	if req.Query == nil {
		return nil, nil, badRequest(`the body needs "query": a list of strings (the prompt and response, decoded)`)
	}
	nl, labelled := req.labels()
	if req.Prompts != nil && len(req.Prompts) != n || labelled && nl != n {
		return nil, nil, badRequest("query, prompts and labels must have the same length (got %d, %d and %d)", n, len(req.Prompts), nl)
	}
	if err := s.checkItems(n); err != nil {
		return nil, nil, err
	}
	outs := make([]Outcome, n)
	responses := make([]string, n)
	truths := make([]string, n)
	var plain []int
	groups := map[*served]*group{}
	known := map[string]*served{}
	for k := range n {
		var prompt string
		if req.Prompts != nil {
			prompt = req.Prompts[k]
		}
		responses[k] = responseOf(req.Query[k], prompt)
		var truth string
		var ref reference
		var fail *Outcome
		switch {
		case req.labelTexts != nil:
			truth, ref, fail = s.classifyText(req.labelTexts[k])
		case labelled:
			truth, ref, fail = s.classifyLabel(req.Labels[k])
		default:
			truth, ref, fail = s.classifyLabel(nil)
		}
		switch {
		case fail != nil:
			outs[k] = *fail
		case ref.isSet:
			if e := s.resolveReference(&ref, known); e != nil {
				outs[k] = *e
				continue
			}
			g := groups[ref.env]
			if g == nil {
				g = &group{positions: make([]int, 0, n), indices: make([]int64, 0, n), fingerprints: make([]string, 0, n)}
				groups[ref.env] = g
			}
			g.add(k, ref.index, ref.fingerprint)
		default:
			truths[k] = truth
			plain = append(plain, k)
		}
	}
	for env, g := range groups {
		s.scoreGroup(ctx, env, g, responses, outs)
	}
	s.scoreLabels(ctx, plain, responses, truths, outs)
	return packOpenRLHF(outs), outs, nil
}

// group is the items of one request that one environment scores.
type group struct {
	positions    []int
	indices      []int64
	fingerprints []string
}

func (g *group) add(position int, index int64, fingerprint string) {
	g.positions = append(g.positions, position)
	g.indices = append(g.indices, index)
	g.fingerprints = append(g.fingerprints, fingerprint)
}

// scoreGroup scores a group's items into outs (at their positions); items
// whose label's fingerprint is not their task's ground truth's are errors.
func (s *Server) scoreGroup(ctx context.Context, env *served, g *group, responses []string, outs []Outcome) {
	idx := make([]int64, 0, len(g.indices))
	pos := make([]int, 0, len(g.indices))
	truths, checksTruth := env.Scorer.(TruthSource)
	for j, i := range g.indices {
		k := g.positions[j]
		if fp := g.fingerprints[j]; fp != "" && checksTruth {
			truth, ok, err := truths.Truth(int(i))
			if err == nil && ok && hasFingerprint(truth, fp) {
				idx = append(idx, i)
				pos = append(pos, k)
				continue
			}
			own := ""
			if err == nil && ok {
				own = fingerprint(truth)
			}
			if err != nil || own != fp {
				outs[k] = Outcome{Status: StatusError, Unscored: true, Mismatched: true, Error: fmt.Sprintf("task %d: the label's ground-truth "+
					"fingerprint %s is not this environment's (%s): the row was built from another environment (seed, size or "+
					"configuration) than %q", i, fp, orNone(own), env.Name)}
				continue
			}
		}
		idx = append(idx, i)
		pos = append(pos, k)
	}
	texts := make([]string, len(idx))
	for j, k := range pos {
		texts[j] = responses[k]
	}
	scored := make([]Outcome, len(idx))
	scoreChunks(ctx, len(idx), scored, func(lo, hi int) { env.Scorer.Score(idx[lo:hi], texts[lo:hi], scored[lo:hi]) })
	for j, k := range pos {
		outs[k] = scored[j]
	}
}

// scoreLabels scores the items at positions against their ground truths
// by the server's label rule.
func (s *Server) scoreLabels(ctx context.Context, positions []int, responses, truths []string, outs []Outcome) {
	scored := make([]Outcome, len(positions))
	scoreChunks(ctx, len(positions), scored, func(lo, hi int) {
		core.ParallelFor(hi-lo, func(a, b int) {
			for j := lo + a; j < lo+b; j++ {
				k := positions[j]
				scored[j] = scoreLabel(s.labels, responses[k], truths[k])
			}
		})
	})
	for j, k := range positions {
		outs[k] = scored[j]
	}
}

func orNone(fp string) string {
	if fp == "" {
		return "no ground truth"
	}
	return fp
}

// reference is a label that names a task of a served environment.
type reference struct {
	isSet       bool
	env         *served
	index       int64
	fingerprint string
	text        string
}

// classifyLabel reads one label: a ground truth (a non-empty string not
// starting with "llenvs:", or a number, as its JSON text), a reference
// (llenvs:<i>:<fingerprint>:<environment>), or neither (an unscored item).
func (s *Server) classifyLabel(label any) (truth string, ref reference, fail *Outcome) {
	switch v := label.(type) {
	case nil:
		return unscored("the sample has no label: give each sample its ground truth, or the label make_openrlhf_dataset wrote")
	case json.Number:
		return string(v), reference{}, nil
	case string:
		return s.classifyText(v)
	default:
		text, _ := encode(v)
		return unscored("label %s is neither a ground truth (a string or number) nor an llenvs task reference", shortText(string(text)))
	}
}

// classifyText reads a label that is a string.
func (s *Server) classifyText(v string) (truth string, ref reference, fail *Outcome) {
	rest, ok := strings.CutPrefix(v, labelPrefix)
	if !ok {
		if strings.TrimSpace(v) == "" {
			return unscored("the label is empty: give each sample its ground truth, or the label make_openrlhf_dataset wrote")
		}
		return v, reference{}, nil
	}
	index, rest, ok1 := strings.Cut(rest, ":")
	fp, text, ok2 := strings.Cut(rest, ":")
	if !ok1 || !ok2 || !asciiDigits(index) {
		return unscored("label %s is not an llenvs task reference (expected 'llenvs:<task_index>:<fingerprint>:<environment>' as make_openrlhf_dataset writes it)", shortText(v))
	}
	i, err := strconv.ParseInt(index, 10, 64)
	if err != nil {
		return unscored("label %s: task index %s is out of range", shortText(v), index)
	}
	return "", reference{isSet: true, index: i, fingerprint: fp, text: text}, nil
}

func unscored(format string, args ...any) (string, reference, *Outcome) {
	return "", reference{}, &Outcome{Status: StatusError, Unscored: true, Error: fmt.Sprintf(format, args...)}
}

// resolveReference finds the served environment a reference label names
// and checks its task index; labels are untrusted, so one that names an
// environment this server does not serve is refused. known caches the
// request's references already resolved.
func (s *Server) resolveReference(ref *reference, known map[string]*served) *Outcome {
	var env *served
	switch {
	case ref.text == "" && len(s.order) == 1:
		// Rows of an environment that has no reference (one written in
		// Python) name none; the one served environment scores them, and
		// the fingerprint check still catches rows of another.
		env = s.envs[s.order[0]]
	case ref.text == "":
		return &Outcome{Status: StatusError, Unscored: true, Error: fmt.Sprintf("label for task %d names no environment, and this server "+
			"serves %d; serve only the environment the rows were built from", ref.index, len(s.order))}
	default:
		var seen bool
		if env, seen = known[ref.text]; !seen {
			env = s.byReference(ref.text)
			known[ref.text] = env
		}
	}
	if env == nil {
		return &Outcome{Status: StatusError, Unscored: true, Refused: true, Error: fmt.Sprintf("the label names an environment this server does not serve "+
			"(%s); serve it (llenvs-go serve with the configuration the rows were exported with)", shortText(ref.text))}
	}
	if err := env.Scorer.Check(int(ref.index)); err != nil || ref.index > int64(^uint(0)>>1) {
		msg := fmt.Sprintf("task %d of %q", ref.index, env.Name)
		if err != nil {
			msg = err.Error()
		}
		return &Outcome{Status: StatusError, Unscored: true, Error: msg}
	}
	ref.env = env
	return nil
}

func (s *Server) byReference(text string) *served {
	for _, name := range s.order {
		if e := s.envs[name]; e.Reference != "" && e.Reference == text {
			return e
		}
	}
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return nil
	}
	for _, name := range s.order {
		if e := s.envs[name]; e.reference != nil && reflect.DeepEqual(e.reference, v) {
			return e
		}
	}
	return nil
}

func packOpenRLHF(outs []Outcome) openrlhfReply {
	r := openrlhfReply{Rewards: make([]float64, len(outs)), Scores: make([]float64, len(outs)), Statuses: make([]string, len(outs))}
	var unscored, mismatched, refused, timeouts, errs float64
	for k := range outs {
		o := &outs[k]
		r.Rewards[k], r.Scores[k], r.Statuses[k] = o.Total, o.Total, o.Status.String()
		switch {
		case o.Unscored:
			// As the in-process reward_func: a row that names no task it can
			// score gets 0 and is counted, not read as a failed scoring.
			unscored++
			r.Rewards[k], r.Scores[k] = 0, 0
		case o.Status == StatusTimeout:
			timeouts++
			r.Rewards[k], r.Scores[k] = 0, unscoredScore
		case o.Status == StatusError:
			errs++
			r.Rewards[k], r.Scores[k] = 0, unscoredScore
		}
		if o.Mismatched {
			mismatched++
		}
		if o.Refused {
			refused++
		}
	}
	r.ExtraLogs = map[string]float64{logUnscored: unscored, logMismatch: mismatched, logRefused: refused, logTimeout: timeouts, logError: errs}
	return r
}

// promptTails are how many characters of the prompt's end are looked for
// in the query when the prompt is not its prefix.
var promptTails = [...]int{64, 16}

// responseOf is the response part of an OpenRLHF query: what follows the
// prompt when the prompt is its prefix; otherwise what follows the
// prompt's last characters in the query (decoding the prompt's tokens does
// not always give the prompt back, and long prompts are truncated on the
// left); otherwise the whole query.
func responseOf(query, prompt string) string {
	if prompt == "" {
		return query
	}
	if strings.HasPrefix(query, prompt) {
		return query[len(prompt):]
	}
	for _, size := range promptTails {
		tail := lastRunes(prompt, size)
		if k := strings.Index(query, tail); k >= 0 {
			return query[k+len(tail):]
		}
	}
	return query
}

func lastRunes(s string, n int) string {
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}

func asciiDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func shortText(s string) string {
	if len(s) > 120 {
		return strconv.Quote(s[:117] + "...")
	}
	return strconv.Quote(s)
}

func (s *Server) checkItems(n int) error {
	if n > s.limits.MaxItems {
		return &httpError{413, fmt.Sprintf("the request holds %d items; the limit is %d per request (split the batch, or raise --max-items)", n, s.limits.MaxItems)}
	}
	return nil
}

// decodeBody decodes a JSON object body into v, refusing trailing data
// and, when strict, unknown keys, with a message that names them.
func decodeBody(body []byte, v any, strict bool) error {
	if fastDecode(body, v, strict) == nil {
		return nil
	}
	// Refused: decode again with encoding/json for its precise error.
	reflect.ValueOf(v).Elem().SetZero()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return bodyError(err)
	}
	if dec.More() {
		return badRequest("the request body is not valid JSON: data after the JSON object")
	}
	return nil
}

// bodyError words a decoding error for the client: which field has the
// wrong type, or where the JSON breaks.
func bodyError(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return badRequest("field %q must not be a JSON %s (see docs/serving.md for the request's fields)", te.Field, te.Value)
	case errors.As(err, &te):
		return badRequest("the request body must be a JSON object, not a JSON %s", te.Value)
	case errors.As(err, &se):
		return badRequest("the request body is not valid JSON (at byte %d): %v", se.Offset, err)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return badRequest("the request has an %s (see docs/serving.md for the request's fields)", strings.TrimPrefix(err.Error(), "json: "))
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return badRequest("the request body is not valid JSON: it ends before the JSON object does")
	}
	return badRequest("the request body is not valid JSON: %v", err)
}
