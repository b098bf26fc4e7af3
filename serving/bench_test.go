package serving

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/internal/arrowipc"
)

// BenchmarkGetRewardBatch times one /get_reward request of 512 samples
// labelled as make_openrlhf_dataset labels them, through the handler.
func BenchmarkGetRewardBatch(b *testing.B) { benchGetReward(b, 512) }

// BenchmarkGetRewardOne times a request of one sample, OpenRLHF's pattern.
func BenchmarkGetRewardOne(b *testing.B) { benchGetReward(b, 1) }

func benchGetReward(b *testing.B, n int) {
	t := &testing.T{}
	env := legCounting(t)
	s, err := New(Config{Environments: []Environment{{Name: "leg_counting", Reference: legReference, Scorer: EnvScorer(env)}}})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	var req openrlhfRequest
	for k := range n {
		i := k % 50
		truth := truthOf(t, env, i)
		prompt := fmt.Sprintf("<|im_start|>user\nHow many legs? task %d<|im_end|>\n<|im_start|>assistant\n", i)
		req.Query = append(req.Query, prompt+strings.Repeat("Let me count the legs of each animal in turn. ", 6)+"<answer>"+truth+"</answer><|im_end|>")
		req.Prompts = append(req.Prompts, prompt)
		req.Labels = append(req.Labels, fmt.Sprintf("llenvs:%d:%s:%s", i, fingerprint(truth), legReference))
	}
	body, _ := json.Marshal(req)
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for range b.N {
		r := httptest.NewRequest(http.MethodPost, "/get_reward", bytes.NewReader(body))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body.String())
		}
	}
}

// BenchmarkScoreArrowBatch times one /score request of 512 responses as an
// Arrow IPC stream (task indices and responses), answered in Arrow IPC.
func BenchmarkScoreArrowBatch(b *testing.B) {
	t := &testing.T{}
	env := legCounting(t)
	s, err := New(Config{Environments: []Environment{{Name: "leg_counting", Scorer: EnvScorer(env)}}})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	indices := make([]int64, 512)
	responses := make([]string, 512)
	for k := range indices {
		indices[k] = int64(k % 50)
		responses[k] = strings.Repeat("Let me count the legs of each animal in turn. ", 6) + "<answer>" + truthOf(t, env, k%50) + "</answer><|im_end|>"
	}
	body := arrowBody(b, nil, arrowipc.Column{Name: "task_indices", Type: arrowipc.Int64, Ints: indices},
		arrowipc.Column{Name: "responses", Type: arrowipc.Utf8, Strings: responses})
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for range b.N {
		if w := postArrow(b, h, "/score", body, arrowipc.ContentType); w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}
