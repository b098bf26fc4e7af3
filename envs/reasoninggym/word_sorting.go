package reasoninggym

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

const wordSortingDataFile = "in_the_year_2889.txt"

type wordSortingConfig struct {
	MinWords       int    `json:"min_words"`
	MaxWords       int    `json:"max_words"`
	MinWordLength  int    `json:"min_word_length"`
	MaxWordLength  int    `json:"max_word_length"`
	Transformation string `json:"transformation"`
}

type wordSorting struct {
	c     wordSortingConfig
	words []string
}

func init() {
	Register("word_sorting", func(o Options) (Task, error) {
		c := wordSortingConfig{MinWords: 3, MaxWords: 10, MinWordLength: 3, MaxWordLength: 12, Transformation: "original"}
		if err := decodeParams("word_sorting", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkMin("word_sorting", "min_words", c.MinWords, 1),
			checkOrder("word_sorting", "min_words", c.MinWords, "max_words", c.MaxWords),
			checkMin("word_sorting", "min_word_length", c.MinWordLength, 1),
			checkOrder("word_sorting", "min_word_length", c.MinWordLength, "max_word_length", c.MaxWordLength),
		); err != nil {
			return nil, err
		}
		switch c.Transformation {
		case "lowercase", "uppercase", "original", "randomcase":
		default:
			return nil, ConfigError("word_sorting", "transformation must be one of lowercase, uppercase, original, randomcase, got %q", c.Transformation)
		}
		path, err := textDataPath("word_sorting", o.DataDir, wordSortingDataFile)
		if err != nil {
			return nil, err
		}
		runs, err := textWordRuns("word_sorting", path)
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		var words []string
		for _, w := range runs {
			if n := pycompat.Len(w); n >= c.MinWordLength && n <= c.MaxWordLength && !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
		sort.Strings(words)
		return &wordSorting{c: c, words: words}, nil
	})
}

// The question template, in the two parts around the direction and the
// words.
const (
	wordSortingHead = "Your task is to sort words in ascending or descending order using ASCII/Unicode ordering.\n\n" +
		"Your output should be a comma-separated list of words, e.g. word_1, word_2, word_3\n\n" +
		"Now, sort these words in "
	wordSortingMid = " order (using ASCII/Unicode ordering) and return them as a comma-separated list: "
)

// wordSortingQuestion is the template filled with the direction and the
// words joined by ", ".
func wordSortingQuestion(direction string, words []string) string {
	n := len(wordSortingHead) + len(direction) + len(wordSortingMid) + 1
	for i, w := range words {
		if i > 0 {
			n += 2
		}
		n += len(w)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(wordSortingHead)
	b.WriteString(direction)
	b.WriteString(wordSortingMid)
	for i, w := range words {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(w)
	}
	b.WriteByte('\n')
	return b.String()
}

// wordSortingMaxLen is the length in code points of the longest word.
func wordSortingMaxLen(words []string) int {
	n := 0
	for _, w := range words {
		n = max(n, pycompat.Len(w))
	}
	return n
}

func (t *wordSorting) transform(w string, r *pycompat.Random) string {
	switch t.c.Transformation {
	case "lowercase":
		return pycompat.Lower(w)
	case "uppercase":
		return pycompat.Upper(w)
	case "randomcase":
		var b strings.Builder
		for _, ch := range w {
			if r.ChoiceIndex(2) == 0 {
				b.WriteString(pycompat.Upper(string(ch)))
			} else {
				b.WriteString(pycompat.Lower(string(ch)))
			}
		}
		return b.String()
	}
	return w
}

func (t *wordSorting) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	count := r.RandIntn(t.c.MinWords, t.c.MaxWords)
	if count > len(t.words) {
		return Entry{}, fmt.Errorf("word_sorting: sample larger than population (%d words of %d)", count, len(t.words))
	}
	picks := r.SampleIndices(len(t.words), count)
	original := make([]string, count)
	for i, p := range picks {
		original[i] = t.words[p]
	}
	transformed := original // the "original" transformation draws nothing
	if t.c.Transformation != "original" {
		transformed = make([]string, count)
		for i, w := range original {
			transformed[i] = t.transform(w, r)
		}
	}
	sorted := slices.Clone(transformed)
	slices.Sort(sorted)
	direction := "ascending"
	if r.ChoiceIndex(2) != 0 {
		direction = "descending"
		slices.Reverse(sorted)
	}
	e := Entry{
		Question: wordSortingQuestion(direction, transformed),
		Answer:   strings.Join(sorted, ", "),
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset":    "word_sorting",
			"source_index":      idx,
			"original_words":    original,
			"sorted_words":      sorted,
			"transformed_words": transformed,
			"direction":         direction,
			"num_words":         count,
			"word_length":       wordSortingMaxLen(original),
			"difficulty": map[string]any{
				"num_words":   []int{t.c.MinWords, t.c.MaxWords},
				"word_length": []int{t.c.MinWordLength, t.c.MaxWordLength},
			},
		}
	}
	return e, nil
}

// wordSortingSplit is re.split(r",\s*", s) with Python's Unicode \s.
var wordSortingSplit = regexp.MustCompile(`,[\t\n\v\f\r \x{1c}-\x{1f}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]*`)

// wordSortingMetaStrings reads a []string metadata value (also accepting
// []any of strings, as after a JSON round trip).
func wordSortingMetaStrings(v any) []string {
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, it := range x {
			s, ok := it.(string)
			if !ok {
				return nil
			}
			out = append(out, s)
		}
		return out
	}
	return nil
}

func (t *wordSorting) Score(answer string, ok bool, e *Entry) float64 {
	if !ok || answer == "" {
		return 0
	}
	oracle := wordSortingMetaStrings(e.Metadata["sorted_words"])
	parts := wordSortingSplit.Split(answer, -1)
	for i, p := range parts {
		parts[i] = pycompat.Strip(p)
	}
	equal := len(parts) == len(oracle)
	correct := 0
	for i, p := range parts {
		if i < len(oracle) && p == oracle[i] {
			correct++
		} else {
			equal = false
		}
	}
	if equal {
		return 1
	}
	if len(oracle) == 0 {
		return 0
	}
	score := float64(correct) / float64(len(oracle))
	if len(parts) == len(oracle) {
		a := append([]string(nil), parts...)
		b := append([]string(nil), oracle...)
		sort.Strings(a)
		sort.Strings(b)
		same := true
		for i := range a {
			if a[i] != b[i] {
				same = false
				break
			}
		}
		if same {
			score = max(score, 0.2)
		}
	}
	return score
}
