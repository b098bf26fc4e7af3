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

// arrow encodes the answer as an Arrow IPC stream.
func (r *batchReply) arrow() (rawAnswer, error) {
	n := len(r.Totals)
	nullable := func(name string, values []*string) arrowipc.Column {
		c := arrowipc.Column{Name: name, Type: arrowipc.Utf8, Strings: make([]string, n), Valid: make([]bool, n)}
		for k, v := range values {
			if v != nil {
				c.Strings[k], c.Valid[k] = *v, true
			}
		}
		return c
	}
	cols := []arrowipc.Column{
		{Name: "totals", Type: arrowipc.Float64, Floats: r.Totals},
		{Name: "statuses", Type: arrowipc.Utf8, Strings: r.Statuses},
		nullable("answers", r.Answers),
		nullable("errors", r.Errors),
	}
	names := make([]string, 0, len(r.Signals))
	for name := range r.Signals {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		cols = append(cols, arrowipc.Column{Name: "signals." + name, Type: arrowipc.Float64, Floats: r.Signals[name]})
	}
	var meta map[string]string
	if r.Environment != "" {
		meta = map[string]string{"environment": r.Environment}
	}
	body, err := arrowipc.Write(meta, cols)
	return rawAnswer{arrowipc.ContentType, body}, err
}
