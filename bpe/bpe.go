// Package bpe runs byte-level BPE tokenizers (GPT-2 style: Qwen2/Qwen3,
// Llama 3, Mistral's Tekken, gpt-oss's o200k, DeepSeek V3) from a Hugging
// Face tokenizer.json, giving the ids the Hugging Face tokenizer gives
// without its special tokens (add_special_tokens=False).
//
// Only the configuration these models use is accepted: a BPE model without
// dropout, unknown token or byte fallback; no normalizer (or an empty
// sequence of them) or NFC (the caller hands in NFC text); a Split
// pre-tokenizer with one of the known cl100k-, Tekken- or o200k-style
// patterns, or DeepSeek V3's three Splits, followed by ByteLevel without a
// prefix space; added tokens without strip or single-word flags. Load
// reports anything else as an error, and the caller tokenizes with the
// original instead. The patterns' character classes are Go's unicode tables
// (unicode.Version); a code point assigned in a later Unicode version may be
// split otherwise than by the original.
package bpe

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/llenvs/llenvs-go/internal/workers"
)

// Tokenizer is a loaded byte-level BPE tokenizer. It is safe for
// concurrent use.
type Tokenizer struct {
	vocab   map[string]int32
	merges  map[uint64]merge // (left id, right id) -> rank and merged id
	byteIDs [256]int32       // id of each byte's byte-level symbol
	added   []addedToken     // longest first
	first   [256]bool        // bytes that start an added token
	// onlyFirst is the one byte every added token starts with, or -1.
	onlyFirst int
	// trie holds the added tokens, a node per prefix of their bytes; node
	// 0 is the root.
	trie         []trieNode
	split        splitStyle // the pre-tokenizer's pattern
	ignoreMerges bool
	// NFC says whether the tokenizer normalizes to NFC: the caller must
	// hand in NFC text.
	NFC bool
}

// trieNode is a prefix of added tokens: the index in added of the token
// it spells (or -1), and the nodes one byte longer (most have one).
type trieNode struct {
	spells int32
	next   []trieEdge
}

type trieEdge struct {
	b    byte
	node int32
}

// child is the node after n's prefix and b, or -1.
func (n *trieNode) child(b byte) int32 {
	for _, e := range n.next {
		if e.b == b {
			return e.node
		}
	}
	return -1
}

type merge struct {
	rank int32
	id   int32
}

type addedToken struct {
	content string
	id      int32
}

// splitStyle is one of the pre-tokenizer patterns this package implements.
type splitStyle struct {
	// cased: letters are split where a run of capitals meets lower case
	// (the o200k/Tekken patterns); otherwise a word is one run of letters
	// (cl100k).
	cased bool
	// contractions: the cased pattern ends a word with 's, 't, 're, 've,
	// 'm, 'll or 'd (the cl100k pattern makes them pieces of their own).
	contractions bool
	digits       int // the pattern's \p{N}{1,digits}
	// deepseek: DeepSeek V3's sequence of three splits: runs of up to
	// three digits, then runs of CJK ideographs and kana, then its own
	// pattern (deepseekPattern) over each remaining piece.
	deepseek bool
}

// DeepSeek V3's three splits, as its tokenizer.json spells them (the
// character classes hold the characters themselves, CR and LF included).
var deepseekSplits = [3]string{
	`\p{N}{1,3}`,
	"[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+",
	"[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
}

// The pre-tokenizer patterns this package implements.
var patterns = map[string]splitStyle{
	// Qwen2/Qwen3 (cl100k with single digits) and Llama 3 (cl100k).
	`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`:      {digits: 1},
	`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`: {digits: 3},
	// Mistral's Tekken (Mistral Nemo and later).
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`: {cased: true, digits: 1},
	// o200k (gpt-oss, GPT-4o).
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`: {cased: true, contractions: true, digits: 3},
}

