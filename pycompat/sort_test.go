package pycompat

import (
	"math"
	"slices"
	"testing"
)

// Expected orders are sorted(range(n), key=vals.__getitem__[, reverse=True])
// from CPython 3.11, whose timsort leaves NaNs where its runs put them.
func TestSortedIndices(t *testing.T) {
	nan := math.NaN()
	small := []float64{3, nan, 1, 2, nan, 0}
	if got := SortedIndices(small, false); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("ascending small = %v", got)
	}
	if got := SortedIndices(small, true); !slices.Equal(got, []int{0, 1, 3, 2, 4, 5}) {
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
	if got := SortedIndices(long, false); !slices.Equal(got, wantAsc) {
		t.Errorf("ascending long = %v", got)
	}
	if got := SortedIndices(long, true); !slices.Equal(got, wantDesc) {
		t.Errorf("descending long = %v", got)
	}
}
