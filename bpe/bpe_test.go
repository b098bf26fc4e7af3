package bpe

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

const qwenPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

const (
	tekkenPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	o200kPattern  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// deepseekSequence makes a tiny tokenizer's pre-tokenizer DeepSeek V3's.
func deepseekSequence(f map[string]any) {
	var splits []any
	for _, re := range deepseekSplits {
		splits = append(splits, map[string]any{"type": "Split", "pattern": map[string]any{"Regex": re},
			"behavior": "Isolated", "invert": false})
	}
	f["pre_tokenizer"] = map[string]any{"type": "Sequence", "pretokenizers": append(splits,
		map[string]any{"type": "ByteLevel", "add_prefix_space": false, "use_regex": false})}
	f["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{}}
}

func noNormalizer(f map[string]any) { f["normalizer"] = nil }

// tiny builds a tokenizer.json over the 256 byte symbols with the given
// merges (in rank order) and added tokens.
func tiny(t testing.TB, pattern string, merges [][2]string, added []string, mutate func(map[string]any)) []byte {
	t.Helper()
	vocab := map[string]int{}
	for _, s := range byteSymbols {
		vocab[s] = len(vocab)
	}
	ms := [][]string{}
	for _, m := range merges {
		vocab[m[0]+m[1]] = len(vocab)
		ms = append(ms, []string{m[0], m[1]})
	}
	at := []map[string]any{}
	for _, a := range added {
		at = append(at, map[string]any{"id": 1000 + len(at), "content": a, "special": true})
	}
	f := map[string]any{
		"normalizer": map[string]any{"type": "NFC"},
		"pre_tokenizer": map[string]any{"type": "Sequence", "pretokenizers": []any{
			map[string]any{"type": "Split", "pattern": map[string]any{"Regex": pattern}, "behavior": "Isolated", "invert": false},
			map[string]any{"type": "ByteLevel", "add_prefix_space": false, "use_regex": false},
		}},
		"added_tokens": at,
		"model":        map[string]any{"type": "BPE", "vocab": vocab, "merges": ms},
	}
	if mutate != nil {
		mutate(f)
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The pre-tokenizer's pieces, as Hugging Face tokenizers splits them with
// Qwen3's pattern.
func TestPieces(t *testing.T) {
	tok, err := Load(tiny(t, qwenPattern, nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text string
		want []string
	}{
		{"Hello world", []string{"Hello", " world"}},
		{"don't I'M we'RE", []string{"don", "'t", " I", "'M", " we", "'RE"}},
		{"a  \n\n  b", []string{"a", "  \n\n", " ", " b"}},
		{"x   y", []string{"x", "  ", " y"}},
		{"12345 6", []string{"1", "2", "3", "4", "5", " ", "6"}},
		{"  end  ", []string{" ", " end", "  "}},
		{"(foo) bar!?\n", []string{"(foo", ")", " bar", "!?\n"}},
		{"tab\tsep", []string{"tab", "\tsep"}},
		{"é中文 🙂!!", []string{"é中文", " 🙂!!"}},
		{"a\r\nb", []string{"a", "\r\n", "b"}},
		{"\u00a0x", []string{"\u00a0x"}},
	}
	for _, tc := range tests {
		var got []string
		for s := tc.text; len(s) > 0; {
			n := tok.piece(s)
			got = append(got, s[:n])
			s = s[n:]
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}

// The pieces of the other patterns (Mistral's Tekken, o200k as gpt-oss has
// it, DeepSeek V3's three splits), as Hugging Face tokenizers splits them
// with each model's tokenizer.json.
func TestPiecesOfOtherPatterns(t *testing.T) {
	texts := []string{"HTTPServer McDonald's", "don't I'M we'RE", "ǅungla ʰa ABc aB", "12345 6", "a!/\n/b",
		"(foo) bar!?\n", "日本・語カタ123x", "#abc \x01x", "  end  ", "é中文 🙂!!", "x\u0301y"}
	tests := []struct {
		name    string
		pattern string
		mutate  func(map[string]any)
		want    [][]string
	}{
		{"tekken", tekkenPattern, noNormalizer, [][]string{
			{"HTTPServer", " Mc", "Donald", "'s"}, {"don", "'t", " I", "'M", " we", "'RE"},
			{"ǅungla", " ʰa", " ABc", " a", "B"}, {"1", "2", "3", "4", "5", " ", "6"}, {"a", "!/\n/", "b"},
			{"(foo", ")", " bar", "!?\n"}, {"日本", "・語カタ", "1", "2", "3", "x"}, {"#abc", " \x01", "x"},
			{" ", " end", "  "}, {"é中文", " 🙂!!"}, {"x\u0301y"}}},
		{"o200k", o200kPattern, noNormalizer, [][]string{
			{"HTTPServer", " Mc", "Donald's"}, {"don't", " I'M", " we'RE"},
			{"ǅungla", " ʰa", " ABc", " a", "B"}, {"123", "45", " ", "6"}, {"a", "!/\n/", "b"},
			{"(foo", ")", " bar", "!?\n"}, {"日本", "・語カタ", "123", "x"}, {"#abc", " \x01", "x"},
			{" ", " end", "  "}, {"é中文", " 🙂!!"}, {"x\u0301y"}}},
		{"deepseek", "", deepseekSequence, [][]string{
			{"HTTPServer", " McDonald", "'s"}, {"don", "'t", " I", "'M", " we", "'RE"},
			{"ǅungla", " ʰa", " ABc", " aB"}, {"123", "45", " ", "6"}, {"a", "!/\n", "/b"},
			{"(foo", ")", " bar", "!?\n"}, {"日本", "・", "語カタ", "123", "x"}, {"#abc", " ", "\x01x"},
			{" ", " end", "  "}, {"é", "中文", " 🙂!!"}, {"x\u0301y"}}},
	}
	for _, tc := range tests {
		tok, err := Load(tiny(t, tc.pattern, nil, nil, tc.mutate))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i, text := range texts {
			var got []string
			for s := text; len(s) > 0; {
				n := tok.piece(s)
				got = append(got, s[:n])
				s = s[n:]
			}
			if !reflect.DeepEqual(got, tc.want[i]) {
				t.Errorf("%s, %q: %q, want %q", tc.name, text, got, tc.want[i])
			}
		}
	}
}

func TestEncode(t *testing.T) {
	merges := [][2]string{{"l", "l"}, {"Ġ", "w"}, {"h", "e"}, {"he", "ll"}, {"Ġw", "o"}}
	data := tiny(t, qwenPattern, merges, []string{"<|im_end|>", "<|im"}, nil)
	tok, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	var f fileJSON
	_ = json.Unmarshal(data, &f)
	id := func(s string) int32 { return f.Model.Vocab[s] }
	got := tok.Encode(nil, "hello wo<|im_end|>ll<|im", Cache{})
	want := []int32{id("hell"), id("o"), id("Ġwo"), 1000, id("ll"), 1001}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	tokens, offs := tok.EncodeAll([]string{"hello", "", "wo"})
	if !reflect.DeepEqual(offs, []int64{0, 2, 2, 4}) || !reflect.DeepEqual(tokens, []int32{id("hell"), id("o"), id("w"), id("o")}) {
		t.Fatalf("EncodeAll: %v %v", tokens, offs)
	}
	// Many texts, encoded in parallel runs: the same ids, in order, as one at a time.
	words := []string{"hello", "", "wo", "ll<|im", " hello wo", "<|im_end|>", "ollehll"}
	for _, n := range []int{63, 64, 1000, 4099} {
		texts := make([]string, n)
		var want []int32
		wantOffs := []int64{0}
		for i := range texts {
			texts[i] = words[i%len(words)] + words[(i/len(words))%len(words)]
			want = tok.Encode(want, texts[i], Cache{})
			wantOffs = append(wantOffs, int64(len(want)))
		}
		got, gotOffs := tok.EncodeAll(texts)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotOffs, wantOffs) {
			t.Fatalf("EncodeAll of %d texts differs from Encode one by one", n)
		}
	}
}

func TestLoadRefusesWhatItDoesNotImplement(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(map[string]any)
		want   string
	}{
		{"wordpiece", func(f map[string]any) { f["model"].(map[string]any)["type"] = "WordPiece" }, "not BPE"},
		{"byte fallback", func(f map[string]any) { f["model"].(map[string]any)["byte_fallback"] = true }, "byte_fallback"},
		{"normalizer", func(f map[string]any) { f["normalizer"] = map[string]any{"type": "Lowercase"} }, "normalizer"},
		{"pattern", func(f map[string]any) {
			f["pre_tokenizer"].(map[string]any)["pretokenizers"].([]any)[0].(map[string]any)["pattern"] = map[string]any{"Regex": `\w+`}
		}, "unknown pre-tokenizer pattern"},
		{"lstrip", func(f map[string]any) {
			f["added_tokens"] = []map[string]any{{"id": 1, "content": "<x>", "lstrip": true}}
		}, "strips"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(tiny(t, qwenPattern, nil, nil, tc.mutate))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := Load([]byte("{")); err == nil {
		t.Fatal("malformed JSON loaded")
	}
}
