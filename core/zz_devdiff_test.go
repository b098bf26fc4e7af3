package core

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

func TestZZDevDiff(t *testing.T) {
	in := os.Getenv("DEVDIFF_IN")
	if in == "" {
		t.Skip()
	}
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, _ := os.Create(os.Getenv("DEVDIFF_OUT"))
	defer out.Close()
	w := bufio.NewWriter(out)
	defer w.Flush()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	cache := map[string]Extractor{}
	for sc.Scan() {
		var req struct {
			Ex      string         `json:"ex"`
			Cfg     map[string]any `json:"cfg"`
			Cleaner string         `json:"cleaner"`
			Text    string         `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			t.Fatal(err)
		}
		var res map[string]any
		if req.Cleaner != "" {
			var c Cleaner
			if f, ok := preCleaners[req.Cleaner]; ok {
				c = f
			} else if f, ok := postCleaners[req.Cleaner]; ok {
				c = f
			} else {
				c = TruncateTail(5)
			}
			res = map[string]any{"answer": c(req.Text)}
		} else {
			key, _ := json.Marshal([]any{req.Ex, req.Cfg})
			ex := cache[string(key)]
			if ex == nil {
				ex, err = NewExtractor(req.Ex, req.Cfg)
				if err != nil {
					t.Fatal(err)
				}
				cache[string(key)] = ex
			}
			x := ex.Extract(req.Text)
			res = map[string]any{"found": x.Found, "meta": ex.Describe(x)}
			if x.Found {
				res["answer"] = x.Answer
			}
		}
		b, _ := json.Marshal(res)
		w.Write(b)
		w.WriteByte('\n')
	}
}
