/* llenvs.h: the C ABI of libllenvs, the contract between the Go core and
 * its callers. Every function returns a status (0 = OK, negative = an error
 * class below) unless noted. Result and error buffers are allocated with
 * malloc and must be released with llenvs_free. Configurations, options,
 * specs and errors travel as UTF-8 JSON; bulk inputs (responses, indices,
 * rewards) as raw arrays; bulk results of variable size as Arrow record
 * batches in caller-allocated ArrowSchema/ArrowArray structs (the Arrow C
 * Data Interface, below), which the caller releases through their own
 * release callbacks.
 *
 * On error *out holds a NUL-terminated UTF-8 JSON object:
 *   {"message": "...", "kind": "...", "key": "...", "suggestion": "...", "valid": ["...", ...]}
 * message is the human-readable text. kind is "invalid", "unknown_key",
 * "not_found", "index", "handle", "stale", "panic", "forked" or "encoding".
 * key (the unknown key or name), suggestion (the nearest valid one, when
 * one is close enough to be a plausible typo) and
 * valid (every valid one, sorted) are present only when known: for an
 * unknown configuration key (kind "unknown_key", status LLENVS_ERR_INVALID)
 * and an unknown name (kind "not_found", status LLENVS_ERR_NOT_FOUND).
 *
 * Lifecycle: llenvs_env_reset starts an episode of an environment and
 * returns its handle with {"observation", "hidden", "info", "version"};
 * llenvs_episode_step (below) advances it. Handles of environments,
 * episodes, tokenizers and step details are tagged by kind; using one as
 * another, or after it was closed, is LLENVS_ERR_HANDLE.
 * llenvs_live_handles(kind) counts the live handles of a kind
 * (LLENVS_KIND_ALL: all).
 *
 * Scoring (llenvs_score_texts, llenvs_score_pytuple): totals[n] and
 * values[n * signals] are filled; flags[n] (optional) gets LLENVS_ITEM_FOUND
 * when an answer was extracted and LLENVS_ITEM_ERROR when scoring failed
 * (with LLENVS_ITEM_TIMEOUT when it stopped at its budget). With
 * LLENVS_SCORE_ANSWERS in columns, schema and array get a record batch
 * (answer nullable utf8: null where nothing was extracted; error nullable
 * utf8: why the item failed). llenvs_describe_texts gives, per item, what
 * its metadata holds besides the answer (extraction: the extractor's
 * description as a JSON object; expected: the task's ground truth; both
 * nullable utf8), extracting again and scoring nothing.
 *
 * Many episodes at once (capi/episodes_batch.go): llenvs_env_reset_many
 * starts one episode per index into episodes[n] and fills schema and array
 * with a record batch of n rows: prompt (utf8, the first prompt) and
 * ground_truth (nullable utf8). llenvs_episodes_step_texts steps
 * episodes[which[k]] (of a batch of `batch` episodes, none twice) from step
 * steps[which[k]] with texts[k], advancing steps[which[k]], filling
 * totals[n] (the weighted reward) and flags[n] (LLENVS_EPISODE_*), closing
 * the episodes that ended when close_done != 0, and fills schema and array
 * with a record batch of n rows: prompt (nullable utf8, the next prompt;
 * null where flags has LLENVS_EPISODE_ERROR) and error (nullable utf8, that
 * step's error message; null elsewhere). llenvs_episodes_step_pytuple takes
 * a Python tuple of str (read in place, as llenvs_score_pytuple does). The
 * Arrow structs are the caller's, filled only on success (as for
 * llenvs_items_batch below); the caller releases each with its own release
 * callback. */
#ifndef LLENVS_H
#define LLENVS_H

#include <stddef.h>
#include <stdint.h>

#define LLENVS_ABI_VERSION 12

