package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/extract"
	"github.com/llenvs/llenvs-go/strictcfg"
)

// decodeRequest turns a JSON request into the map the exports decode, with
// integers as int64 as the library's codec gives them.
func decodeRequest(t *testing.T, req string) map[string]any {
	t.Helper()
	m, err := decodeObject([]byte(req))
	if err != nil {
		t.Fatalf("bad test request %s: %v", req, err)
	}
	return m
}

type extractItem struct {
	Answer   *string        `json:"answer"`
	Metadata map[string]any `json:"metadata"`
}

// splitTexts takes the "texts" list out of a test request: the rest is the
// JSON spec of llenvs_extract_texts or llenvs_clean_texts.
func splitTexts(t *testing.T, req string) ([]byte, []string) {
	t.Helper()
	m := decodeRequest(t, req)
	texts := []string{}
	if v, ok := m["texts"]; ok {
		for _, x := range v.([]any) {
			texts = append(texts, x.(string))
		}
		delete(m, "texts")
	}
	spec, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return spec, texts
}

// extractItems is what llenvs_extract_texts gives for texts under spec,
// read back from its batch before export.
func extractItems(spec []byte, texts []string) ([]extractItem, error) {
	ex, err := decodeExtractor(spec)
	if err != nil {
		return nil, err
	}
	batch, err := extractedBatch(ex, texts)
	if err != nil {
		return nil, err
	}
	defer batch.free()
	items := make([]extractItem, len(texts))
	for i := range items {
		items[i].Answer = utf8At(batch.children[0], i)
		m := utf8At(batch.children[1], i)
		if m == nil {
			return nil, errors.New("metadata is null")
		}
		if err := json.Unmarshal([]byte(*m), &items[i].Metadata); err != nil {
			return nil, fmt.Errorf("metadata %q is not a JSON object: %w", *m, err)
		}
	}
	return items, nil
}

func runExtract(t *testing.T, req string) []extractItem {
	t.Helper()
	items, err := extractItems(splitTexts(t, req))
	if err != nil {
		t.Fatalf("extract %s: %v", req, err)
	}
	return items
}

// cleanTexts is what llenvs_clean_texts gives for texts under spec.
func cleanTexts(spec []byte, texts []string) ([]string, error) {
	cs, err := decodeCleaners(spec)
	if err != nil {
		return nil, err
	}
	batch, err := cleanedBatch(cs, texts)
	if err != nil {
		return nil, err
	}
	defer batch.free()
	out := make([]string, len(texts))
	for i := range out {
		out[i] = *utf8At(batch.children[0], i)
	}
	return out, nil
}

func ptr(s string) *string { return &s }

