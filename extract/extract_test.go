package extract

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// exCase is one extraction: the response and the answer expected, or
// found=false for none.
type exCase struct {
	text   string
	answer string
	found  bool
}

func yes(text, answer string) exCase { return exCase{text, answer, true} }
func no(text string) exCase          { return exCase{text: text} }

func mustExtractor(t *testing.T, name string, cfg map[string]any) Extractor {
	t.Helper()
	ex, err := New(name, cfg)
	if err != nil {
		t.Fatalf("NewExtractor(%q, %v): %v", name, cfg, err)
	}
	return ex
}

func runCases(t *testing.T, name string, cfg map[string]any, cases []exCase) {
	t.Helper()
	ex := mustExtractor(t, name, cfg)
	for _, c := range cases {
		x := ex.Extract(c.text)
		if x.Found != c.found || x.Answer != c.answer {
			t.Errorf("%s%v.Extract(%q) = (%q, found=%v), want (%q, found=%v)", name, cfg, c.text, x.Answer, x.Found, c.answer, c.found)
		}
		if m := ex.Describe(x); m["found"] != x.Found {
			t.Errorf("%s.Describe(%q): found=%v, extraction found=%v", name, c.text, m["found"], x.Found)
		}
	}
}

func TestTagBased(t *testing.T) {
	runCases(t, "tag_based", nil, []exCase{
		yes("<answer>42</answer>", "42"),
		yes("<answer></answer>", ""),
		yes("<ANSWER> 42 </Answer>", "42"),
		yes("<answer>1</answer> then <answer>2</answer>", "2"),
		yes("<answer>a<answer>b</answer></answer>", "a<answer>b"),
		yes("<answer>\u00a0\u2003x\x1c</answer>", "x"),
		yes("<answer>multi\nline</answer>", "multi\nline"),
		no("<answer>42"),
		no("<answer >x</answer>"),
		no(""),
		no("\xff\xfe<answer"),
	})
	runCases(t, "tag_based", map[string]any{"tag_name": "my.tag", "strip_whitespace": false}, []exCase{
		yes("<my.tag> x </my.tag>", " x "),
		no("<myXtag>x</myXtag>"),
	})
}

func TestRegex(t *testing.T) {
	runCases(t, "regex", map[string]any{"pattern": `Answer:\s*(\w+)`}, []exCase{
		yes("Answer: foo ... Answer: bar", "bar"),
		no("no answer here"),
		no(""),
	})
	// "." matches a newline by default (flags=re.DOTALL).
	runCases(t, "regex", map[string]any{"pattern": `<a>(.*?)</a>`}, []exCase{
		yes("<a>line1\nline2</a>", "line1\nline2"),
		yes("<a>  padded  </a>", "padded"),
	})
	runCases(t, "regex", map[string]any{"pattern": `<a>(.*?)</a>`, "flags": 0, "strip_whitespace": false}, []exCase{
		no("<a>line1\nline2</a>"),
		yes("<a>  padded  </a>", "  padded  "),
	})
	runCases(t, "regex", map[string]any{"pattern": `answer: (\d+)`, "flags": 2 | 16}, []exCase{
		yes("ANSWER: 7", "7"),
	})
	// A group that does not take part in the last match is no extraction.
	runCases(t, "regex", map[string]any{"pattern": `x(\d)?`}, []exCase{
		yes("x1 x2", "2"),
		no("x1 x"),
	})
	runCases(t, "regex", map[string]any{"pattern": `#+ (\d+)`, "group_index": 0}, []exCase{
		yes("## 12 and # 3", "# 3"),
	})
	// Context assertions see the text before the search position.
	runCases(t, "regex", map[string]any{"pattern": `\b(\w)`}, []exCase{
		yes("ab cd", "c"),
		yes("ab", "a"),
	})
	runCases(t, "regex", map[string]any{"pattern": `(?m)^(\d+)$`}, []exCase{
		yes("1\nx2\n33\n4x", "33"),
	})
	runCases(t, "regex", map[string]any{"pattern": `(\d+)`}, []exCase{
		yes("\xff1\xfe22\xff", "22"),
		yes("é 3 ü 4", "4"),
	})
}

