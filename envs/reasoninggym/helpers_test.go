package reasoninggym

import (
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
	e, err := task.Generate(&r, idx)
	if err != nil {
		t.Fatalf("Generate(%d, %d): %v", seed, idx, err)
	}
	return e
}

// textTestDataDir writes small stand-ins for reasoning-gym's data files
// (the real ones are not part of this repository).
func textTestDataDir(t *testing.T) string {
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

// textRealDataDir is reasoning-gym's installed data directory, for the
// golden tests: set RG_DATA_DIR (for example to
// .../site-packages/reasoning_gym/data) to run them.
func textRealDataDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("RG_DATA_DIR")
	if dir == "" {
		t.Skip("RG_DATA_DIR not set (reasoning-gym's data directory)")
	}
	return dir
}

// textCheckConfigs checks that each good config builds and each bad one
// is refused.
func textCheckConfigs(t *testing.T, task, dataDir string, good, bad []map[string]any) {
	t.Helper()
	for _, p := range good {
		if _, err := NewTask(task, Options{Params: p, DataDir: dataDir}); err != nil {
			t.Errorf("%s %v: unexpected error %v", task, p, err)
		}
	}
	for _, p := range bad {
		if _, err := NewTask(task, Options{Params: p, DataDir: dataDir}); err == nil {
			t.Errorf("%s %v: no error", task, p)
		}
	}
}

// textCheckNoPanic generates n items for each config and checks that the
// entries are complete.
func textCheckNoPanic(t *testing.T, task, dataDir string, configs []map[string]any, n int64) {
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

type textGolden struct {
	params   map[string]any
	seed     int64
	idx      int64
	question string
	answer   string
}

func textCheckGolden(t *testing.T, task, dataDir string, cases []textGolden) {
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

type textScoreCase struct {
	answer string
	none   bool
	want   float64
}

func textCheckScores(t *testing.T, tk Task, e *Entry, cases []textScoreCase) {
	t.Helper()
	for _, c := range cases {
		if got := tk.Score(c.answer, !c.none, e); got != c.want {
			t.Errorf("Score(%q, none=%v) = %v, want %v", c.answer, c.none, got, c.want)
		}
	}
}
