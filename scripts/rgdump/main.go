// Command rgdump prints natively generated reasoning-gym entries as JSON
// lines, or scores answers read from standard input, so that a developer can
// diff the Go ports against the Python package from the shell:
//
//	go run ./scripts/rgdump -task chain_sum -seed 42 -n 1000 -params '{"min_terms":3}'
//	echo '{"index":0,"answer":"12"}' | go run ./scripts/rgdump -task chain_sum -seed 42 -score
//
// In score mode each input line is {"index": i, "answer": str|null}; each
// output line is the score.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/llenvs/llenvs-go/envs/reasoninggym"
	"github.com/llenvs/llenvs-go/pycompat"
)

func main() {
	task := flag.String("task", "leg_counting", "reasoning-gym task name")
	seed := flag.Int64("seed", 42, "dataset seed")
	start := flag.Int64("start", 0, "first index")
	n := flag.Int64("n", 10, "number of entries")
	params := flag.String("params", "{}", "task config as a JSON object")
	dataDir := flag.String("data-dir", "", "directory of reasoning-gym's data files")
	score := flag.Bool("score", false, "score {index, answer} lines from stdin")
	flag.Parse()
	if err := run(*task, *seed, *start, *n, *params, *dataDir, *score); err != nil {
		fmt.Fprintln(os.Stderr, "rgdump:", err)
		os.Exit(1)
	}
}

func run(name string, seed, start, n int64, params, dataDir string, score bool) error {
	var p map[string]any
	if err := json.Unmarshal([]byte(params), &p); err != nil {
		return fmt.Errorf("parsing -params: %w", err)
	}
	t, err := reasoninggym.NewTask(name, reasoninggym.Options{Params: p, DataDir: dataDir})
	if err != nil {
		return err
	}
	gen := func(i int64) (reasoninggym.Entry, error) {
		var r pycompat.Random
		r.SeedSum(seed, i)
		return reasoninggym.Generate(t, &r, i)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	if !score {
		for i := start; i < start+n; i++ {
			e, err := gen(i)
			if err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		return nil
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var in struct {
			Index  int64   `json:"index"`
			Answer *string `json:"answer"`
		}
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			return fmt.Errorf("parsing input line: %w", err)
		}
		e, err := gen(in.Index)
		if err != nil {
			return err
		}
		ans, ok := "", in.Answer != nil
		if ok {
			ans = *in.Answer
		}
		if err := enc.Encode(t.Score(ans, ok, &e)); err != nil {
			return err
		}
	}
	return sc.Err()
}
