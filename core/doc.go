// Package core is the model of llenvs-go: environments and their lifecycle
// (reset to a task, step with an action), tasks, actions, reward signals
// and their weighted total, the registry of environment adapters, and
// scoring in bulk. It has no cgo and no JSON library of its own choosing;
// the C ABI in capi/ is the only place that encodes. Answer extraction
// lives in package extract, cleaners in clean, strict configuration
// decoding in strictcfg.
package core