func TestRegexMeta(t *testing.T) {
	ex := mustExtractor(t, "regex", map[string]any{"pattern": `(\d+)`})
	got := ex.Describe(ex.Extract("a 1 b 22"))
	want := map[string]any{"found": true, "pattern": `(\d+)`, "match_start": 6, "match_end": 8, "num_matches": 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
	got = ex.Describe(ex.Extract("none"))
	if want := (map[string]any{"found": false, "pattern": `(\d+)`}); !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
}

func TestRegexConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  map[string]any
		want []string
	}{
		{map[string]any{}, []string{`"pattern" is required`}},
		{map[string]any{"pattern": `(?=x)(y)`}, []string{`invalid pattern "(?=x)(y)"`, "lookahead"}},
		{map[string]any{"pattern": `(a`}, []string{`invalid pattern "(a"`}},
		{map[string]any{"pattern": `a)(b`}, []string{`invalid pattern "a)(b"`}},
		{map[string]any{"pattern": `(\d)`, "flags": 64}, []string{"unsupported flags 64"}},
		{map[string]any{"pattern": `(\d)`, "patern": "x"}, []string{"unknown key 'patern'"}},
		{map[string]any{"pattern": 3}, []string{`"pattern"`, "want a string"}},
	} {
		_, err := New("regex", c.cfg)
		if err == nil {
			t.Errorf("regex %v: no error", c.cfg)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("regex %v: error %q does not mention %q", c.cfg, err, w)
			}
		}
	}
}

