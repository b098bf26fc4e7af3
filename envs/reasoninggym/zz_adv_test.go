package reasoninggym

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"
)

func TestZZAdv(t *testing.T) {
	b, err := os.ReadFile("/tmp/adv.json")
	if err != nil {
		t.Skip()
	}
	var xs []string
	json.Unmarshal(b, &xs)
	for _, s := range xs {
		t0 := time.Now()
		v, err := cdEval(s)
		d := time.Since(t0)
		n := s
		if len(n) > 40 {
			n = n[:40]
		}
		fmt.Printf("%-42q %8.3fs %v %v\n", n, d.Seconds(), v, err)
	}
}
