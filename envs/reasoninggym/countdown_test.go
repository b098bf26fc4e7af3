package reasoninggym

import (
	"strings"
	"testing"

	"github.com/llenvs/llenvs-go/pycompat"
)

func TestCountdownConfig(t *testing.T) {
	checkConfigs(t, "countdown", "",
		[]map[string]any{{}, {"operators": []any{"*", "/"}, "shuffle": false}, {"operators": "+*"},
			{"min_numbers": 2, "max_numbers": 2}, {"min_value": 5, "max_value": 5, "min_target": 1, "max_target": 1}},
		[]map[string]any{{"min_numbers": 1}, {"min_numbers": 5, "max_numbers": 4}, {"min_value": 0},
			{"min_value": 3, "max_value": 2}, {"min_target": 0}, {"min_target": 10, "max_target": 9},
			{"operators": []any{}}, {"operators": ""}, {"operators": []any{"+", "^"}}, {"operators": []any{"++"}},
			{"operators": []any{1}}, {"operators": "+x"}, {"operators": 3}, {"shuffle": 1}, {"max_numbers": 20000},
			{"size": 5}})
}

func TestCountdownGolden(t *testing.T) {
	// Printed by reasoning-gym 0.1.25 (first line of the question).
	cases := []struct {
		params        map[string]any
		seed, idx     int64
		first, answer string
		numbers       []int64
		target        int64
	}{
		{nil, 42, 0, "Calculate 139 using all of these numbers: 36, 29, 95, 32, 4, 15.", "15 - 4 + 95 + 36 - 32 + 29",
			[]int64{36, 29, 95, 32, 4, 15}, 139},
		{nil, 42, 1, "Using all the numbers 74, 48, 56, 66, create an expression that equals 132.", "66 - 56 + 74 + 48",
			[]int64{74, 48, 56, 66}, 132},
		{map[string]any{"min_numbers": 11, "max_numbers": 13, "min_target": 1, "max_target": 1000000000}, 7, 0,
			"Find a way to make 72307 using all of these numbers: 47, 65, 84, 13, 20, 75, 10, 51, 69, 7, 28, 8.",
			"-65 + 28 + 8*(47*(20 + 51 + 84 - 7 - 10 + 69 - 13) - 75)", []int64{47, 65, 84, 13, 20, 75, 10, 51, 69, 7, 28, 8}, 72307},
		{map[string]any{"min_numbers": 11, "max_numbers": 13, "min_target": 1, "max_target": 1000000000}, 7, 2,
			"Calculate 3663 using all of these numbers: 35, 24, 87, 65, 48, 1, 44, 60, 78, 1, 79, 11.",
			"78 - 11 + 24 - 87 + 1 - 44 - 65 - 60 + (79*48 + 35)/1", []int64{35, 24, 87, 65, 48, 1, 44, 60, 78, 1, 79, 11}, 3663},
		{map[string]any{"operators": []any{"*", "/"}, "min_numbers": 3, "max_numbers": 8, "min_target": 1, "max_target": 100000, "shuffle": false},
			8589934609, 0, "Find a way to make 30429 using all of these numbers: 23, 21, 1, 63, 1.", "23*21*63/(1*1)",
			[]int64{23, 21, 1, 63, 1}, 30429},
		{map[string]any{"operators": []any{"*", "/"}, "min_numbers": 3, "max_numbers": 8, "min_target": 1, "max_target": 100000, "shuffle": false},
			8589934609, 2, "Using all the numbers 77, 65, 2, 2, 29, 25, 2, create an expression that equals 31.",
			"(-25 + 29*(77 - 65)/(2*2))/2", []int64{77, 65, 2, 2, 29, 25, 2}, 31},
	}
	for _, c := range cases {
		e := mustGenerate(t, mustTask(t, "countdown", c.params), c.seed, c.idx)
		first, _, _ := strings.Cut(e.Question, "\n")
		nums, _ := e.Metadata["numbers"].([]int64)
		if first != c.first || e.Answer != c.answer || e.Metadata["target"] != c.target || len(nums) != len(c.numbers) {
			t.Errorf("%v seed %d item %d: got %q / %q / %v / %v", c.params, c.seed, c.idx, first, e.Answer, nums, e.Metadata["target"])
			continue
		}
		for i := range nums {
			if nums[i] != c.numbers[i] {
				t.Errorf("%v seed %d item %d: numbers %v, want %v", c.params, c.seed, c.idx, nums, c.numbers)
				break
			}
		}
		if !strings.HasSuffix(e.Question, "5. Do not include any other text or formatting.\n") {
			t.Errorf("question suffix: %q", e.Question)
		}
	}
}

