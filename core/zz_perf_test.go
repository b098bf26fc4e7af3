package core

import (
	"strings"
	"testing"
)

func BenchmarkZZMC(b *testing.B) {
	s := strings.Repeat("answer ", 100000)
	ex, _ := NewExtractor("multiple_choice", nil)
	for i := 0; i < b.N; i++ {
		ex.Extract(s)
	}
}
