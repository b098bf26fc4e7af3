package reasoninggym

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

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
	n := r.RandIntn(t.c.MinWords, t.c.MaxWords)
	n = min(n, len(t.words))
	start := r.RandIntn(0, len(t.words)-n)
	span := t.words[start : start+n]
	joined := strings.Join(span, " ")

	var target rune
	count := 0
	if tally, ok := letterCountingTally(joined); ok {
		target = letterCountingChoice(r, letterCountingASCII(&tally), nil)
		if target < utf8.RuneSelf {
			count = tally[target]
		}
	} else {
		lowered := pycompat.Lower(strings.Join(span, ""))
		target = letterCountingTarget(r, lowered)
		for _, w := range span {
			for _, ch := range pycompat.Lower(w) {
				if ch == target {
					count++
				}
			}
		}
	}
	e := Entry{
		Question: `How many times does the letter "` + string(target) + `" appear in the text: "` + joined + `"?`,
		Answer:   strconv.Itoa(count),
	}
	e.Meta = func() map[string]any {
		return map[string]any{
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

// letterCountingTarget draws the target letter: random.choice of the
// sorted set of the code points of lowered ("a" when it is empty).
// letterCountingTally counts the characters of the ASCII text s lowered,
// spaces left out (the words have none, so those of joined words are the
// separators); ok is false when s is not ASCII.
func letterCountingTally(s string) (tally [utf8.RuneSelf]int, ok bool) {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= utf8.RuneSelf {
			return tally, false
		}
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		tally[ch]++
	}
	tally[' '] = 0
	return tally, true
}

// letterCountingASCII is the set of the ASCII characters seen, indexed by
// character.
func letterCountingASCII(tally *[utf8.RuneSelf]int) (seen [utf8.RuneSelf]bool) {
	for ch, n := range tally {
		seen[ch] = n > 0
	}
	return seen
}

// letterCountingTarget is random.choice(sorted(set(lowered))), or "a" when
// lowered is empty.
func letterCountingTarget(r *pycompat.Random, lowered string) rune {
	var ascii [utf8.RuneSelf]bool
	var other map[rune]bool
	for _, ch := range lowered {
		if ch < utf8.RuneSelf {
			ascii[ch] = true
		} else {
			if other == nil {
				other = map[rune]bool{}
			}
			other[ch] = true
		}
	}
	return letterCountingChoice(r, ascii, other)
}

// letterCountingChoice is random.choice of the sorted characters of ascii
// and other, or "a" when there are none.
func letterCountingChoice(r *pycompat.Random, ascii [utf8.RuneSelf]bool, other map[rune]bool) rune {
	letters := make([]rune, 0, 64)
	for ch, ok := range ascii {
		if ok {
			letters = append(letters, rune(ch))
		}
	}
	if other != nil {
		more := make([]rune, 0, len(other))
		for ch := range other {
			more = append(more, ch)
		}
		sort.Slice(more, func(i, j int) bool { return more[i] < more[j] })
		letters = append(letters, more...) // all above the ASCII ones
	}
	if len(letters) == 0 {
		letters = append(letters, 'a')
	}
	return letters[r.ChoiceIndex(len(letters))]
}
