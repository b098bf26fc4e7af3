// shim.c: the exported C entry points. Each checks the fork guard before it
// enters Go (a Go runtime does not survive fork(), and entering it in a
// forked child hangs), then calls the Go implementation. llenvs_free and
// the reading of a Python tuple of str stay in C so that they never need
// the Go runtime.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "llenvs.h"
#include "_cgo_export.h"

static volatile int forked = 0;

static void mark_forked(void) { forked = 1; }

__attribute__((constructor)) static void install_fork_guard(void) {
    pthread_atfork(NULL, NULL, mark_forked);
}

/* The error buffer of llenvs.h for an error raised here, before Go is
 * entered. msg must need no JSON escaping. */
static void set_error(char **out, size_t *out_len, const char *kind, const char *msg) {
    if (out == NULL) return;
    size_t n = strlen(msg) + strlen(kind) + sizeof "{\"message\":\"\",\"kind\":\"\"}";
    char *p = malloc(n);
    if (p != NULL) snprintf(p, n, "{\"message\":\"%s\",\"kind\":\"%s\"}", msg, kind);
    *out = p;
    if (out_len != NULL) *out_len = p ? strlen(p) : 0;
}

static int32_t fork_error(char **out, size_t *out_len) {
    set_error(out, out_len, "forked",
              "llenvs-go cannot be used in a process forked after the library was loaded "
              "(the Go runtime does not survive fork); use the 'spawn' or 'forkserver' "
              "multiprocessing start method");
    return LLENVS_ERR_FORKED;
}

void llenvs_free(void *p) { free(p); }

int32_t llenvs_abi_version(void) { return LLENVS_ABI_VERSION; }

int32_t llenvs_set_max_procs(int32_t n) {
    if (forked) return LLENVS_ERR_FORKED;
    return llenvsgo_set_max_procs(n);
}

int64_t llenvs_live_handles(int32_t kind) {
    if (forked) return LLENVS_ERR_FORKED;
    return llenvsgo_live_handles(kind);
}

int32_t llenvs_call(const char *method, const char *req, size_t req_len, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_call((char *)method, (char *)req, req_len, out, out_len);
}

int32_t llenvs_env_new(const char *cfg, size_t cfg_len, uint64_t *handle, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_env_new((char *)cfg, cfg_len, handle, out, out_len);
}

int32_t llenvs_env_call(uint64_t handle, const char *method, const char *req, size_t req_len, char **out,
                        size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_env_call(handle, (char *)method, (char *)req, req_len, out, out_len);
}

int32_t llenvs_env_close(uint64_t handle) {
    if (forked) return LLENVS_ERR_FORKED;
    return llenvsgo_env_close(handle);
}

int32_t llenvs_env_reset(uint64_t handle, const char *req, size_t req_len, uint64_t *episode, char **out,
                         size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_env_reset(handle, (char *)req, req_len, episode, out, out_len);
}

int32_t llenvs_episode_step(uint64_t episode, int64_t step, uint64_t known, const char *text, int64_t text_len,
                            const char *tool_calls, size_t tool_calls_len, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_episode_step(episode, step, known, (char *)text, text_len, (char *)tool_calls, tool_calls_len, out,
                                 out_len);
}

int32_t llenvs_step_details(uint64_t details, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_step_details(details, out, out_len);
}

int32_t llenvs_step_details_close(const uint64_t *details, size_t n) {
    if (forked) return LLENVS_ERR_FORKED;
    return llenvsgo_step_details_close((uint64_t *)details, n);
}

int32_t llenvs_episode_close(uint64_t episode) {
    if (forked) return LLENVS_ERR_FORKED;
    return llenvsgo_episode_close(episode);
}

int32_t llenvs_env_new_columns(const char *cfg, size_t cfg_len, size_t n_columns, int64_t rows,
                               const void *const *offsets, const int32_t *offset_widths, const int64_t *starts,
                               const char *const *data, const int64_t *data_lens, const uint8_t *const *validity,
                               uint64_t *handle, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_env_new_columns((char *)cfg, cfg_len, n_columns, rows, (void **)offsets, (int32_t *)offset_widths,
                                    (int64_t *)starts, (char **)data, (int64_t *)data_lens, (uint8_t **)validity,
                                    handle, out, out_len);
}

