// Package serving is the HTTP face of the scoring core: the wire formats
// trainers already speak (OpenRLHF's remote reward model protocol, a batch
// endpoint of our own, NeMo-Gym's /verify), health, readiness and
// Prometheus metrics, served by net/http on goroutines that never touch
// Python.
//
// What it scores is a set of named Scorers (an environment's SingleTurn
// scoring, or a Scorer the caller supplies, such as one that calls back
// into Python), plus rules for labels that are ground truths: the last
// \boxed{} verified against the label as math, or compared as text, and
// veRL's data-source routing (package recipes).
//
// Under load and faults the server holds these promises:
//   - admission is bounded: at most Limits.Concurrency requests are scored
//     at once and at most Limits.Queue more wait (reading their body
//     included); beyond that a request is refused with 429 and Retry-After,
//     and while shutting down with 503 and Retry-After, never queued
//     without bound;
//   - a request's deadline (Limits.RequestTimeout) stops the work between
//     chunks of items: items not reached by then are answered with status
//     "timeout", never dropped and never scored as wrong;
//   - bodies are capped (Limits.MaxBodyBytes, 413), and so are items per
//     request (Limits.MaxItems, 413); headers and bodies must arrive within
//     their read timeouts, so that a slow client holds a queue place for a
//     bounded time and never a worker;
//   - Shutdown stops accepting, lets every accepted request finish and be
//     answered, then returns;
//   - malformed JSON, wrong types and unknown names are a 4xx with a JSON
//     body {"error": "..."} naming the problem; the server keeps serving.
//
// Requests are untrusted: nothing in one names a file, a module or a
// dataset to load. A label that refers to an environment is scored only
// when the server serves that environment. An optional bearer token guards
// every endpoint but /health, compared in constant time.
package serving