#define LLENVS_OK 0
#define LLENVS_ERR_INVALID -1
#define LLENVS_ERR_HANDLE -2
#define LLENVS_ERR_INDEX -3
#define LLENVS_ERR_PANIC -4
#define LLENVS_ERR_FORKED -5
#define LLENVS_ERR_NOT_FOUND -6
#define LLENVS_ERR_ENCODING -7
#define LLENVS_ERR_STALE -8

/* Handle kinds: every handle refers to one kind of Go object. */
/* The Arrow C Data Interface structs, as the Arrow specification defines
 * them (bulk results are record batches in this form). */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_NULLABLE 2
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};
struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};
#endif

#define LLENVS_KIND_ALL 0
#define LLENVS_KIND_ENVIRONMENT 1
#define LLENVS_KIND_EPISODE 2
#define LLENVS_KIND_TOKENIZER 3
#define LLENVS_KIND_STEP_DETAILS 4
#define LLENVS_KIND_SERVER 5

#define LLENVS_ITEM_FOUND 1
#define LLENVS_ITEM_ERROR 2
#define LLENVS_ITEM_SPAN 4
#define LLENVS_ITEM_TIMEOUT 8

#define LLENVS_EPISODE_TERMINATED 1
#define LLENVS_EPISODE_TRUNCATED 2
#define LLENVS_EPISODE_ERROR 4

int32_t llenvs_abi_version(void);
void llenvs_free(void *p);
/* llenvs_set_max_procs: n <= 0 returns GOMAXPROCS unchanged; 1 <= n <=
 * max(64, 4 * the CPUs the process may use) (llenvs_call "info" gives it as
 * "max_procs_limit") sets it and returns the previous value; a larger n
 * changes nothing and returns LLENVS_ERR_INVALID. */
