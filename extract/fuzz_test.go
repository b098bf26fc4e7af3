package extract

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzResponses are model responses of the shapes the extractors meet in
// training: the seed corpus of the extractor fuzz targets.
var fuzzResponses = []string{
	"<answer>42</answer>",
	"Let me think. 3 chickens have 6 legs.\n<answer> 14 </answer>",
	"<think>maybe 3</think><answer>1</answer> and <ANSWER>2</Answer>",
	"<answer>unclosed",
	"The final answer is $\\boxed{\\frac{1}{2}}$.",
	"\\boxed{a{b}c} then \\boxed{x",
	"\\fbox{7}",
	"Natalia sold 48/2 = <<48/2=24>>24 clips.\n#### 1,234",
	"#### -3.5",
	"The answer is (B).",
	"Answer: c",
	"A) 1\nB) 2\nAnswer choices above. I pick D",
	"```python\nprint(1)\n```\ntext\n```\nplain\n```",
	"```json\n{\"a\": 1}",
	"answer: 12\nFinal Answer: -7",
	"the numbers are 1,000 and 2.5e3 and -0.75",
	"",
	"   \n\t ",
	"line one\nline two\n\n",
	"\x00<answer>\x00</answer>",
	"<answer>caf\u00e9 \u0661\u0662</answer>\u2028next",
	"\xff\xfe<answer>\xc3</answer>",
	strings.Repeat("<answer>", 200) + "9" + strings.Repeat("</answer>", 3),
	`\boxed{x}`, "The answer is 3.14.", "1,234.5", "<think>a</think>$x$.", "\u2003\u00a0\x1c",
	strings.Repeat("{", 500) + "\\boxed{" + strings.Repeat("}", 400),
}

// fuzzConfigs are the extractors the targets build: each registered name
// with its default config and the configs users write.
var fuzzConfigs = []struct {
	name string
	cfg  map[string]any
}{
	{"tag_based", nil},
	{"tag_based", map[string]any{"tag_name": "final", "strip_whitespace": false}},
	{"regex", map[string]any{"pattern": `answer:\s*(\S+)`, "flags": int64(2)}},
	{"regex", map[string]any{"pattern": `(\d+)(?:\.\d+)?`, "group_index": int64(0)}},
	{"gsm8k", nil},
	{"multiple_choice", nil},
	{"multiple_choice", map[string]any{"choices": "ABCDEFGH", "case_sensitive": true}},
	{"boxed", nil},
	{"boxed", map[string]any{"strip_whitespace": false}},
	{"numeric", nil},
	{"last_number", nil},
	{"last_line", nil},
	{"code_block", nil},
	{"code_block", map[string]any{"language": "python"}},
	{"pattern_answer", nil},
	{"pattern_answer", map[string]any{"patterns": []any{`(?i)result\s*=\s*`, "Answer:"}}},
	{"pattern_answer", map[string]any{"patterns": []any{`so\s+`}}},
	{"regex", map[string]any{"pattern": `\b(\w+)$`}},
	{"raw", nil},
	{"raw", map[string]any{"strip_whitespace": false}},
	{"tail", map[string]any{"max_chars": int64(5)}},
}

func fuzzExtractors(t *testing.T) []Extractor {
	t.Helper()
	exs := make([]Extractor, len(fuzzConfigs))
	for i, c := range fuzzConfigs {
		ex, err := New(c.name, c.cfg)
		if err != nil {
			t.Fatalf("%s %v: %v", c.name, c.cfg, err)
		}
		exs[i] = ex
	}
	return exs
}

// answerIsOfInput checks that an extracted answer comes from the text: a
// substring of it, or (for the extractors that normalise) a substring once
// the normalisation is undone.
func answerIsOfInput(name, text, answer string) bool {
	switch name {
	case "multiple_choice":
		// One choice letter, as written or upper-cased.
		return utf8.RuneCountInString(answer) == 1 &&
			(strings.Contains(text, answer) || strings.Contains(strings.ToLower(text), strings.ToLower(answer)))
	case "gsm8k", "numeric", "last_number":
		// Thousands separators are dropped from the number.
		return strings.Contains(strings.ReplaceAll(text, ",", ""), strings.ReplaceAll(answer, ",", ""))
	}
	return strings.Contains(text, answer)
}

// checkExtraction checks the invariants every extraction of text must meet.
func checkExtraction(t *testing.T, ex Extractor, text string, x Extraction) {
	t.Helper()
	if !x.Found && (x.Answer != "" || x.MatchStart != 0 || x.MatchEnd != 0) {
		t.Fatalf("%s: not found but answer %q span [%d,%d)", ex.Name(), x.Answer, x.MatchStart, x.MatchEnd)
	}
	if x.MatchStart < 0 || x.MatchStart > x.MatchEnd || x.MatchEnd > len(text) {
		t.Fatalf("%s: span [%d,%d) outside the text of %d bytes", ex.Name(), x.MatchStart, x.MatchEnd, len(text))
	}
	if x.Found && !answerIsOfInput(ex.Name(), text, x.Answer) {
		t.Fatalf("%s: answer %q is not taken from %q", ex.Name(), x.Answer, text)
	}
	if x.Found && utf8.ValidString(text) && !utf8.ValidString(x.Answer) {
		t.Fatalf("%s: answer %q of valid UTF-8 text is not valid UTF-8", ex.Name(), x.Answer)
	}
	if again := ex.Extract(text); !sameExtraction(again, x) {
		t.Fatalf("%s: not deterministic: %+v then %+v", ex.Name(), x, again)
	}
	meta := ex.Describe(x)
	if meta == nil {
		t.Fatalf("%s: Describe gave nil", ex.Name())
	}
	if found := meta["found"]; found != x.Found {
		t.Fatalf("%s: metadata found=%v, extraction found=%v", ex.Name(), found, x.Found)
	}
	if _, err := json.Marshal(meta); err != nil {
		t.Fatalf("%s: metadata %v does not encode: %v", ex.Name(), meta, err)
	}
}

