package reasoninggym

import (
	"sort"
	"strconv"
	"strings"

	"github.com/llenvs/llenvs-go/pycompat"
)

const letterCountingDataFile = "in_the_year_2889.txt"

type letterCountingConfig struct {
	MinWords int `json:"min_words"`
	MaxWords int `json:"max_words"`
}

type letterCounting struct {
	c     letterCountingConfig
	words []string
}

func init() {
	Register("letter_counting", func(o Options) (Task, error) {
		c := letterCountingConfig{MinWords: 5, MaxWords: 15}
		if err := decodeParams("letter_counting", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkMin("letter_counting", "min_words", c.MinWords, 1),
			checkOrder("letter_counting", "min_words", c.MinWords, "max_words", c.MaxWords),
		); err != nil {
			return nil, err
		}
		path, err := textDataPath("letter_counting", o.DataDir, letterCountingDataFile)
		if err != nil {
			return nil, err
		}
		v, err := textCached("letter_counting\x00"+path, func() (any, error) {
			runs, err := textWordRuns("letter_counting", path)
			if err != nil {
				return nil, err
			}
			words := make([]string, 0, len(runs))
			for _, w := range runs {
				if pycompat.IsAlnum(w) {
					words = append(words, w)
				}
			}
			return words, nil
		})
		if err != nil {
			return nil, err
		}
		return &letterCounting{c: c, words: v.([]string)}, nil
	})
}

func (t *letterCounting) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	return t.generate(r, idx, true)
}

// Texts is Generate without the metadata (same draws, same question and answer).
func (t *letterCounting) Texts(r *pycompat.Random, idx int64) (Entry, error) {
	return t.generate(r, idx, false)
}

func (t *letterCounting) generate(r *pycompat.Random, idx int64, meta bool) (Entry, error) {
	n := r.RandIntn(t.c.MinWords, t.c.MaxWords)
	n = min(n, len(t.words))
	start := r.RandIntn(0, len(t.words)-n)
	span := t.words[start : start+n]
	joined := strings.Join(span, " ")

	seen := map[rune]bool{}
	for _, ch := range pycompat.Lower(strings.Join(span, "")) {
		seen[ch] = true
	}
	if len(seen) == 0 {
		seen['a'] = true
	}
	letters := make([]rune, 0, len(seen))
	for ch := range seen {
		letters = append(letters, ch)
	}
	sort.Slice(letters, func(i, j int) bool { return letters[i] < letters[j] })
	target := letters[r.ChoiceIndex(len(letters))]

	count := 0
	for _, w := range span {
		for _, ch := range pycompat.Lower(w) {
			if ch == target {
				count++
			}
		}
	}
	e := Entry{
		Question: `How many times does the letter "` + string(target) + `" appear in the text: "` + joined + `"?`,
		Answer:   strconv.Itoa(count),
	}
	if meta {
		e.Metadata = map[string]any{
			"source_dataset": "letter_counting",
			"source_index":   idx,
			"span_length":    n,
			"target_letter":  string(target),
			"span":           append([]string(nil), span...),
			"difficulty": map[string]any{
				"words": []int{t.c.MinWords, t.c.MaxWords},
			},
		}
	}
	return e, nil
}

func (t *letterCounting) Score(answer string, ok bool, e *Entry) float64 {
	return DefaultScore(answer, ok, e.Answer)
}
