package reasoninggym

import (
	"strings"
	"testing"
)

func TestRangeChecks(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string // "" for no error
	}{
		{"min ok", checkMin("t", "min_x", 1, 1), ""},
		{"min low", checkMin("t", "min_x", 0, 1), "invalid t config: min_x must be >= 1, got 0"},
		{"max ok", checkMax("t", "max_x", 37, 37), ""},
		{"max high", checkMax("t", "max_x", 40, 37), "invalid t config: max_x must be <= 37, got 40"},
		{"range ok", checkRange("t", "p", 0.5, 0.0, 1.0), ""},
		{"range high", checkRange("t", "p", 1.5, 0.0, 1.0), "invalid t config: p must be between 0 and 1, got 1.5"},
		{"order equal", checkOrder("t", "min_x", 3, "max_x", 3), ""},
		{"order wrong", checkOrder("t", "min_x", 3, "max_x", 2), "invalid t config: max_x (2) must be >= min_x (3)"},
		{"strict ok", checkStrictOrder("t", "min_v", int64(1), "max_v", int64(2)), ""},
		{"strict equal", checkStrictOrder("t", "min_v", 5.0, "max_v", 5.0), "invalid t config: max_v (5) must be > min_v (5)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if tt.err != nil {
				got = tt.err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFirstErrorKeepsOrder(t *testing.T) {
	err := firstError(nil, checkMin("t", "a", 0, 1), checkMin("t", "b", 0, 1))
	if err == nil || !strings.Contains(err.Error(), "a must be") {
		t.Errorf("firstError = %v, want the check of a", err)
	}
	if err := firstError(nil, nil); err != nil {
		t.Errorf("firstError(nil, nil) = %v", err)
	}
}
