//go:build !linux

package verify

import "time"

// threadCPUTime is unavailable here: the budget falls back to wall-clock time.
func threadCPUTime() (time.Duration, bool) { return 0, false }
