package bpe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzEncode encodes arbitrary text with small tokenizers of each
// pre-tokenizer (Qwen's, Tekken, o200k, DeepSeek V3's): invalid UTF-8 never
// panics, and valid text decodes back to itself (each id's byte-level
// symbols mapped back to bytes, added tokens to their content), the same
// whether encoded alone, with a cache or in a batch.
func FuzzEncode(f *testing.F) {
	merges := [][2]string{{"l", "l"}, {"Ġ", "w"}, {"h", "e"}, {"he", "ll"}, {"Ġw", "o"}, {"Ġ", "Ġ"}, {"1", "2"}}
	added := []string{"<|im_end|>", "<|im", "<think>"}
	var toks []*Tokenizer
	for _, data := range [][]byte{tiny(f, qwenPattern, merges, added, nil), tiny(f, tekkenPattern, merges, added, noNormalizer),
		tiny(f, o200kPattern, merges, added, noNormalizer), tiny(f, "", merges, added, deepseekSequence),
		tiny(f, qwenPattern, merges, append(added, "[TOOL_CALLS]"), nil)} { // added tokens with two first bytes
		tok, err := Load(data)
		if err != nil {
			f.Fatal(err)
		}
		toks = append(toks, tok)
	}
	symbol := map[int32]string{} // the same vocabulary in each, and the same ids for the same added tokens
	for s, id := range toks[0].vocab {
		symbol[id] = s
	}
	for _, tok := range toks {
		for _, a := range tok.added {
			symbol[a.id] = "\x00added:" + a.content
		}
	}
	byteOf := map[string]byte{}
	for b, s := range byteSymbols {
		byteOf[s] = byte(b)
	}
	decode := func(ids []int32) (string, bool) {
		var b strings.Builder
		for _, id := range ids {
			s, ok := symbol[id]
			if !ok {
				return "", false
			}
			if c, added := strings.CutPrefix(s, "\x00added:"); added {
				b.WriteString(c)
				continue
			}
			for _, r := range s {
				c, ok := byteOf[string(r)]
				if !ok {
					return "", false
				}
				b.WriteByte(c)
			}
		}
		return b.String(), true
	}
	for _, s := range []string{"hello world", "hello wo<|im_end|>ll<|im", "<think>\n12 345\n</think>", "  \n\n\t x's 'LL",
		"caf\u00e9 \u65e5\u672c\u8a9e \U0001f600", "\xff\xfe\xc3", "", "1234567890", "<|im<|im_end|>", "x[TOOL_CALLS]<think>[TOOL"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, tok := range toks {
			checkEncode(t, tok, text, decode)
		}
	})
}

func checkEncode(t *testing.T, tok *Tokenizer, text string, decode func([]int32) (string, bool)) {
	t.Helper()
	ids := tok.Encode(nil, text, nil)
	if !utf8.ValidString(text) {
		return
	}
	back, ok := decode(ids)
	if !ok || back != text {
		t.Fatalf("Encode(%q) = %v decodes to %q (%v)", text, ids, back, ok)
	}
	cached := tok.Encode(nil, text, Cache{})
	all, offs := tok.EncodeAll([]string{text, "x", text})
	if len(cached) != len(ids) || len(offs) != 4 || int(offs[1]) != len(ids) {
		t.Fatalf("cache or batch disagree: %v %v %v", cached, all, offs)
	}
	for i := range ids {
		if cached[i] != ids[i] || all[i] != ids[i] || all[int(offs[2])+i] != ids[i] {
			t.Fatalf("cache or batch disagree at %d: %v %v %v", i, ids, cached, all)
		}
	}
}

// FuzzLoad reads arbitrary tokenizer.json bytes: a file is loaded or
// refused with an error, never a panic.
func FuzzLoad(f *testing.F) {
	good := tiny(f, qwenPattern, [][2]string{{"h", "e"}}, []string{"<|im_end|>"}, nil)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a a", ["a", "a"], "x", 1]}}`))
	f.Add([]byte(`{"model": {"type": "BPE", "vocab": {"a": -5}, "merges": []}, "added_tokens": [{"id": -1, "content": ""}]}`))
	f.Add([]byte(`{"pre_tokenizer": {"type": "Sequence", "pretokenizers": []}, "model": {"type": "BPE"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tok, err := Load(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		_ = tok.Encode(nil, "hello <|im_end|> 123 \xff", nil)
	})
}