func sameExtraction(a, b Extraction) bool {
	return a.Answer == b.Answer && a.Found == b.Found && a.MatchStart == b.MatchStart && a.MatchEnd == b.MatchEnd &&
		a.NumMatches == b.NumMatches
}

// FuzzExtractors runs every extractor, as configured in fuzzConfigs, on
// arbitrary text, alone, chained in a composite and wrapped in cleaners.
func FuzzExtractors(f *testing.F) {
	for _, r := range fuzzResponses {
		f.Add(r)
	}
	exs := fuzzExtractors(&testing.T{})
	comp, err := NewComposite(exs)
	if err != nil {
		f.Fatal(err)
	}
	cleaned, err := WithCleaners(NewTag("answer", true), []any{"strip_thinking_tokens", "strip_special_tokens"},
		[]any{"strip_trailing_punctuation", "strip_surrounding_quotes", "strip_latex_dollars",
			map[string]any{"type": "truncate_tail", "config": map[string]any{"max_chars": int64(8)}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, ex := range exs {
			checkExtraction(t, ex, text, ex.Extract(text))
		}
		x := comp.Extract(text)
		if x.Found {
			i, _ := x.Extra[compositeIndexKey].(int)
			want := exs[i].Extract(text)
			if want.Answer != x.Answer || !want.Found {
				t.Fatalf("composite winner %d gave %q, alone %+v", i, x.Answer, want)
			}
			for _, ex := range exs[:i] {
				if ex.Extract(text).Found {
					t.Fatalf("composite skipped %s, which finds an answer", ex.Name())
				}
			}
		}
		meta := comp.Describe(x)
		if _, err := json.Marshal(meta); err != nil {
			t.Fatalf("composite metadata %v: %v", meta, err)
		}
		c := cleaned.Extract(text)
		if c.Found && utf8.RuneCountInString(c.Answer) > 8 {
			t.Fatalf("truncate_tail(8) left %q", c.Answer)
		}
		if _, err := json.Marshal(cleaned.Describe(c)); err != nil {
			t.Fatalf("cleaned metadata: %v", err)
		}
	})
}

// FuzzExtractorConfig builds extractors from arbitrary JSON configs, as
// users write them in answer_extractor_config and answer_extractors: each
// is built or refused with an error, never a panic, and what is built
// extracts.
func FuzzExtractorConfig(f *testing.F) {
	for _, c := range fuzzConfigs {
		b, _ := json.Marshal(c.cfg)
		f.Add(c.name, string(b), "<answer>1</answer> \\boxed{2} #### 3 (A)")
	}
	f.Add("regex", `{"pattern": "(a", "group_index": 1}`, "aaa")
	f.Add("regex", `{"pattern": "(a)|(b)", "group_index": 2}`, "a")
	f.Add("regex", `{"pattern": "x*", "group_index": -1}`, "xx")
	f.Add("regex", `{"pattern": "(?P<n>\\d)", "flags": 66}`, "7")
	f.Add("tail", `{"max_chars": 0}`, "abc")
	f.Add("tag_based", `{"tag_name": ".*(", "strip_whitespace": "yes"}`, "<.*(>1</.*(>")
	f.Add("tag_based", `{"tag_name": ""}`, "<>1</>")
	f.Add("multiple_choice", `{"choices": ""}`, "A")
	f.Add("pattern_answer", `{"patterns": ["(", "[a-"]}`, "x")
	f.Add("pattern_answer", `{"patterns": ["(x)?answer:\\s*", "()\\\\s*"]}`, "answer: 1. \\s 2")
	f.Add("composite", `[{"type": "boxed"}, {"type": "numeric", "config": {"bad": 1}}]`, "1")
	f.Fuzz(func(t *testing.T, name, cfgJSON, text string) {
		var raw any
		if json.Unmarshal([]byte(cfgJSON), &raw) != nil {
			return
		}
		var ex Extractor
		var err error
		if specs, ok := raw.([]any); ok {
			ex, err = NewCompositeFromSpecs(specs)
		} else if cfg, ok := raw.(map[string]any); ok || raw == nil {
			ex, err = New(name, cfg)
		} else {
			return
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		checkExtraction(t, ex, text, ex.Extract(text))
	})
}

// FuzzRegexExtractor compiles arbitrary patterns with arbitrary flags and
// group indices: a pattern is compiled or refused, and a match is a
// substring of the text.
func FuzzRegexExtractor(f *testing.F) {
	f.Add(`<answer>(.*?)</answer>`, 1, 16, "<answer>x</answer>")
	f.Add(`(?i)ANSWER:\s*([A-D])`, 1, 0, "answer: b")
	f.Add(`\d+`, 0, 8, "1\n22\n333")
	f.Add(`(a)(b)?`, 2, 0, "a")
	f.Add(`(?P<x>[`, 0, 0, "")
	f.Add(`\Z`, 0, 64, "x")
	f.Fuzz(func(t *testing.T, pattern string, group, flags int, text string) {
		r, err := NewRegex(pattern, group, true, flags)
		if err != nil {
			return
		}
		checkExtraction(t, r, text, r.Extract(text))
	})
}
