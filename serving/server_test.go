package serving

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llenvs/llenvs-go/core"
	_ "github.com/llenvs/llenvs-go/envs/reasoninggym" // registers leg_counting
)

const legReference = `{"adapter":"reasoning_gym","name":"leg_counting","seed":42,"size":50}`

func legCounting(t *testing.T) core.SingleTurn {
	t.Helper()
	seed, size := int64(42), int64(50)
	env, err := core.NewEnvironment(core.EnvConfig{Name: "leg_counting", Adapter: "reasoning_gym", Seed: &seed, Size: &size,
		AnswerExtractor: "tag_based"})
	if err != nil {
		t.Fatal(err)
	}
	return env.(core.SingleTurn)
}

func truthOf(t *testing.T, env core.SingleTurn, i int) string {
	t.Helper()
	_, truth, err := env.(core.TaskTexter).TaskTexts(i)
	if err != nil || truth == nil {
		t.Fatalf("task %d has no ground truth: %v", i, err)
	}
	return *truth
}

func newServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func post(t *testing.T, h http.Handler, path, body string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func decode(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("answer %q is not JSON: %v", w.Body.String(), err)
	}
	return m
}

func TestGetReward(t *testing.T) {
	env := legCounting(t)
	s := newServer(t, Config{Environments: []Environment{{Name: "leg_counting", Reference: legReference, Scorer: EnvScorer(env)}}})
	h := s.Handler()
	truth3 := truthOf(t, env, 3)
	ref := func(i int, fp string) string { return fmt.Sprintf("llenvs:%d:%s:%s", i, fp, legReference) }
	// The same reference with its keys in another order names the same environment.
	reordered := `{"size":50,"seed":42,"name":"leg_counting","adapter":"reasoning_gym"}`
	cases := []struct {
		name    string
		query   string
		prompt  any
		label   any
		reward  float64
		score   float64
		status  string
		logsKey string
	}{
		{"boxed answer equals the label", "Q: 2+2? A: \\boxed{4}", "Q: 2+2?", "4", 1, 1, "correct", ""},
		{"math: 1/2 equals 0.5", "P\\boxed{\\frac{1}{2}}", "P", "0.5", 1, 1, "correct", ""},
		{"a wrong box", "P\\boxed{5}", "P", "4", 0, 0, "incorrect", ""},
		{"no box", "P the answer is 4", "P", "4", 0, 0, "no_answer", ""},
		{"a number label", "P\\boxed{7}", "P", 7, 1, 1, "correct", ""},
		{"no label", "P\\boxed{7}", "P", nil, 0, 0, "error", "llenvs/unscored"},
		{"an object label", "P\\boxed{7}", "P", map[string]any{"a": 1}, 0, 0, "error", "llenvs/unscored"},
		{"a reference, right answer", "P<answer>" + truth3 + "</answer>", "P", ref(3, fingerprint(truth3)), 1, 1, "correct", ""},
		{"a reference with keys reordered", "P<answer>" + truth3 + "</answer>", "P", "llenvs:3::" + reordered, 1, 1, "correct", ""},
		{"a reference, wrong answer", "P<answer>-1</answer>", "P", ref(3, ""), 0, 0, "incorrect", ""},
		{"a reference, wrong fingerprint", "P<answer>" + truth3 + "</answer>", "P", ref(3, "00000000"), 0, 0, "error", "llenvs/env_mismatch"},
		{"a reference to an environment not served", "P<answer>1</answer>", "P",
			`llenvs:3::{"adapter":"huggingface","name":"x","params":{"path":"/etc"}}`, 0, 0, "error", "llenvs/refused_reference"},
		{"a reference past the last task", "P<answer>1</answer>", "P", ref(50, ""), 0, 0, "error", "llenvs/unscored"},
		{"a malformed reference", "P<answer>1</answer>", "P", "llenvs:x:y", 0, 0, "error", "llenvs/unscored"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"query": []string{c.query}, "prompts": []any{c.prompt}, "labels": []any{c.label}})
			w := post(t, h, "/get_reward", string(body))
			if w.Code != 200 {
				t.Fatalf("code %d: %s", w.Code, w.Body)
			}
			var r openrlhfReply
			if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			if r.Rewards[0] != c.reward || r.Scores[0] != c.score || r.Statuses[0] != c.status {
				t.Errorf("got reward %v score %v status %s, want %v %v %s", r.Rewards[0], r.Scores[0], r.Statuses[0], c.reward, c.score, c.status)
			}
			for _, k := range []string{logUnscored, logMismatch, logRefused, logTimeout, logError} {
				if _, ok := r.ExtraLogs[k]; !ok {
					t.Errorf("extra_logs lacks %s", k)
				}
			}
			if c.logsKey != "" && r.ExtraLogs[c.logsKey] != 1 {
				t.Errorf("extra_logs[%s] = %v, want 1 (%v)", c.logsKey, r.ExtraLogs[c.logsKey], r.ExtraLogs)
			}
		})
	}
	// "/" is the same endpoint (OpenRLHF posts to the URL as given).
	w := post(t, h, "/", `{"query": ["P\\boxed{4}"], "prompts": ["P"], "labels": ["4"]}`)
	if w.Code != 200 || decode(t, w)["rewards"].([]any)[0] != 1.0 {
		t.Errorf("POST / gave %d %s", w.Code, w.Body)
	}
}

