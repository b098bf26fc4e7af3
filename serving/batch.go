package serving

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/llenvs/llenvs-go/core"
)

// The batch endpoint, POST /score: responses scored against the tasks of a
// served environment, or against ground truths (by the label rule, or by
// veRL's data-source routing when data_sources are given).

type batchRequest struct {
	Environment  string    `json:"environment"`
	TaskIndices  []int64   `json:"task_indices"`
	GroundTruths []*string `json:"ground_truths"`
	DataSources  []string  `json:"data_sources"`
	Responses    []*string `json:"responses"`
}

type batchReply struct {
	Environment string               `json:"environment,omitempty"`
	Totals      []float64            `json:"totals"`
	Statuses    []string             `json:"statuses"`
	Answers     []*string            `json:"answers"`
	Errors      []*string            `json:"errors"`
	Signals     map[string][]float64 `json:"signals,omitempty"`
}

func (s *Server) score(ctx context.Context, r *http.Request, body []byte) (any, []Outcome, error) {
	var req batchRequest
	var err error
	if isArrow(r.Header.Get("Content-Type")) {
		req, err = decodeArrowBatch(body, s.limits.MaxItems)
	} else {
		err = decodeBody(body, &req, true)
	}
	if err != nil {
		return nil, nil, err
	}
	answer := func(env *served, outs []Outcome) (any, []Outcome, error) {
		if !isArrow(r.Header.Get("Accept")) {
			return packBatch(env, outs), outs, nil
		}
		raw, err := arrowAnswer(env, outs)
		if err != nil {
			return nil, nil, &httpError{http.StatusInternalServerError, "the answer could not be encoded: " + err.Error()}
		}
		return raw, outs, nil
	}
	if req.Responses == nil {
		return nil, nil, badRequest(`the body needs "responses": a list of strings, with "task_indices" (of a served environment) or "ground_truths"`)
	}
	n := len(req.Responses)
	if err := s.checkItems(n); err != nil {
		return nil, nil, err
	}
	texts := make([]string, n)
	outs := make([]Outcome, n)
	missing := make([]bool, n)
	for k, r := range req.Responses {
		if r == nil {
			missing[k] = true
		} else {
			texts[k] = *r
		}
	}
	switch {
	case req.TaskIndices != nil && req.GroundTruths != nil:
		return nil, nil, badRequest(`give "task_indices" or "ground_truths", not both`)
	case req.TaskIndices != nil:
		if len(req.TaskIndices) != n {
			return nil, nil, badRequest("task_indices and responses must have the same length (got %d and %d)", len(req.TaskIndices), n)
		}
		if req.DataSources != nil {
			return nil, nil, badRequest(`"data_sources" go with "ground_truths", not with "task_indices"`)
		}
		env, err := s.environment(req.Environment)
		if err != nil {
			return nil, nil, err
		}
		g := &group{}
		for k, i := range req.TaskIndices {
			if missing[k] {
				outs[k] = Outcome{Status: StatusError, Error: "the response is null"}
				continue
			}
			if err := env.Scorer.Check(int(i)); err != nil || i != int64(int(i)) {
				outs[k] = Outcome{Status: StatusError, Error: fmt.Sprintf("task index %d: %v", i, err)}
				continue
			}
			g.add(k, i, "")
		}
		s.scoreGroup(ctx, env, g, texts, outs)
		return answer(env, outs)
	case req.GroundTruths != nil:
		if len(req.GroundTruths) != n {
			return nil, nil, badRequest("ground_truths and responses must have the same length (got %d and %d)", len(req.GroundTruths), n)
		}
		if req.Environment != "" {
			return nil, nil, badRequest(`"environment" goes with "task_indices"; ground truths are scored by the server's label rule or by "data_sources"`)
		}
		if req.DataSources != nil && len(req.DataSources) != n {
			return nil, nil, badRequest("data_sources and responses must have the same length (got %d and %d)", len(req.DataSources), n)
		}
		truths := make([]string, n)
		var positions []int
		for k, t := range req.GroundTruths {
			switch {
			case missing[k]:
				outs[k] = Outcome{Status: StatusError, Error: "the response is null"}
			case t == nil:
				outs[k] = Outcome{Status: StatusError, Error: "the ground truth is null"}
			default:
				truths[k] = *t
				positions = append(positions, k)
			}
		}
		if req.DataSources == nil {
			s.scoreLabels(ctx, positions, texts, truths, outs)
		} else {
			scoreSources(ctx, positions, req.DataSources, texts, truths, outs)
		}
		return answer(nil, outs)
	default:
		return nil, nil, badRequest(`give "task_indices" (of a served environment) or "ground_truths" beside "responses"`)
	}
}

