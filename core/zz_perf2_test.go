package core

import (
	"strings"
	"testing"
)

func BenchmarkZZBoxed(b *testing.B) {
	s := strings.Repeat(`\boxed{`, 5<<20/7)
	ex, _ := NewExtractor("boxed", nil)
	for i := 0; i < b.N; i++ {
		ex.Extract(s)
	}
}
func BenchmarkZZHash(b *testing.B) {
	s := strings.Repeat(`####`, 5<<20/4)
	ex, _ := NewExtractor("gsm8k", nil)
	for i := 0; i < b.N; i++ {
		ex.Extract(s)
	}
}