func TestCountdownPrinter(t *testing.T) {
	// sympy's str() of the left fold over x_0..x_{n-1}, with x_i replaced by
	// 1000+i (printed by sympy 1.14).
	cases := map[string]string{
		"+-":           "1000 + 1001 - 1002",
		"*-+":          "1000*1001 - 1002 + 1003",
		"+*-+":         "1002*(1000 + 1001) - 1003 + 1004",
		"-/":           "(1000 - 1001)/1002",
		"+//":          "(1000 + 1001)/(1002*1003)",
		"+/+":          "1003 + (1000 + 1001)/1002",
		"/*/+*":        "1005*(1000*1002/(1001*1003) + 1004)",
		"++++++++++-":  "1000 + 1001 + 1010 - 1011 + 1002 + 1003 + 1004 + 1005 + 1006 + 1007 + 1008 + 1009",
		"+++++++++*-+": "1010*(1000 + 1001 + 1002 + 1003 + 1004 + 1005 + 1006 + 1007 + 1008 + 1009) - 1011 + 1012",
		"*/+-*/+-*/+-": "1011 - 1012 + 1009*(1005*(1000*1001/1002 + 1003 - 1004)/1006 + 1007 - 1008)/1010",
	}
	for ops, want := range cases {
		n := len(ops) + 1
		nums := make([]int64, n)
		for i := range nums {
			nums[i] = int64(1000 + i)
		}
		e := sympySymbol(0)
		for i := 1; i < n; i++ {
			switch ops[i-1] {
			case '+':
				e = e.add(i, false)
			case '-':
				e = e.add(i, true)
			case '*':
				e = e.mul(i, false)
			case '/':
				e = e.mul(i, true)
			}
		}
		if got := e.String(nums); got != want {
			t.Errorf("%s: got %q, want %q", ops, got, want)
		}
	}
}

func TestCountdownScore(t *testing.T) {
	// Expected values from reasoning-gym 0.1.25's score_answer on entries
	// with these numbers and targets (sympy 1.14).
	cases := []struct {
		answer  string
		none    bool
		numbers []int64
		target  int64
		want    float64
	}{
		{"15 - 4 + 95 + 36 - 32 + 29", false, []int64{36, 29, 95, 32, 4, 15}, 139, 1},
		{"15-4+95+36-32+29", false, []int64{36, 29, 95, 32, 4, 15}, 139, 1},
		{"(36 + 29 + 95) - (32 + 4) + 15", false, []int64{36, 29, 95, 32, 4, 15}, 139, 1},
		{"36 + 29 + 95 - 32 - 4 + 15 = 139", false, []int64{36, 29, 95, 32, 4, 15}, 139, 0.01},
		{"36 + 29 + 95 - 32 - 4", false, []int64{36, 29, 95, 32, 4, 15}, 139, 0.05},
		{"36 × 29", false, []int64{36, 29}, 1044, 0.01},
		{"36 * 29", false, []int64{36, 29}, 1044, 1},
		{"36 * 29 + 0.000001", false, []int64{36, 29}, 1044, 0.05},
		{"36 * 29.0", false, []int64{36, 29}, 1044, 0.05},
		{"(34*71 - 46)/16", false, []int64{34, 71, 46, 16}, 148, 1},
		{"(34*71 - 46)//16", false, []int64{34, 71, 46, 16}, 148, 1},
		{"2^3", false, []int64{2, 3}, 8, 0.05},
		{"2**3", false, []int64{2, 3}, 8, 1},
		{"1/0", false, []int64{1, 0}, 5, 0.01},
		{"0/0", false, []int64{0, 0}, 5, 0.05},
		{"1//0", false, []int64{1, 0}, 5, 0.01},
		{"-7//2", false, []int64{7, 2}, -4, 1},
		{"-7 % 3", false, []int64{7, 3}, 2, 1},
		{"3!", false, []int64{3}, 6, 1},
		{"3 !", false, []int64{3}, 6, 0.01},
		{"(1+2)!", false, []int64{1, 2}, 6, 1},
		{"4**0.5", false, []int64{4, 0, 5}, 2, 1},
		{"(-8)**(1/3)", false, []int64{8, 1, 3}, 2, 0.01},
		{"2j*2j", false, []int64{2, 2}, -4, 0.05},
		{"1e400", false, []int64{1, 400}, 5, 0.05},
		{"0x10 + 1", false, []int64{1}, 17, 1},
		{"1_000 - 1", false, []int64{1, 1}, 999, 0.05},
		{"007", false, []int64{7}, 7, 0.01},
		{"x", false, nil, 5, 0.01},
		{"", false, []int64{1}, 1, 0.01},
		{"   ", false, []int64{1}, 1, 0.01},
		{"", true, []int64{1}, 1, 0.01},
		{"1 + 2 # comment 7", false, []int64{1, 2, 7}, 3, 1},
		{"(1 +\n 2)", false, []int64{1, 2}, 3, 1},
		{"1 +\n 2", false, []int64{1, 2}, 3, 0.01},
		{"1 == 1", false, []int64{1, 1}, 1, 1},
		{"100.5 - 0.5", false, []int64{100, 5, 0, 5}, 100, 1},
		{"1/3 + 1/3 + 1/3", false, []int64{1, 3, 1, 3, 1, 3}, 1, 1},
		{"0.1 * 3", false, []int64{0, 1, 3}, 0, 0.05},
		{"5 % 0.0", false, []int64{5, 0, 0}, 5, 0.01},
		{"0.25 % 0", false, []int64{0, 25, 0}, 5, 0.05},
		{"\u0663 + 1", false, []int64{3, 1}, 4, 0.01},
		{"1 + 2 # \u0663", false, []int64{1, 2, 3}, 3, 1},
		{"2**(1/2)*2**(1/2)", false, []int64{2, 1, 2, 2, 1, 2}, 2, 1},
		{"(-3/2)//1", false, []int64{3, 2, 1}, -1, 1},
		{"(-2)//(1/2)", false, []int64{2, 1, 2}, -5, 1},
		{"1" + strings.Repeat("0", 4300), false, []int64{1}, 5, 0.01},
	}
	tk := mustTask(t, "countdown", nil)
	for _, c := range cases {
		e := &Entry{Metadata: map[string]any{"numbers": c.numbers, "target": c.target}}
		if got := tk.Score(c.answer, !c.none, e); got != c.want {
			t.Errorf("Score(%q) = %v, want %v", c.answer, got, c.want)
		}
		// The same after a JSON round trip of the metadata.
		nums := make([]any, len(c.numbers))
		for i, n := range c.numbers {
			nums[i] = float64(n)
		}
		e = &Entry{Metadata: map[string]any{"numbers": nums, "target": float64(c.target)}}
		if got := tk.Score(c.answer, !c.none, e); got != c.want {
			t.Errorf("Score(%q) after JSON = %v, want %v", c.answer, got, c.want)
		}
	}
}