int32_t llenvs_items_batch(uint64_t handle, const int64_t *indices, size_t n, const char *layout, size_t layout_len,
                           struct ArrowSchema *schema, struct ArrowArray *array, struct ArrowSchema *err_schema,
                           struct ArrowArray *err_array, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_items_batch(handle, (int64_t *)indices, n, (char *)layout, layout_len, schema, array, err_schema,
                                err_array, out, out_len);
}

int32_t llenvs_score_texts(uint64_t handle, const int64_t *indices, const char *const *texts, const int64_t *lens,
                           size_t n, int32_t columns, double *totals, double *values, uint8_t *flags,
                           struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_score_texts(handle, (int64_t *)indices, (char **)texts, (int64_t *)lens, n, columns, totals,
                                values, flags, schema, array, out, out_len);
}

int32_t llenvs_describe_texts(uint64_t handle, const int64_t *indices, const char *const *texts, const int64_t *lens,
                              size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out,
                              size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_describe_texts(handle, (int64_t *)indices, (char **)texts, (int64_t *)lens, n, schema, array, out,
                                   out_len);
}

int32_t llenvs_extract_texts(const char *spec, size_t spec_len, const char *const *texts, const int64_t *lens,
                             size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out,
                             size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_extract_texts((char *)spec, spec_len, (char **)texts, (int64_t *)lens, n, schema, array, out,
                                  out_len);
}

int32_t llenvs_clean_texts(const char *spec, size_t spec_len, const char *const *texts, const int64_t *lens,
                           size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out,
                           size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_clean_texts((char *)spec, spec_len, (char **)texts, (int64_t *)lens, n, schema, array, out,
                                out_len);
}

int32_t llenvs_parse_tool_calls(const char *spec, size_t spec_len, const char *const *texts, const int64_t *lens,
                                size_t n, struct ArrowSchema *schema, struct ArrowArray *array, char **out,
                                size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_parse_tool_calls((char *)spec, spec_len, (char **)texts, (int64_t *)lens, n, schema, array, out,
                                     out_len);
}

int32_t llenvs_code_run(const char *spec, size_t spec_len, const char *const *sources, const int64_t *source_lens,
                        const char *const *stdins, const int64_t *stdin_lens, size_t n, struct ArrowSchema *schema,
                        struct ArrowArray *array, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_code_run((char *)spec, spec_len, (char **)sources, (int64_t *)source_lens, (char **)stdins,
                             (int64_t *)stdin_lens, n, schema, array, out, out_len);
}

int32_t llenvs_code_check(const char *spec, size_t spec_len, const char *const *codes, const int64_t *code_lens,
                          const char *const *tests, const int64_t *test_lens, size_t n, struct ArrowSchema *schema,
                          struct ArrowArray *array, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_code_check((char *)spec, spec_len, (char **)codes, (int64_t *)code_lens, (char **)tests,
                               (int64_t *)test_lens, n, schema, array, out, out_len);
}

int32_t llenvs_env_reset_many(uint64_t handle, const int64_t *indices, size_t n, uint64_t *episodes,
                              struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_env_reset_many(handle, (int64_t *)indices, n, episodes, schema, array, out, out_len);
}

int32_t llenvs_episodes_step_texts(const uint64_t *episodes, int64_t *steps, const int64_t *which, size_t batch,
                                   const char *const *texts, const int64_t *lens, size_t n, double *totals,
                                   uint8_t *flags, int32_t close_done, struct ArrowSchema *schema,
                                   struct ArrowArray *array, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_episodes_step_texts((uint64_t *)episodes, steps, (int64_t *)which, batch, (char **)texts,
                                        (int64_t *)lens, n, totals, flags, close_done, schema, array, out, out_len);
}

