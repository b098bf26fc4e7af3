// Package bpe runs byte-level BPE tokenizers (GPT-2 style: Qwen2/Qwen3,
// Llama 3 and the like) from a Hugging Face tokenizer.json, giving the ids
// the Hugging Face tokenizer gives without its special tokens
// (add_special_tokens=False).
//
// Only the configuration these models use is accepted: a BPE model without
// dropout, unknown token or byte fallback; no normalizer or NFC (the caller
// hands in NFC text); a Split pre-tokenizer with one of the known GPT-4-style
// patterns followed by ByteLevel without a prefix space; added tokens
// without strip or single-word flags. Load reports anything else as an
// error, and the caller tokenizes with the original instead.
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
	vocab        map[string]int32
	merges       map[uint64]merge // (left id, right id) -> rank and merged id
	byteIDs      [256]int32       // id of each byte's byte-level symbol
	added        []addedToken     // longest first
	first        [256]bool        // bytes that start an added token
	digits       int              // the pre-tokenizer's \p{N}{1,digits}
	ignoreMerges bool
	// NFC says whether the tokenizer normalizes to NFC: the caller must
	// hand in NFC text.
	NFC bool
}

type merge struct {
	rank int32
	id   int32
}

type addedToken struct {
	content string
	id      int32
}

// The pre-tokenizer patterns this package implements, by their \p{N}
// repetition.
var patterns = map[string]int{
	`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`:      1,
	`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`: 3,
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
	case norm == "" || norm == "null":
	case strings.ReplaceAll(norm, " ", "") == `{"type":"NFC"}`:
		t.NFC = true
	default:
		return nil, fmt.Errorf("bpe: normalizer %s is not supported", norm)
	}
	digits, err := checkPreTokenizer(f.PreTokenizer)
	if err != nil {
		return nil, err
	}
	t.digits = digits
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
	return t, nil
}

func checkPreTokenizer(raw json.RawMessage) (int, error) {
	var p preTokenizer
	if err := json.Unmarshal(raw, &p); err != nil {
		return 0, fmt.Errorf("bpe: pre_tokenizer: %w", err)
	}
	if p.Type != "Sequence" || len(p.Pretokenizers) != 2 {
		return 0, fmt.Errorf("bpe: pre_tokenizer %s is not Split + ByteLevel", p.Type)
	}
	split, bl := p.Pretokenizers[0], p.Pretokenizers[1]
	var pat struct{ Regex string }
	if split.Type != "Split" || split.Behavior != "Isolated" || split.Invert || json.Unmarshal(split.Pattern, &pat) != nil {
		return 0, fmt.Errorf("bpe: the first pre-tokenizer is not an isolating regex Split")
	}
	digits, ok := patterns[pat.Regex]
	if !ok {
		return 0, fmt.Errorf("bpe: unknown pre-tokenizer pattern %q", pat.Regex)
	}
	if bl.Type != "ByteLevel" || bl.AddPrefix || bl.UseRegex {
		return 0, fmt.Errorf("bpe: the second pre-tokenizer is not ByteLevel without prefix space and regex")
	}
	return digits, nil
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

// nextAdded finds the leftmost added token (the longest at its position).
func (t *Tokenizer) nextAdded(text string) (int, *addedToken) {
	for i := 0; i < len(text); i++ {
		if !t.first[text[i]] {
			continue
		}
		for k := range t.added {
			if strings.HasPrefix(text[i:], t.added[k].content) {
				return i, &t.added[k]
			}
		}
	}
	return len(text), nil
}

func (t *Tokenizer) encodeOrdinary(dst []int32, text string, cache Cache) []int32 {
	for len(text) > 0 {
		n := t.piece(text)
		word := text[:n]
		if ids, ok := cache[word]; ok {
			dst = append(dst, ids...)
		} else {
			start := len(dst)
			dst = t.bpe(dst, word)
			if cache != nil {
				cache[word] = append([]int32(nil), dst[start:]...)
			}
		}
		text = text[n:]
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
		end := n
		for c := 1; c < t.digits && end < len(text); c++ {
			r2, n2 := utf8.DecodeRuneInString(text[end:])
			if !unicode.IsNumber(r2) {
				break
			}
			end += n2
		}
		return end
	}
	// 4. ' ?[^\s\p{L}\p{N}]+[\r\n]*'
	start := 0
	if r == ' ' {
		start = 1
	}
	if k := others(text[start:]); k > 0 {
		end := start + k
		for end < len(text) && (text[end] == '\r' || text[end] == '\n') {
			end++
		}
		return end
	}
	// 5.-7. whitespace
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

func letters(s string) int {
	k := 0
	for k < len(s) {
		r, n := utf8.DecodeRuneInString(s[k:])
		if !unicode.IsLetter(r) {
			break
		}
		k += n
	}
	return k
}

func others(s string) int {
	k := 0
	for k < len(s) {
		r, n := utf8.DecodeRuneInString(s[k:])
		if unicode.IsSpace(r) || unicode.IsLetter(r) || unicode.IsNumber(r) {
			break
		}
		k += n
	}
	return k
}

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