func TestCallExtract(t *testing.T) {
	tests := []struct {
		name  string
		req   string
		want  []*string
		metas []map[string]any // keys checked when not nil
	}{
		{"tag last match", `{"extractor": {"type": "tag_based"}, "texts": ["<answer>1</answer> <ANSWER> 2 </answer>", "none", "<answer></answer>"]}`,
			[]*string{ptr("2"), nil, ptr("")},
			[]map[string]any{{"found": true, "num_matches": 2.0, "tag_name": "answer"}, {"found": false, "tag_name": "answer"}, {"found": true}}},
		{"config passed through", `{"extractor": {"type": "tag_based", "config": {"tag_name": "final", "strip_whitespace": false}}, "texts": ["<final> x </final>"]}`,
			[]*string{ptr(" x ")}, []map[string]any{{"tag_name": "final"}}},
		{"composite list", `{"extractor": [{"type": "boxed"}, {"type": "numeric"}], "texts": ["\\boxed{7}", "it is 12", "nothing"]}`,
			[]*string{ptr("7"), ptr("12"), nil},
			[]map[string]any{{"extractor_index": 0.0, "extractor_type": "BoxedExtractor"},
				{"extractor_index": 1.0, "extractor_type": "NumericExtractor"},
				{"found": false, "tried_extractors": []any{"BoxedExtractor", "NumericExtractor"}}}},
		{"one-element list is a composite", `{"extractor": [{"type": "raw"}], "texts": [" a "]}`,
			[]*string{ptr("a")}, []map[string]any{{"extractor_index": 0.0, "extractor_type": "RawGenerationExtractor"}}},
		{"cleaners wrap", `{"extractor": {"type": "tag_based"}, "pre_cleaners": ["strip_thinking_tokens"], "post_cleaners": ["strip_trailing_punctuation"], "texts": ["<think><answer>1</answer></think><answer>42.</answer>", "x"]}`,
			[]*string{ptr("42"), nil},
			[]map[string]any{{"pre_cleaners_applied": true, "post_cleaners_applied": true, "num_matches": 1.0},
				{"found": false, "pre_cleaners_applied": true, "post_cleaners_applied": true}}},
		{"null and empty cleaners do not wrap", `{"extractor": {"type": "raw"}, "pre_cleaners": [], "post_cleaners": null, "texts": ["x"]}`,
			[]*string{ptr("x")}, []map[string]any{{"found": true, "format": "raw", "is_full_response": true}}},
		{"parameterized cleaner", `{"extractor": {"type": "raw"}, "post_cleaners": [{"type": "truncate_tail", "config": {"max_chars": 2}}], "texts": ["abcdef"]}`,
			[]*string{ptr("ef")}, nil},
		{"no texts", `{"extractor": {"type": "gsm8k"}, "texts": []}`, []*string{}, nil},
		{"texts missing", `{"extractor": {"type": "gsm8k"}}`, []*string{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := runExtract(t, tt.req)
			if len(items) != len(tt.want) {
				t.Fatalf("got %d items, want %d", len(items), len(tt.want))
			}
			for i, it := range items {
				if (it.Answer == nil) != (tt.want[i] == nil) || (it.Answer != nil && *it.Answer != *tt.want[i]) {
					t.Errorf("item %d: answer %v, want %v", i, show(it.Answer), show(tt.want[i]))
				}
				if tt.metas == nil {
					continue
				}
				for k, v := range tt.metas[i] {
					if !reflect.DeepEqual(it.Metadata[k], v) {
						t.Errorf("item %d: metadata[%q] = %#v, want %#v (all: %v)", i, k, it.Metadata[k], v, it.Metadata)
					}
				}
			}
		})
	}
}

func show(s *string) string {
	if s == nil {
		return "None"
	}
	return "\"" + *s + "\""
}

func TestCallExtractErrors(t *testing.T) {
	tests := []struct {
		name     string
		req      string
		notFound bool
		contains []string
	}{
		{"unknown extractor", `{"extractor": {"type": "taggd"}, "texts": []}`, true, []string{`'taggd' not found`, "tag_based", "Available"}},
		{"unknown in chain", `{"extractor": [{"type": "boxed"}, {"type": "nope"}], "texts": []}`, true, []string{"answer_extractors[1]", "Available"}},
		{"native", `{"extractor": {"type": "native"}, "texts": []}`, false, []string{"NativeExtractor", "tag_based"}},
		{"native in chain", `{"extractor": [{"type": "native"}], "texts": []}`, false, []string{"extractor[0]", "NativeExtractor"}},
		{"missing type", `{"extractor": {"config": {}}, "texts": []}`, false, []string{`"type" is required`, "boxed"}},
		{"missing extractor", `{"texts": ["x"]}`, false, []string{`"extractor" is required`}},
		{"wrong extractor shape", `{"extractor": "tag_based", "texts": []}`, false, []string{"must be"}},
		{"bad config key", `{"extractor": {"type": "tail", "config": {"max_char": 3}}, "texts": []}`, false, []string{`did you mean 'max_chars'`}},
		{"bad spec key", `{"extractr": {"type": "raw"}}`, false, []string{`did you mean 'extractor'`}},
		{"empty chain", `{"extractor": [], "texts": []}`, false, []string{"empty"}},
		{"unknown cleaner", `{"extractor": {"type": "raw"}, "pre_cleaners": ["strip_tokens"], "texts": []}`, false, []string{"strip_special_tokens", "Available"}},
		{"cleaner of the wrong kind", `{"extractor": {"type": "raw"}, "pre_cleaners": ["strip_latex_dollars"], "texts": []}`, false, []string{"post-cleaner"}},
		{"bad regex", `{"extractor": {"type": "regex", "config": {"pattern": "(?<=a)b"}}, "texts": []}`, false, []string{"RE2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := extractItems(splitTexts(t, tt.req))
			if err == nil {
				t.Fatal("no error")
			}
			var nf *strictcfg.NotFoundError
			if errors.As(err, &nf) != tt.notFound {
				t.Errorf("NotFoundError = %v, want %v (%v)", !tt.notFound, tt.notFound, err)
			}
			for _, c := range tt.contains {
				if !strings.Contains(err.Error(), c) {
					t.Errorf("error %q does not contain %q", err, c)
				}
			}
		})
	}
}