int32_t llenvs_set_max_procs(int32_t n);
int64_t llenvs_live_handles(int32_t kind);
int32_t llenvs_call(const char *method, const char *req, size_t req_len, char **out, size_t *out_len);
int32_t llenvs_env_new(const char *cfg, size_t cfg_len, uint64_t *handle, char **out, size_t *out_len);
int32_t llenvs_env_call(uint64_t handle, const char *method, const char *req, size_t req_len, char **out, size_t *out_len);
int32_t llenvs_env_close(uint64_t handle);
int32_t llenvs_env_reset(uint64_t handle, const char *req, size_t req_len, uint64_t *episode, char **out, size_t *out_len);
int32_t llenvs_episode_close(uint64_t episode);
int32_t llenvs_env_reset_many(uint64_t handle, const int64_t *indices, size_t n, uint64_t *episodes, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_episodes_step_texts(const uint64_t *episodes, int64_t *steps, const int64_t *which, size_t batch, const char *const *texts, const int64_t *lens, size_t n, double *totals, uint8_t *flags, int32_t close_done, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_episodes_step_pytuple(const uint64_t *episodes, int64_t *steps, const int64_t *which, size_t batch, void *texts, size_t n, double *totals, uint8_t *flags, int32_t close_done, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
/* Dataset rows (capi/arrow.go): the rows of tasks indices[n] as a record
 * batch (task_index int64, prompt utf8, ground_truth nullable utf8,
 * messages list<struct<role utf8, content utf8>>) in schema and array, and
 * the tasks that failed as a second batch (position int64: in indices,
 * message utf8) in err_schema and err_array. All four are the caller's
 * structs, filled only on success; the caller releases each with its own
 * release callback. */
int32_t llenvs_items_batch(uint64_t handle, const int64_t *indices, size_t n, const char *layout, size_t layout_len, struct ArrowSchema *schema, struct ArrowArray *array, struct ArrowSchema *err_schema, struct ArrowArray *err_array, char **out, size_t *out_len);
#define LLENVS_SCORE_ANSWERS 1
int32_t llenvs_score_texts(uint64_t handle, const int64_t *indices, const char *const *texts, const int64_t *lens, size_t n, int32_t columns, double *totals, double *values, uint8_t *flags, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_describe_texts(uint64_t handle, const int64_t *indices, const char *const *texts, const int64_t *lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
/* Extraction and cleaning (capi/extract_call.go), of n texts (texts[k],
 * lens[k] bytes, read during the call only; lone surrogates as
 * "surrogatepass" writes them, each one character). llenvs_extract_texts
 * takes an extractor spec (JSON: {"extractor": {"type", "config"} | [...],
 * "pre_cleaners": [...] | null, "post_cleaners": [...] | null}) and fills
 * schema and array with a record batch of n rows: answer (nullable utf8:
 * null where nothing was found) and metadata (utf8, a JSON object).
 * llenvs_clean_texts takes a cleaner spec (JSON: {"kind": "pre" | "post",
 * "cleaners": [...]}) and fills them with one column, text (utf8: the text
 * through the cleaners in order). The Arrow structs are the caller's,
 * filled only on success. */
int32_t llenvs_extract_texts(const char *spec, size_t spec_len, const char *const *texts, const int64_t *lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_clean_texts(const char *spec, size_t spec_len, const char *const *texts, const int64_t *lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
/* llenvs_parse_tool_calls reads the tool calls of n texts (as above) in
 * one tool-call format, with the spec (JSON: {"format": a name of
 * llenvs_call "tool_call_formats", "id_prefix": str, "limit": 1..4096}),
 * and fills schema and array with one row per text: calls (a list of
 * structs {id, name, arguments, error}, all utf8, one per call in order:
 * arguments is the JSON object of the call's arguments, keys sorted; error
 * is null for a well-formed call, else why it is not one) and more (uint8,
 * 1 when calls beyond the limit were left unread). Call ids are id_prefix,
 * the text's position, "_" and the call's position. */
int32_t llenvs_parse_tool_calls(const char *spec, size_t spec_len, const char *const *texts, const int64_t *lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
/* llenvs_code_run runs n programs, sources[k] with stdin stdins[k] (as
 * texts above), in the sandbox's warm pool (sandbox/, docs/sandbox.md),
 * under the spec (JSON: {"interpreter": a Python executable, "isolation":
 * "namespaces" | "none", "concurrency", "mode": "main" | "function_check",
 * "timeout", "cpu_time" (seconds), "memory", "tmpfs", "output",
 * "file_size" (bytes), "procs", "open_files"}; 0 or absent is the
 * default). It fills schema and array with one row per program: status
 * (utf8: ok, error, timeout, memory, output_limit, killed), exit_code and
 * signal (int64; -1 and 0 for none), stdout and stderr (utf8),
 * stdout_truncated and stderr_truncated (uint8), wall and cpu (float64
 * seconds), verdict and reason (utf8). It returns when every program has
 * ended; an error means none was run. */
int32_t llenvs_code_run(const char *spec, size_t spec_len, const char *const *sources, const int64_t *source_lens, const char *const *stdins, const int64_t *stdin_lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
/* llenvs_code_check checks n programs, codes[k], against the test cases
 * tests[k] (as texts above: JSON {"inputs": [...], "outputs": [...],
 * "fn_name": str or null} of stdin/stdout or call-based cases, a JSON list
 * of assert statements, or lines that are all asserts), each test one run
 * in the sandbox's warm pool under the spec (as llenvs_code_run's, "mode"
 * unused). It fills schema and array with one row per program: results (a
 * list of utf8, one verdict per test run: passed, failed, timeout, memory,
 * output_limit, killed; stdin/stdout tests past the tenth run only when the
 * first ten pass), total (int64, the number of tests), score (float64: 1
 * when all pass, else prime_code's continuous score), status (utf8:
 * correct, incorrect, timeout) and feedback (utf8). Unreadable test cases
 * are an error naming the item, and then nothing runs. */
int32_t llenvs_code_check(const char *spec, size_t spec_len, const char *const *codes, const int64_t *code_lens, const char *const *tests, const int64_t *test_lens, size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_set_python_api(void *gil_ensure, void *gil_release, void *as_utf8, void *err_clear, void *tuple_item);
int32_t llenvs_score_pytuple(uint64_t handle, const int64_t *indices, void *texts, size_t n, int32_t columns, double *totals, double *values, uint8_t *flags, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
/* One response, a Python str read in place, for a caller that holds the GIL
 * (it is not released: the call lasts about a microsecond). result has 6 +
 * signals 8-byte slots: the total (double), the LLENVS_ITEM_* flags, the
 * answer's span start and end (int64, when LLENVS_ITEM_SPAN), the error
 * buffer and its length (set when the call fails), then one double per
 * signal. */
int32_t llenvs_score_one(uint64_t handle, int64_t index, void *text, void *result);
/* Masking (llenvs_mask_batch): n trajectories over a table of tokenised
 * fragments, fragment f = tokens[token_offsets[f] .. token_offsets[f+1]).
 * Trajectory i is segments[segment_offsets[i] .. segment_offsets[i+1]),
 * each segment three int32 (fragment, source 0 prompt / 1 model /
 * 2 environment, step), with one reward per step in
 * rewards[reward_offsets[i] .. reward_offsets[i+1]). max_length < 0 leaves
 * responses uncut. On success schema and array (the caller's structs,
 * released with their own release callbacks) get an Arrow record batch of
 * one row per trajectory: prompt_ids and response_ids (list<int32>),
 * response_mask (list<uint8>: 1 model token, 0 environment token),
 * token_rewards (list<float64>, one per response token), spans
 * (list<struct<start, end, source, step, fragment: int32>>: start and end
 * count the row's response tokens, fragment is the caller's index),
 * reward_at (list<int32>: per step, the response position its reward went
 * to, -1 when nowhere) and truncated (uint8: 1 when the response was cut).
 * On error *out gets the error JSON and the structs are left untouched. */
int32_t llenvs_mask_batch(const int32_t *tokens, const int64_t *token_offsets, size_t n_fragments, const int32_t *segments, const int64_t *segment_offsets, const double *rewards, const int64_t *reward_offsets, size_t n, int64_t max_length, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
/* Tokenizers (llenvs_tokenizer_new): a byte-level BPE tokenizer.json
 * (Qwen2/3, Llama 3 style; anything else is LLENVS_ERR_INVALID and the
 * caller tokenizes itself) as a LLENVS_KIND_TOKENIZER handle; *out gets
 * {"nfc": bool}, whether texts must be NFC-normalized first.
 * llenvs_mask_pytexts is llenvs_mask_batch whose fragments are the n_texts
 * str of a Python tuple, tokenized in Go without special tokens, followed
 * by n_carried id fragments (carried[carried_offsets[i] .. [i+1])); there a
 * segment's fragment -1-k names carried fragment k. */
int32_t llenvs_tokenizer_new(const char *json, size_t json_len, uint64_t *handle, char **out, size_t *out_len);
int32_t llenvs_tokenizer_close(uint64_t handle);
int32_t llenvs_mask_pytexts(uint64_t tokenizer, void *texts, size_t n_texts, const int32_t *carried, const int64_t *carried_offsets, size_t n_carried, const int32_t *segments, const int64_t *segment_offsets, const double *rewards, const int64_t *reward_offsets, size_t n, int64_t max_length, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);

/* Question/answer rows (llenvs_env_new_columns): llenvs_env_new for the
 * huggingface adapter (envs/dataset), whose rows come as n_columns Arrow
 * string columns of `rows` rows each, named in order by params.columns of
 * cfg. Column k: value offsets (int32 when offset_widths[k] is 4, int64
 * when 8; rows+1 of them from entry starts[k]), UTF-8 data (data_lens[k]
 * bytes) and validity bitmap (NULL when no cell is missing; bit
 * starts[k]+i is row i). The columns are copied before the call returns. */
int32_t llenvs_env_new_columns(const char *cfg, size_t cfg_len, size_t n_columns, int64_t rows, const void *const *offsets, const int32_t *offset_widths, const int64_t *starts, const char *const *data, const int64_t *data_lens, const uint8_t *const *validity, uint64_t *handle, char **out, size_t *out_len);

/* Math answers (capi/mathverify.go). Strings cross as one UTF-8 buffer and
 * m+1 int64 offsets (string j is buf[offsets[j] .. offsets[j+1])).
 * llenvs_math_parse finds and parses the answer of each of n texts under
 * the extraction configuration cfg (JSON; empty: the default) and fills
 * the caller's schema and array with a record batch of n rows: values
 * list<struct<encoding utf8, display utf8, kind utf8>> (what math-verify's
 * parse returns; empty when the parse failed) and error (nullable utf8:
 * why the parse failed, null otherwise). llenvs_math_verify_batch compares
 * gold item i with pred item i. On each side, kinds[i] says what item i is:
 * LLENVS_MATH_TEXT, a text to parse (one string), or LLENVS_MATH_VALUES,
 * values as parse returned them (their encodings, any number of strings);
 * item i is strings items[i] .. items[i+1]-1. kinds NULL: every item is a
 * text; items NULL: item i is string i. opts (JSON) holds float_rounding,
 * numeric_precision, strict, allow_set_relation_comp, gold_extraction,
 * pred_extraction and reasons. scores[n] (1.0 or 0.0) and verdicts[n] (1
 * or 0) are filled when not NULL; with reasons, reasons_schema and
 * reasons_array (then required) get a record batch of one utf8 column,
 * reason, one per pair. llenvs_math_verify is one pair: the gold is
 * strings 0 .. gold_count-1 and the prediction strings gold_count ..
 * gold_count+pred_count-1 (gold_count+pred_count+1 offsets); with
 * reasons, *out gets the pair's reason as UTF-8 text (not JSON) and must
 * be freed. */
#define LLENVS_MATH_TEXT 0
#define LLENVS_MATH_VALUES 1
int32_t llenvs_math_parse(const char *buf, const int64_t *offsets, size_t n, const char *cfg, size_t cfg_len, struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len);
int32_t llenvs_math_verify_batch(const uint8_t *gold_kinds, const char *golds, const int64_t *gold_offsets, const int64_t *gold_items, const uint8_t *pred_kinds, const char *preds, const int64_t *pred_offsets, const int64_t *pred_items, size_t n, const char *opts, size_t opts_len, double *scores, uint8_t *verdicts, struct ArrowSchema *reasons_schema, struct ArrowArray *reasons_array, char **out, size_t *out_len);
int32_t llenvs_math_verify(uint8_t gold_kind, uint8_t pred_kind, const char *buf, const int64_t *offsets, size_t gold_count, size_t pred_count, const char *opts, size_t opts_len, uint8_t *verdict, char **out, size_t *out_len);
int32_t llenvs_recipe_score_batch(const char *sources, const int64_t *source_offsets, const char *solutions, const int64_t *solution_offsets, const char *truths, const int64_t *truth_offsets, size_t n, double *scores, uint8_t *statuses, uint8_t *flags, struct ArrowSchema *details_schema, struct ArrowArray *details_array, char **out, size_t *out_len);
typedef struct {
    double score;
    uint8_t status, flags;
    char *pred;        /* the caller's buffer of pred_cap bytes, for the pred of a dict family */
    size_t pred_cap;
    size_t pred_len;   /* the pred's length; when over pred_cap, nothing was copied: call again */
    char *out;         /* the error buffer, on error */
    size_t out_len;
} llenvs_recipe_result;
int32_t llenvs_recipe_score(const char *source, size_t source_len, const char *solution, size_t solution_len, const char *truth, size_t truth_len, llenvs_recipe_result *result);

/* One step of an episode (llenvs_episode_step): the action is
 * text[text_len] (text_len < 0: no text, else valid UTF-8) and tool_calls,
 * a JSON array of {"id", "name", "arguments"} (tool_calls_len 0: none);
 * step is the state's step count, checked for environments that are not
 * pure_step. The conversation is not sent again: the caller keeps the last
 * observation it was sent under a version number (llenvs_env_reset's reply
 * has it as "version"); caller_version names it. *out gets one JSON array
 *   [bits, version, keep, prompt, new_messages, tool_results,
 *    available_tools, task, state, signals, extracted_action,
 *    resolved_action, details]
 * bits holds LLENVS_STEP_*: without LLENVS_STEP_OBSERVATION the
 * observation is unchanged (and its fields are null); otherwise its
 * messages are the first keep messages of version caller_version followed by
 * new_messages, and available_tools, task and state are null when they are
 * the same as in version caller_version (their LLENVS_STEP_SAME_* bit). An unknown
 * or stale caller_version (0 included) gets keep 0 and every field. The observation
 * is then version `version`. Each signal is [name, reward_type, reward,
 * feedback, weight, has_metadata] (0: its metadata is null, 1: a JSON
 * object in the details). details is a LLENVS_KIND_STEP_DETAILS handle:
 * llenvs_step_details(details) returns the step's info and the metadata of
 * its signals, the JSON array [info, [metadata of each signal]], and closes
 * it (an environment may build them only then); llenvs_step_details_close
 * closes n that were not read (LLENVS_ERR_HANDLE if one was not live; the
 * others are closed). */
#define LLENVS_STEP_TERMINATED 1
#define LLENVS_STEP_TRUNCATED 2
#define LLENVS_STEP_OBSERVATION 4
#define LLENVS_STEP_SAME_TASK 8
#define LLENVS_STEP_SAME_STATE 16
#define LLENVS_STEP_SAME_TOOLS 32
int32_t llenvs_episode_step(uint64_t episode, int64_t step, uint64_t caller_version, const char *text, int64_t text_len, const char *tool_calls, size_t tool_calls_len, char **out, size_t *out_len);
int32_t llenvs_step_details(uint64_t details, char **out, size_t *out_len);
int32_t llenvs_step_details_close(const uint64_t *details, size_t n);

/* Serving (package serving): an HTTP server on the scoring core, in its own
 * goroutines. cfg is JSON {"environments": [{"name": str, "reference": str,
 * and either "environment": an environment handle, or "callback": an id
 * given back to score_fn, "signals": [names], "size": tasks}], "labels":
 * "math"|"exact", "host": str, "port": int, "token": str, "limits":
 * {"concurrency", "queue", "max_body_bytes", "max_items", and in seconds
 * "request_timeout", "read_header_timeout", "read_timeout", "idle_timeout",
 * "retry_after"}}. *server gets a LLENVS_KIND_SERVER handle and *out the
 * JSON {"address": "host:port", "limits": {...}}.
 *
 * score_fn (NULL when no environment has a "callback") scores the items of
 * a caller-defined environment: it is called from server threads with the
 * JSON request {"callback": id, "op": "score", "task_indices": [...],
 * "responses": [...]} or {"callback": id, "op": "truths", "task_indices":
 * [...]}, and sets *out to a buffer from llenvs_alloc holding the JSON
 * reply ({"totals", "statuses", "answers", "values", "errors"} lists, or
 * {"truths": [str or null]}); a non-zero return makes every item of the
 * call an error. llenvs_serve_stop stops accepting, waits up to
 * timeout_seconds for accepted requests to be answered, closes the server
 * and sets *out to {"drained": bool}. */
typedef int32_t (*llenvs_score_fn)(const char *req, size_t req_len, char **out, size_t *out_len);
void *llenvs_alloc(size_t n);
int32_t llenvs_serve_start(const char *cfg, size_t cfg_len, llenvs_score_fn score_fn, uint64_t *server, char **out, size_t *out_len);
int32_t llenvs_serve_stop(uint64_t server, double timeout_seconds, char **out, size_t *out_len);

#endif
