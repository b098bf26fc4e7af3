package reasoninggym

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestNumberSortingConfig(t *testing.T) {
	nsCheckConfigErrors(t, "number_sorting",
		[]map[string]any{
			{"min_numbers": 0},
			{"min_numbers": 5, "max_numbers": 4},
			{"min_decimals": -1},
			{"min_decimals": 3, "max_decimals": 2},
			{"min_value": 5.0, "max_value": 5.0},
			{"min_value": 6, "max_value": 5},
			{"size": 10},
			{"seed": 1},
			{"min_numbers": "3"},
			{"max_value": []any{1}},
		},
		[]map[string]any{
			{},
			{"min_numbers": 1, "max_numbers": 1, "min_decimals": 0, "max_decimals": 0},
			{"min_value": -1e20, "max_value": 1e20},
			{"min_value": 0, "max_value": 1},
		})
}

// Expected scores were obtained from reasoning-gym 0.1.25's
// NumberSortingDataset.score_answer (Python 3.11, seed 42). Item 0's oracle
// is ['-95.0', '-51.0', '47.29', '48.13'] (ascending), item 1's
// ['91.9', '34.0', '-43.0'] and item 2's nine numbers (descending).
var numberSortingScoreCases = []nsScoreCase{
	{0, "['-95.0', '-51.0', '47.29', '48.13']", true, 1.0},
	{0, "[\"-95.0\", \"-51.0\", \"47.29\", \"48.13\"]", true, 1.0},
	{0, "[-94.1, -50.1, 48.19, 49.03]", true, 1.0},
	{0, "[-95, -51, 47, 48]", true, 1.0},
	{0, "[-96.5, -51, 47, 48]", true, 0.0},
	{0, "['48.13', '47.29', '-51.0', '-95.0']", true, 0.0},
	{0, "['-95.0', '-51.0', '47.29']", true, 0.0},
	{0, "['-95.0', 'nan', '47.29', '48.13']", true, 1.0},
	{0, "[NaN, -51, 47, 48]", true, 1.0},
	{0, "[-95, -51, NaN, 40]", true, 0.0},
	{0, "['-95.0', '-51.0', '47.29', 'inf']", true, 0.0},
	{0, "[' -9_5 ', '-51', '47.29', '48.13']", true, 1.0},
	{0, "['-95.0', '-51.0', '47.29', '4_8.13']", true, 1.0},
	{0, "['-95.0', '-51.0', '47.29', '48__13']", true, 0.0},
	{0, "[\"\\u0034\\u0038\", -51, 47, 48]", true, 0.0},
	{0, "[-95, -51, 47, 48,]", true, 0.0},
	{0, "[-95, -51, 47, null]", true, 0.0},
	{0, "[-95, -51, 47, [48]]", true, 0.0},
	{0, "[-95, -51, true, 48]", true, 0.0},
	{0, "-95, -51, 47.29, 48.13", true, 0.0},
	{0, "", true, 0.0},
	{0, "", false, 0.0},
	{0, "[-95, -51, 47, 1" + strings.Repeat("0", 400) + "]", true, 0.0},
	{0, "[-95, -51, 47, 48e0]", true, 1.0},
	{0, "[-95, -51, 47, 48.]", true, 0.0},
	{0, "[-95, -51, 47, 048]", true, 0.0},
	{1, "['91.9', '34.0', '-43.0']", true, 1.0},
	{1, "['-43.0', '34.0', '91.9']", true, 0.0},
	{1, "[92, 34, -43]", true, 1.0},
	{1, "[92, 34, 34]", true, 0.0},
	{1, "[\"nan\", 34, -43]", true, 1.0},
	{1, "[92, \"nan\", -43]", true, 1.0},
	{2, "[72, 38.7, 37.8, 18.2, 14, 4, -24.1, -68.66, -94]", true, 1.0},
	{2, "[72, 38.7, 37.8, 18.2, 14, 4, -24.1, -68.66, NaN]", true, 1.0},
	{2, "[72, 38.7, NaN, 18.2, 14, 4, -24.1, -68.66, -94]", true, 1.0},
}