func TestCountdownScoreBounded(t *testing.T) {
	// Inputs on which Python runs for a very long time (or recurses too
	// deeply) must come back here (a hang fails through go test's timeout);
	// see package sympyeval for the documented results. Heavy under the
	// race detector, so skipped with -short.
	if testing.Short() {
		t.Skip("large inputs")
	}
	tk := mustTask(t, "countdown", nil)
	e := &Entry{Metadata: map[string]any{"numbers": []int64{9, 9, 9}, "target": int64(5)}}
	inputs := []string{
		"9**9**9", "2**2**2**2**2**2**2**2**2**2**2**2**2**2**2**2", "(3**200000)**(1/7)", "1<<(1<<30)", "99999999!",
		"1e999999999", "1e-999999999", strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000),
		strings.Repeat("-", 100000) + "1", strings.Repeat("1+", 100000) + "1", "1.0000001**1e15",
		strings.Repeat("2**(1/3)+", 3000) + "1", "(" + strings.Repeat("2**(1/3)+", 2000) + "1)*(" + strings.Repeat("2**(1/3)+", 2000) + "1)",
		"((10**300000)**3)//(7**500000)", "100000!!", "\xff\xfe(1)", "1e308**1e308", "(1/2)**(10**18)",
	}
	for _, s := range inputs {
		got := tk.Score(s, true, e)
		if got != 0.01 && got != 0.05 {
			t.Errorf("Score(%.40q) = %v", s, got)
		}
	}
}

func TestCountdownNoPanic(t *testing.T) {
	for _, p := range []map[string]any{{},
		{"min_numbers": 2, "max_numbers": 15, "min_value": 1, "max_value": 300, "min_target": 1, "max_target": 10000, "operators": "+-*/"}} {
		tk := mustTask(t, "countdown", p)
		for i := int64(0); i < 3000; i++ {
			var r pycompat.Random
			r.SeedSum(99, i)
			e, err := Generate(tk, &r, i)
			if err != nil {
				// reasoning-gym raises ValueError too when 100 candidates miss
				// the target range.
				if !strings.Contains(err.Error(), "after 100 attempts") {
					t.Fatalf("%v item %d: %v", p, i, err)
				}
				continue
			}
			if s := tk.Score(e.Answer, true, &e); s != 1 {
				t.Fatalf("%v item %d: the oracle answer %q scores %v", p, i, e.Answer, s)
			}
		}
	}
}
