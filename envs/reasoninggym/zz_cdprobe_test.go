package reasoninggym

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Temporary probe (deleted before hand-off).
func TestZZCdProbe(t *testing.T) {
	if in := os.Getenv("CD_PROBE_IN"); in != "" {
		b, _ := os.ReadFile(in)
		var xs []string
		json.Unmarshal(b, &xs)
		var out strings.Builder
		for _, s := range xs {
			v, err := cdEval(s)
			c := ""
			switch {
			case err != nil:
				c = "X"
			case math.IsNaN(v):
				c = "NAN"
			default:
				c = strconv.FormatFloat(v, 'g', -1, 64)
			}
			j, _ := json.Marshal([]string{s, c})
			out.Write(j)
			out.WriteByte('\n')
		}
		os.WriteFile(os.Getenv("CD_PROBE_OUT"), []byte(out.String()), 0o644)
	}
	if in := os.Getenv("CD_PRINT_IN"); in != "" {
		b, _ := os.ReadFile(in)
		var xs []string
		json.Unmarshal(b, &xs)
		var out strings.Builder
		for _, ops := range xs {
			n := len(ops) + 1
			nums := make([]int64, n)
			for i := range nums {
				nums[i] = int64(1000 + i)
			}
			e := cdSym(0)
			for i := 1; i < n; i++ {
				switch ops[i-1] {
				case '+':
					e = e.add(i, false)
				case '-':
					e = e.add(i, true)
				case '*':
					e = e.mul(i, false)
				case '/':
					e = e.mul(i, true)
				}
			}
			fmt.Fprintln(&out, e.String(nums))
		}
		os.WriteFile(os.Getenv("CD_PRINT_OUT"), []byte(out.String()), 0o644)
	}
}
