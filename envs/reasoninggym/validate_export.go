package reasoninggym

import "cmp"

// The range checks of validate.go, for environments outside this package
// that validate their configs the same way. Each returns nil when the
// value is valid and a ConfigError naming the field and the bound.

// FirstError returns the first of errs that is not nil.
func FirstError(errs ...error) error { return firstError(errs...) }

// CheckMin requires field >= lo.
func CheckMin[T cmp.Ordered](task, field string, v, lo T) error { return checkMin(task, field, v, lo) }

// CheckRange requires lo <= field <= hi.
func CheckRange[T cmp.Ordered](task, field string, v, lo, hi T) error {
	return checkRange(task, field, v, lo, hi)
}

// CheckStrictOrder requires the field maxField > the field minField.
func CheckStrictOrder[T cmp.Ordered](task, minField string, minV T, maxField string, maxV T) error {
	return checkStrictOrder(task, minField, minV, maxField, maxV)
}
