package reasoninggym

import "testing"

// mustTask builds a task or fails the test.
func mustTask(t *testing.T, name string, params map[string]any) Task {
	t.Helper()
	task, err := NewTask(name, Options{Params: params})
	if err != nil {
		t.Fatalf("NewTask(%s, %v): %v", name, params, err)
	}
	return task
}

// mustGenerate generates item idx of the dataset seeded seed, as
// reasoning-gym does (random.Random(seed + idx)), or fails the test.
func mustGenerate(t *testing.T, task Task, seed, idx int64) Entry {
	t.Helper()
	var r Random
	r.SeedSum(seed, idx)
	e, err := task.Generate(&r, idx)
	if err != nil {
		t.Fatalf("Generate(%d, %d): %v", seed, idx, err)
	}
	return e
}
