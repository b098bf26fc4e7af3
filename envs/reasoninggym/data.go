package reasoninggym

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
)

// This file holds the helpers shared by the tasks that read reasoning-gym's
// data files (letter_counting, word_sorting, spell_backward).

// textDataPath resolves a data file name inside dataDir. A name with a path
// separator is refused, so that a config cannot point at arbitrary files.
func textDataPath(task, dataDir, name string) (string, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return "", ConfigError(task, "data_file must be a file name inside reasoning-gym's data directory, got %q", name)
	}
	if dataDir == "" {
		return "", fmt.Errorf("%s needs reasoning-gym's data file %s: pass data_dir (the reasoning_gym/data directory of an installed reasoning-gym; `pip install reasoning-gym==0.1.25` provides it)", task, name)
	}
	return filepath.Join(dataDir, name), nil
}

// textReadData reads a data file as Python's Path.read_text(encoding="utf-8")
// does: strict UTF-8 and universal newlines.
func textReadData(task, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s needs reasoning-gym's data file %s, which is missing: pass data_dir (the reasoning_gym/data directory of an installed reasoning-gym; `pip install reasoning-gym==0.1.25` provides it)", task, path)
		}
		return "", fmt.Errorf("%s: reading data file: %w", task, err)
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%s: data file %s is not valid UTF-8", task, path)
	}
	s := string(b)
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return s, nil
}

var (
	textCacheMu sync.Mutex
	textCache   = map[string]*textCacheEntry{}
)

type textCacheEntry struct {
	once sync.Once
	val  any
	err  error
}

// textCached returns build()'s result for key, computing it once per
// process. A failed build is not remembered, so a later call retries (the
// data file may have been installed meanwhile).
func textCached(key string, build func() (any, error)) (any, error) {
	textCacheMu.Lock()
	e, ok := textCache[key]
	if !ok {
		e = &textCacheEntry{}
		textCache[key] = e
	}
	textCacheMu.Unlock()
	e.once.Do(func() { e.val, e.err = build() })
	if e.err != nil {
		textCacheMu.Lock()
		if textCache[key] == e {
			delete(textCache, key)
		}
		textCacheMu.Unlock()
	}
	return e.val, e.err
}

// textWordRuns returns re.findall(r"\b\w+\b", text) of the data file at
// path, parsed once per process.
func textWordRuns(task, path string) ([]string, error) {
	v, err := textCached("runs\x00"+path, func() (any, error) {
		s, err := textReadData(task, path)
		if err != nil {
			return nil, err
		}
		return pycompat.FindWords(s), nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]string), nil
}
