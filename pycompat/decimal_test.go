package pycompat

import "testing"

// The expected values are CPython 3.11's unicodedata.decimal(r, -1).
func TestDecimalValue(t *testing.T) {
	tests := []struct {
		r    rune
		want int
	}{
		{'0', 0}, {'9', 9}, {'a', -1}, {'\u0663', 3}, {'\uff15', 5}, {'\U0001d7d9', 1}, {'\U0001fbf9', 9},
		{'\u00b2', -1}, {'\u2155', -1}, {'\u0f2a', -1},
		{'\U00011f51', -1}, {'\U0001e4f1', -1}, // digits of Unicode 15, after CPython 3.11's Unicode 14
	}
	for _, tt := range tests {
		if got := DecimalValue(tt.r); got != tt.want {
			t.Errorf("DecimalValue(%U) = %d, want %d", tt.r, got, tt.want)
		}
		if IsDecimal(tt.r) != (tt.want >= 0) {
			t.Errorf("IsDecimal(%U) = %v", tt.r, IsDecimal(tt.r))
		}
	}
}

// The expectations are CPython 3.11's Decimal(a) == Decimal(b), an
// exception counting as not equal.
func TestParseDecimalEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"1", "1.0", true}, {"100", "1e2", true}, {"-0", "0", true}, {" 12 ", "12", true}, {"1_000", "1000", true},
		{"\u0661\u0662", "12", true}, {"Inf", "Infinity", true}, {"-inf", "inf", false}, {"nan", "nan", false},
		{"1.5", "1.50", true}, {"abc", "abc", false}, {"", "", false}, {"1e999999999999999999", "1", false},
	}
	for _, tt := range tests {
		if got := ParseDecimal(tt.a).Equal(ParseDecimal(tt.b)); got != tt.want {
			t.Errorf("Decimal(%q) == Decimal(%q): %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
