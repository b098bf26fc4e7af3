// Command loadgen posts a file of JSON request bodies to an HTTP endpoint
// with a fixed number of concurrent clients and prints, as one JSON object,
// the elapsed time, each request's latency percentiles and the status
// codes. scripts/bench_serve.py drives both servers it compares with it, so
// that the client is the same, and not the bottleneck, for both.
//
//	go run ./scripts/loadgen -url http://127.0.0.1:5000/get_reward -bodies bodies.jsonl -concurrency 64
//
// bodies.jsonl holds one request body per line. A request refused with 429
// or 503 is sent again after its Retry-After (as a well-behaved trainer
// would); -replies writes every answer, one line per body, in input order.
// Binary bodies (Arrow IPC streams) go one per line in base64 with
// -base64, their replies likewise, sent with -content-type and -accept:
//
//	go run ./scripts/loadgen -url http://127.0.0.1:5000/score -bodies bodies.b64 -base64 \
//	    -content-type application/vnd.apache.arrow.stream -accept application/vnd.apache.arrow.stream
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

type result struct {
	Requests    int            `json:"requests"`
	Concurrency int            `json:"concurrency"`
	Elapsed     float64        `json:"elapsed_s"`
	P50         float64        `json:"p50_ms"`
	P99         float64        `json:"p99_ms"`
	Max         float64        `json:"max_ms"`
	Codes       map[string]int `json:"codes"`
	Retries     int64          `json:"retries"`
	Errors      int64          `json:"errors"`
}

func main() {
	url := flag.String("url", "", "endpoint to POST to")
	path := flag.String("bodies", "", "file of request bodies, one JSON object per line")
	concurrency := flag.Int("concurrency", 64, "concurrent clients")
	repliesPath := flag.String("replies", "", "file to write the answers to, one line per body (optional)")
	timeout := flag.Duration("timeout", 180*time.Second, "per-request timeout (OpenRLHF's is 180 s)")
	contentType := flag.String("content-type", "application/json", "Content-Type of the bodies")
	accept := flag.String("accept", "", "Accept header to send (none when empty)")
	binary := flag.Bool("base64", false, "bodies (and replies) are base64, one per line")
	flag.Parse()
	if *url == "" || *path == "" || *concurrency < 1 {
		fmt.Fprintln(os.Stderr, "loadgen: -url and -bodies are required, -concurrency at least 1")
		os.Exit(2)
	}
	bodies, err := readLines(*path, *binary)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
	client := &http.Client{Timeout: *timeout, Transport: &http.Transport{
		MaxIdleConns: *concurrency, MaxIdleConnsPerHost: *concurrency, MaxConnsPerHost: *concurrency}}
	latencies := make([]float64, len(bodies))
	replies := make([][]byte, len(bodies))
	codes := make([]int, len(bodies))
	var next, retries, errs atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range *concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(bodies) {
					return
				}
				t0 := time.Now()
				for {
					code, reply, wait, err := post(client, *url, *contentType, *accept, bodies[k])
					if err != nil {
						errs.Add(1)
						codes[k] = -1
						break
					}
					if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
						retries.Add(1)
						time.Sleep(wait)
						continue
					}
					codes[k], replies[k] = code, reply
					break
				}
				latencies[k] = float64(time.Since(t0).Microseconds()) / 1000
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	r := result{Requests: len(bodies), Concurrency: *concurrency, Elapsed: elapsed, Codes: map[string]int{},
		Retries: retries.Load(), Errors: errs.Load()}
	for _, c := range codes {
		r.Codes[strconv.Itoa(c)]++
	}
	sorted := append([]float64(nil), latencies...)
	sort.Float64s(sorted)
	if n := len(sorted); n > 0 {
		r.P50, r.P99, r.Max = sorted[n/2], sorted[min(n-1, n*99/100)], sorted[n-1]
	}
	if *repliesPath != "" {
		if err := writeLines(*repliesPath, replies, *binary); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(1)
		}
	}
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
}

// post sends one body; a refusal comes back with how long to wait.
func post(c *http.Client, url, contentType, accept string, body []byte) (int, []byte, time.Duration, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, 0, err
	}
	req.Header.Set("Content-Type", contentType)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, 0, err
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, 0, err
	}
	wait := 100 * time.Millisecond
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		wait = time.Duration(s) * time.Second
	}
	return resp.StatusCode, reply, wait, nil
}

func readLines(path string, binary bool) ([][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading bodies: %w", err)
	}
	defer f.Close()
	var lines [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		switch {
		case len(line) == 0:
		case binary:
			body, err := base64.StdEncoding.DecodeString(string(line))
			if err != nil {
				return nil, fmt.Errorf("body %d of %s is not base64: %w", len(lines), path, err)
			}
			lines = append(lines, body)
		default:
			lines = append(lines, append([]byte(nil), line...))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading bodies from %s: %w", path, err)
	}
	return lines, nil
}

func writeLines(path string, lines [][]byte, binary bool) error {
	var b bytes.Buffer
	for _, l := range lines {
		if binary {
			b.WriteString(base64.StdEncoding.EncodeToString(l))
		} else {
			b.Write(bytes.TrimSpace(l))
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing replies: %w", err)
	}
	return nil
}
