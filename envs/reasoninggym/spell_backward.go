package reasoninggym

import (
	"fmt"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
)

type spellBackwardConfig struct {
	MinWordLen int    `json:"min_word_len"`
	MaxWordLen int    `json:"max_word_len"`
	DataFile   string `json:"data_file"`
}

type spellBackward struct {
	c     spellBackwardConfig
	words []string
}

// spellBackwardLine is one candidate word of a word-list file: a stripped,
// alphanumeric line and its length in code points.
type spellBackwardLine struct {
	word string
	n    int
}

func init() {
	Register("spell_backward", func(o Options) (Task, error) {
		c := spellBackwardConfig{MinWordLen: 3, MaxWordLen: 10, DataFile: "words3to10.txt"}
		if err := decodeParams("spell_backward", o.Params, &c); err != nil {
			return nil, err
		}
		if err := firstError(
			checkMin("spell_backward", "min_word_len", c.MinWordLen, 1),
			checkOrder("spell_backward", "min_word_len", c.MinWordLen, "max_word_len", c.MaxWordLen),
		); err != nil {
			return nil, err
		}
		path, err := textDataPath("spell_backward", o.DataDir, c.DataFile)
		if err != nil {
			return nil, err
		}
		v, err := textCached("lines\x00"+path, func() (any, error) {
			s, err := textReadData("spell_backward", path)
			if err != nil {
				return nil, err
			}
			var out []spellBackwardLine
			for _, line := range pycompat.SplitLines(s) {
				w := pycompat.Strip(line)
				if pycompat.IsAlnum(w) {
					out = append(out, spellBackwardLine{w, utf8.RuneCountInString(w)})
				}
			}
			return out, nil
		})
		if err != nil {
			return nil, err
		}
		lines := v.([]spellBackwardLine)
		words := make([]string, 0, len(lines))
		for _, l := range lines {
			if l.n >= c.MinWordLen && l.n <= c.MaxWordLen {
				words = append(words, l.word)
			}
		}
		return &spellBackward{c: c, words: words}, nil
	})
}

func (t *spellBackward) Generate(r *pycompat.Random, idx int64) (Entry, error) {
	if len(t.words) == 0 {
		return Entry{}, fmt.Errorf("spell_backward: no word of %d..%d characters in %s", t.c.MinWordLen, t.c.MaxWordLen, t.c.DataFile)
	}
	word := t.words[r.ChoiceIndex(len(t.words))]
	e := Entry{
		Question: "Spell this word backward (example: sun -> nus): " + word,
		Answer:   pycompat.Reverse(word),
	}
	e.Meta = func() map[string]any {
		return map[string]any{
			"source_dataset": "spell_backward",
			"source_index":   idx,
			"word":           word,
			"word_len":       pycompat.Len(word),
			"difficulty": map[string]any{
				"word_len": []int{t.c.MinWordLen, t.c.MaxWordLen},
			},
		}
	}
	return e, nil
}

func (t *spellBackward) Score(answer string, ok bool, e *Entry) float64 {
	if !ok {
		return 0
	}
	want := pycompat.Lower(e.Answer)
	got := pycompat.Lower(answer)
	if want == got {
		return 1
	}
	w := []rune(want)
	g := []rune(got)
	reward := 0.0
	for i := range w {
		if i >= len(g) {
			break
		}
		if w[i] == g[i] {
			reward += 1 / float64(len(w))
		}
	}
	if reward == 1.0 {
		reward -= 0.2
	}
	return reward
}