type fileJSON struct {
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	AddedTokens  []struct {
		ID         int32  `json:"id"`
		Content    string `json:"content"`
		SingleWord bool   `json:"single_word"`
		Lstrip     bool   `json:"lstrip"`
		Rstrip     bool   `json:"rstrip"`
		Normalized bool   `json:"normalized"`
	} `json:"added_tokens"`
	Model struct {
		Type                    string            `json:"type"`
		Dropout                 *float64          `json:"dropout"`
		UnkToken                *string           `json:"unk_token"`
		ContinuingSubwordPrefix *string           `json:"continuing_subword_prefix"`
		EndOfWordSuffix         *string           `json:"end_of_word_suffix"`
		ByteFallback            bool              `json:"byte_fallback"`
		IgnoreMerges            bool              `json:"ignore_merges"`
		Vocab                   map[string]int32  `json:"vocab"`
		Merges                  []json.RawMessage `json:"merges"`
	} `json:"model"`
}

type preTokenizer struct {
	Type          string          `json:"type"`
	Pretokenizers []preTokenizer  `json:"pretokenizers"`
	Pattern       json.RawMessage `json:"pattern"`
	Behavior      string          `json:"behavior"`
	Invert        bool            `json:"invert"`
	AddPrefix     bool            `json:"add_prefix_space"`
	UseRegex      bool            `json:"use_regex"`
}

// byteSymbols is GPT-2's map from bytes to printable characters.
var byteSymbols = func() [256]string {
	var out [256]string
	n := 0
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			out[b] = string(rune(b))
		} else {
			out[b] = string(rune(256 + n))
			n++
		}
	}
	return out
}()

// Load reads a tokenizer.json. It fails, saying why, for a tokenizer this
// package does not implement.
func Load(data []byte) (*Tokenizer, error) {
	var f fileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("bpe: reading tokenizer.json: %w", err)
	}
	m := f.Model
	switch {
	case m.Type != "BPE":
		return nil, fmt.Errorf("bpe: model type %q is not BPE", m.Type)
	case m.Dropout != nil, m.UnkToken != nil, m.ByteFallback:
		return nil, fmt.Errorf("bpe: dropout, unk_token and byte_fallback are not supported")
	case m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "",
		m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "":
		return nil, fmt.Errorf("bpe: subword prefixes and suffixes are not supported")
	}
	t := &Tokenizer{vocab: m.Vocab, merges: make(map[uint64]merge, len(m.Merges)), ignoreMerges: m.IgnoreMerges}
	norm := strings.TrimSpace(string(f.Normalizer))
	switch {
	case norm == "" || norm == "null", isEmptySequence(f.Normalizer):
	case strings.ReplaceAll(norm, " ", "") == `{"type":"NFC"}`:
		t.NFC = true
	default:
		return nil, fmt.Errorf("bpe: normalizer %s is not supported", norm)
	}
	split, err := checkPreTokenizer(f.PreTokenizer)
	if err != nil {
		return nil, err
	}
	t.split = split
	for b, s := range byteSymbols {
		id, ok := m.Vocab[s]
		if !ok {
			return nil, fmt.Errorf("bpe: the vocabulary lacks the byte-level symbol of byte %d", b)
		}
		t.byteIDs[b] = id
	}
	for rank, raw := range m.Merges {
		var pair []string
		if err := json.Unmarshal(raw, &pair); err != nil {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return nil, fmt.Errorf("bpe: merge %d: %w", rank, err)
			}
			pair = strings.SplitN(s, " ", 2)
		}
		if len(pair) != 2 {
			return nil, fmt.Errorf("bpe: merge %d is not a pair", rank)
		}
		a, okA := m.Vocab[pair[0]]
		b, okB := m.Vocab[pair[1]]
		c, okC := m.Vocab[pair[0]+pair[1]]
		if !okA || !okB || !okC {
			return nil, fmt.Errorf("bpe: merge %d (%q %q) has a symbol outside the vocabulary", rank, pair[0], pair[1])
		}
		k := uint64(uint32(a))<<32 | uint64(uint32(b))
		if _, dup := t.merges[k]; !dup {
			t.merges[k] = merge{rank: int32(rank), id: c}
		}
	}
	for _, a := range f.AddedTokens {
		if a.SingleWord || a.Lstrip || a.Rstrip {
			return nil, fmt.Errorf("bpe: added token %q strips or matches single words", a.Content)
		}
		if a.Normalized && t.NFC {
			return nil, fmt.Errorf("bpe: added token %q is normalized", a.Content)
		}
		if a.Content == "" {
			continue
		}
		t.added = append(t.added, addedToken{a.Content, a.ID})
		t.first[a.Content[0]] = true
	}
	sort.SliceStable(t.added, func(i, j int) bool { return len(t.added[i].content) > len(t.added[j].content) })
	starts := 0
	for b, ok := range t.first {
		if ok {
			starts++
			t.onlyFirst = b
		}
	}
	if starts != 1 {
		t.onlyFirst = -1
	}
	t.trie = []trieNode{{spells: -1}}
	for k, a := range t.added {
		node := int32(0)
		for i := 0; i < len(a.content); i++ {
			child := t.trie[node].child(a.content[i])
			if child < 0 {
				child = int32(len(t.trie))
				t.trie[node].next = append(t.trie[node].next, trieEdge{a.content[i], child})
				t.trie = append(t.trie, trieNode{spells: -1})
			}
			node = child
		}
		if t.trie[node].spells < 0 { // the first of equal contents
			t.trie[node].spells = int32(k)
		}
	}
	return t, nil
}

