package serving

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"sort"
	"strings"

	"github.com/llenvs/llenvs-go/internal/arrowipc"
)

// /score in Arrow IPC: a body of Content-Type
// application/vnd.apache.arrow.stream holds the JSON body's lists as
// columns of the same names (task_indices as integers; ground_truths,
// data_sources and responses as strings) and "environment" as schema
// metadata; with Accept: application/vnd.apache.arrow.stream the answer's
// lists are columns of one record batch (totals, statuses, answers,
// errors, and signals.<name> per signal), "environment" its schema
// metadata. Strings are read in place from the body, never copied.

// rawAnswer is an answer already encoded, with its media type.
type rawAnswer struct {
	contentType string
	body        []byte
}

// isArrow reports whether a Content-Type or Accept header names the Arrow
// IPC stream format.
func isArrow(header string) bool {
	for _, part := range strings.Split(header, ",") {
		if t, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && t == arrowipc.ContentType {
			return true
		}
	}
	return false
}

// jsonOnly refuses an Arrow body at an endpoint that takes JSON.
func jsonOnly(r *http.Request) error {
	if isArrow(r.Header.Get("Content-Type")) {
		return &httpError{http.StatusUnsupportedMediaType, fmt.Sprintf("%s takes a JSON body; Arrow IPC bodies go to POST /score", r.URL.Path)}
	}
	return nil
}

// The columns of an Arrow /score request and their types.
var arrowColumns = map[string]arrowipc.Type{
	"task_indices":  arrowipc.Int64,
	"ground_truths": arrowipc.Utf8,
	"data_sources":  arrowipc.Utf8,
	"responses":     arrowipc.Utf8,
}

// decodeArrowBatch reads an Arrow /score body into the request the JSON
// body would make.
func decodeArrowBatch(body []byte, maxItems int) (batchRequest, error) {
	var req batchRequest
	t, err := arrowipc.Read(body, maxItems)
	var tooMany *arrowipc.RowLimitError
	switch {
	case errors.As(err, &tooMany):
		return req, &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the request holds at least %d items; the limit is %d per request (split the batch, or raise --max-items)", tooMany.Rows, maxItems)}
	case err != nil:
		return req, badRequest("the body is not a valid Arrow IPC stream: %v", err)
	}
	for _, c := range t.Columns {
		want, known := arrowColumns[c.Name]
		if !known {
			names := make([]string, 0, len(arrowColumns))
			for name := range arrowColumns {
				names = append(names, name)
			}
			sort.Strings(names)
			return req, badRequest("the Arrow body has an unknown column %q (the columns are %s; see docs/serving.md)", c.Name, strings.Join(names, ", "))
		}
		if c.Type != want {
			return req, badRequest("column %q must hold %s, not %s", c.Name, map[arrowipc.Type]string{arrowipc.Int64: "integers", arrowipc.Utf8: "strings"}[want], c.Type)
		}
	}
	req.Environment = t.Metadata["environment"]
	if c := t.Column("task_indices"); c != nil {
		if c.Valid != nil {
			return req, badRequest(`column "task_indices" holds nulls; every row needs its task index`)
		}
		req.TaskIndices = c.Ints
	}
	req.GroundTruths = optionalStrings(t.Column("ground_truths"))
	req.Responses = optionalStrings(t.Column("responses"))
	if c := t.Column("data_sources"); c != nil {
		req.DataSources = c.Strings
	}
	return req, nil
}

// optionalStrings is a string column as the JSON decoder gives a list of
// strings or nulls: a pointer per row into the column, nil for a null.
func optionalStrings(c *arrowipc.Column) []*string {
	if c == nil {
		return nil
	}
	out := make([]*string, len(c.Strings))
	for k := range c.Strings {
		if c.Valid == nil || c.Valid[k] {
			out[k] = &c.Strings[k]
		}
	}
	return out
}

// arrowAnswer encodes the answer to a batch as an Arrow IPC stream: the
// columns of batchReply, built from the outcomes directly.
func arrowAnswer(env *served, outs []Outcome) (rawAnswer, error) {
	n := len(outs)
	totals := arrowipc.Column{Name: "totals", Type: arrowipc.Float64, Floats: make([]float64, n)}
	statuses := arrowipc.Column{Name: "statuses", Type: arrowipc.Utf8, Strings: make([]string, n)}
	answers := arrowipc.Column{Name: "answers", Type: arrowipc.Utf8, Strings: make([]string, n), Valid: make([]bool, n)}
	errs := arrowipc.Column{Name: "errors", Type: arrowipc.Utf8, Strings: make([]string, n), Valid: make([]bool, n)}
	var signals []arrowipc.Column
	var meta map[string]string
	if env != nil {
		meta = map[string]string{"environment": env.Name}
		for _, name := range env.signals {
			signals = append(signals, arrowipc.Column{Name: "signals." + name, Type: arrowipc.Float64, Floats: make([]float64, n)})
		}
	}
	for k := range outs {
		o := &outs[k]
		totals.Floats[k], statuses.Strings[k] = o.Total, o.Status.String()
		answers.Strings[k], answers.Valid[k] = o.Answer, o.Found
		errs.Strings[k], errs.Valid[k] = o.Error, o.Error != ""
		if len(o.Values) == len(signals) {
			for j := range signals {
				signals[j].Floats[k] = o.Values[j]
			}
		}
	}
	// Signal columns in name order, as the JSON answer's keys.
	sort.Slice(signals, func(i, j int) bool { return signals[i].Name < signals[j].Name })
	body, err := arrowipc.Write(meta, append([]arrowipc.Column{totals, statuses, answers, errs}, signals...))
	return rawAnswer{arrowipc.ContentType, body}, err
}
