package clean

import (
	"reflect"
	"strings"
	"testing"
)

func TestCleaners(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       Cleaner
		in, out string
	}{
		{"special", StripSpecialTokens, "<s>Hello<|im_end|></s>", "Hello"},
		{"special", StripSpecialTokens, "a<|endoftext|>b<|im_start|>c<pad>d", "abcd"},
		{"special", StripSpecialTokens, "keep <|eot_id|> and <b>", "keep <|eot_id|> and <b>"},
		{"special", StripSpecialTokens, "<<s>s>", "<s>"},
		{"special", StripSpecialTokens, "", ""},
		{"special", StripSpecialTokens, "\xff<s>\xfe", "\xff\xfe"},
		{"thinking", StripThinkingTokens, "<think>hmm</think>Answer", "Answer"},
		{"thinking", StripThinkingTokens, "a<think>1</think>b<think>2</think>c", "abc"},
		{"thinking", StripThinkingTokens, "<think>multi\nline</think>\n42", "\n42"},
		{"thinking", StripThinkingTokens, "ok <think>truncated reasoning", "ok "},
		{"thinking", StripThinkingTokens, "reasoning from the prompt</think>42", "42"},
		{"thinking", StripThinkingTokens, "a</think>b</think>c", "b</think>c"},
		{"thinking", StripThinkingTokens, "<think>x</think>y</think>z", "z"},
		{"thinking", StripThinkingTokens, "<thi<think>x</think>nk>tail", ""},
		{"thinking", StripThinkingTokens, "<THINK>x</THINK>", "<THINK>x</THINK>"},
		{"thinking", StripThinkingTokens, "", ""},
		{"punct", StripTrailingPunctuation, "42.", "42"},
		{"punct", StripTrailingPunctuation, "1.", "1"},
		{"punct", StripTrailingPunctuation, "3.14", "3.14"},
		{"punct", StripTrailingPunctuation, "a,", "a"},
		{"punct", StripTrailingPunctuation, "a..", "a."},
		{"punct", StripTrailingPunctuation, "a. ", "a. "},
		{"punct", StripTrailingPunctuation, "", ""},
		{"quotes", StripSurroundingQuotes, `"x"`, "x"},
		{"quotes", StripSurroundingQuotes, `'x'`, "x"},
		{"quotes", StripSurroundingQuotes, `""`, ""},
		{"quotes", StripSurroundingQuotes, `"`, `"`},
		{"quotes", StripSurroundingQuotes, `"x'`, `"x'`},
		{"quotes", StripSurroundingQuotes, `"é"`, "é"},
		{"dollars", StripLatexDollars, "$$x^2$$", "x^2"},
		{"dollars", StripLatexDollars, "$x$", "x"},
		{"dollars", StripLatexDollars, "$x$\n", "x"},
		{"dollars", StripLatexDollars, "$$a$$b$$", "a$$b"},
		{"dollars", StripLatexDollars, "$a$b$", "$a$b$"},
		{"dollars", StripLatexDollars, "$$", "$$"},
		{"dollars", StripLatexDollars, "$$$$", "$$$$"},
		{"dollars", StripLatexDollars, "$$$$$", "$"},
		{"dollars", StripLatexDollars, "$\n$", "\n"},
		{"dollars", StripLatexDollars, "x$", "x$"},
		{"truncate", TruncateTail(3), "  abcdef \n", "def"},
		{"truncate", TruncateTail(3), "éü", "éü"},
		{"truncate", TruncateTail(2), "日本語", "本語"},
		{"first line", TakeFirstNonemptyLine(0), "\n\n  go north  \nI refuse", "go north"},
		{"first line, all blank", TakeFirstNonemptyLine(0), " \n\t\n", ""},
		{"first line, cut", TakeFirstNonemptyLine(8), "\nsearch[red headphones]\nclick[Buy Now]", "search[r"},
		{"first line, code points", TakeFirstNonemptyLine(2), "\r\n日本語\n", "日本"},
		{"first line, python line breaks", TakeFirstNonemptyLine(0), "\u2028 \x1c look\u0085x", "look"},
		{"first line, empty", TakeFirstNonemptyLine(3), "", ""},
	} {
		if got := c.f(c.in); got != c.out {
			t.Errorf("%s(%q) = %q, want %q", c.name, c.in, got, c.out)
		}
	}
}

