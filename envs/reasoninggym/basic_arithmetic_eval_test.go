package reasoninggym

import "testing"

func TestEvalFloorDiv(t *testing.T) {
	// Values of Python's eval(expr.replace("/", "//")).
	cases := map[string]string{
		"7/2":                "3",
		"-7/2":               "-4",
		"7/-2":               "-4",
		"-7/-2":              "3",
		"3--5":               "8",
		"2*-3":               "-6",
		"-(-(4))":            "4",
		"-(3+4)/2":           "-4",
		"1 + 2 * 3 - 4 / 2":  "5",
		"-5*-6":              "30",
		"(2+3)*(4-6)/3":      "-4",
		"99999999999*999999": "99999899999000001",
		"-9/1/-2":            "4",
		"10-2-3":             "5",
	}
	for expr, want := range cases {
		got, err := evalFloorDiv(expr)
		if err != nil || got.String() != want {
			t.Errorf("eval(%q) = %v, %v; want %s", expr, got, err, want)
		}
	}
	for _, expr := range []string{"1/0", "3/(2-2)", "(1", "1+", "", "1 2"} {
		if _, err := evalFloorDiv(expr); err == nil {
			t.Errorf("eval(%q) succeeded, want an error", expr)
		}
	}
}
