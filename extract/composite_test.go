package extract

import (
	"reflect"
	"strings"
	"testing"
)

func TestComposite(t *testing.T) {
	ex, err := NewCompositeFromSpecs([]any{
		map[string]any{"type": "tag_based"},
		map[string]any{"type": "boxed", "config": map[string]any{}},
		map[string]any{"type": "multiple_choice", "config": map[string]any{"choices": "ABCD"}},
		map[string]any{"type": "numeric"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, answer string
		index        int
		typ          string
	}{
		{`<answer>7</answer> \boxed{8}`, "7", 0, "TagBasedExtractor"},
		{`\boxed{8} (B) 9`, "8", 1, "BoxedExtractor"},
		{"(B) 9", "B", 2, "MultipleChoiceExtractor"},
		{"just 9", "9", 3, "NumericExtractor"},
		// "" is a successful extraction and stops the chain.
		{`<answer></answer> 9`, "", 0, "TagBasedExtractor"},
	} {
		x := ex.Extract(c.text)
		if !x.Found || x.Answer != c.answer {
			t.Errorf("Extract(%q) = %+v, want %q", c.text, x, c.answer)
			continue
		}
		m := ex.Describe(x)
		if m["extractor_index"] != c.index || m["extractor_type"] != c.typ || m["found"] != true {
			t.Errorf("Describe(%q) = %v, want index %d type %s", c.text, m, c.index, c.typ)
		}
		if _, leaked := m[compositeIndexKey]; leaked {
			t.Errorf("Describe(%q) leaks the internal key", c.text)
		}
	}
	// The winner's own extra metadata survives.
	m := ex.Describe(ex.Extract("(C)"))
	if m["pattern_used"] != `\(([ABCD])\)` || m["format"] != "multiple_choice" {
		t.Errorf("Describe((C)) = %v", m)
	}
	x := ex.Extract("nothing at all")
	if x.Found {
		t.Errorf("Extract(nothing) = %+v", x)
	}
	want := map[string]any{"found": false, "tried_extractors": []any{"TagBasedExtractor", "BoxedExtractor", "MultipleChoiceExtractor", "NumericExtractor"}}
	if got := ex.Describe(x); !reflect.DeepEqual(got, want) {
		t.Errorf("Describe(nothing) = %v, want %v", got, want)
	}
	if ex.Name() != "composite" {
		t.Errorf("Name = %q", ex.Name())
	}
}

func TestCompositeTailExtra(t *testing.T) {
	// An extractor whose result carries Extra (tail) keeps it through the
	// chain.
	ex, err := NewCompositeFromSpecs([]any{
		map[string]any{"type": "boxed"},
		map[string]any{"type": "tail", "config": map[string]any{"max_chars": 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := ex.Describe(ex.Extract("abc"))
	want := map[string]any{"found": true, "format": "tail", "truncated": true, "max_chars": 2, "original_length": 3,
		"extractor_index": 1, "extractor_type": "TailExtractor"}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("Describe = %v, want %v", m, want)
	}
}

func TestCompositeErrors(t *testing.T) {
	for _, c := range []struct {
		specs []any
		want  []string
	}{
		{[]any{}, []string{"empty"}},
		{[]any{map[string]any{"type": "boxed"}, map[string]any{"config": map[string]any{}}}, []string{"answer_extractors[1]", `"type" is required`}},
		{[]any{map[string]any{"type": "boxed", "cfg": map[string]any{}}}, []string{"answer_extractors[0]", "unknown key 'cfg'"}},
		{[]any{map[string]any{"type": "native"}}, []string{"answer_extractors[0]", "native extraction is not available in the Go core"}},
		{[]any{map[string]any{"type": "boxd"}}, []string{"answer_extractors[0]", "did you mean 'boxed'?"}},
		{[]any{map[string]any{"type": "regex", "config": map[string]any{"pattern": "(?=x)"}}}, []string{"answer_extractors[0]", "invalid pattern"}},
		{[]any{map[string]any{"type": "boxed", "config": map[string]any{"strip": true}}}, []string{"answer_extractors[0]", "unknown key 'strip'"}},
		{[]any{"boxed"}, []string{"answer_extractors[0]", "want a mapping"}},
		{[]any{map[string]any{"type": 3}}, []string{"answer_extractors[0]", "want a string"}},
		{[]any{map[string]any{"type": "boxed", "config": "x"}}, []string{"answer_extractors[0]", "config"}},
	} {
		_, err := NewCompositeFromSpecs(c.specs)
		if err == nil {
			t.Errorf("%v: no error", c.specs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not mention %q", c.specs, err, w)
			}
		}
	}
}
