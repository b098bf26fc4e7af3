// Package reasoninggym holds native Go ports of reasoning-gym tasks. For the
// same (seed, index, config) each port produces the question, answer and
// metadata that reasoning-gym 0.1.25 produces, and scores answers exactly as
// its score_answer does. Random draws go through pycompat.Random, a call-for-call
// reproduction of CPython's random.Random.
//
// # Writing a task
//
// A task is one file, leg_counting.go being the example to copy, holding
// only the port of the task:
//
//   - its config, with reasoning-gym's defaults, and a factory passed to
//     Register in init, which decodes the config (decodeParams) and checks it
//     as the Python validate() does (checkMin, checkOrder, ..., ConfigError);
//   - Generate(r, idx), the port of __getitem__: r is already seeded as
//     reasoning-gym seeds item idx, and Generate must draw from it exactly
//     what the Python draws, call for call, in the same order. It returns
//     the question and the answer, and sets Entry.Meta to a func that builds
//     the metadata dict from the values it drew; that func draws nothing and
//     reads nothing that a later Generate changes;
//   - Score(answer, ok, e), the port of score_answer.
//
// Generate is written once, for every caller. The environment (Env) builds
// the metadata of every entry it keeps (the package function Generate), for
// scoring, reset and the metadata export; the bulk paths that need only the
// question and the answer (datasets: Env.TaskTextsBulk) never run Meta, which
// is where they save the cost of the metadata maps. Nothing else in a task
// file is about speed: the seeding of generators 32 at a time, their pooling
// and the parallelism are Env's.
//
// Tests compare a port with golden values recorded from the real package
// (questions, answers, metadata and scores); TestLazyMetadata checks the
// contract of Meta for every registered task, and TestBulkTextsMatchEntries
// that the bulk texts are those of the full entries.
package reasoninggym
