// Package core is the model of llenvs-go: environments and their lifecycle,
// tasks, actions, reward signals and their weighted total, answer
// extractors and cleaners, the environment registry and strict
// configuration decoding. It has no cgo and no JSON library of its own
// choosing; the C ABI in capi/ is the only place that encodes.
package core
