// Package masking turns multi-turn trajectories into training tensors:
// prompt ids, response ids, the response mask separating model tokens
// (1) from environment tokens (0), spans, per-token rewards and the
// truncation of the response to a token budget.
//
// Tokenisation stays with the caller (only the trainer's tokenizer gives
// the trainer's ids): the caller hands over every text fragment already
// tokenised, as one ragged int32 array (Fragments), and describes each
// trajectory as a list of Segments, each naming a fragment, its Source and
// the step it belongs to. Assemble lays the segments out, cuts the
// response at a maximum length and places each step's reward on the last
// model token of that step. AssembleBatch does it for many trajectories
// at once, in parallel, straight into flat Columns whose buffers the caller
// allocates once every size is known (the C ABI allocates the Arrow
// columns it hands out, so nothing is copied after masking).
package masking
