package reasoninggym

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The expected values below were printed by CPython 3.11 (str.lower,
// str.upper, re.findall(r"\b\w+\b", s), str.splitlines, str.isalnum).

func TestTextPyLowerUpper(t *testing.T) {
	lower := [][2]string{{"\u0130stanbul", "i\u0307stanbul"}, {"ΑΣ", "ας"}, {"Σ", "σ"}, {"ΑΣ Α", "ας α"}, {"ΑΣΑ", "ασα"},
		{"Α'Σ", "α'ς"}, {"ΑΣ'", "ας'"}, {"ΑΣ.Β", "ασ.β"}, {"1Σ", "1σ"}, {"HeLLo ÀÉ", "hello àé"}, {"ǅ", "ǆ"}, {"ẞ", "ß"}}
	for _, c := range lower {
		if got := textPyLower(c[0]); got != c[1] {
			t.Errorf("lower(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	upper := [][2]string{{"ß", "SS"}, {"ﬁre", "FIRE"}, {"ŉ", "ʼN"}, {"straße", "STRASSE"}, {"ǆ", "Ǆ"},
		{"ᾳ", "ΑΙ"}, {"abc", "ABC"}, {"\u0390", "\u0399\u0308\u0301"}, {"éà", "ÉÀ"}}
	for _, c := range upper {
		if got := textPyUpper(c[0]); got != c[1] {
			t.Errorf("upper(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	// Invalid UTF-8 passes through without a panic.
	if got := textPyLower("A\xffΣ"); got != "a\xffσ" {
		t.Errorf("lower of invalid UTF-8 = %q", got)
	}
}

func TestTextFindWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"hello_world, ça-va 12ab ½ x² __init__ é\u0301 — 你好 ٣٤",
			[]string{"hello_world", "ça", "va", "12ab", "½", "x²", "__init__", "é", "你好", "٣٤"}},
		{"", nil}, {"   ", nil}, {"a", []string{"a"}}, {"_", []string{"_"}}, {"x.y", []string{"x", "y"}},
	}
	for _, c := range cases {
		if got := textFindWords(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("findWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTextSplitLinesAlnum(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"a\r\nb\x0bc\x1cd\u2028e\n", []string{"a", "b", "c", "d", "e"}}, {"", nil}, {"\n", []string{""}},
		{"a\n\nb", []string{"a", "", "b"}}, {"a\rb\r", []string{"a", "b"}}, {"x\u0085y\x0cz", []string{"x", "y", "z"}},
	}
	for _, c := range cases {
		if got := textSplitLines(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitlines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	alnum := map[string]bool{"abc": true, "ab1": true, "a_b": false, "": false, "½": true, "é": true, "a b": false, "٣": true}
	for s, want := range alnum {
		if got := textIsAlnum(s); got != want {
			t.Errorf("isalnum(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestTextReverse(t *testing.T) {
	if got := textReverse("abç😀"); got != "😀çba" {
		t.Errorf("reverse = %q", got)
	}
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

func TestTextDataErrors(t *testing.T) {
	empty := t.TempDir()
	for _, c := range []struct {
		task, dir, file string
	}{
		{"letter_counting", "", "in_the_year_2889.txt"}, {"letter_counting", empty, "in_the_year_2889.txt"},
		{"word_sorting", empty, "in_the_year_2889.txt"}, {"spell_backward", "", "words3to10.txt"},
		{"spell_backward", empty, "words3to10.txt"},
	} {
		_, err := NewTask(c.task, Options{DataDir: c.dir})
		if err == nil || !strings.Contains(err.Error(), c.file) || !strings.Contains(err.Error(), "pip install reasoning-gym") {
			t.Errorf("%s with data dir %q: error %v, want one naming %s and pip install reasoning-gym", c.task, c.dir, err, c.file)
		}
	}
	// A bad file is reported and not cached: fixing it makes the next call work.
	dir := t.TempDir()
	path := filepath.Join(dir, "words3to10.txt")
	if err := os.WriteFile(path, []byte("ab\xff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTask("spell_backward", Options{DataDir: dir}); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("invalid UTF-8 data file: error %v", err)
	}
	if err := os.WriteFile(path, []byte("abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTask("spell_backward", Options{DataDir: dir}); err != nil {
		t.Errorf("after fixing the file: %v", err)
	}
}

func TestTextDataParsedOnce(t *testing.T) {
	dir := textTestDataDir(t)
	path := filepath.Join(dir, "in_the_year_2889.txt")
	a, err := textWordRuns("test", path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	b, err := textWordRuns("test", path)
	if err != nil {
		t.Fatalf("second call re-read the file: %v", err)
	}
	if &a[0] != &b[0] {
		t.Error("second call parsed the file again")
	}
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
