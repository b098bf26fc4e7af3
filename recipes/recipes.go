// Package recipes scores responses by the rules of the RL frameworks' own
// recipes, so that a user's existing dataset is scored as the framework
// would score it, without its Python dependencies: veRL 0.9.1's
// verl.utils.reward_score modules, routed by data_source as its
// default_compute_score routes them.
//
// One file per rule family registers a Rule under the family's name
// (gsm8k.go registers "gsm8k", ...). A Rule is pure, safe on any goroutine
// and bounded: every loop and every comparison runs under a budget, and a
// rule that reaches it reports StatusTimeout, never a wrong answer.
package recipes

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Status is the outcome of one scored item.
type Status uint8

// The outcomes of a scored item. Only StatusCorrect and StatusIncorrect are
// verdicts on the answer; the others say why there is none.
const (
	StatusCorrect   Status = iota // the answer matched
	StatusIncorrect               // an answer was found and did not match
	StatusNoAnswer                // the response holds no answer the rule can read
	StatusTimeout                 // the rule's budget ran out before a verdict
	StatusError                   // the item could not be scored (bad input, an internal fault)
)

var statusNames = [...]string{"correct", "incorrect", "no_answer", "timeout", "error"}

// String is the status's name: "correct", "incorrect", "no_answer", "timeout" or "error".
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Result is one scored response, in the shape the recipe returns it.
type Result struct {
	// Score is what veRL's default_compute_score returns for the item (a
	// float, or the "score" of the dict of a Dict family).
	Score float64
	// Dict is set for families whose recipe returns a dict
	// {"score", "acc", "pred"} (math_dapo); Acc and Pred are its fields.
	Dict bool
	Acc  bool
	Pred string
	// Status is the outcome; Reason says more when it is not a verdict.
	Status Status
	Reason string
}

// Rule scores one response against its ground truth.
type Rule func(solution, groundTruth string) Result

var (
	rulesMu sync.RWMutex
	rules   = map[string]Rule{}
)

// Register adds a rule family; registering a name twice panics (a programming error).
func Register(family string, r Rule) {
	rulesMu.Lock()
	defer rulesMu.Unlock()
	if _, dup := rules[family]; dup {
		panic("recipes: family registered twice: " + family)
	}
	rules[family] = r
}

// Lookup returns the rule of a family.
func Lookup(family string) (Rule, bool) {
	rulesMu.RLock()
	defer rulesMu.RUnlock()
	r, ok := rules[family]
	return r, ok
}