// isEmptySequence says whether a normalizer is a Sequence of none, which
// changes nothing.
func isEmptySequence(raw json.RawMessage) bool {
	var n map[string]json.RawMessage
	if json.Unmarshal(raw, &n) != nil || len(n) != 2 {
		return false
	}
	var typ string
	var list []json.RawMessage
	return json.Unmarshal(n["type"], &typ) == nil && typ == "Sequence" &&
		json.Unmarshal(n["normalizers"], &list) == nil && list != nil && len(list) == 0
}

func checkPreTokenizer(raw json.RawMessage) (splitStyle, error) {
	var p preTokenizer
	if err := json.Unmarshal(raw, &p); err != nil {
		return splitStyle{}, fmt.Errorf("bpe: pre_tokenizer: %w", err)
	}
	n := len(p.Pretokenizers)
	if p.Type != "Sequence" || (n != 2 && n != 4) {
		return splitStyle{}, fmt.Errorf("bpe: pre_tokenizer %s is not Split + ByteLevel", p.Type)
	}
	regexes := make([]string, n-1)
	for i, split := range p.Pretokenizers[:n-1] {
		var pat struct{ Regex string }
		if split.Type != "Split" || split.Behavior != "Isolated" || split.Invert || json.Unmarshal(split.Pattern, &pat) != nil {
			return splitStyle{}, fmt.Errorf("bpe: pre-tokenizer %d is not an isolating regex Split", i)
		}
		regexes[i] = pat.Regex
	}
	var style splitStyle
	if n == 4 {
		if [3]string(regexes) != deepseekSplits {
			return splitStyle{}, fmt.Errorf("bpe: unknown pre-tokenizer patterns %q", regexes)
		}
		style = splitStyle{deepseek: true, digits: 3}
	} else {
		var ok bool
		if style, ok = patterns[regexes[0]]; !ok {
			return splitStyle{}, fmt.Errorf("bpe: unknown pre-tokenizer pattern %q", regexes[0])
		}
	}
	if bl := p.Pretokenizers[n-1]; bl.Type != "ByteLevel" || bl.AddPrefix || bl.UseRegex {
		return splitStyle{}, fmt.Errorf("bpe: the last pre-tokenizer is not ByteLevel without prefix space and regex")
	}
	return style, nil
}

// Cache memoizes the ids of pre-tokenized words. Each goroutine uses its
// own.
type Cache map[string][]int32

// Encode appends the ids of text (valid UTF-8, NFC when t.NFC) to dst.
// cache may be nil.
func (t *Tokenizer) Encode(dst []int32, text string, cache Cache) []int32 {
	for len(text) > 0 {
		pos, tok := t.nextAdded(text)
		dst = t.encodeOrdinary(dst, text[:pos], cache)
		if tok == nil {
			break
		}
		dst = append(dst, tok.id)
		text = text[pos+len(tok.content):]
	}
	return dst
}