// TestSpecsTakeNoTexts checks that texts in a spec are refused: they
// cross as columns.
func TestSpecsTakeNoTexts(t *testing.T) {
	if _, err := decodeExtractor([]byte(`{"extractor": {"type": "raw"}, "texts": ["x"]}`)); err == nil ||
		!strings.Contains(err.Error(), "texts") {
		t.Errorf("extract spec with texts: %v", err)
	}
	if _, err := decodeCleaners([]byte(`{"kind": "pre", "cleaners": [], "texts": ["x"]}`)); err == nil ||
		!strings.Contains(err.Error(), "texts") {
		t.Errorf("clean spec with texts: %v", err)
	}
	if _, err := decodeCleaners([]byte(`{"kind": "pre"`)); err == nil {
		t.Error("malformed clean spec: no error")
	}
}

// TestCallExtractAgreesWithEnvironment checks that the extract method
// reports what an environment configured the same way reports when it
// scores the text.
func TestCallExtractAgreesWithEnvironment(t *testing.T) {
	texts := []string{"", "<answer>4</answer>", "<Answer> 7. </ANSWER> and \\boxed{x^{2}}", "#### 1,234", "A) no\nB. yes",
		"line one\r\nline two\r\n", "```py\nprint(1)\n```", "The answer is 3.14.", "<think>x</think><|im_end|>\"q\"", "é – 𝄞 <answer>ü</answer>"}
	configs := []struct {
		name      string
		extractor string
		envFields map[string]any
		pre, post string
	}{
		{"default", `{"type": "tag_based"}`, map[string]any{}, `null`, `null`},
		{"tail", `{"type": "tail", "config": {"max_chars": 5}}`, map[string]any{"answer_extractor": "tail", "answer_extractor_config": map[string]any{"max_chars": int64(5)}}, `null`, `null`},
		{"chain", `[{"type": "gsm8k"}, {"type": "multiple_choice", "config": {"choices": "AB"}}, {"type": "last_line"}]`,
			map[string]any{"answer_extractors": []any{map[string]any{"type": "gsm8k"},
				map[string]any{"type": "multiple_choice", "config": map[string]any{"choices": "AB"}}, map[string]any{"type": "last_line"}}}, `null`, `null`},
		{"cleaned", `{"type": "pattern_answer"}`, map[string]any{"answer_extractor": "pattern_answer",
			"pre_cleaners": []any{"strip_thinking_tokens", "strip_special_tokens"}, "post_cleaners": []any{"strip_surrounding_quotes", "strip_trailing_punctuation"}},
			`["strip_thinking_tokens", "strip_special_tokens"]`, `["strip_surrounding_quotes", "strip_trailing_punctuation"]`},
	}
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			ex0, err := decodeExtractor([]byte(`{"extractor": ` + c.extractor + `, "pre_cleaners": ` + c.pre + `, "post_cleaners": ` + c.post + `}`))
			if err != nil {
				t.Fatal(err)
			}
			batch, err := extractedBatch(ex0, texts)
			if err != nil {
				t.Fatal(err)
			}
			defer batch.free()
			raw := map[string]any{"name": "leg_counting", "seed": int64(1), "size": int64(5)}
			for k, v := range c.envFields {
				raw[k] = v
			}
			ec, err := core.DecodeEnvConfig(raw)
			if err != nil {
				t.Fatal(err)
			}
			env, err := core.NewEnvironment(ec)
			if err != nil {
				t.Fatal(err)
			}
			st := env.(core.SingleTurn)
			outs := make([]core.Scored, len(texts))
			core.ScoreBatch(st, make([]int64, len(texts)), texts, outs)
			ex := env.(interface{ Extractor() extract.Extractor }).Extractor()
			for i := range outs {
				var want *string
				if outs[i].Extraction.Found {
					want = &outs[i].Extraction.Answer
				}
				if got := utf8At(batch.children[0], i); show(got) != show(want) {
					t.Errorf("text %d: extract gave answer %s, the environment %s", i, show(got), show(want))
				}
				wantMeta := string(appendJSON(nil, ex.Describe(outs[i].Extraction)))
				if got := *utf8At(batch.children[1], i); got != wantMeta {
					t.Errorf("text %d: extract gave metadata %s, the environment %s", i, got, wantMeta)
				}
			}
		})
	}
}

