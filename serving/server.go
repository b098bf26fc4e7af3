package serving

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/llenvs/llenvs-go/recipes"
)

// Limits bound what one server takes on. The zero value of a field means
// its default (DefaultLimits).
type Limits struct {
	// Concurrency is how many requests are scored at once.
	Concurrency int `json:"concurrency"`
	// Queue is how many more requests may wait (for their body or for a
	// worker) before new ones are refused with 429.
	Queue int `json:"queue"`
	// MaxBodyBytes caps a request body (413 beyond it).
	MaxBodyBytes int64 `json:"max_body_bytes"`
	// MaxItems caps the items of one request (413 beyond it).
	MaxItems int `json:"max_items"`
	// RequestTimeout is a request's deadline, from admission to answer:
	// items not scored by then are answered with status "timeout".
	RequestTimeout time.Duration `json:"request_timeout"`
	// ReadHeaderTimeout and ReadTimeout bound how long a client may take
	// to send its headers, and its whole request.
	ReadHeaderTimeout time.Duration `json:"read_header_timeout"`
	ReadTimeout       time.Duration `json:"read_timeout"`
	// IdleTimeout closes keep-alive connections idle this long.
	IdleTimeout time.Duration `json:"idle_timeout"`
	// RetryAfter is what a refused request is told to wait.
	RetryAfter time.Duration `json:"retry_after"`
}

// DefaultLimits are the limits of a zero Limits field.
func DefaultLimits() Limits {
	return Limits{
		Concurrency:       runtime.GOMAXPROCS(0),
		Queue:             1024,
		MaxBodyBytes:      64 << 20,
		MaxItems:          65536,
		RequestTimeout:    120 * time.Second,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		RetryAfter:        time.Second,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.Concurrency <= 0 {
		l.Concurrency = d.Concurrency
	}
	if l.Queue <= 0 {
		l.Queue = d.Queue
	}
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = d.MaxBodyBytes
	}
	if l.MaxItems <= 0 {
		l.MaxItems = d.MaxItems
	}
	if l.RequestTimeout <= 0 {
		l.RequestTimeout = d.RequestTimeout
	}
	if l.ReadHeaderTimeout <= 0 {
		l.ReadHeaderTimeout = d.ReadHeaderTimeout
	}
	if l.ReadTimeout <= 0 {
		l.ReadTimeout = d.ReadTimeout
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = d.IdleTimeout
	}
	if l.RetryAfter <= 0 {
		l.RetryAfter = d.RetryAfter
	}
	return l
}

// Config is what a Server serves and how.
type Config struct {
	Environments []Environment
	// Labels is how ground-truth labels are scored ("" = LabelMath).
	Labels LabelRule
	Limits Limits
	// Token, when set, is the bearer token every endpoint but /health
	// requires.
	Token string
}

// Server serves one Config. Build it with New, run it with Serve, stop it
// with Shutdown.
type Server struct {
	envs    map[string]*served
	order   []string
	labels  LabelRule
	limits  Limits
	token   [sha256.Size]byte
	guarded bool
	http    *http.Server
	metrics *metrics

	slots    chan struct{} // a worker per request being scored
	admitted atomic.Int64  // requests admitted and not yet answered
	closing  atomic.Bool
}

type served struct {
	Environment
	signals   []string
	reference any // the parsed reference, to compare labels' references by value
}

// chunk is how many items are scored between two looks at the deadline.
const chunk = 512

// New checks cfg and builds its Server (not yet listening).
func New(cfg Config) (*Server, error) {
	s := &Server{envs: map[string]*served{}, labels: cfg.Labels, limits: cfg.Limits.withDefaults(), metrics: newMetrics()}
	if s.labels == "" {
		s.labels = LabelMath
	}
	if s.labels != LabelMath && s.labels != LabelExact {
		return nil, fmt.Errorf("serving: label rule %q is not %q or %q", s.labels, LabelMath, LabelExact)
	}
	for _, e := range cfg.Environments {
		if e.Name == "" || e.Scorer == nil {
			return nil, fmt.Errorf("serving: an environment needs a name and a scorer (got name %q)", e.Name)
		}
		if _, dup := s.envs[e.Name]; dup {
			return nil, fmt.Errorf("serving: environment %q is served twice; give each a distinct name", e.Name)
		}
		sv := &served{Environment: e, signals: e.Scorer.Signals()}
		if e.Reference != "" {
			if err := json.Unmarshal([]byte(e.Reference), &sv.reference); err != nil {
				return nil, fmt.Errorf("serving: environment %q: its reference is not JSON: %w", e.Name, err)
			}
		}
		s.envs[e.Name] = sv
		s.order = append(s.order, e.Name)
	}
	if cfg.Token != "" {
		s.token, s.guarded = sha256.Sum256([]byte(cfg.Token)), true
	}
	s.slots = make(chan struct{}, s.limits.Concurrency)
	l := s.limits
	s.http = &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		// The answer must be written after the body was read and scored.
		WriteTimeout: l.ReadTimeout + l.RequestTimeout + 30*time.Second,
		IdleTimeout:  l.IdleTimeout,
	}
	return s, nil
}

