package abitest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

var serveLib struct {
	alloc func(n uintptr) unsafe.Pointer
	start func(cfg []byte, n uintptr, fn uintptr, server *uint64, out *unsafe.Pointer, outLen *uintptr) int32
	stop  func(server uint64, timeout float64, out *unsafe.Pointer, outLen *uintptr) int32
}

const kindServer = 5

func registerServe(h uintptr) {
	purego.RegisterLibFunc(&serveLib.alloc, h, "llenvs_alloc")
	purego.RegisterLibFunc(&serveLib.start, h, "llenvs_serve_start")
	purego.RegisterLibFunc(&serveLib.stop, h, "llenvs_serve_stop")
}

// scoreAll is a caller-defined scorer: every response "right" is correct.
func scoreAll(req unsafe.Pointer, n uintptr, out *unsafe.Pointer, outLen *uintptr) int32 {
	var r struct {
		Op        string   `json:"op"`
		Responses []string `json:"responses"`
	}
	if json.Unmarshal(unsafe.Slice((*byte)(req), n), &r) != nil || r.Op != "score" {
		return 1
	}
	k := len(r.Responses)
	reply := map[string]any{"totals": make([]float64, k), "statuses": make([]string, k), "answers": make([]*string, k),
		"values": make([][]float64, k), "errors": make([]*string, k)}
	for i, s := range r.Responses {
		reply["statuses"].([]string)[i] = "incorrect"
		if s == "right" {
			reply["totals"].([]float64)[i], reply["statuses"].([]string)[i] = 1, "correct"
		}
		reply["values"].([][]float64)[i] = []float64{reply["totals"].([]float64)[i]}
	}
	b, _ := json.Marshal(reply)
	p := serveLib.alloc(uintptr(len(b)))
	copy(unsafe.Slice((*byte)(p), len(b)), b)
	*out, *outLen = p, uintptr(len(b))
	return 0
}

func TestServeStartAndStop(t *testing.T) {
	cb := purego.NewCallback(scoreAll)
	cfg := []byte(`{"port": 0, "environments": [{"name": "mine", "callback": 7, "signals": ["ok"], "size": 3}]}`)
	var h uint64
	var out unsafe.Pointer
	var n uintptr
	if rc := serveLib.start(cfg, uintptr(len(cfg)), cb, &h, &out, &n); rc != 0 {
		t.Fatalf("serve_start rc %d: %s", rc, take(out, n))
	}
	var desc struct {
		Address string `json:"address"`
	}
	if err := json.Unmarshal([]byte(take(out, n)), &desc); err != nil || !strings.HasPrefix(desc.Address, "127.0.0.1:") {
		t.Fatalf("serve_start reply %+v, %v", desc, err)
	}
	if lib.liveHandles(kindServer) != 1 {
		t.Errorf("live server handles = %d, want 1", lib.liveHandles(kindServer))
	}
	resp, err := http.Post("http://"+desc.Address+"/score", "application/json",
		strings.NewReader(`{"task_indices": [0, 2], "responses": ["right", "wrong"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Totals   []float64 `json:"totals"`
		Statuses []string  `json:"statuses"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != 200 {
		t.Fatalf("score: %d %v", resp.StatusCode, err)
	}
	resp.Body.Close()
	if got.Totals[0] != 1 || got.Totals[1] != 0 || got.Statuses[1] != "incorrect" {
		t.Errorf("callback scoring gave %+v", got)
	}
	if rc := serveLib.stop(h, 5, &out, &n); rc != 0 || !strings.Contains(take(out, n), `"drained":true`) {
		t.Fatalf("serve_stop rc %d", rc)
	}
	if rc := serveLib.stop(h, 5, &out, &n); rc != -2 {
		t.Errorf("stopping twice: rc %d, want LLENVS_ERR_HANDLE", rc)
	}
	take(out, n)
	bad := []struct{ cfg, says string }{
		{`{"port": 70000}`, "port"},
		{`{"environments": [{"name": "x", "environment": 999999}]}`, "handle"},
		{`{"environments": [{"name": "x", "callback": 1, "size": 1}]}`, "score function"},
		{`{"limits": {"queue": -1}}`, "queue"},
		{`{"hosts": "x"}`, "host"},
	}
	for _, c := range bad {
		if rc := serveLib.start([]byte(c.cfg), uintptr(len(c.cfg)), 0, &h, &out, &n); rc == 0 || !strings.Contains(take(out, n), c.says) {
			t.Errorf("serve_start(%s) rc %d does not say %q", c.cfg, rc, c.says)
		}
	}
}
