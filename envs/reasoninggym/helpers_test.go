package reasoninggym

// The helpers every task test uses: building tasks and items, checking
// configs, golden items, scores, and that odd inputs cause no panic.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

// mustTask builds a task or fails the test.
func mustTask(t *testing.T, name string, params map[string]any) Task {
	t.Helper()
	task, err := NewTask(name, Options{Params: params})
	if err != nil {
		t.Fatalf("NewTask(%s, %v): %v", name, params, err)
	}
	return task
}

// mustGenerate generates item idx of the dataset seeded seed, as
// reasoning-gym does (random.Random(seed + idx)), or fails the test.
func mustGenerate(t *testing.T, task Task, seed, idx int64) Entry {
	t.Helper()
	var r pycompat.Random
	r.SeedSum(seed, idx)
	e, err := Generate(task, &r, idx)
	if err != nil {
		t.Fatalf("Generate(%d, %d): %v", seed, idx, err)
	}
	return e
}

// testDataDir writes small stand-ins for reasoning-gym's data files
// (the real ones are not part of this repository).
func testDataDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	story := "The Project Gutenberg eBook of In the Year 2889.\r\n" +
		"Little as they may think it, the men of the twenty-ninth century live continually in fairyland. " +
		"Ça va? Élan, naïve café; __init__ and snake_case words, 2889 A.D., Mr. Fritz Napoleon Smith! " +
		"Σίσυφος ΑΣ ÀÉÎÕÜ ß ﬁne _Forum_ façades.\n"
	words := "sun\nmoon\r\nstar\n  planet  \nx\nab_c\nGalaxy\nzyzzogeton\nverylongwordhere\n\nQuasar7\n"
	for name, body := range map[string]string{"in_the_year_2889.txt": strings.Repeat(story, 40),
		"words3to10.txt": words, "holdout_words.txt": "alpha\nbeta\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// realDataDir is reasoning-gym's installed data directory, for the
// golden tests: set RG_DATA_DIR (for example to
// .../site-packages/reasoning_gym/data) to run them.
func realDataDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("RG_DATA_DIR")
	if dir == "" {
		t.Skip("RG_DATA_DIR not set (reasoning-gym's data directory)")
	}
	return dir
}

// checkConfigs checks that the task accepts each good config and refuses
// each bad one; dataDir is where its data files are ("" when it has none).
func checkConfigs(t *testing.T, task, dataDir string, good, bad []map[string]any) {
	t.Helper()
	for _, p := range good {
		if _, err := NewTask(task, Options{Params: p, DataDir: dataDir}); err != nil {
			t.Errorf("%s %v: unexpected error %v", task, p, err)
		}
	}
	for _, p := range bad {
		if _, err := NewTask(task, Options{Params: p, DataDir: dataDir}); err == nil {
			t.Errorf("%s %v: accepted, want an error", task, p)
		}
	}
}

// checkConfigsJSON is checkConfigs for configs written as JSON objects.
func checkConfigsJSON(t *testing.T, task string, good, bad []string) {
	t.Helper()
	checkConfigs(t, task, "", jsonConfigs(t, good), jsonConfigs(t, bad))
}

// jsonConfigs decodes configs written as JSON objects.
func jsonConfigs(t *testing.T, srcs []string) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(srcs))
	for i, src := range srcs {
		if err := json.Unmarshal([]byte(src), &out[i]); err != nil {
			t.Fatalf("bad params %s: %v", src, err)
		}
	}
	return out
}

// checkDataNoPanic generates n items for each config and checks that the
// entries are complete.
func checkDataNoPanic(t *testing.T, task, dataDir string, configs []map[string]any, n int64) {
	t.Helper()
	for _, p := range configs {
		tk, err := NewTask(task, Options{Params: p, DataDir: dataDir})
		if err != nil {
			t.Fatalf("%s %v: %v", task, p, err)
		}
		for i := int64(0); i < n; i++ {
			e := mustGenerate(t, tk, 12345, i)
			if e.Question == "" || e.Metadata["source_index"] != i {
				t.Fatalf("%s %v item %d: incomplete entry %+v", task, p, i, e)
			}
			if s := tk.Score(e.Answer, true, &e); s != 1 {
				t.Fatalf("%s %v item %d: the oracle answer scores %v", task, p, i, s)
			}
		}
	}
}

// golden is an item whose question and answer reasoning-gym 0.1.25 printed
// for params, seed and idx.
type golden struct {
	params   map[string]any
	seed     int64
	idx      int64
	question string
	answer   string
}

// checkGolden generates each golden item and compares it.
func checkGolden(t *testing.T, task, dataDir string, cases []golden) {
	t.Helper()
	for _, c := range cases {
		tk, err := NewTask(task, Options{Params: c.params, DataDir: dataDir})
		if err != nil {
			t.Fatal(err)
		}
		e := mustGenerate(t, tk, c.seed, c.idx)
		if e.Question != c.question || e.Answer != c.answer {
			t.Errorf("%s %v seed %d item %d:\n got %q / %q\nwant %q / %q", task, c.params, c.seed, c.idx,
				e.Question, e.Answer, c.question, c.answer)
		}
	}
}

// scoreCase is one score_answer call (none: the answer is None) and the
// score reasoning-gym returned.
type scoreCase struct {
	answer string
	none   bool
	want   float64
}

// checkScores scores each case against the entry e.
func checkScores(t *testing.T, tk Task, e *Entry, cases []scoreCase) {
	t.Helper()
	for _, c := range cases {
		if got := tk.Score(c.answer, !c.none, e); got != c.want {
			t.Errorf("Score(%q, none=%v) = %v, want %v", c.answer, c.none, got, c.want)
		}
	}
}