// Limits are the server's limits, defaults filled in.
func (s *Server) Limits() Limits { return s.limits }

// Serve answers requests on ln until Shutdown; it returns nil after a
// Shutdown and the listener's error otherwise.
func (s *Server) Serve(ln net.Listener) error {
	err := s.http.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting requests, waits until every accepted one is
// answered (or ctx ends), and closes the listeners. Requests that arrive
// on open connections meanwhile are refused with 503.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closing.Store(true)
	return s.http.Shutdown(ctx)
}

// Close stops the server at once: listeners and connections are closed,
// and requests still being scored are not answered. Shutdown is the
// graceful stop; Close is for after its deadline.
func (s *Server) Close() error {
	s.closing.Store(true)
	return s.http.Close()
}

// Handler is the server's routes, for use under another http.Server.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/health", s.health)
	mux.HandleFunc("/ready", s.guard(s.ready))
	mux.HandleFunc("/metrics", s.guard(s.serveMetrics))
	mux.HandleFunc("/get_reward", s.guard(s.scoring("get_reward", s.getReward)))
	mux.HandleFunc("/score", s.guard(s.scoring("score", s.score)))
	mux.HandleFunc("/verify", s.guard(s.scoring("verify", s.verify)))
	mux.HandleFunc("/", s.guard(s.root))
	return mux
}

// httpError is a refusal with its status and message.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := encode(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"the answer could not be encoded"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

func (s *Server) refuse(w http.ResponseWriter, endpoint string, code int, msg string) {
	if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(s.limits.RetryAfter.Round(time.Second)/time.Second))))
	}
	s.metrics.request(endpoint, code, 0)
	writeJSON(w, code, map[string]string{"error": msg})
}