// nextAdded finds the leftmost added token (the longest at its position),
// reading at each position only as far as some added token goes on (a
// walk down the trie).
func (t *Tokenizer) nextAdded(text string) (int, *addedToken) {
	for i := 0; i < len(text); i++ {
		if t.onlyFirst >= 0 { // jump to the next occurrence of that byte
			k := strings.IndexByte(text[i:], byte(t.onlyFirst))
			if k < 0 {
				break
			}
			i += k
		} else if !t.first[text[i]] {
			continue
		}
		best, node := int32(-1), int32(0)
		for j := i; j < len(text); j++ {
			if node = t.trie[node].child(text[j]); node < 0 {
				break
			}
			if k := t.trie[node].spells; k >= 0 {
				best = k
			}
		}
		if best >= 0 {
			return i, &t.added[best]
		}
	}
	return len(text), nil
}

func (t *Tokenizer) encodeOrdinary(dst []int32, text string, cache Cache) []int32 {
	if t.split.deepseek { // each run of the first two splits is split by the third
		for len(text) > 0 {
			end := t.deepseekRun(text)
			for run := text[:end]; len(run) > 0; {
				n := deepseekPiece(run)
				dst = t.word(dst, run[:n], cache)
				run = run[n:]
			}
			text = text[end:]
		}
		return dst
	}
	for len(text) > 0 {
		n := t.piece(text)
		dst = t.word(dst, text[:n], cache)
		text = text[n:]
	}
	return dst
}

// word appends the ids of one pre-tokenized word.
func (t *Tokenizer) word(dst []int32, word string, cache Cache) []int32 {
	if len(word) == 1 { // one byte: its symbol, with nothing to merge
		return append(dst, t.byteIDs[word[0]])
	}
	if ids, ok := cache[word]; ok {
		return append(dst, ids...)
	}
	start := len(dst)
	dst = t.bpe(dst, word)
	if cache != nil {
		cache[word] = append([]int32(nil), dst[start:]...)
	}
	return dst
}

// bpe appends the ids of one pre-tokenized word.
func (t *Tokenizer) bpe(dst []int32, word string) []int32 {
	if t.ignoreMerges {
		var b strings.Builder
		for i := 0; i < len(word); i++ {
			b.WriteString(byteSymbols[word[i]])
		}
		if id, ok := t.vocab[b.String()]; ok {
			return append(dst, id)
		}
	}
	syms := make([]int32, len(word))
	for i := 0; i < len(word); i++ {
		syms[i] = t.byteIDs[word[i]]
	}
	for len(syms) > 1 {
		best, at := merge{rank: -1}, -1
		for i := 0; i+1 < len(syms); i++ {
			if m, ok := t.merges[uint64(uint32(syms[i]))<<32|uint64(uint32(syms[i+1]))]; ok && (at < 0 || m.rank < best.rank) {
				best, at = m, i
			}
		}
		if at < 0 {
			break
		}
		syms[at] = best.id
		syms = append(syms[:at+1], syms[at+2:]...)
	}
	return append(dst, syms...)
}

// piece returns the byte length of the pre-tokenizer's next match at the
// start of text, trying the pattern's alternatives in order.
func (t *Tokenizer) piece(text string) int {
	if t.split.cased {
		return t.casedPiece(text)
	}
	if t.split.deepseek {
		return deepseekPiece(text[:t.deepseekRun(text)])
	}
	r, n := utf8.DecodeRuneInString(text)
	// 1. (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if r == '\'' && len(text) > 1 {
		rest := strings.ToLower(text[1:min(len(text), 3)])
		for _, c := range []string{"re", "ve", "ll"} {
			if strings.HasPrefix(rest, c) {
				return 3
			}
		}
		if c := rest[0]; c == 's' || c == 't' || c == 'm' || c == 'd' {
			return 2
		}
	}
	// 2. [^\r\n\p{L}\p{N}]?\p{L}+
	if unicode.IsLetter(r) {
		return n + letters(text[n:])
	}
	if r != '\r' && r != '\n' && !unicode.IsNumber(r) {
		if k := letters(text[n:]); k > 0 {
			return n + k
		}
	}
	// 3. \p{N}{1,digits}
	if unicode.IsNumber(r) {
		return t.number(text, n)
	}
	// 4. ' ?[^\s\p{L}\p{N}]+[\r\n]*'
	if k := punctuation(text, r, false); k > 0 {
		return k
	}
	return whitespace(text, n)
}