func TestGSM8K(t *testing.T) {
	runCases(t, "gsm8k", nil, []exCase{
		yes("#### $150", "150"),
		yes("####42", "42"),
		yes("#### 1,234,567", "1234567"),
		yes("The total is 5.\n#### 3.75", "3.75"),
		yes("#### 1\n#### 2", "2"),
		yes("#### 1\n#### x", "1"),
		yes("#####7", "7"),
		yes("####\u00a0\u2003 8", "8"),
		yes("#### ٤٢", "٤٢"), // Python's \d is any Unicode digit
		yes("#### 3.", "3"),
		yes("#### 1.2.3", "1.2"),
		// Deliberate fix: negative numbers.
		yes("#### -5", "-5"),
		yes("#### -$5", "-5"),
		yes("#### $-1,000.5", "-1000.5"),
		yes("#### 5-3", "5"),
		no("#### -"),
		no("#### - 5"),
		no("## 5"),
		no(""),
		no("\xff####\xfe"),
		// llenvs' [\d,]+ also matches a lone comma.
		yes("#### ,", ""),
	})
	ex := mustExtractor(t, "gsm8k", nil)
	got := ex.Describe(ex.Extract("x #### 42"))
	want := map[string]any{"found": true, "format": "gsm8k", "match_start": 2, "match_end": 9, "num_matches": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
}

func TestNumeric(t *testing.T) {
	cases := []exCase{
		// llenvs' tests.
		yes("3 + 4 = 7", "7"),
		yes("-3.14", "-3.14"),
		yes("1,234,567", "1234567"),
		yes("The answer is 42.", "42"),
		// Deliberate fix: a run of digits is never split.
		yes("The answer is 1000", "1000"),
		yes("12345", "12345"),
		yes("1234.5", "1234.5"),
		yes("99999999999999999999", "99999999999999999999"),
		yes("1,2345", "2345"),
		yes("1234,567", "567"),
		yes("12,34", "34"),
		yes("1,234,", "1234"),
		yes("1,234.5", "1234.5"),
		yes("3.", "3"),
		yes(".5", "5"),
		yes("5-3", "-3"),
		yes("--7", "-7"),
		yes("x2y", "2"),
		yes("١٢٣", "١٢٣"),
		yes("\xff7\xfe", "7"),
		no("no digits"),
		no("-"),
		no(""),
		no("\xff\xfe"),
	}
	runCases(t, "numeric", nil, cases)
	runCases(t, "last_number", nil, cases)
	ex := mustExtractor(t, "last_number", nil)
	if ex.Name() != "last_number" {
		t.Errorf("Name = %q", ex.Name())
	}
	got := ex.Describe(ex.Extract("1 and 22"))
	want := map[string]any{"found": true, "format": "numeric", "match_start": 6, "match_end": 8, "num_matches": 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
}

func TestMultipleChoice(t *testing.T) {
	runCases(t, "multiple_choice", nil, []exCase{
		yes("Answer: A", "A"),
		yes("answer: b", "B"),
		yes("answer:(C)", "C"),
		yes("answer: (C)", "C"),
		yes("The choice is D.", "D"),
		yes("(D)", "D"),
		yes("I think (a) or maybe (B)", "B"),
		yes("E. because", "E"),
		yes("Reasoning\nc) it is", "C"),
		yes("First\nB\nSecond", "B"),
		// Priority: pattern 1 beats a later "(X)".
		yes("Answer: C\nbut (A) looked good", "C"),
		// Deliberate fixes.
		yes("The answer is B", "B"),
		yes("The answer is B because it is", "B"),
		yes("the answer is: (e)", "E"),
		yes("The answer is b.", "B"),
		no("Answer: Because it is"),
		no("The answer is a prime number"),
		yes("Answer choices: (A) 1 (B) 2", "B"),
		no("Answer: F"),
		no(""),
		no("\xff(\xfe)"),
		yes("(\u00e9) or (c)", "C"),
	})
	runCases(t, "multiple_choice", map[string]any{"choices": "ABC"}, []exCase{
		no("Answer: D"),
		yes("Answer: D or (C)", "C"),
	})
	runCases(t, "multiple_choice", map[string]any{"case_sensitive": true}, []exCase{
		yes("Answer: B", "B"),
		yes("ANSWER IS C", "C"),
		no("answer: b"),
	})
	// With case-sensitive lower-case choices a lower-case letter is never
	// read as an article.
	runCases(t, "multiple_choice", map[string]any{"choices": "abc", "case_sensitive": true}, []exCase{
		yes("the answer is a prime", "A"),
		no("Answer: A"),
	})
	ex := mustExtractor(t, "multiple_choice", nil)
	got := ex.Describe(ex.Extract("x Answer: (B) y"))
	want := map[string]any{"found": true, "format": "multiple_choice", "match_start": 2, "match_end": 13,
		"pattern_used": `(?:answer|choice)(?:\s+is)?[\s:]*\(?([ABCDE])(?!\w)\)?`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
	got = ex.Describe(ex.Extract("nothing"))
	if want := (map[string]any{"found": false, "format": "multiple_choice"}); !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
	if _, err := New("multiple_choice", map[string]any{"choices": ""}); err == nil {
		t.Error("empty choices: no error")
	}
}

func TestBoxed(t *testing.T) {
	runCases(t, "boxed", nil, []exCase{
		yes(`\boxed{x^{2}+1}`, "x^{2}+1"),
		yes(`\boxed {42}`, "42"),
		yes("\\boxed\u00a0\n{42}", "42"),
		yes(`\boxed{}`, ""),
		yes(`\boxed{ 7 }`, "7"),
		yes(`\boxed{\boxed{1}}`, "1"),
		yes(`\boxed{a} and \boxed{b}`, "b"),
		yes(`\boxed{a} and \boxed{b`, "a"),
		yes(`}} \boxed{a}}`, "a"),
		yes(`{\boxed{a}`, "a"),
		yes(`\boxed{\frac{1}{2}} \boxed{`, `\frac{1}{2}`),
		yes("\\boxed{é\xff}", "é\xff"),
		no(`\boxed{unclosed`),
		no(`\boxedx{1}`),
		no(`\boxed`),
		no(""),
	})
	ex := mustExtractor(t, "boxed", nil)
	got := ex.Describe(ex.Extract(`a \boxed{1} \boxed{2}`))
	want := map[string]any{"found": true, "format": "boxed", "match_start": 12, "match_end": 21, "num_matches": 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
}

func TestLastLine(t *testing.T) {
	runCases(t, "last_line", nil, []exCase{
		yes("first\nsecond\n\n  ", "second"),
		yes("  only  ", "only"),
		yes("a\r\nb\r\n", "b"),
		yes("a\n\u00a0\u2003\n", "a"),
		yes("a\u2028b", "a\u2028b"),
		yes("x\n\xff", "\xff"),
		no(""),
		no(" \n\t\n\x1c\n"),
	})
	ex := LastLine{}
	got := ex.Describe(ex.Extract("a\n\nb\n"))
	if want := (map[string]any{"found": true, "format": "last_line", "num_lines": 2}); !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
}

func TestRawAndTail(t *testing.T) {
	runCases(t, "raw", nil, []exCase{
		yes("  whole\nthing \u00a0", "whole\nthing"),
		yes("", ""),
		yes("\xff", "\xff"),
	})
	runCases(t, "raw", map[string]any{"strip_whitespace": false}, []exCase{yes(" x ", " x ")})
	runCases(t, "tail", map[string]any{"max_chars": 3}, []exCase{
		yes("abcdef", "def"),
		yes("  ab  ", "ab"),
		yes("héllo wörld", "rld"),
		yes("日本語テキスト", "キスト"),
		yes("", ""),
		yes("ab\xffc", "b\xffc"),
	})
	tail := mustExtractor(t, "tail", map[string]any{"max_chars": 3})
	got := tail.Describe(tail.Extract(" héllo "))
	want := map[string]any{"found": true, "format": "tail", "truncated": true, "max_chars": 3, "original_length": 7}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
	def := mustExtractor(t, "tail", nil)
	long := strings.Repeat("é", 300)
	if x := def.Extract(long); pycompat.Len(x.Answer) != 256 {
		t.Errorf("default tail: %d code points", pycompat.Len(x.Answer))
	}
	if _, err := New("tail", map[string]any{"max_chars": 0}); err == nil {
		t.Error("max_chars 0: no error")
	}
	raw := mustExtractor(t, "raw", nil)
	got = raw.Describe(raw.Extract("x"))
	if want := (map[string]any{"found": true, "format": "raw", "is_full_response": true}); !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
}

func TestCodeBlock(t *testing.T) {
	runCases(t, "code_block", nil, []exCase{
		yes("```python\nprint(1)\n```", "print(1)"),
		yes("```\nplain\n```", "plain"),
		yes("```py  \n  x = 1  \n```", "x = 1"),
		yes("```a\nfirst\n```\ntext\n```b\nsecond\n```", "second"),
		yes("```\n```", ""),
		yes("````\nfour\n```", "four"),
		yes("```日本\nx\n```", "x"),
		yes("``` \n \nbody```", "body"),
		no("```py print(1)```"),
		no("```py\nunclosed"),
		no(""),
		no("\xff```\xfe"),
	})
	runCases(t, "code_block", map[string]any{"language": "py"}, []exCase{
		yes("```py\na\n```\n```js\nb\n```", "a"),
		no("```python\nx\n```"),
	})
	runCases(t, "code_block", map[string]any{"language": nil}, []exCase{yes("```js\nb\n```", "b")})
	ex := mustExtractor(t, "code_block", map[string]any{"language": "py"})
	got := ex.Describe(ex.Extract("```py\na\n```"))
	want := map[string]any{"found": true, "format": "code_block", "match_start": 0, "match_end": 11, "num_matches": 1, "language": "py"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
}

func TestPatternAnswer(t *testing.T) {
	runCases(t, "pattern_answer", nil, []exCase{
		yes("The answer is 3.14.", "3.14"),
		yes("the answer is 42. Done", "42"),
		yes("THE  ANSWER\tIS\u00a0seven", "seven"),
		yes("Therefore, x = 5", "5"),
		yes("Therefore x is 5.\nNext", "x is 5"),
		yes("The answer is\n42", "42"),
		yes("a = 1\nb = 2", "2"),
		yes("x = 1.5. y", "1.5"),
		yes("x = 1.2.3", "1.2.3"),
		yes("The answer is   ", ""),
		// The latest match wins across patterns; a tie keeps the earlier.
		yes("Therefore, the answer is 9", "9"),
		no("x=7"),
		no("The answer is\n\n"),
		no("The answer is \n"),
		no(""),
		no("\xff=\xfe"),
		yes("= \xff", "\xff"),
	})
	runCases(t, "pattern_answer", map[string]any{"patterns": []any{`final:\s*`}}, []exCase{
		yes("Final: 12. ok", "12"),
		no("x = 3"),
	})
	// Two patterns matching at the same place: the earlier one wins.
	runCases(t, "pattern_answer", map[string]any{"patterns": []any{`a\s+`, `a\s+b\s+`}}, []exCase{
		yes("a b c", "b c"),
	})
	ex := mustExtractor(t, "pattern_answer", nil)
	got := ex.Describe(ex.Extract("so x = 7. end"))
	want := map[string]any{"found": true, "format": "pattern_answer", "pattern_index": 2, "pattern": `=\s+`, "match_start": 5, "match_end": 8}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Describe = %v, want %v", got, want)
	}
	for _, cfg := range []map[string]any{
		{"patterns": []any{}},
		{"patterns": []any{`(?<=x)y`}},
		{"patterns": "x"},
	} {
		if _, err := New("pattern_answer", cfg); err == nil {
			t.Errorf("pattern_answer %v: no error", cfg)
		}
	}
	// patterns: null means the defaults.
	runCases(t, "pattern_answer", map[string]any{"patterns": nil}, []exCase{yes("x = 1", "1")})
}

func TestExtractorConfigStrict(t *testing.T) {
	for _, name := range Names() {
		_, err := New(name, map[string]any{"no_such_key": 1})
		var uk *strictcfg.UnknownKeyError
		if !errors.As(err, &uk) || uk.Key != "no_such_key" || !strings.Contains(err.Error(), "unknown key 'no_such_key'") {
			t.Errorf("%s: unknown key accepted or badly reported: %v", name, err)
		}
	}
	_, err := New("boxd", nil)
	var nf *strictcfg.NotFoundError
	if !errors.As(err, &nf) || nf.Name != "boxd" || nf.Suggestion != "boxed" || !strings.Contains(err.Error(), "did you mean 'boxed'?") {
		t.Errorf("unknown extractor: %v", err)
	}
}

func TestRegisteredExtractors(t *testing.T) {
	want := []string{"boxed", "code_block", "gsm8k", "last_line", "last_number", "multiple_choice",
		"numeric", "pattern_answer", "raw", "regex", "tag_based", "tail"}
	got := Names()
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("extractor %q not registered (have %v)", w, got)
		}
	}
	for _, name := range want {
		cfg := map[string]any{}
		if name == "regex" {
			cfg["pattern"] = `(\d+)`
		}
		ex := mustExtractor(t, name, cfg)
		if ex.Name() != name {
			t.Errorf("NewExtractor(%q).Name() = %q", name, ex.Name())
		}
		// The zero extraction (no response at all) must describe cleanly.
		if m := ex.Describe(Extraction{}); m["found"] != false {
			t.Errorf("%s.Describe(Extraction{}) = %v", name, m)
		}
	}
}

// A group_index the pattern does not have is llenvs' "Group N not found in
// match" whenever the pattern matches, and a plain miss when it does not.
func TestRegexMissingGroup(t *testing.T) {
	for _, idx := range []int{5, -1} {
		e, err := New("regex", map[string]any{"pattern": `(\d+)`, "group_index": idx})
		if err != nil {
			t.Fatalf("group_index %d: %v", idx, err)
		}
		x := e.Extract("123")
		want := map[string]any{"found": false, "pattern": `(\d+)`, "error": fmt.Sprintf("Group %d not found in match", idx)}
		if got := e.Describe(x); x.Found || !reflect.DeepEqual(got, want) {
			t.Errorf("group_index %d on a match: found=%v, %v; want %v", idx, x.Found, got, want)
		}
		x = e.Extract("no digits")
		if got := e.Describe(x); x.Found || !reflect.DeepEqual(got, map[string]any{"found": false, "pattern": `(\d+)`}) {
			t.Errorf("group_index %d without a match: %v", idx, got)
		}
	}
}
