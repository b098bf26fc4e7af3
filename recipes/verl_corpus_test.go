package recipes

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"testing"
)

// A row of the corpus scripts/verl_recipe_corpus.py writes: a response,
// its ground truth as our rules take it, and what veRL's own rule returned.
type corpusRow struct {
	DataSource  string          `json:"data_source"`
	Solution    string          `json:"solution"`
	GroundTruth string          `json:"ground_truth"`
	Expected    json.RawMessage `json:"expected"`
}

// verlDict is math_dapo's result as veRL returns it.
type verlDict struct {
	Score *float64 `json:"score"`
	Acc   *bool    `json:"acc"`
	Pred  *string  `json:"pred"`
}

func loadCorpus(tb testing.TB, path string) []corpusRow {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var rows []corpusRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r corpusRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return rows
}

// verdictMismatch says how our result differs from veRL's, or "".
func verdictMismatch(got Result, expected json.RawMessage) string {
	if bytes.HasPrefix(bytes.TrimSpace(expected), []byte("{")) {
		var d verlDict
		if err := json.Unmarshal(expected, &d); err != nil || d.Score == nil || d.Acc == nil || d.Pred == nil {
			return fmt.Sprintf("bad expected dict %s", expected)
		}
		if !got.Dict || got.Score != *d.Score || got.Acc != *d.Acc || got.Pred != *d.Pred {
			return fmt.Sprintf("got {score %v acc %v pred %q dict %v}, veRL %s", got.Score, got.Acc, got.Pred, got.Dict, expected)
		}
		return ""
	}
	var want float64
	if err := json.Unmarshal(expected, &want); err != nil {
		return fmt.Sprintf("bad expected value %s", expected)
	}
	if got.Dict || got.Score != want {
		return fmt.Sprintf("got %v (dict %v, %s %s), veRL %v", got.Score, got.Dict, got.Status, got.Reason, want)
	}
	return ""
}

// TestVerlCorpus checks every row of the corpus named by RECIPES_CORPUS
// against veRL's verdict (python scripts/verl_recipe_corpus.py --out FILE, or
// scripts/verl_recipe_corpus_b.py for prime_math and geo3k).
func TestVerlCorpus(t *testing.T) {
	path := os.Getenv("RECIPES_CORPUS")
	if path == "" {
		t.Skip("RECIPES_CORPUS is not set (python scripts/verl_recipe_corpus.py --out FILE writes one)")
	}
	rows := loadCorpus(t, path)
	if len(rows) == 0 {
		t.Fatal("empty corpus")
	}
	total := map[string]int{}
	agree := map[string]int{}
	statuses := map[string]map[Status]int{}
	shown := 0
	for i, r := range rows {
		fam, _ := VerlFamily(r.DataSource)
		total[fam]++
		got := ScoreVerl(r.DataSource, r.Solution, r.GroundTruth)
		if statuses[fam] == nil {
			statuses[fam] = map[Status]int{}
		}
		statuses[fam][got.Status]++
		if m := verdictMismatch(got, r.Expected); m != "" {
			if shown < 20 {
				t.Errorf("row %d (%s): %s\n  solution %q\n  ground truth %q", i+1, r.DataSource, m, clipForLog(r.Solution), r.GroundTruth)
			}
			shown++
			continue
		}
		agree[fam]++
	}
	fams := make([]string, 0, len(total))
	for f := range total {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		t.Logf("%-12s %d/%d rows agree with veRL; statuses %v", f, agree[f], total[f], statuses[f])
	}
	if shown > 20 {
		t.Errorf("... %d disagreements in all", shown)
	}
}

// clipForLog keeps a failure message readable for long responses.
func clipForLog(s string) string {
	if len(s) > 600 {
		return s[:150] + " ... " + s[len(s)-400:]
	}
	return s
}

// benchRows are scored by BenchmarkVerlFamilies when RECIPES_CORPUS is unset.
var benchRows = []corpusRow{
	{DataSource: "openai/gsm8k", Solution: "Natalia sold 48/2 = 24 clips in May.\nShe sold 48+24 = 72 clips.\n#### 72", GroundTruth: "72"},
	{DataSource: "HuggingFaceH4/MATH-500", Solution: `We simplify: $\frac{2}{4} = \boxed{\dfrac{1}{2}}$.`, GroundTruth: `\frac{1}{2}`},
	{DataSource: "math_dapo", Solution: "Adding the parts gives 34.\nAnswer: 34", GroundTruth: "34"},
	{DataSource: "searchR1_nq", Solution: "<think>the capital</think>\n<answer> Paris </answer>", GroundTruth: `{"target": ["Paris"]}`},
	{DataSource: "numina_olympiads", Solution: "Step 1: the sides.\nStep 2: the ratio is $\\boxed{\\dfrac{3}{4}}$.", GroundTruth: `\frac{3}{4}`},
	{DataSource: "hiyouga/geometry3k", Solution: "<think>Use the 30-60-90 triangle.</think> The side is \\boxed{6\\sqrt{3}}.", GroundTruth: `6\sqrt{3}`},
}

// BenchmarkVerlFamilies times one call of each family's rule, cycling over
// that family's rows of RECIPES_CORPUS (or a few built-in rows).
func BenchmarkVerlFamilies(b *testing.B) {
	rows := benchRows
	if path := os.Getenv("RECIPES_CORPUS"); path != "" {
		rows = loadCorpus(b, path)
	}
	byFamily := map[string][]corpusRow{}
	for _, r := range rows {
		f, _ := VerlFamily(r.DataSource)
		byFamily[f] = append(byFamily[f], r)
	}
	for _, fam := range []string{"gsm8k", "math_reward", "math_dapo", "search_r1", "prime_math", "geo3k"} {
		rs := byFamily[fam]
		rule, ok := Lookup(fam)
		if len(rs) == 0 || !ok {
			continue
		}
		b.Run(fam, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r := &rs[i%len(rs)]
				rule(r.Solution, r.GroundTruth)
			}
		})
	}
}