// casedPiece is piece for the cased patterns (Tekken, o200k):
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+('s|...)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*('s|...)?
//	|\p{N}{1,digits}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// (the contractions only in o200k).
func (t *Tokenizer) casedPiece(text string) int {
	var r rune
	var n int
	var prefix bool // the first rune may be the optional [^\r\n\p{L}\p{N}]
	if c := text[0]; c < utf8.RuneSelf {
		r, n = rune(c), 1
		prefix = asciiClass[c]&asciiLetter == 0 && c != '\r' && c != '\n' && (c < '0' || c > '9')
	} else {
		r, n = utf8.DecodeRuneInString(text)
		prefix = !unicode.IsLetter(r) && !unicode.IsNumber(r)
	}
	// 1. and 2., each with the optional first rune, then without it.
	if prefix {
		if end := upperLower(text, n); end > n {
			return t.contraction(text, end)
		}
	}
	if end := upperLower(text, 0); end > 0 {
		return t.contraction(text, end)
	}
	if prefix {
		if k := runOfClass(text[n:], asciiUpper, isUpper); k > 0 {
			return t.contraction(text, n+k+runOfClass(text[n+k:], asciiLower, isLower))
		}
	}
	if k := runOfClass(text, asciiUpper, isUpper); k > 0 {
		return t.contraction(text, k+runOfClass(text[k:], asciiLower, isLower))
	}
	// 3. \p{N}{1,digits}
	if unicode.IsNumber(r) {
		return t.number(text, n)
	}
	// 4. ' ?[^\s\p{L}\p{N}]+[\r\n/]*'
	if k := punctuation(text, r, true); k > 0 {
		return k
	}
	return whitespace(text, n)
}

// deepseekRun is the length of the run of DeepSeek V3's first two splits
// at the start of text: up to three digits, or the runes up to the next
// digit that are all CJK ideographs and kana or all not.
func (t *Tokenizer) deepseekRun(text string) int {
	r, n := utf8.DecodeRuneInString(text)
	if unicode.IsNumber(r) {
		return t.number(text, n)
	}
	if isCJK(r) {
		return n + runOf(text[n:], func(r rune) bool { return isCJK(r) && !unicode.IsNumber(r) })
	}
	k := n
	for k < len(text) {
		if c := text[k]; c < utf8.RuneSelf { // ASCII: neither CJK nor, but for digits, a number
			if '0' <= c && c <= '9' {
				break
			}
			k++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[k:])
		if isCJK(r) || unicode.IsNumber(r) {
			break
		}
		k += n
	}
	return k
}

// deepseekPiece is the length of the first piece of a run (deepseekRun):
// deepseekPattern's match, or the runes up to where it next matches.
func deepseekPiece(run string) int {
	if k := deepseekPattern(run); k > 0 {
		return k
	}
	_, n := utf8.DecodeRuneInString(run)
	for i := n; i < len(run); {
		if deepseekPattern(run[i:]) > 0 {
			return i
		}
		_, n2 := utf8.DecodeRuneInString(run[i:])
		i += n2
	}
	return len(run)
}

// isCJK is [\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff].
func isCJK(r rune) bool {
	return (0x4e00 <= r && r <= 0x9fa5) || (0x3040 <= r && r <= 0x30ff)
}

