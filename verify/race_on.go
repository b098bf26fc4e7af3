//go:build race

package verify

// timeScale stretches Budget.MaxTime under the race detector, which runs
// code 5-20 times slower: the step limits still bound the work, and a test
// of a verdict does not turn into a budget error.
const timeScale = 20
