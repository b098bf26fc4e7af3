package serving

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// latencyBounds are the upper bounds, in seconds, of the latency histogram's buckets.
var latencyBounds = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}

// metrics are the counters /metrics shows, in Prometheus' text format.
type metrics struct {
	mu       sync.Mutex
	requests map[[2]string]uint64 // (endpoint, code) -> count
	items    map[[2]string]uint64 // (endpoint, status) -> count
	refusals map[string]uint64    // reason -> count
	latency  map[string]*histogram
	inFlight atomic.Int64 // requests being scored
	waiting  atomic.Int64 // requests read and waiting for a worker
}

type histogram struct {
	counts []uint64 // per bucket, not cumulative
	sum    float64
	n      uint64
}

func newMetrics() *metrics {
	return &metrics{requests: map[[2]string]uint64{}, items: map[[2]string]uint64{}, refusals: map[string]uint64{},
		latency: map[string]*histogram{}}
}

func (m *metrics) request(endpoint string, code int, took time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests[[2]string{endpoint, fmt.Sprint(code)}]++
	if code != http.StatusOK {
		return
	}
	h := m.latency[endpoint]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(latencyBounds)+1)}
		m.latency[endpoint] = h
	}
	sec := took.Seconds()
	b := sort.SearchFloat64s(latencyBounds, sec)
	h.counts[b]++
	h.sum += sec
	h.n++
}

func (m *metrics) countItems(endpoint string, outs []Outcome) {
	var counts [5]uint64
	for i := range outs {
		if s := outs[i].Status; int(s) < len(counts) {
			counts[s]++
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for s, c := range counts {
		if c > 0 {
			m.items[[2]string{endpoint, Status(s).String()}] += c
		}
	}
}

func (m *metrics) refused(reason string) {
	m.mu.Lock()
	m.refusals[reason]++
	m.mu.Unlock()
}

func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, _ = w.Write([]byte(s.metrics.text(s.admitted.Load())))
}

// text is the metrics in Prometheus' text exposition format.
func (m *metrics) text(admitted int64) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	b.WriteString("# HELP llenvs_requests_total Requests answered, by endpoint and HTTP status code.\n# TYPE llenvs_requests_total counter\n")
	for _, k := range sortedPairs(m.requests) {
		fmt.Fprintf(&b, "llenvs_requests_total{endpoint=%q,code=%q} %d\n", k[0], k[1], m.requests[k])
	}
	b.WriteString("# HELP llenvs_items_total Items scored, by endpoint and outcome.\n# TYPE llenvs_items_total counter\n")
	for _, k := range sortedPairs(m.items) {
		fmt.Fprintf(&b, "llenvs_items_total{endpoint=%q,status=%q} %d\n", k[0], k[1], m.items[k])
	}
	b.WriteString("# HELP llenvs_refused_total Requests refused before scoring, by reason.\n# TYPE llenvs_refused_total counter\n")
	reasons := make([]string, 0, len(m.refusals))
	for r := range m.refusals {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Fprintf(&b, "llenvs_refused_total{reason=%q} %d\n", r, m.refusals[r])
	}
	b.WriteString("# HELP llenvs_request_seconds Time from admission to answer of the requests answered 200.\n# TYPE llenvs_request_seconds histogram\n")
	endpoints := make([]string, 0, len(m.latency))
	for e := range m.latency {
		endpoints = append(endpoints, e)
	}
	sort.Strings(endpoints)
	for _, e := range endpoints {
		h := m.latency[e]
		var cum uint64
		for i, bound := range latencyBounds {
			cum += h.counts[i]
			fmt.Fprintf(&b, "llenvs_request_seconds_bucket{endpoint=%q,le=\"%g\"} %d\n", e, bound, cum)
		}
		fmt.Fprintf(&b, "llenvs_request_seconds_bucket{endpoint=%q,le=\"+Inf\"} %d\n", e, h.n)
		fmt.Fprintf(&b, "llenvs_request_seconds_sum{endpoint=%q} %g\nllenvs_request_seconds_count{endpoint=%q} %d\n", e, h.sum, e, h.n)
	}
	fmt.Fprintf(&b, "# HELP llenvs_in_flight Requests being scored now.\n# TYPE llenvs_in_flight gauge\nllenvs_in_flight %d\n", m.inFlight.Load())
	fmt.Fprintf(&b, "# HELP llenvs_queue_depth Requests read and waiting for a worker.\n# TYPE llenvs_queue_depth gauge\nllenvs_queue_depth %d\n", m.waiting.Load())
	fmt.Fprintf(&b, "# HELP llenvs_admitted Requests admitted and not yet answered (reading, waiting or scored).\n# TYPE llenvs_admitted gauge\nllenvs_admitted %d\n", admitted)
	return b.String()
}

func sortedPairs(m map[[2]string]uint64) [][2]string {
	keys := make([][2]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	return keys
}