/* The CPython API, handed in by the caller (from ctypes.pythonapi) so that
 * the library neither links against libpython nor guesses its symbols. */
typedef int (*gil_ensure_fn)(void);
typedef void (*gil_release_fn)(int);
typedef const char *(*as_utf8_fn)(void *, ptrdiff_t *);
typedef void (*err_clear_fn)(void);
typedef void *(*tuple_item_fn)(void *, ptrdiff_t);

static struct {
    gil_ensure_fn gil_ensure;
    gil_release_fn gil_release;
    as_utf8_fn as_utf8;
    err_clear_fn err_clear;
    tuple_item_fn tuple_item;
} py;

int32_t llenvs_set_python_api(void *gil_ensure, void *gil_release, void *as_utf8, void *err_clear,
                              void *tuple_item) {
    if (!gil_ensure || !gil_release || !as_utf8 || !err_clear || !tuple_item) return LLENVS_ERR_INVALID;
    py.gil_ensure = (gil_ensure_fn)gil_ensure;
    py.gil_release = (gil_release_fn)gil_release;
    py.as_utf8 = (as_utf8_fn)as_utf8;
    py.err_clear = (err_clear_fn)err_clear;
    py.tuple_item = (tuple_item_fn)tuple_item;
    return LLENVS_OK;
}

/* Collects the UTF-8 buffers of the str items of a Python tuple under the
 * GIL, without copying them (CPython caches each str's UTF-8 for the str's
 * lifetime; the caller keeps the tuple alive and Go does not keep the
 * pointers after the call). On LLENVS_OK, *ptrs and *lens are malloc'd and
 * the caller frees them; otherwise *out holds the error. fn names the entry
 * point, what an item ("response", "text"). */
static int32_t read_pytuple(const char *fn, const char *what, void *texts, size_t n, const char ***ptrs,
                            int64_t **lens, char **out, size_t *out_len) {
    char msg[160];
    if (py.gil_ensure == NULL) {
        snprintf(msg, sizeof msg, "%s: llenvs_set_python_api was not called", fn);
        set_error(out, out_len, "invalid", msg);
        return LLENVS_ERR_INVALID;
    }
    size_t m = n ? n : 1;
    *ptrs = malloc(m * sizeof **ptrs);
    *lens = malloc(m * sizeof **lens);
    if (*ptrs == NULL || *lens == NULL) {
        free(*ptrs);
        free(*lens);
        snprintf(msg, sizeof msg, "%s: out of memory", fn);
        set_error(out, out_len, "invalid", msg);
        return LLENVS_ERR_INVALID;
    }
    int bad = -1;
    int state = py.gil_ensure();
    for (size_t i = 0; i < n; i++) {
        ptrdiff_t size = 0;
        const char *p = py.as_utf8(py.tuple_item(texts, (ptrdiff_t)i), &size);
        if (p == NULL) {
            py.err_clear();
            bad = (int)i;
            break;
        }
        (*ptrs)[i] = p;
        (*lens)[i] = (int64_t)size;
    }
    py.gil_release(state);
    if (bad >= 0) {
        free(*ptrs);
        free(*lens);
        snprintf(msg, sizeof msg, "%s %d is not a str encodable as UTF-8", what, bad);
        set_error(out, out_len, "encoding", msg);
        return LLENVS_ERR_ENCODING;
    }
    return LLENVS_OK;
}

/* Scores the str items of a Python tuple without copying them (read_pytuple),
 * then releases the GIL for the Go work. */
int32_t llenvs_score_pytuple(uint64_t handle, const int64_t *indices, void *texts, size_t n, int32_t columns,
                             double *totals, double *values, uint8_t *flags, struct ArrowSchema *schema,
                             struct ArrowArray *array, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    const char **ptrs;
    int64_t *lens;
    int32_t rc = read_pytuple("llenvs_score_pytuple", "response", texts, n, &ptrs, &lens, out, out_len);
    if (rc != LLENVS_OK) return rc;
    rc = llenvsgo_score_texts(handle, (int64_t *)indices, (char **)ptrs, lens, n, columns, totals, values, flags,
                              schema, array, out, out_len);
    free(ptrs);
    free(lens);
    return rc;
}

