package reasoninggym

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDataFileErrors(t *testing.T) {
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

func TestDataFileParsedOnce(t *testing.T) {
	dir := testDataDir(t)
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
