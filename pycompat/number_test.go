package pycompat

import (
	"math"
	"testing"
)

// Expected strings are str(np.round(x, d)) from numpy 2.4 / Python 3.11.
func TestNumpyRoundFloatRepr(t *testing.T) {
	cases := []struct {
		x    float64
		d    int
		want string
	}{
		{2.675, 2, "2.68"}, {-0.3, 0, "-0.0"}, {0.5, 0, "0.0"}, {1.5, 0, "2.0"},
		{1e16, 2, "1e+16"}, {1.234e-05, 8, "1.234e-05"}, {1.2345678901234568e+17, 0, "1.2345678901234568e+17"},
		{-95.04, 0, "-95.0"}, {47.2861, 2, "47.29"}, {0.0001, 4, "0.0001"}, {1e-05, 5, "1e-05"},
		{1000000000000000.2, 1, "1000000000000000.2"}, {9999999999999998.0, 0, "9999999999999998.0"},
		{5e-324, 0, "0.0"}, {1e300, 310, "nan"}, {3.0, 320, "nan"},
	}
	for _, c := range cases {
		if got := FloatRepr(NumpyRound(c.x, c.d)); got != c.want {
			t.Errorf("str(np.round(%v, %d)) = %q, want %q", c.x, c.d, got, c.want)
		}
	}
	if got := FloatRepr(math.Inf(-1)); got != "-inf" {
		t.Errorf("repr(-inf) = %q", got)
	}
}

// Expected values are Python 3.11's float(s).
func TestParseFloat(t *testing.T) {
	cases := []struct {
		s    string
		want float64
		ok   bool
	}{
		{"1.e5", 100000, true}, {".e5", 0, false}, {"1_0.5", 10.5, true}, {"\u00a01\u2003", 1, true},
		{"1e", 0, false}, {"-INFINITY", math.Inf(-1), true}, {"0x1p3", 0, false}, {"1__0", 0, false},
		{"\U0001d7cf.5", 1.5, true}, {"\U00011f51", 0, false}, {"1._5", 0, false}, {"1_.5", 0, false},
		{"1e1_0", 1e10, true}, {"1e_10", 0, false}, {"5.", 5, true}, {".", 0, false}, {"infinit", 0, false},
		{"1\x1c", 0, false}, {"1\u0085", 1, true}, {"\x7f1", 0, false}, {"1e400", math.Inf(1), true}, {"", 0, false},
	}
	for _, c := range cases {
		got, ok := ParseFloat(c.s)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("float(%q) = %v, %v; want %v, %v", c.s, got, ok, c.want, c.ok)
		}
	}
	if x, ok := ParseFloat(" nan "); !ok || !math.IsNaN(x) {
		t.Errorf("float(' nan ') = %v, %v", x, ok)
	}
}
