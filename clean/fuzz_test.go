package clean

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/pycompat"
)

// cleanSeeds are texts of the shapes cleaners meet: model responses with
// special and thinking tokens, and extracted answers with punctuation,
// quotes and LaTeX dollars.
var cleanSeeds = []string{
	"<|im_start|>assistant\n<answer>42</answer><|im_end|><|endoftext|>",
	"<s>x</s><pad><pad><|eot_id|>",
	"<<|im_end|>s>",
	"<think>let me see</think>The answer is 7.",
	"<think>a</think>b<think>c",
	"reasoning in the prompt</think><answer>3</answer>",
	"</think></think><think>",
	"42.", "3.14", "1,", "..", "\"quoted\"", "'q'", "\"", "'mismatch\"",
	"$$x^2$$", "$\\frac{1}{2}$", "$$", "$a$b$", "$x$\n", "$$y$$\n",
	"", "   ", "\u00a0\u2003 caf\u00e9 \u3000", "\xff\xfe\xc3", "\x00<s>\x00",
}

// specialTokenRE matches the tokens strip_special_tokens removes.
var specialTokenRE = regexp.MustCompile(`<\|endoftext\|>|<\|im_end\|>|<\|im_start\|>|<pad>|</s>|<s>`)

// FuzzCleaners checks each cleaner's contract on arbitrary text.
func FuzzCleaners(f *testing.F) {
	for _, s := range cleanSeeds {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		valid := utf8.ValidString(s)
		check := func(name, out string) {
			if len(out) > len(s) {
				t.Fatalf("%s(%q) = %q grew the text", name, s, out)
			}
			if valid && !utf8.ValidString(out) {
				t.Fatalf("%s(%q) = %q is not valid UTF-8", name, s, out)
			}
		}
		out := StripSpecialTokens(s)
		check("strip_special_tokens", out)
		if !strings.ContainsRune(s, '<') && out != s {
			t.Fatalf("strip_special_tokens changed %q, which has no token", s)
		}
		// One left-to-right pass that removes whole tokens is what a
		// regular expression's ReplaceAll does.
		if want := specialTokenRE.ReplaceAllString(s, ""); out != want {
			t.Fatalf("strip_special_tokens(%q) = %q, want %q", s, out, want)
		}

		out = StripThinkingTokens(s)
		check("strip_thinking_tokens", out)
		if !strings.Contains(s, "think>") && out != s {
			t.Fatalf("strip_thinking_tokens changed %q, which has no tag", s)
		}
		if strings.Contains(out, "<think>") {
			t.Fatalf("strip_thinking_tokens(%q) = %q kept an opening tag", s, out)
		}

		out = StripTrailingPunctuation(s)
		check("strip_trailing_punctuation", out)
		if !strings.HasPrefix(s, out) || len(s)-len(out) > 1 {
			t.Fatalf("strip_trailing_punctuation(%q) = %q", s, out)
		}

		out = StripSurroundingQuotes(s)
		check("strip_surrounding_quotes", out)
		if out != s && (len(s)-len(out) != 2 || s[1:len(s)-1] != out) {
			t.Fatalf("strip_surrounding_quotes(%q) = %q", s, out)
		}

		out = StripLatexDollars(s)
		check("strip_latex_dollars", out)
		if out != s && (!strings.Contains(s, out) || out == "") {
			t.Fatalf("strip_latex_dollars(%q) = %q", s, out)
		}

		if n < 1 {
			n = 1 - n%1000
		}
		n = n%10000 + 1
		out = TruncateTail(n)(s)
		check("truncate_tail", out)
		if pycompat.Len(out) > n || !strings.HasSuffix(pycompat.Strip(s), out) {
			t.Fatalf("truncate_tail(%d)(%q) = %q", n, s, out)
		}

		// take_first_nonempty_line keeps a stripped prefix of one line: no line break, no blank result
		// unless every line is blank.
		out = TakeFirstNonemptyLine(n % 50)(s)
		check("take_first_nonempty_line", out)
		if !strings.Contains(s, out) || (n%50 > 0 && pycompat.Len(out) > n%50) ||
			len(pycompat.SplitLines(out)) > 1 || (out == "" && pycompat.Strip(strings.Join(pycompat.SplitLines(s), "")) != "") {
			t.Fatalf("take_first_nonempty_line(%d)(%q) = %q", n%50, s, out)
		}
	})
}

// FuzzResolve resolves arbitrary pre_cleaners/post_cleaners lists given as
// JSON: each list is resolved or refused with an error naming the entry,
// never a panic, and what is resolved runs.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		`["strip_special_tokens", "strip_thinking_tokens"]`,
		`["strip_trailing_punctuation", {"type": "truncate_tail", "config": {"max_chars": 3}}]`,
		`[{"type": "truncate_tail", "config": {"max_chars": 0}}]`,
		`[{"type": "take_first_nonempty_line", "config": {"max_chars": null}}]`,
		`[{"type": "truncate_tail", "config": {"max_chars": 1e300}}]`,
		`[{"type": "truncate_tail", "config": {"max_chars": -9223372036854775808}}]`,
		`[{"type": null}]`, `[{"config": {}}]`, `[{"type": "strip_latex_dollars"}]`, `[null, 1, true, []]`,
		`["strip_special_token"]`, `[{"type": "truncate_tail", "config": [1]}]`,
	} {
		f.Add("pre", s, "<think>x</think> 42.")
		f.Add("post", s, "\"$7$\".")
	}
	f.Fuzz(func(t *testing.T, kind, specsJSON, text string) {
		var specs []any
		if json.Unmarshal([]byte(specsJSON), &specs) != nil {
			return
		}
		cs, err := Resolve(kind, specs)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		if kind != "pre" && kind != "post" {
			t.Fatalf("kind %q resolved", kind)
		}
		if len(cs) != len(specs) {
			t.Fatalf("%d cleaners from %d entries", len(cs), len(specs))
		}
		for _, c := range cs {
			text = c(text)
		}
	})
}