func (s *Server) guard(h http.HandlerFunc) http.HandlerFunc {
	if !s.guarded {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		given, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		sum := sha256.Sum256([]byte(given))
		if !ok || subtle.ConstantTimeCompare(sum[:], s.token[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="llenvs-go"`)
			s.refuse(w, "auth", http.StatusUnauthorized, "missing or wrong bearer token (send Authorization: Bearer <token>)")
			return
		}
		h(w, r)
	}
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	if s.closing.Load() {
		s.refuse(w, "ready", http.StatusServiceUnavailable, "shutting down")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ready": true, "environments": s.order, "labels": s.labels})
}

func (s *Server) root(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/" && r.Method == http.MethodPost {
		s.scoring("get_reward", s.getReward)(w, r)
		return
	}
	if r.URL.Path == "/" && r.Method == http.MethodGet {
		writeJSON(w, http.StatusOK, map[string]any{"endpoints": []string{"POST /get_reward", "POST /score", "POST /verify",
			"GET /health", "GET /ready", "GET /metrics"}, "environments": s.order})
		return
	}
	s.refuse(w, "other", http.StatusNotFound, fmt.Sprintf("no endpoint %s %s; the endpoints are POST /get_reward (or /), "+
		"POST /score, POST /verify, GET /health, GET /ready and GET /metrics", r.Method, r.URL.Path))
}

// work is what a scoring endpoint does with a decoded request under its
// deadline: the answer, and how many items of each status it holds.
type work func(ctx context.Context, r *http.Request, body []byte) (any, []Outcome, error)

// scoring wraps an endpoint in admission, the body limit, the worker
// slots, the deadline and the metrics.
func (s *Server) scoring(endpoint string, do work) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			s.refuse(w, endpoint, http.StatusMethodNotAllowed, fmt.Sprintf("%s takes POST with a JSON body", r.URL.Path))
			return
		}
		if s.closing.Load() {
			s.refuse(w, endpoint, http.StatusServiceUnavailable, "the server is shutting down; send this request to another replica or retry")
			return
		}
		capacity := int64(s.limits.Concurrency + s.limits.Queue)
		if s.admitted.Add(1) > capacity {
			s.admitted.Add(-1)
			s.metrics.refused("queue_full")
			s.refuse(w, endpoint, http.StatusTooManyRequests, fmt.Sprintf("the server is at capacity (%d requests scored at once, %d waiting); retry later", s.limits.Concurrency, s.limits.Queue))
			return
		}
		defer s.admitted.Add(-1)
		start := time.Now()
		ctx, cancel := context.WithTimeout(r.Context(), s.limits.RequestTimeout)
		defer cancel()
		body, err := readBody(w, r, s.limits.MaxBodyBytes)
		if err != nil {
			s.fail(w, endpoint, err)
			return
		}
		s.metrics.waiting.Add(1)
		select {
		case s.slots <- struct{}{}:
			s.metrics.waiting.Add(-1)
		case <-ctx.Done():
			s.metrics.waiting.Add(-1)
			s.metrics.refused("deadline_in_queue")
			s.refuse(w, endpoint, http.StatusServiceUnavailable, fmt.Sprintf("the request waited its whole deadline (%s) for a worker; retry later", s.limits.RequestTimeout))
			return
		}
		s.metrics.inFlight.Add(1)
		answer, outs, err := s.run(ctx, do, r, body)
		s.metrics.inFlight.Add(-1)
		<-s.slots
		if err != nil {
			s.fail(w, endpoint, err)
			return
		}
		s.metrics.countItems(endpoint, outs)
		s.metrics.request(endpoint, http.StatusOK, time.Since(start))
		if raw, ok := answer.(rawAnswer); ok {
			w.Header().Set("Content-Type", raw.contentType)
			w.Header().Set("Content-Length", strconv.Itoa(len(raw.body)))
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(raw.body)
			return
		}
		writeJSON(w, http.StatusOK, answer)
	}
}

// run calls do, turning a panic into an error: a bug answers 500, and the
// server keeps serving.
func (s *Server) run(ctx context.Context, do work, r *http.Request, body []byte) (answer any, outs []Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			answer, outs, err = nil, nil, &httpError{http.StatusInternalServerError, fmt.Sprintf("internal error: %v", r)}
		}
	}()
	return do(ctx, r, body)
}

func (s *Server) fail(w http.ResponseWriter, endpoint string, err error) {
	var he *httpError
	if errors.As(err, &he) {
		s.refuse(w, endpoint, he.code, he.msg)
		return
	}
	s.refuse(w, endpoint, http.StatusBadRequest, err.Error())
}

func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is %d bytes; the limit is %d (split the batch, or raise the limit: --max-body-mb, or max_body_bytes= in serve())", r.ContentLength, limit)}
	}
	body := http.MaxBytesReader(w, r.Body, limit)
	buf := make([]byte, 0, max(0, min(r.ContentLength, limit))+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == nil {
			continue
		}
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			return nil, &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over the limit of %d bytes (split the batch, or raise the limit: --max-body-mb, or max_body_bytes= in serve())", limit)}
		case errors.Is(err, io.EOF):
			return buf, nil
		default:
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return nil, &httpError{http.StatusRequestTimeout, "the body did not arrive within the read timeout"}
			}
			return nil, &httpError{http.StatusBadRequest, "reading the body failed: " + err.Error()}
		}
	}
}

// scoreChunks scores n items through score in chunks, looking at the
// deadline between chunks; the items not reached are timeouts.
func scoreChunks(ctx context.Context, n int, outs []Outcome, score func(lo, hi int)) {
	for lo := 0; lo < n; lo += chunk {
		if err := ctx.Err(); err != nil {
			for i := lo; i < n; i++ {
				outs[i] = Outcome{Status: StatusTimeout, Error: "the request's deadline passed before this item was scored"}
			}
			return
		}
		score(lo, min(lo+chunk, n))
	}
}

// The statuses of an Outcome.
const (
	StatusCorrect   = recipes.StatusCorrect
	StatusIncorrect = recipes.StatusIncorrect
	StatusNoAnswer  = recipes.StatusNoAnswer
	StatusTimeout   = recipes.StatusTimeout
	StatusError     = recipes.StatusError
)

func (s *Server) environment(name string) (*served, error) {
	if name == "" {
		if len(s.order) == 1 {
			return s.envs[s.order[0]], nil
		}
		if len(s.order) == 0 {
			return nil, badRequest("this server serves no environment; send ground_truths instead of task_indices")
		}
		return nil, badRequest("this server serves %d environments; name one in \"environment\" (one of %s)", len(s.order), strings.Join(s.order, ", "))
	}
	e, ok := s.envs[name]
	if !ok {
		names := append([]string(nil), s.order...)
		sort.Strings(names)
		return nil, &httpError{http.StatusNotFound, fmt.Sprintf("environment %q is not served here; served: %s", name, strings.Join(names, ", "))}
	}
	return e, nil
}