func TestCallClean(t *testing.T) {
	tests := []struct {
		name string
		req  string
		want []string
	}{
		{"special tokens", `{"kind": "pre", "cleaners": ["strip_special_tokens"], "texts": ["<s>a</s><|eot_id|>", ""]}`, []string{"a<|eot_id|>", ""}},
		{"thinking then special", `{"kind": "pre", "cleaners": ["strip_thinking_tokens", "strip_special_tokens"], "texts": ["<think>x</think>y<pad>", "a</think>b"]}`, []string{"y", "b"}},
		{"post chain in order", `{"kind": "post", "cleaners": ["strip_latex_dollars", "strip_surrounding_quotes", "strip_trailing_punctuation"], "texts": ["$'42.'$", "3.14", "1.", "\"a\""]}`,
			[]string{"42", "3.14", "1", "a"}},
		{"truncate_tail in either list", `{"kind": "pre", "cleaners": [{"type": "truncate_tail", "config": {"max_chars": 3}}], "texts": ["  abcdé  "]}`, []string{"cdé"}},
		{"truncate_tail default", `{"kind": "post", "cleaners": [{"type": "truncate_tail"}], "texts": ["x"]}`, []string{"x"}},
		{"no cleaners", `{"kind": "post", "cleaners": [], "texts": [" a. "]}`, []string{" a. "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cleanTexts(splitTexts(t, tt.req))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCallCleanErrors(t *testing.T) {
	tests := []struct {
		name     string
		req      string
		contains []string
	}{
		{"bad kind", `{"kind": "middle", "cleaners": [], "texts": []}`, []string{`invalid cleaner kind "middle"`, "strip_special_tokens", "strip_latex_dollars", "truncate_tail"}},
		{"missing kind", `{"cleaners": [], "texts": []}`, []string{`invalid cleaner kind ""`}},
		{"unknown name", `{"kind": "post", "cleaners": ["strip_quotes"], "texts": []}`, []string{"unknown post-cleaner", "Available", "strip_surrounding_quotes"}},
		{"wrong kind", `{"kind": "post", "cleaners": ["strip_special_tokens"], "texts": []}`, []string{"it is a pre-cleaner"}},
		{"unknown parameterized", `{"kind": "pre", "cleaners": [{"type": "truncate"}], "texts": []}`, []string{"unknown parameterized cleaner", "truncate_tail"}},
		{"bad parameter", `{"kind": "pre", "cleaners": [{"type": "truncate_tail", "config": {"max_chars": 0}}], "texts": []}`, []string{"max_chars"}},
		{"not a name", `{"kind": "pre", "cleaners": [3], "texts": []}`, []string{"want a cleaner name"}},
		{"unknown key", `{"kind": "pre", "cleaner": [], "texts": []}`, []string{`did you mean 'cleaners'`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cleanTexts(splitTexts(t, tt.req))
			if err == nil {
				t.Fatal("no error")
			}
			for _, c := range tt.contains {
				if !strings.Contains(err.Error(), c) {
					t.Errorf("error %q does not contain %q", err, c)
				}
			}
		})
	}
}
