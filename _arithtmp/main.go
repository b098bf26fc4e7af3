package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"

	"github.com/llenvs/llenvs-go/envs/reasoninggym"
)

func main() {
	task := flag.String("task", "", "")
	seed := flag.Int64("seed", 42, "")
	start := flag.Int64("start", 0, "")
	n := flag.Int64("n", 10, "")
	params := flag.String("params", "{}", "")
	flag.Parse()
	var p map[string]any
	json.Unmarshal([]byte(*params), &p)
	t, err := reasoninggym.NewTask(*task, reasoninggym.Options{Params: p})
	if err != nil {
		panic(err)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	for i := *start; i < *start+*n; i++ {
		var r reasoninggym.Random
		r.SeedSum(*seed, i)
		e, err := t.Generate(&r, i)
		if err != nil {
			enc.Encode(map[string]any{"error": err.Error()})
			continue
		}
		enc.Encode(e)
	}
}