// deepseekPattern is the length of DeepSeek V3's third split's match at the
// start of s (s is the whole piece: (?!\S) sees its end), 0 for none:
//
//	[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+
//	| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func deepseekPattern(s string) int {
	r, n := utf8.DecodeRuneInString(s)
	if r < utf8.RuneSelf && asciiClass[r]&asciiPunct != 0 { // the 32 printable ASCII that are not letters or digits
		if k := runOfClass(s[1:], asciiLetter, isNever); k > 0 {
			return 1 + k
		}
	}
	if r != '\r' && r != '\n' && !unicode.IsLetter(r) && !unicode.IsPunct(r) && !unicode.IsSymbol(r) {
		if k := runOfClass(s[n:], asciiLetter, isLetterOrMark); k > 0 {
			return n + k
		}
	}
	if k := runOfClass(s, asciiLetter, isLetterOrMark); k > 0 {
		return k
	}
	start := 0
	if r == ' ' {
		start = 1
	}
	if k := runOfClass(s[start:], asciiPunct, isPunctOrSymbol); k > 0 {
		end := start + k
		for end < len(s) && (s[end] == '\r' || s[end] == '\n') {
			end++
		}
		return end
	}
	if unicode.IsSpace(r) {
		return whitespace(s, n)
	}
	return 0
}

func isNever(rune) bool { return false }

