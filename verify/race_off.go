//go:build !race

package verify

// timeScale stretches Budget.MaxTime (1: the budget as given; see race_on.go).
const timeScale = 1
