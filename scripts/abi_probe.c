/* abi_probe.c: loads a built libllenvs.so the way a C caller would and checks
 * that it works: the ABI version, "info", a leg_counting environment, an
 * episode, and a scored batch (the expected answer right, a wrong one and
 * no tags give 1, 0, 0). Used by scripts/foreign_arch_check.sh to run a
 * cross-compiled library under qemu-user; prints one line per check and
 * exits non-zero on the first failure.
 *
 *     abi_probe path/to/libllenvs.so EXPECTED_ABI_VERSION
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int32_t (*abi_fn)(void);
typedef void (*free_fn)(void *);
typedef int32_t (*call_fn)(const char *, const char *, size_t, char **, size_t *);
typedef int32_t (*env_new_fn)(const char *, size_t, uint64_t *, char **, size_t *);
typedef int32_t (*env_reset_fn)(uint64_t, const char *, size_t, uint64_t *, char **, size_t *);
/* llenvs_score_texts; the record batch (columns != 0) is not asked for, so its structs are NULL. */
typedef int32_t (*score_fn)(uint64_t, const int64_t *, const char *const *, const int64_t *, size_t, int32_t,
                            double *, double *, uint8_t *, void *, void *, char **, size_t *);

static void *sym(void *h, const char *name) {
    void *p = dlsym(h, name);
    if (p == NULL) {
        printf("FAIL: %s is not exported\n", name);
        exit(1);
    }
    return p;
}

static void fail(const char *what, char *out) {
    printf("FAIL: %s: %s\n", what, out ? out : "(no message)");
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: abi_probe LIB EXPECTED_ABI_VERSION\n");
        return 2;
    }
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        printf("FAIL: dlopen: %s\n", dlerror());
        return 1;
    }
    free_fn llfree = (free_fn)sym(h, "llenvs_free");
    int32_t abi = ((abi_fn)sym(h, "llenvs_abi_version"))();
    if (abi != atoi(argv[2])) {
        printf("FAIL: ABI version %d, expected %s\n", abi, argv[2]);
        return 1;
    }
    printf("ok: loaded, ABI version %d\n", abi);

    char *out = NULL;
    size_t out_len = 0;
    if (((call_fn)sym(h, "llenvs_call"))("info", "", 0, &out, &out_len) != 0) fail("info", out);
    printf("ok: info %.*s\n", (int)out_len, out);
    llfree(out);

    const char *cfg = "{\"name\":\"leg_counting\",\"adapter\":\"reasoning_gym\",\"size\":4,\"seed\":1}";
    uint64_t env = 0;
    if (((env_new_fn)sym(h, "llenvs_env_new"))(cfg, strlen(cfg), &env, &out, &out_len) != 0) fail("env_new", out);
    llfree(out);

    const char *req = "{\"task_index\":0}";
    uint64_t episode = 0;
    if (((env_reset_fn)sym(h, "llenvs_env_reset"))(env, req, strlen(req), &episode, &out, &out_len) != 0)
        fail("env_reset", out);
    const char *key = "\"expected_answer\":\"";
    char *at = strstr(out, key);
    if (at == NULL) fail("env_reset has no expected_answer", out);
    at += strlen(key);
    char answer[64];
    size_t k = 0;
    while (at[k] && at[k] != '"' && k < sizeof answer - 1) {
        answer[k] = at[k];
        k++;
    }
    answer[k] = 0;
    llfree(out);
    printf("ok: episode started, expected answer %s\n", answer);

    char right[128], wrong[] = "<answer>-1</answer>", none[] = "no tags";
    snprintf(right, sizeof right, "<answer>%s</answer>", answer);
    const char *texts[3] = {right, wrong, none};
    int64_t lens[3] = {(int64_t)strlen(right), (int64_t)strlen(wrong), (int64_t)strlen(none)};
    int64_t idx[3] = {0, 0, 0};
    double totals[3], values[3];
    uint8_t flags[3];
    if (((score_fn)sym(h, "llenvs_score_texts"))(env, idx, texts, lens, 3, 0, totals, values, flags, NULL, NULL, &out,
                                                  &out_len) != 0)
        fail("score_texts", out);
    if (totals[0] != 1.0 || totals[1] != 0.0 || totals[2] != 0.0) {
        printf("FAIL: totals %g %g %g, expected 1 0 0\n", totals[0], totals[1], totals[2]);
        return 1;
    }
    printf("ok: scored a batch: %g %g %g\n", totals[0], totals[1], totals[2]);
    return 0;
}