func isLetterOrMark(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

func isPunctOrSymbol(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }

// isUpper is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}], isLower [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

func isLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

// runOf is the byte length of the run of runes in is at the start of s.
func runOf(s string, is func(rune) bool) int {
	k := 0
	for k < len(s) {
		r, n := utf8.DecodeRuneInString(s[k:])
		if !is(r) {
			break
		}
		k += n
	}
	return k
}

// upperLower matches [upper]*[lower]+ at text[at:] as a backtracking
// regular expression does, giving the end of the match, or at when there
// is none: the capitals' run is given back rune by rune until a lower-case
// run can start.
func upperLower(text string, at int) int {
	u := at + runOfClass(text[at:], asciiUpper, isUpper)
	if k := runOfClass(text[u:], asciiLower, isLower); k > 0 {
		return u + k
	}
	for j := u; j > at; { // the run gives back its last runes; runes after j are not lower
		r, n := utf8.DecodeLastRuneInString(text[at:j])
		j -= n
		if isLower(r) {
			return j + n
		}
	}
	return at
}

// contraction extends a cased word ending at end by 's, 't, 're, 've, 'm,
// 'll or 'd (any case) when the pattern has them.
func (t *Tokenizer) contraction(text string, end int) int {
	if !t.split.contractions || end+1 >= len(text) || text[end] != '\'' {
		return end
	}
	if end+2 < len(text) {
		switch strings.ToLower(text[end+1 : end+3]) {
		case "re", "ve", "ll":
			return end + 3
		}
	}
	switch text[end+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return end + 2
	}
	return end
}

// number matches \p{N}{1,digits} after a first number rune of n bytes.
func (t *Tokenizer) number(text string, n int) int {
	end := n
	for c := 1; c < t.split.digits && end < len(text); c++ {
		r2, n2 := utf8.DecodeRuneInString(text[end:])
		if !unicode.IsNumber(r2) {
			break
		}
		end += n2
	}
	return end
}

// punctuation matches ' ?[^\s\p{L}\p{N}]+[\r\n]*' at the start of text
// (first rune r), with '/' among the trailing runes when slash is set;
// 0 when it does not match.
func punctuation(text string, r rune, slash bool) int {
	start := 0
	if r == ' ' {
		start = 1
	}
	k := others(text[start:])
	if k == 0 {
		return 0
	}
	end := start + k
	for end < len(text) && (text[end] == '\r' || text[end] == '\n' || (slash && text[end] == '/')) {
		end++
	}
	return end
}

// whitespace matches \s*[\r\n]+|\s+(?!\S)|\s+ at the start of text, whose
// first rune is n bytes long.
func whitespace(text string, n int) int {
	end, lastNL := 0, -1
	for end < len(text) {
		r2, n2 := utf8.DecodeRuneInString(text[end:])
		if !unicode.IsSpace(r2) {
			break
		}
		if r2 == '\r' || r2 == '\n' {
			lastNL = end
		}
		end += n2
	}
	if lastNL >= 0 { // \s*[\r\n]+
		return lastNL + 1
	}
	if end == len(text) { // \s+(?!\S) at the end
		return end
	}
	_, lastSize := utf8.DecodeLastRuneInString(text[:end])
	if end-lastSize > 0 { // \s+(?!\S): all but the last whitespace
		return end - lastSize
	}
	if end > 0 { // \s+
		return end
	}
	return n // not reached for valid input: every rune matches some alternative
}

// The classes of ASCII bytes the patterns test, so that runs of ASCII
// text are read a byte at a time.
const (
	asciiLetter = 1 << iota // \p{L}
	asciiUpper              // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	asciiLower              // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	asciiOther              // [^\s\p{L}\p{N}]
	asciiPunct              // [\p{P}\p{S}]
)

var asciiClass = func() (c [utf8.RuneSelf]uint8) {
	for b := rune(0); b < utf8.RuneSelf; b++ {
		switch {
		case 'A' <= b && b <= 'Z':
			c[b] = asciiLetter | asciiUpper
		case 'a' <= b && b <= 'z':
			c[b] = asciiLetter | asciiLower
		case !unicode.IsSpace(b) && !unicode.IsNumber(b):
			c[b] = asciiOther
			if unicode.IsPunct(b) || unicode.IsSymbol(b) {
				c[b] |= asciiPunct
			}
		}
	}
	return c
}()

// runOfClass is the byte length of the run at the start of s of ASCII
// bytes of class and of other runes for which is holds.
func runOfClass(s string, class uint8, is func(rune) bool) int {
	k := 0
	for k < len(s) {
		if c := s[k]; c < utf8.RuneSelf {
			if asciiClass[c]&class == 0 {
				break
			}
			k++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[k:])
		if !is(r) {
			break
		}
		k += n
	}
	return k
}

func letters(s string) int { return runOfClass(s, asciiLetter, unicode.IsLetter) }

func others(s string) int { return runOfClass(s, asciiOther, isOther) }

func isOther(r rune) bool { return !unicode.IsSpace(r) && !unicode.IsLetter(r) && !unicode.IsNumber(r) }

// EncodeAll encodes every text, in parallel on up to GOMAXPROCS goroutines,
// into one ragged array: text i's ids are tokens[offsets[i]:offsets[i+1]].
// The texts are handed out in several runs per goroutine, taken in turn, so
// that a goroutine whose core is busy with other work takes fewer of them.
func (t *Tokenizer) EncodeAll(texts []string) (tokens []int32, offsets []int64) {
	nw := min(runtime.GOMAXPROCS(0), max(1, len(texts)/64))
	runs := nw
	if nw > 1 {
		runs = min(8*nw, max(1, len(texts)/32))
	}
	chunk := (len(texts) + runs - 1) / max(runs, 1)
	parts := make([][]int32, runs)
	lens := make([]int64, len(texts))
	var next atomic.Int64
	encode := func() {
		cache := Cache{}
		for {
			r := int(next.Add(1)) - 1
			lo, hi := r*chunk, min((r+1)*chunk, len(texts))
			if r >= runs || lo >= hi {
				return
			}
			var out []int32
			for i := lo; i < hi; i++ {
				n := len(out)
				out = t.Encode(out, texts[i], cache)
				lens[i] = int64(len(out) - n)
			}
			parts[r] = out
		}
	}
	var g workers.Group // a panic reaches the caller, not the end of the process
	for w := 1; w < nw; w++ {
		g.Go(encode)
	}
	g.Run(encode) // the calling goroutine works too
	g.Wait()
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	tokens = make([]int32, 0, total)
	for _, p := range parts {
		tokens = append(tokens, p...)
	}
	offsets = make([]int64, len(texts)+1)
	for i, n := range lens {
		offsets[i+1] = offsets[i] + n
	}
	return tokens, offsets
}