func TestResolveCleaners(t *testing.T) {
	cs, err := Resolve("pre", []any{"strip_thinking_tokens", "strip_special_tokens",
		map[string]any{"type": "truncate_tail", "config": map[string]any{"max_chars": 4}}})
	if err != nil {
		t.Fatal(err)
	}
	got := "<think>x</think>abc<s>defgh"
	for _, c := range cs {
		got = c(got)
	}
	if got != "efgh" {
		t.Errorf("pre chain = %q", got)
	}
	if cs, err := Resolve("post", []any{map[string]any{"type": "truncate_tail"}}); err != nil || cs[0](strings.Repeat("x", 300)) != strings.Repeat("x", 256) {
		t.Errorf("truncate_tail default: %v", err)
	}
	if cs, err := Resolve("post", nil); err != nil || len(cs) != 0 {
		t.Errorf("nil list: %v %v", cs, err)
	}
	for _, c := range []struct {
		kind string
		spec []any
		want []string
	}{
		{"pre", []any{"strip_special"}, []string{"pre_cleaners[0]", "unknown pre-cleaner 'strip_special'", "did you mean 'strip_special_tokens'?", "Available: ['strip_special_tokens', 'strip_thinking_tokens']"}},
		{"pre", []any{"strip_special_tokens", "strip_latex_dollars"}, []string{"pre_cleaners[1]", "it is a post-cleaner"}},
		{"post", []any{"truncate_tail"}, []string{"post_cleaners[0]", "{'type': 'truncate_tail'"}},
		{"post", []any{42.0}, []string{"post_cleaners[0]", "want a cleaner name or a mapping"}},
		{"post", []any{"strip_trailing_punctuation", []any{"x"}}, []string{"post_cleaners[1]", "a list"}},
		{"pre", []any{map[string]any{"config": map[string]any{}}}, []string{"pre_cleaners[0]", `"type" is required`}},
		{"pre", []any{map[string]any{"type": "truncate_tail", "cfg": 1}}, []string{"pre_cleaners[0]", "unknown key 'cfg'", "Valid keys: ['config', 'type']"}},
		{"pre", []any{map[string]any{"type": "truncate_tial"}}, []string{"unknown parameterized cleaner", "did you mean 'truncate_tail'?"}},
		{"pre", []any{map[string]any{"type": "strip_special_tokens"}}, []string{"write it as a plain name"}},
		{"pre", []any{map[string]any{"type": "truncate_tail", "config": map[string]any{"max_chars": 0}}}, []string{"max_chars", "at least 1"}},
		{"pre", []any{map[string]any{"type": "take_first_nonempty_line", "config": map[string]any{"max_chars": 0}}}, []string{"max_chars", "at least 1"}},
		{"pre", []any{map[string]any{"type": "take_first_nonempty_line", "config": map[string]any{"max_char": 5}}}, []string{"unknown key 'max_char'", "did you mean 'max_chars'?"}},
		{"pre", []any{map[string]any{"type": "truncate_tail", "config": map[string]any{"max": 5}}}, []string{"unknown key 'max'"}},
		{"sideways", nil, []string{"invalid cleaner kind"}},
	} {
		_, err := Resolve(c.kind, c.spec)
		if err == nil {
			t.Errorf("%s %v: no error", c.kind, c.spec)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s %v: error %q does not mention %q", c.kind, c.spec, err, w)
			}
		}
	}
	if got, want := Names("post"), []string{"strip_latex_dollars", "strip_surrounding_quotes", "strip_trailing_punctuation"}; !reflect.DeepEqual(got, want) {
		t.Errorf("CleanerNames(post) = %v", got)
	}
	if Names("x") != nil {
		t.Error("CleanerNames(x) not nil")
	}
}
