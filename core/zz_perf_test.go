package core

import (
	"strings"
	"testing"
	"time"
)

func TestZZPerf(t *testing.T) {
	shapes := map[string]string{
		"prose":   strings.Repeat("The quick brown fox jumps over 13 lazy dogs, so x = 7. ", 5<<20/56),
		"boxed":   strings.Repeat(`\boxed{`, 5<<20/7),
		"hash":    strings.Repeat("####", 5<<20/4),
		"answer":  strings.Repeat("answer ", 5<<20/7),
		"fence":   strings.Repeat("```", 5<<20/3),
		"digits":  strings.Repeat("1", 5<<20),
		"eq":      strings.Repeat("= ", 5<<20/2),
		"the":     strings.Repeat("the answer is ", 5<<20/14),
		"nl":      strings.Repeat("\n", 5<<20),
		"invalid": strings.Repeat("\xff\xe2\x82", 5<<20/3),
		"uspace":  strings.Repeat("\u2003", 5<<20/3),
		"commas":  strings.Repeat("1,", 5<<20/2),
		"think":   strings.Repeat("<think>", 5<<20/7),
	}
	names := []string{"tag_based", "boxed", "gsm8k", "numeric", "multiple_choice", "last_line", "raw", "tail", "code_block", "pattern_answer"}
	for sn, s := range shapes {
		for _, n := range names {
			ex, _ := NewExtractor(n, nil)
			t0 := time.Now()
			x := ex.Extract(s)
			if d := time.Since(t0); d > 30*time.Millisecond {
				t.Logf("%s/%s: %v found=%v", sn, n, d, x.Found)
			}
		}
		t0 := time.Now()
		StripThinkingTokens(s)
		StripSpecialTokens(s)
		if d := time.Since(t0); d > 30*time.Millisecond {
			t.Logf("%s/clean: %v", sn, d)
		}
	}
}