func TestResponseOf(t *testing.T) {
	long := strings.Repeat("é", 100) + "END"
	cases := []struct{ query, prompt, want string }{
		{"promptresponse", "prompt", "response"},
		{"whole query", "", "whole query"},
		// The decoded query does not start with the prompt (left-truncated), but holds its end.
		{strings.Repeat("é", 70) + "END" + "answer", long, "answer"},
		{"nothing in common", "prompt", "nothing in common"},
	}
	for _, c := range cases {
		if got := responseOf(c.query, c.prompt); got != c.want {
			t.Errorf("responseOf(%q, %q) = %q, want %q", c.query, c.prompt, got, c.want)
		}
	}
}

func TestFingerprintIsZlibCRC32(t *testing.T) {
	// Python: format(zlib.crc32(text.encode()), "08x").
	for text, want := range map[string]string{"42": "3224b088", "héllo": "9e3b8236"} {
		if got := fingerprint(text); got != want {
			t.Errorf("fingerprint(%q) = %s, want %s", text, got, want)
		}
	}
}

func TestScoreEndpoint(t *testing.T) {
	env := legCounting(t)
	s := newServer(t, Config{Environments: []Environment{{Name: "leg_counting", Reference: legReference, Scorer: EnvScorer(env)}}})
	h := s.Handler()
	t0, t1 := truthOf(t, env, 0), truthOf(t, env, 1)
	body := fmt.Sprintf(`{"task_indices": [0, 1, 2, 99], "responses": ["<answer>%s</answer>", "<answer>-%s</answer>", "no tags", "x"]}`, t0, t1)
	w := post(t, h, "/score", body)
	if w.Code != 200 {
		t.Fatalf("code %d: %s", w.Code, w.Body)
	}
	var r batchReply
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if want := []string{"correct", "incorrect", "no_answer", "error"}; fmt.Sprint(r.Statuses) != fmt.Sprint(want) {
		t.Errorf("statuses %v, want %v", r.Statuses, want)
	}
	if r.Totals[0] != 1 || r.Totals[1] >= 1 || r.Signals["correctness"][0] != 1 || r.Answers[0] == nil || *r.Answers[0] != t0 || r.Answers[2] != nil {
		t.Errorf("unexpected reply %s", w.Body)
	}
	if r.Errors[3] == nil || !strings.Contains(*r.Errors[3], "99") {
		t.Errorf("task 99's error does not name it: %v", r.Errors[3])
	}

	w = post(t, h, "/score", `{"ground_truths": ["4", "4"], "responses": ["\\boxed{4}", "\\boxed{3}"]}`)
	if got := decode(t, w)["statuses"]; fmt.Sprint(got) != "[correct incorrect]" {
		t.Errorf("ground truths: %d %s", w.Code, w.Body)
	}
	// veRL's routing: openai/gsm8k reads "#### <number>".
	w = post(t, h, "/score", `{"ground_truths": ["72", "72"], "data_sources": ["openai/gsm8k", "openai/gsm8k"], "responses": ["so #### 72", "#### 71"]}`)
	if got := decode(t, w)["totals"]; fmt.Sprint(got) != "[1 0]" {
		t.Errorf("data sources: %d %s", w.Code, w.Body)
	}
}