/* Scores one Python str in place. The caller holds the GIL (ctypes' PyDLL)
 * and keeps it through the call; see llenvs.h for the result slots. */
int32_t llenvs_score_one(uint64_t handle, int64_t index, void *text, void *result) {
    int64_t *slots = result;
    char **out = (char **)&slots[4];
    size_t *out_len = (size_t *)&slots[5];
    if (forked) return fork_error(out, out_len);
    if (py.as_utf8 == NULL) {
        set_error(out, out_len, "invalid", "llenvs_score_one: llenvs_set_python_api was not called");
        return LLENVS_ERR_INVALID;
    }
    ptrdiff_t size = 0;
    const char *p = py.as_utf8(text, &size);
    if (p == NULL) {
        py.err_clear();
        set_error(out, out_len, "encoding", "response 0 is not a str encodable as UTF-8");
        return LLENVS_ERR_ENCODING;
    }
    return llenvsgo_score_one(handle, index, (char *)p, (int64_t)size, (double *)result);
}

/* Steps a batch of episodes with the str items of a Python tuple, read in
 * place by read_pytuple. */
int32_t llenvs_episodes_step_pytuple(const uint64_t *episodes, int64_t *steps, const int64_t *which, size_t batch,
                                     void *texts, size_t n, double *totals, uint8_t *flags, int32_t close_done,
                                     struct ArrowSchema *schema, struct ArrowArray *array, char **out,
                                     size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    const char **ptrs;
    int64_t *lens;
    int32_t rc = read_pytuple("llenvs_episodes_step_pytuple", "text", texts, n, &ptrs, &lens, out, out_len);
    if (rc != LLENVS_OK) return rc;
    rc = llenvsgo_episodes_step_texts((uint64_t *)episodes, steps, (int64_t *)which, batch, (char **)ptrs, lens, n,
                                      totals, flags, close_done, schema, array, out, out_len);
    free(ptrs);
    free(lens);
    return rc;
}

int32_t llenvs_mask_batch(const int32_t *tokens, const int64_t *token_offsets, size_t n_fragments,
                          const int32_t *segments, const int64_t *segment_offsets, const double *rewards,
                          const int64_t *reward_offsets, size_t n, int64_t max_length,
                          struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_mask_batch((int32_t *)tokens, (int64_t *)token_offsets, n_fragments, (int32_t *)segments,
                               (int64_t *)segment_offsets, (double *)rewards, (int64_t *)reward_offsets, n,
                               max_length, schema, array, out, out_len);
}

int32_t llenvs_tokenizer_new(const char *json, size_t json_len, uint64_t *handle, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_tokenizer_new((char *)json, json_len, handle, out, out_len);
}

int32_t llenvs_tokenizer_close(uint64_t handle) {
    if (forked) return LLENVS_ERR_FORKED;
    return llenvsgo_tokenizer_close(handle);
}

/* Masks trajectories whose text fragments are the str items of a Python
 * tuple, read in place by read_pytuple. */
int32_t llenvs_mask_pytexts(uint64_t tokenizer, void *texts, size_t n_texts, const int32_t *carried,
                            const int64_t *carried_offsets, size_t n_carried, const int32_t *segments,
                            const int64_t *segment_offsets, const double *rewards, const int64_t *reward_offsets,
                            size_t n, int64_t max_length, struct ArrowSchema *schema, struct ArrowArray *array,
                            char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    const char **ptrs;
    int64_t *lens;
    int32_t rc = read_pytuple("llenvs_mask_pytexts", "text", texts, n_texts, &ptrs, &lens, out, out_len);
    if (rc != LLENVS_OK) return rc;
    rc = llenvsgo_mask_texts(tokenizer, (char **)ptrs, lens, n_texts, (int32_t *)carried, (int64_t *)carried_offsets,
                             n_carried, (int32_t *)segments, (int64_t *)segment_offsets, (double *)rewards,
                             (int64_t *)reward_offsets, n, max_length, schema, array, out, out_len);
    free(ptrs);
    free(lens);
    return rc;
}