// scoreSources scores the items at positions by veRL's routing of their
// data sources.
func scoreSources(ctx context.Context, positions []int, sources, responses, truths []string, outs []Outcome) {
	scored := make([]Outcome, len(positions))
	scoreChunks(ctx, len(positions), scored, func(lo, hi int) {
		core.ParallelFor(hi-lo, func(a, b int) {
			for j := lo + a; j < lo+b; j++ {
				k := positions[j]
				scored[j] = scoreSource(sources[k], responses[k], truths[k])
			}
		})
	})
	for j, k := range positions {
		outs[k] = scored[j]
	}
}

func packBatch(env *served, outs []Outcome) batchReply {
	n := len(outs)
	r := batchReply{Totals: make([]float64, n), Statuses: make([]string, n), Answers: make([]*string, n), Errors: make([]*string, n)}
	if env != nil {
		r.Environment = env.Name
		r.Signals = make(map[string][]float64, len(env.signals))
		for _, name := range env.signals {
			r.Signals[name] = make([]float64, n)
		}
	}
	for k := range outs {
		o := &outs[k]
		r.Totals[k], r.Statuses[k] = o.Total, o.Status.String()
		if o.Found {
			r.Answers[k] = &o.Answer
		}
		if o.Error != "" {
			r.Errors[k] = &o.Error
		}
		if env != nil && len(o.Values) == len(env.signals) {
			for j, name := range env.signals {
				r.Signals[name][k] = o.Values[j]
			}
		}
	}
	return r
}

// The /verify endpoint in the shape of NeMo-Gym's resources servers: the
// request is {"responses_create_params": {...}, "response": <an OpenAI
// Responses API response>, ...task fields}, the answer the request's
// fields with "reward" added. The response text is the output_text of the
// response's assistant messages, joined. The task is "expected_answer" (a
// ground truth, scored by the label rule; with "data_source", by veRL's
// routing) or "task_index" (with "environment" when several are served).

type verifyOutput struct {
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

type verifyRequest struct {
	Response *struct {
		Output []json.RawMessage `json:"output"`
	} `json:"response"`
	ExpectedAnswer *string `json:"expected_answer"`
	DataSource     string  `json:"data_source"`
	TaskIndex      *int64  `json:"task_index"`
	Environment    string  `json:"environment"`
}

func (s *Server) verify(ctx context.Context, r *http.Request, body []byte) (any, []Outcome, error) {
	if err := jsonOnly(r); err != nil {
		return nil, nil, err
	}
	var fields map[string]json.RawMessage
	if err := decodeBody(body, &fields, false); err != nil {
		return nil, nil, err
	}
	var req verifyRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, nil, bodyError(err)
	}
	if req.Response == nil {
		return nil, nil, badRequest(`the body needs "response": the model's response (an OpenAI Responses API object with "output")`)
	}
	text := ""
	for _, raw := range req.Response.Output {
		var item verifyOutput
		if json.Unmarshal(raw, &item) != nil || item.Type != "message" || item.Role != "" && item.Role != "assistant" {
			continue
		}
		for _, c := range item.Content {
			if c.Type == "output_text" {
				text += c.Text
			}
		}
	}
	outs := make([]Outcome, 1)
	switch {
	case req.TaskIndex != nil && req.ExpectedAnswer != nil:
		return nil, nil, badRequest(`give "task_index" or "expected_answer", not both`)
	case req.TaskIndex != nil:
		env, err := s.environment(req.Environment)
		if err != nil {
			return nil, nil, err
		}
		i := *req.TaskIndex
		if err := env.Scorer.Check(int(i)); err != nil {
			return nil, nil, badRequest("task_index %d: %v", i, err)
		}
		g := &group{}
		g.add(0, i, "")
		s.scoreGroup(ctx, env, g, []string{text}, outs)
	case req.ExpectedAnswer != nil && req.DataSource != "":
		scoreSources(ctx, []int{0}, []string{req.DataSource}, []string{text}, []string{*req.ExpectedAnswer}, outs)
	case req.ExpectedAnswer != nil:
		s.scoreLabels(ctx, []int{0}, []string{text}, []string{*req.ExpectedAnswer}, outs)
	default:
		return nil, nil, badRequest(`the body needs the task: "expected_answer" (a ground truth) or "task_index" (of a served environment)`)
	}
	o := outs[0]
	reply := make(map[string]any, len(fields)+4)
	for k, v := range fields {
		reply[k] = v
	}
	reply["reward"] = o.Total
	if o.Status == StatusTimeout || o.Status == StatusError {
		reply["reward"] = 0.0
	}
	reply["status"] = o.Status.String()
	if o.Found {
		reply["extracted_answer"] = o.Answer
	} else {
		reply["extracted_answer"] = nil
	}
	if o.Error != "" {
		reply["error"] = o.Error
	}
	return reply, outs, nil
}