// itemScoreCase is one score_answer call: item idx of the seed-42 dataset,
// the answer (ok=false for None) and the score Python returned.
type itemScoreCase struct {
	idx    int64
	answer string
	ok     bool
	want   float64
}

// checkItemScores scores each case against its item of the seed-42 dataset.
func checkItemScores(t *testing.T, name string, params map[string]any, cases []itemScoreCase) {
	t.Helper()
	task := mustTask(t, name, params)
	for i, c := range cases {
		e := mustGenerate(t, task, 42, c.idx)
		if got := task.Score(c.answer, c.ok, &e); got != c.want {
			t.Errorf("case %d: Score(item %d, %q, %v) = %v, want %v", i, c.idx, c.answer, c.ok, got, c.want)
		}
	}
}

// oddAnswers are inputs a scorer must survive without panicking.
var oddAnswers = []string{
	"", " ", "\x00", "\xff\xfe", "\xed\xa0\x80", "[", "]", "[[[[[[[[", "{", "\"", "'", "\\", "$", "/", "//", "$$",
	"\\frac", "\\frac{", "\\frac{1}{", "[\"\\ud800\"]", "[\"\\u12\"]", "[1e99999999999999999999]", "[-]", "[\"",
	"\n\n\n\n\n", "\u2003\u00a0\x85", strings.Repeat("9", 100000), "[" + strings.Repeat("1,", 5000) + "1]",
	strings.Repeat("[", 100000), strings.Repeat("up ", 10000), "1/" + strings.Repeat("0", 5000),
	"\U0001d7cf/\U0001d7d0", "١/٢", "𝟏 𝟐 𝟑 𝟒",
}

// checkScoreNoPanic scores odd answers against the first items.
func checkScoreNoPanic(t *testing.T, name string, params map[string]any) {
	t.Helper()
	task := mustTask(t, name, params)
	for idx := int64(0); idx < 5; idx++ {
		e := mustGenerate(t, task, 42, idx)
		for _, a := range append(oddAnswers, e.Answer, e.Question) {
			_ = task.Score(a, true, &e)
		}
		_ = task.Score("", false, &e)
	}
}

// checkGenerateNoPanic generates n items and checks that none is empty.
func checkGenerateNoPanic(t *testing.T, name string, params map[string]any, n int64) {
	t.Helper()
	task := mustTask(t, name, params)
	for idx := int64(0); idx < n; idx++ {
		var r pycompat.Random
		r.SeedSum(1234, idx)
		e, err := Generate(task, &r, idx)
		if err != nil {
			t.Fatalf("%s %v item %d: %v", name, params, idx, err)
		}
		if e.Question == "" || e.Answer == "" {
			t.Fatalf("%s %v item %d: empty question or answer", name, params, idx)
		}
	}
}

// mustTaskJSON builds a task from a config written as a JSON object.
func mustTaskJSON(t *testing.T, name, params string) Task {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal([]byte(params), &p); err != nil {
		t.Fatalf("bad params %s: %v", params, err)
	}
	return mustTask(t, name, p)
}

// goldenJSON is an item whose question and answer were printed by
// reasoning-gym 0.1.25 (create_dataset(task, seed=seed, **params)[idx]).
type goldenJSON struct {
	params   string
	seed     int64
	idx      int64
	question string
	answer   string
}

// checkGoldenJSON generates each golden item and compares it.
func checkGoldenJSON(t *testing.T, name string, cases []goldenJSON) {
	t.Helper()
	for _, c := range cases {
		e := mustGenerate(t, mustTaskJSON(t, name, c.params), c.seed, c.idx)
		if e.Question != c.question || e.Answer != c.answer {
			t.Errorf("%s %s seed=%d idx=%d:\n got  %q -> %q\n want %q -> %q", name, c.params, c.seed, c.idx,
				e.Question, e.Answer, c.question, c.answer)
		}
	}
}

// oracleScoreCase is a score_answer value printed by reasoning-gym 0.1.25
// for an entry whose answer is oracle.
type oracleScoreCase struct {
	oracle string
	answer string
	ok     bool
	want   float64
}

// checkOracleScores scores each case against an entry whose answer is its oracle.
func checkOracleScores(t *testing.T, name string, cases []oracleScoreCase) {
	t.Helper()
	task := mustTaskJSON(t, name, "{}")
	for _, c := range cases {
		e := Entry{Answer: c.oracle}
		if got := task.Score(c.answer, c.ok, &e); got != c.want {
			t.Errorf("%s: Score(%q, ok=%v) with oracle %q = %v, want %v", name, c.answer, c.ok, c.oracle, got, c.want)
		}
	}
}

// checkNoPanicJSON generates n items per config and scores a few odd
// answers against each; an error is allowed only where reasoning-gym raises
// as well (allowErr).
func checkNoPanicJSON(t *testing.T, name string, params []string, n int64, allowErr bool) {
	t.Helper()
	answers := []string{"", "0", "-1", " 12 ", "1e5", "\xff\xfe", "nan", "١٢", strings.Repeat("9", 5000), "\x00"}
	for _, p := range params {
		task := mustTaskJSON(t, name, p)
		for i := int64(0); i < n; i++ {
			var r pycompat.Random
			r.SeedSum(1234, i)
			e, err := Generate(task, &r, i)
			if err != nil {
				if !allowErr {
					t.Fatalf("%s %s idx %d: %v", name, p, i, err)
				}
				continue
			}
			if e.Question == "" || e.Answer == "" {
				t.Fatalf("%s %s idx %d: empty entry %+v", name, p, i, e)
			}
			if i%50 == 0 {
				for _, a := range append(answers, e.Answer, e.Answer+" ") {
					_ = task.Score(a, true, &e)
				}
				_ = task.Score("", false, &e)
			}
		}
	}
}