// Families lists the registered families, sorted.
func Families() []string {
	rulesMu.RLock()
	defer rulesMu.RUnlock()
	out := make([]string, 0, len(rules))
	for k := range rules {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// veRL 0.9.1's default_compute_score routing: data_source -> family.
var verlSources = map[string]string{
	"openai/gsm8k":                       "gsm8k",
	"lighteval/MATH":                     "math_reward",
	"DigitalLearningGmbH/MATH-lighteval": "math_reward",
	"HuggingFaceH4/MATH-500":             "math_reward",
	"math_dapo":                          "math_dapo",
	"math":                               "math_dapo",
	"math_dapo_reasoning":                "math_dapo",
	"numina_aops_forum":                  "prime_math",
	"numina_synthetic_math":              "prime_math",
	"numina_amc_aime":                    "prime_math",
	"numina_synthetic_amc":               "prime_math",
	"numina_cn_k12":                      "prime_math",
	"numina_olympiads":                   "prime_math",
	"hiyouga/geometry3k":                 "geo3k",
	"searchR1_nq":                        "search_r1",
	"searchR1_triviaqa":                  "search_r1",
	"searchR1_popqa":                     "search_r1",
	"searchR1_hotpotqa":                  "search_r1",
	"searchR1_2wikimultihopqa":           "search_r1",
	"searchR1_musique":                   "search_r1",
	"searchR1_bamboogle":                 "search_r1",
}

// VerlFamily is the rule family veRL's default_compute_score applies to a
// data_source: the table above, and "math_dapo" for every name that starts
// with "aime", as veRL routes them.
func VerlFamily(dataSource string) (string, bool) {
	if f, ok := verlSources[dataSource]; ok {
		return f, true
	}
	if strings.HasPrefix(dataSource, "aime") {
		return "math_dapo", true
	}
	return "", false
}

// VerlSourceFamilies is the routing table VerlFamily reads: each data
// source veRL knows by name and its family (names starting with "aime" are
// routed to "math_dapo" too). The map is a copy.
func VerlSourceFamilies() map[string]string {
	out := make(map[string]string, len(verlSources))
	for k, v := range verlSources {
		out[k] = v
	}
	return out
}

// ScoreVerl scores one response of a veRL data source. An unknown source,
// or a family whose rule is not built in, is StatusError with the reason.
// A panic in a rule is StatusError too: one bad item never ends a batch.
func ScoreVerl(dataSource, solution, groundTruth string) (res Result) {
	family, ok := VerlFamily(dataSource)
	if !ok {
		return Result{Status: StatusError, Reason: fmt.Sprintf("no rule for data_source %q", dataSource)}
	}
	rule, ok := Lookup(family)
	if !ok {
		return Result{Status: StatusError, Reason: fmt.Sprintf("the %s rule (data_source %q) is not built in", family, dataSource)}
	}
	defer func() {
		if p := recover(); p != nil {
			res = Result{Status: StatusError, Reason: fmt.Sprintf("%s rule: internal error: %v", family, p)}
		}
	}()
	return rule(solution, groundTruth)
}

// lastIndex is strings.LastIndex, faster on long responses: a forward
// search settles the common case of a needle that is not there, and one
// that is found is then looked for from the end, where strings.LastIndex
// stops at the first match it meets (the last one).
func lastIndex(s, sub string) int {
	first := index(s, sub)
	if first < 0 {
		return -1
	}
	return first + strings.LastIndex(s[first:], sub)
}

// index is strings.Index, found by the needle's least common byte in
// text: strings.Index scans for the first byte, and a needle that starts
// with a common letter ("answer", "is ") stops that scan at most words.
func index(s, sub string) int {
	if len(sub) < 2 || len(s) <= 64 {
		return strings.Index(s, sub)
	}
	pick := 0
	for i := 1; i < len(sub); i++ {
		if textByteRank[sub[i]] < textByteRank[sub[pick]] {
			pick = i
		}
	}
	c := sub[pick]
	for i := pick; i < len(s); {
		k := strings.IndexByte(s[i:], c)
		if k < 0 {
			return -1
		}
		at := i + k - pick
		if at+len(sub) > len(s) {
			return -1
		}
		if s[at:at+len(sub)] == sub {
			return at
		}
		i += k + 1
	}
	return -1
}

// textByteRank orders bytes by how often they appear in English prose
// and math (0 for the rare ones), after the usual letter frequencies.
var textByteRank = func() (r [256]uint8) {
	const common = " etaoinshrdlcumwfgypbvkjxqz" // most common first
	for i := 0; i < len(common); i++ {
		c := common[i]
		r[c] = uint8(len(common) - i + 10)
		if c >= 'a' && c <= 'z' {
			r[c-'a'+'A'] = r[c] / 2
		}
	}
	r['\n'] = 20
	for c := '0'; c <= '9'; c++ {
		r[c] = 15
	}
	return r
}()

// byteSet is a set of byte values.
type byteSet [4]uint64

func (b *byteSet) addAll(s string) {
	for i := 0; i < len(s); i++ {
		b[s[i]>>6] |= 1 << (s[i] & 63)
	}
}

// hasAll reports whether every byte of s is in the set.
func (b *byteSet) hasAll(s string) bool {
	for i := 0; i < len(s); i++ {
		if b[s[i]>>6]&(1<<(s[i]&63)) == 0 {
			return false
		}
	}
	return true
}
