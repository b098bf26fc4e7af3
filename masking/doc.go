// Package masking turns multi-turn trajectories into training tensors:
// prompt ids, response ids, the response mask separating model tokens
// (1) from environment tokens (0), spans and per-step rewards. It has no
// code yet; single-turn scoring and datasets do not need it.
package masking