/* Math answers: thin entry points over capi/mathverify.go. */
int32_t llenvs_math_parse(const char *buf, const int64_t *offsets, size_t n, const char *cfg, size_t cfg_len,
                          struct ArrowSchema *schema, struct ArrowArray *array, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_math_parse((char *)buf, (int64_t *)offsets, n, (char *)cfg, cfg_len, schema, array, out, out_len);
}

int32_t llenvs_math_verify_batch(const uint8_t *gold_kinds, const char *golds, const int64_t *gold_offsets,
                                 const int64_t *gold_items, const uint8_t *pred_kinds, const char *preds,
                                 const int64_t *pred_offsets, const int64_t *pred_items, size_t n, const char *opts,
                                 size_t opts_len, double *scores, uint8_t *verdicts,
                                 struct ArrowSchema *reasons_schema, struct ArrowArray *reasons_array, char **out,
                                 size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_math_verify_batch((uint8_t *)gold_kinds, (char *)golds, (int64_t *)gold_offsets,
                                      (int64_t *)gold_items, (uint8_t *)pred_kinds, (char *)preds,
                                      (int64_t *)pred_offsets, (int64_t *)pred_items, n, (char *)opts, opts_len,
                                      scores, verdicts, reasons_schema, reasons_array, out, out_len);
}

int32_t llenvs_math_verify(uint8_t gold_kind, uint8_t pred_kind, const char *buf, const int64_t *offsets,
                           size_t gold_count, size_t pred_count, const char *opts, size_t opts_len, uint8_t *verdict,
                           char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_math_verify_one(gold_kind, pred_kind, (char *)buf, (int64_t *)offsets, gold_count, pred_count,
                                    (char *)opts, opts_len, verdict, out, out_len);
}

/* One response of a veRL data source: a thin entry point over capi/recipes.go. */
int32_t llenvs_recipe_score(const char *source, size_t source_len, const char *solution, size_t solution_len,
                            const char *truth, size_t truth_len, llenvs_recipe_result *result) {
    if (result == NULL) return LLENVS_ERR_INVALID;
    result->out = NULL;
    result->out_len = 0;
    if (forked) return fork_error(&result->out, &result->out_len);
    return llenvsgo_recipe_score_one((char *)source, source_len, (char *)solution, solution_len, (char *)truth,
                                     truth_len, result);
}

/* Frameworks' scoring rules: a thin entry point over capi/recipes.go. */
int32_t llenvs_recipe_score_batch(const char *sources, const int64_t *source_offsets, const char *solutions,
                                  const int64_t *solution_offsets, const char *truths, const int64_t *truth_offsets,
                                  size_t n, double *scores, uint8_t *statuses, uint8_t *flags,
                                  struct ArrowSchema *details_schema, struct ArrowArray *details_array, char **out,
                                  size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_recipe_score_batch((char *)sources, (int64_t *)source_offsets, (char *)solutions,
                                       (int64_t *)solution_offsets, (char *)truths, (int64_t *)truth_offsets, n,
                                       scores, statuses, flags, details_schema, details_array, out, out_len);
}

void *llenvs_alloc(size_t n) { return malloc(n > 0 ? n : 1); }

int32_t llenvs_serve_start(const char *cfg, size_t cfg_len, llenvs_score_fn score_fn, uint64_t *server, char **out,
                           size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_serve_start((char *)cfg, cfg_len, score_fn, server, out, out_len);
}

int32_t llenvs_serve_stop(uint64_t server, double timeout_seconds, char **out, size_t *out_len) {
    if (forked) return fork_error(out, out_len);
    return llenvsgo_serve_stop(server, timeout_seconds, out, out_len);
}
