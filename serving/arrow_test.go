package serving

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/internal/arrowipc"
)

func postArrow(t testing.TB, h http.Handler, path string, body []byte, accept string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", arrowipc.ContentType)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func arrowBody(t testing.TB, meta map[string]string, cols ...arrowipc.Column) []byte {
	data, err := arrowipc.Write(meta, cols)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// arrowReply reads an Arrow answer back into the JSON answer's form.
func arrowReply(t *testing.T, w *httptest.ResponseRecorder) batchReply {
	t.Helper()
	if ct := w.Header().Get("Content-Type"); ct != arrowipc.ContentType {
		t.Fatalf("answer of type %q: %s", ct, w.Body)
	}
	tab, err := arrowipc.Read(w.Body.Bytes(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	optional := func(c *arrowipc.Column) []*string {
		out := make([]*string, len(c.Strings))
		for k := range c.Strings {
			if c.Valid[k] {
				out[k] = &c.Strings[k]
			}
		}
		return out
	}
	r := batchReply{Environment: tab.Metadata["environment"], Totals: tab.Column("totals").Floats, Statuses: tab.Column("statuses").Strings,
		Answers: optional(tab.Column("answers")), Errors: optional(tab.Column("errors"))}
	for _, c := range tab.Columns {
		if name, ok := strings.CutPrefix(c.Name, "signals."); ok {
			if r.Signals == nil {
				r.Signals = map[string][]float64{}
			}
			r.Signals[name] = c.Floats
		}
	}
	return r
}

func jsonReply(t *testing.T, w *httptest.ResponseRecorder) batchReply {
	t.Helper()
	var r batchReply
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &r) != nil {
		t.Fatalf("code %d: %s", w.Code, w.Body)
	}
	return r
}

// An Arrow body scores as the JSON body of the same lists, and the Arrow
// answer holds what the JSON answer holds.
func TestScoreArrowEqualsJSON(t *testing.T) {
	env := legCounting(t)
	s := newServer(t, Config{Environments: []Environment{{Name: "leg_counting", Reference: legReference, Scorer: EnvScorer(env)}}})
	h := s.Handler()
	t0, t1 := truthOf(t, env, 0), truthOf(t, env, 1)
	responses := []string{"<answer>" + t0 + "</answer>", "<answer>-" + t1 + "</answer>", "no tags", "x", ""}
	cases := []struct {
		name  string
		json  string
		arrow []byte
	}{
		{"task indices",
			fmt.Sprintf(`{"environment": "leg_counting", "task_indices": [0, 1, 2, 99, 3], "responses": ["<answer>%s</answer>", "<answer>-%s</answer>", "no tags", "x", null]}`, t0, t1),
			arrowBody(t, map[string]string{"environment": "leg_counting"},
				arrowipc.Column{Name: "task_indices", Type: arrowipc.Int64, Ints: []int64{0, 1, 2, 99, 3}},
				arrowipc.Column{Name: "responses", Type: arrowipc.Utf8, Strings: responses, Valid: []bool{true, true, true, true, false}})},
		{"ground truths",
			`{"ground_truths": ["4", "4", null], "responses": ["\\boxed{4}", "\\boxed{3}", "\\boxed{1}"]}`,
			arrowBody(t, nil,
				arrowipc.Column{Name: "ground_truths", Type: arrowipc.Utf8, Strings: []string{"4", "4", ""}, Valid: []bool{true, true, false}},
				arrowipc.Column{Name: "responses", Type: arrowipc.Utf8, Strings: []string{`\boxed{4}`, `\boxed{3}`, `\boxed{1}`}})},
		{"data sources",
			`{"ground_truths": ["72", "72"], "data_sources": ["openai/gsm8k", "openai/gsm8k"], "responses": ["so #### 72", "#### 71"]}`,
			arrowBody(t, nil,
				arrowipc.Column{Name: "responses", Type: arrowipc.Utf8, Strings: []string{"so #### 72", "#### 71"}},
				arrowipc.Column{Name: "data_sources", Type: arrowipc.Utf8, Strings: []string{"openai/gsm8k", "openai/gsm8k"}},
				arrowipc.Column{Name: "ground_truths", Type: arrowipc.Utf8, Strings: []string{"72", "72"}})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := jsonReply(t, post(t, h, "/score", c.json))
			if got := jsonReply(t, postArrow(t, h, "/score", c.arrow, "")); !reflect.DeepEqual(got, want) {
				t.Errorf("Arrow body, JSON answer:\n%+v\nwant\n%+v", got, want)
			}
			w := postArrow(t, h, "/score", c.arrow, "application/json, "+arrowipc.ContentType)
			if got := arrowReply(t, w); !reflect.DeepEqual(got, want) {
				t.Errorf("Arrow body, Arrow answer:\n%+v\nwant\n%+v", got, want)
			}
			w = post(t, h, "/score", c.json, "Accept", arrowipc.ContentType)
			if got := arrowReply(t, w); !reflect.DeepEqual(got, want) {
				t.Errorf("JSON body, Arrow answer:\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}

func TestScoreArrowBadBodies(t *testing.T) {
	env := legCounting(t)
	s := newServer(t, Config{Environments: []Environment{{Name: "leg_counting", Scorer: EnvScorer(env)}},
		Limits: Limits{MaxBodyBytes: 4 << 10, MaxItems: 3}})
	h := s.Handler()
	responses := func(texts ...string) arrowipc.Column {
		return arrowipc.Column{Name: "responses", Type: arrowipc.Utf8, Strings: texts}
	}
	good := arrowBody(t, nil, arrowipc.Column{Name: "task_indices", Type: arrowipc.Int64, Ints: []int64{0}}, responses("a"))
	cases := []struct {
		name, path string
		body       []byte
		code       int
		says       string
	}{
		{"JSON sent as Arrow", "/score", []byte(`{"responses": ["a"]}`), 400, "not a valid Arrow IPC stream"},
		{"truncated", "/score", good[:len(good)-20], 400, "not a valid Arrow IPC stream"},
		{"unknown column", "/score", arrowBody(t, nil, responses("a"), arrowipc.Column{Name: "ground_truth", Type: arrowipc.Utf8, Strings: []string{"1"}}),
			400, `unknown column "ground_truth"`},
		{"task indices as strings", "/score", arrowBody(t, nil, responses("a"), arrowipc.Column{Name: "task_indices", Type: arrowipc.Utf8, Strings: []string{"1"}}),
			400, `"task_indices" must hold integers`},
		{"a null task index", "/score", arrowBody(t, nil, responses("a"), arrowipc.Column{Name: "task_indices", Type: arrowipc.Int64, Ints: []int64{0}, Valid: []bool{false}}),
			400, "nulls"},
		{"no responses", "/score", arrowBody(t, nil, arrowipc.Column{Name: "ground_truths", Type: arrowipc.Utf8, Strings: []string{"1"}}), 400, `"responses"`},
		{"unknown environment", "/score", arrowBody(t, map[string]string{"environment": "nope"}, arrowipc.Column{Name: "task_indices", Type: arrowipc.Int64, Ints: []int64{0}}, responses("a")),
			404, "not served"},
		{"too many rows", "/score", arrowBody(t, nil, responses("a", "b", "c", "d")), 413, "limit is 3"},
		{"body over the limit", "/score", arrowBody(t, nil, responses(strings.Repeat("a", 5000))), 413, "limit"},
		{"Arrow to /get_reward", "/get_reward", good, 415, "/score"},
		{"Arrow to /verify", "/verify", good, 415, "/score"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := postArrow(t, h, c.path, c.body, arrowipc.ContentType)
			if w.Code != c.code {
				t.Fatalf("code %d, want %d: %s", w.Code, c.code, w.Body)
			}
			if msg, _ := decode(t, w)["error"].(string); !strings.Contains(msg, c.says) {
				t.Errorf("error %q does not say %q", msg, c.says)
			}
		})
	}
	if w := postArrow(t, h, "/score", good, ""); w.Code != 200 {
		t.Errorf("after the bad bodies: %d %s", w.Code, w.Body)
	}
}

// FuzzScoreArrow: whatever an Arrow body holds, /score answers 200 or a
// 4xx with a JSON error, and never fails inside (500) or panics.
func FuzzScoreArrow(f *testing.F) {
	t := &testing.T{}
	env := legCounting(t)
	s, err := New(Config{Environments: []Environment{{Name: "leg_counting", Scorer: EnvScorer(env)}}, Limits: Limits{MaxItems: 64, MaxBodyBytes: 1 << 16}})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Add(arrowBody(f, map[string]string{"environment": "leg_counting"},
		arrowipc.Column{Name: "task_indices", Type: arrowipc.Int64, Ints: []int64{0, 7, -1}},
		arrowipc.Column{Name: "responses", Type: arrowipc.Utf8, Strings: []string{"<answer>4</answer>", "", "x"}, Valid: []bool{true, false, true}}))
	f.Add(arrowBody(f, nil,
		arrowipc.Column{Name: "ground_truths", Type: arrowipc.Utf8, Strings: []string{"72", "1/2"}},
		arrowipc.Column{Name: "data_sources", Type: arrowipc.Utf8, Strings: []string{"openai/gsm8k", ""}},
		arrowipc.Column{Name: "responses", Type: arrowipc.Utf8, Strings: []string{"#### 72", `\boxed{0.5}`}}))
	f.Fuzz(func(t *testing.T, body []byte) {
		w := postArrow(t, h, "/score", body, arrowipc.ContentType)
		switch {
		case w.Code == 200:
			if _, err := arrowipc.Read(w.Body.Bytes(), 64); err != nil {
				t.Fatalf("the answer does not read back: %v", err)
			}
		case w.Code >= 400 && w.Code < 500:
			var m map[string]string
			if json.Unmarshal(w.Body.Bytes(), &m) != nil || m["error"] == "" {
				t.Fatalf("a %d without a JSON error: %s", w.Code, w.Body)
			}
		default:
			t.Fatalf("code %d: %s", w.Code, w.Body)
		}
	})
}