func TestVerifyEndpoint(t *testing.T) {
	s := newServer(t, Config{})
	body := `{"responses_create_params": {"input": [{"role": "user", "content": "What is 2 + 2?"}]},
	  "response": {"id": "r1", "object": "response", "output": [{"type": "reasoning", "summary": []},
	    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "It is \\boxed{4}", "annotations": []}]}]},
	  "question": "What is 2 + 2?", "expected_answer": "4"}`
	w := post(t, s.Handler(), "/verify", body)
	m := decode(t, w)
	if w.Code != 200 || m["reward"] != 1.0 || m["question"] != "What is 2 + 2?" || m["extracted_answer"] != "4" {
		t.Errorf("verify: %d %s", w.Code, w.Body)
	}
	if _, ok := m["responses_create_params"]; !ok {
		t.Error("the request's fields are not in the answer")
	}
}

func TestBadRequests(t *testing.T) {
	env := legCounting(t)
	s := newServer(t, Config{Environments: []Environment{{Name: "leg_counting", Scorer: EnvScorer(env)}},
		Limits: Limits{MaxBodyBytes: 1 << 10, MaxItems: 3}})
	h := s.Handler()
	cases := []struct {
		name, method, path, body string
		code                     int
		says                     string
	}{
		{"malformed JSON", "POST", "/get_reward", `{"query": [`, 400, "not valid JSON"},
		{"not an object", "POST", "/score", `[1, 2]`, 400, "must be a JSON object"},
		{"query of numbers", "POST", "/get_reward", `{"query": [1, 2]}`, 400, "query"},
		{"no query", "POST", "/get_reward", `{"labels": ["1"]}`, 400, "query"},
		{"lengths differ", "POST", "/get_reward", `{"query": ["a", "b"], "labels": ["1"]}`, 400, "same length"},
		{"unknown key", "POST", "/score", `{"responses": ["a"], "ground_truth": ["1"]}`, 400, `unknown field "ground_truth"`},
		{"a label of another type", "POST", "/get_reward", `{"query": ["a"], "labels": [{"x": 1}]}`, 200, ""},
		{"unknown environment", "POST", "/score", `{"environment": "leg_countin", "task_indices": [0], "responses": ["a"]}`, 404, "leg_counting"},
		{"too many items", "POST", "/get_reward", `{"query": ["a", "b", "c", "d"]}`, 413, "limit is 3"},
		{"body over the limit", "POST", "/get_reward", `{"query": ["` + strings.Repeat("a", 2000) + `"]}`, 413, "limit"},
		{"trailing data", "POST", "/score", `{"responses": [], "ground_truths": []} {}`, 400, "after"},
		{"GET of a POST endpoint", "GET", "/score", ``, 405, "POST"},
		{"unknown path", "GET", "/nope", ``, 404, "/get_reward"},
		{"verify without a task", "POST", "/verify", `{"response": {"output": []}}`, 400, "expected_answer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != c.code {
				t.Fatalf("code %d, want %d: %s", w.Code, c.code, w.Body)
			}
			if msg, _ := decode(t, w)["error"].(string); !strings.Contains(msg, c.says) {
				t.Errorf("error %q does not say %q", msg, c.says)
			}
		})
	}
	// And the server still serves.
	if w := post(t, h, "/get_reward", `{"query": ["\\boxed{1}"], "labels": ["1"]}`); w.Code != 200 {
		t.Errorf("after the bad requests: %d %s", w.Code, w.Body)
	}
}

