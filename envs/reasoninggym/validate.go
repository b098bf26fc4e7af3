package reasoninggym

import "cmp"

// The range checks of the tasks' configs, worded like the assertions of
// reasoning-gym's validate(). Each returns nil when the value is valid and
// a ConfigError that names the field and the bound otherwise; a config
// lists its checks in validate()'s order and reports the first failure
// with firstError.

// firstError returns the first of errs that is not nil.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkMin requires field >= lo.
func checkMin[T cmp.Ordered](task, field string, v, lo T) error {
	if !(v >= lo) {
		return ConfigError(task, "%s must be >= %v, got %v", field, lo, v)
	}
	return nil
}

// checkMax requires field <= hi.
func checkMax[T cmp.Ordered](task, field string, v, hi T) error {
	if !(v <= hi) {
		return ConfigError(task, "%s must be <= %v, got %v", field, hi, v)
	}
	return nil
}

// checkRange requires lo <= field <= hi.
func checkRange[T cmp.Ordered](task, field string, v, lo, hi T) error {
	if !(v >= lo && v <= hi) {
		return ConfigError(task, "%s must be between %v and %v, got %v", field, lo, hi, v)
	}
	return nil
}

// checkOrder requires the field maxField >= the field minField.
func checkOrder[T cmp.Ordered](task, minField string, minV T, maxField string, maxV T) error {
	if !(maxV >= minV) {
		return ConfigError(task, "%s (%v) must be >= %s (%v)", maxField, maxV, minField, minV)
	}
	return nil
}

// checkStrictOrder requires the field maxField > the field minField.
func checkStrictOrder[T cmp.Ordered](task, minField string, minV T, maxField string, maxV T) error {
	if !(maxV > minV) {
		return ConfigError(task, "%s (%v) must be > %s (%v)", maxField, maxV, minField, minV)
	}
	return nil
}