func TestNumberSortingScore(t *testing.T) {
	nsRunScoreCases(t, "number_sorting", nil, numberSortingScoreCases)
	nsCheckScoreNoPanic(t, "number_sorting", nil)
}

func TestNumberSortingGenerate(t *testing.T) {
	task := mustTask(t, "number_sorting", nil)
	e := mustGenerate(t, task, 42, 0)
	if e.Answer != "['-95.0', '-51.0', '47.29', '48.13']" {
		t.Errorf("seed 42 item 0 answer = %s", e.Answer)
	}
	nsCheckGenerateNoPanic(t, "number_sorting", nil, 3000)
	nsCheckGenerateNoPanic(t, "number_sorting", map[string]any{
		"min_numbers": 60, "max_numbers": 130, "min_decimals": 300, "max_decimals": 320,
		"min_value": -1000, "max_value": 1000}, 2000)
}

// Expected strings are str(np.round(x, d)) from numpy 2.4 / Python 3.11.
func TestNsNpRoundRepr(t *testing.T) {
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
		if got := nsFloatRepr(nsNpRound(c.x, c.d)); got != c.want {
			t.Errorf("str(np.round(%v, %d)) = %q, want %q", c.x, c.d, got, c.want)
		}
	}
	if got := nsFloatRepr(math.Inf(-1)); got != "-inf" {
		t.Errorf("repr(-inf) = %q", got)
	}
}

// Expected values are Python 3.11's float(s).
func TestNsPyFloat(t *testing.T) {
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
		got, ok := nsPyFloat(c.s)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("float(%q) = %v, %v; want %v, %v", c.s, got, ok, c.want, c.ok)
		}
	}
	if x, ok := nsPyFloat(" nan "); !ok || !math.IsNaN(x) {
		t.Errorf("float(' nan ') = %v, %v", x, ok)
	}
}

// Expected orders are sorted(range(n), key=vals.__getitem__[, reverse=True])
// from CPython 3.11, whose timsort leaves NaNs where its runs put them.
func TestNsPySorted(t *testing.T) {
	nan := math.NaN()
	small := []float64{3, nan, 1, 2, nan, 0}
	if got := nsPySorted(small, false); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("ascending small = %v", got)
	}
	if got := nsPySorted(small, true); !slices.Equal(got, []int{0, 1, 3, 2, 4, 5}) {
		t.Errorf("descending small = %v", got)
	}
	long := make([]float64, 70)
	for i := range long {
		if i%13 == 0 {
			long[i] = nan
		} else {
			long[i] = float64((i * 37) % 11)
		}
	}
	wantAsc := []int{0, 11, 22, 33, 3, 14, 25, 6, 17, 28, 9, 20, 31, 1, 12, 23, 34, 4, 15, 7, 18, 29, 10, 21, 32, 2, 24, 5, 16, 8, 13, 19, 26, 44, 55, 66, 36, 47, 58, 69, 50, 61, 42, 53, 64, 45, 56, 67, 37, 48, 59, 40, 51, 62, 43, 54, 35, 46, 57, 68, 27, 38, 39, 49, 30, 41, 52, 60, 63, 65}
	wantDesc := []int{0, 8, 13, 19, 5, 16, 26, 30, 27, 2, 24, 10, 21, 32, 7, 18, 29, 4, 15, 1, 12, 23, 34, 9, 20, 31, 6, 17, 28, 3, 14, 25, 11, 22, 33, 39, 41, 52, 63, 38, 49, 60, 35, 46, 57, 43, 54, 40, 51, 62, 37, 48, 36, 65, 68, 59, 45, 56, 67, 42, 53, 64, 50, 61, 47, 58, 69, 44, 55, 66}
	if got := nsPySorted(long, false); !slices.Equal(got, wantAsc) {
		t.Errorf("ascending long = %v", got)
	}
	if got := nsPySorted(long, true); !slices.Equal(got, wantDesc) {
		t.Errorf("descending long = %v", got)
	}
}