func TestToken(t *testing.T) {
	s := newServer(t, Config{Token: "s3cret"})
	h := s.Handler()
	body := `{"query": ["\\boxed{1}"], "labels": ["1"]}`
	for _, c := range []struct {
		header []string
		code   int
	}{{nil, 401}, {[]string{"Authorization", "Bearer wrong"}, 401}, {[]string{"Authorization", "s3cret"}, 401},
		{[]string{"Authorization", "Bearer s3cret"}, 200}} {
		if w := post(t, h, "/get_reward", body, c.header...); w.Code != c.code {
			t.Errorf("header %v: code %d, want %d", c.header, w.Code, c.code)
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/health", nil))
	if w.Code != 200 {
		t.Errorf("/health needs no token, got %d", w.Code)
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	if w.Code != 401 {
		t.Errorf("/metrics without the token: %d", w.Code)
	}
}

// slowScorer sleeps per call, so that requests pile up.
type slowScorer struct {
	delay time.Duration
	calls atomic.Int64
}

func (s *slowScorer) Signals() []string { return []string{"correctness"} }
func (s *slowScorer) Check(i int) error { return core.CheckIndex(i, 1<<30) }
func (s *slowScorer) Score(indices []int64, texts []string, outs []Outcome) {
	s.calls.Add(1)
	time.Sleep(s.delay)
	for i := range outs {
		outs[i] = Outcome{Total: 1, Status: StatusCorrect, Found: true, Values: []float64{1}}
	}
}

func TestQueueRefusesBeyondItsBound(t *testing.T) {
	slow := &slowScorer{delay: 20 * time.Millisecond}
	s := newServer(t, Config{Environments: []Environment{{Name: "slow", Scorer: slow}}, Limits: Limits{Concurrency: 2, Queue: 64}})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1000, MaxConnsPerHost: 0}}
	const n = 1000
	codes := make([]int, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := client.Post(ts.URL+"/score", "application/json", strings.NewReader(`{"task_indices": [1], "responses": ["x"]}`))
			if err != nil {
				t.Errorf("request %d: %v", k, err)
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			codes[k] = resp.StatusCode
			switch resp.StatusCode {
			case 200:
				if !strings.Contains(string(b), `"correct"`) {
					t.Errorf("request %d answered 200 without its outcome: %s", k, b)
				}
			case 429:
				if resp.Header.Get("Retry-After") == "" {
					t.Errorf("request %d refused without Retry-After", k)
				}
			default:
				t.Errorf("request %d: code %d (%s), want 200 or 429", k, resp.StatusCode, b)
			}
		}()
	}
	wg.Wait()
	var ok, refused int
	for _, c := range codes {
		switch c {
		case 200:
			ok++
		case 429:
			refused++
		}
	}
	if ok+refused != n || ok == 0 || refused == 0 {
		t.Errorf("%d answered and %d refused of %d; want all accounted for, some of each", ok, refused, n)
	}
	if got := slow.calls.Load(); got != int64(ok) {
		t.Errorf("the scorer ran %d times for %d answered requests", got, ok)
	}
	t.Logf("%d answered, %d refused with 429", ok, refused)
}

func TestDeadlineMakesUnreachedItemsTimeouts(t *testing.T) {
	slow := &slowScorer{delay: 80 * time.Millisecond}
	s := newServer(t, Config{Environments: []Environment{{Name: "slow", Scorer: slow}}, Limits: Limits{RequestTimeout: 100 * time.Millisecond}})
	n := 3 * chunk
	idx := make([]int, n)
	resp := make([]string, n)
	body, _ := json.Marshal(map[string]any{"task_indices": idx, "responses": resp})
	w := post(t, s.Handler(), "/score", string(body))
	if w.Code != 200 {
		t.Fatalf("code %d: %s", w.Code, w.Body)
	}
	var r batchReply
	_ = json.Unmarshal(w.Body.Bytes(), &r)
	counts := map[string]int{}
	for _, st := range r.Statuses {
		counts[st]++
	}
	if len(r.Statuses) != n || counts["correct"] == 0 || counts["timeout"] == 0 || counts["correct"]+counts["timeout"] != n {
		t.Errorf("statuses %v of %d items; want some scored, the rest timeouts", counts, n)
	}
}

func TestSlowClientHoldsNoWorker(t *testing.T) {
	s := newServer(t, Config{Limits: Limits{Concurrency: 1, ReadTimeout: time.Second}})
	ts := httptest.NewUnstartedServer(s.Handler())
	ts.Config.ReadTimeout = s.http.ReadTimeout
	ts.Start()
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"query": ["\\boxed{1}"], "labels": ["1"]}`
	fmt.Fprintf(conn, "POST /get_reward HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	stop := make(chan struct{})
	go func() { // one byte per 300 ms
		for i := 0; i < len(body); i++ {
			select {
			case <-stop:
				return
			case <-time.After(300 * time.Millisecond):
			}
			if _, err := conn.Write([]byte{body[i]}); err != nil {
				return
			}
		}
	}()
	defer close(stop)
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	resp, err := http.Post(ts.URL+"/get_reward", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || time.Since(start) > 500*time.Millisecond {
		t.Errorf("a request beside the slow client: code %d after %s", resp.StatusCode, time.Since(start))
	}
	// The slow client is cut off at the read timeout.
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	reply, _ := io.ReadAll(conn)
	if !bytes.Contains(reply, []byte(" 408 ")) && len(reply) != 0 {
		t.Errorf("the slow client got %q, want a 408 or a closed connection", reply)
	}
}

func TestShutdownAnswersEveryAcceptedRequest(t *testing.T) {
	slow := &slowScorer{delay: 30 * time.Millisecond}
	s := newServer(t, Config{Environments: []Environment{{Name: "slow", Scorer: slow}}, Limits: Limits{Concurrency: 4, Queue: 1000}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/score"
	var answered, refused, failedAfterStop atomic.Int64
	var stopping atomic.Bool
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				resp, err := http.Post(url, "application/json", strings.NewReader(`{"task_indices": [1], "responses": ["x"]}`))
				if err != nil {
					if !stopping.Load() {
						t.Errorf("before shutdown: %v", err)
					}
					failedAfterStop.Add(1)
					return
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				switch {
				case err != nil:
					t.Errorf("an answer was cut off: %v", err)
				case resp.StatusCode == 200 && strings.Contains(string(b), "correct"):
					answered.Add(1)
				case resp.StatusCode == 503:
					refused.Add(1)
					return
				default:
					t.Errorf("code %d: %s", resp.StatusCode, b)
				}
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	stopping.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	wg.Wait()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if scored := slow.calls.Load(); scored != answered.Load() {
		t.Errorf("%d requests were scored but %d answers arrived", scored, answered.Load())
	}
	if answered.Load() == 0 {
		t.Error("nothing was answered")
	}
	t.Logf("%d answered, %d refused with 503, %d clients stopped by the closed listener", answered.Load(), refused.Load(), failedAfterStop.Load())
}

func TestMetrics(t *testing.T) {
	s := newServer(t, Config{})
	h := s.Handler()
	post(t, h, "/get_reward", `{"query": ["\\boxed{1}", "x"], "labels": ["1", "1"]}`)
	post(t, h, "/get_reward", `{"query": [`)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	text := w.Body.String()
	for _, want := range []string{
		`llenvs_requests_total{endpoint="get_reward",code="200"} 1`,
		`llenvs_requests_total{endpoint="get_reward",code="400"} 1`,
		`llenvs_items_total{endpoint="get_reward",status="correct"} 1`,
		`llenvs_items_total{endpoint="get_reward",status="no_answer"} 1`,
		`llenvs_request_seconds_count{endpoint="get_reward"} 1`,
		`llenvs_request_seconds_bucket{endpoint="get_reward",le="+Inf"} 1`,
		"llenvs_in_flight 0", "llenvs_queue_depth 0",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q:\n%s", want, text)
		}
	}
}

func TestNewRefusesBadConfigs(t *testing.T) {
	env := EnvScorer(legCounting(t))
	for _, cfg := range []Config{
		{Labels: "fuzzy"},
		{Environments: []Environment{{Name: "", Scorer: env}}},
		{Environments: []Environment{{Name: "a", Scorer: env}, {Name: "a", Scorer: env}}},
		{Environments: []Environment{{Name: "a", Scorer: env, Reference: "{not json"}}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}
