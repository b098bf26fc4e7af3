package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/core"
	"github.com/llenvs/llenvs-go/envs/toolcall"
)

// benchToolTexts is what scripts/bench_tool_calls.py reads: a sentence of
// prose then one or two calculator calls in format f (every tenth text has
// none, every twentieth a malformed one).
func benchToolTexts(f toolcall.Format, n int) []string {
	texts := make([]string, n)
	for k := range texts {
		prose := fmt.Sprintf("Let me work this out step by step; first the product of %d and %d.", k, k%13)
		if k%10 == 0 {
			texts[k] = prose + " The answer is <answer>12</answer>."
			continue
		}
		one := func(expr string) string {
			call := f.Render(core.ToolCall{Name: "calculator", Arguments: map[string]any{"expression": expr}})
			if f.Name() == toolcall.Llama3JSON {
				call = toolcall.PythonTag + call
			}
			return call
		}
		calls := []string{one(fmt.Sprintf("%d * %d + 7", k, k%13))}
		if k%3 == 0 && f.Name() != toolcall.Llama3JSON && f.Name() != toolcall.GptOss {
			calls = append(calls, one(fmt.Sprintf("(%d - 1) / 2", k)))
		}
		text := prose + "\n" + strings.Join(calls, "\n")
		if k%20 == 1 {
			if strings.Contains(text, "}") {
				text = strings.Replace(text, `"}`, `"`, 1)
			} else {
				text = text[:len(text)-3]
			}
		}
		texts[k] = text
	}
	return texts
}

// BenchmarkParseToolCalls is llenvs_parse_tool_calls' batch of 5,000 texts
// per format, built and freed.
func BenchmarkParseToolCalls(b *testing.B) {
	for _, name := range toolcall.Names() {
		f, _ := toolcall.FormatByName(name)
		texts := benchToolTexts(f, 5000)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				batch, err := parsedBatch(f, texts, "call_", 64)
				if err != nil {
					b.Fatal(err)
				}
				batch.free()
			}
		})
	}
}
