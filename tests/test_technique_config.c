/* Choosing the threading technique (src/unit/technique.c, src/core/
 * config.c): ABT_THREAD_TECHNIQUE, read at each ABT_init,
 *  - accepts full, full-l, roc, roc-l, ss, ss-l, sc and auto in any case,
 *    silently; each one shows in ABT_info_query_config
 *    (ENABLED_LAZY_STACK_ALLOC: the -l ones, sc and auto; DYNAMIC_PROMOTION:
 *    all but full and full-l), in ABT_info_print_config's
 *    line "ABT_THREAD_TECHNIQUE    : <name> (...); ABT_thread_create_to:
 *    <child-first name>", in what ABT_init prints
 *    with ABT_PRINT_CONFIG=1, and in what a ULT does (a lazy stack: no stack
 *    before its first run);
 *  - unset, is auto, silently;
 *  - anything else (an unknown name, the empty string, a name with spaces
 *    around it, a prefix) falls back to auto, with a message on stderr that
 *    names the variable as it was set (ABT_ or ABT_ENV_) and the value;
 *  - ABT_ENV_THREAD_TECHNIQUE is read too, and ABT_THREAD_TECHNIQUE wins
 *    over it;
 *  - a new ABT_init reads it again. */
#include <time.h>
#include "bb_test.h"

struct expect {
    const char *value; /* NULL: unset */
    const char *name;  /* the technique in force */
    int lazy, roc, warns;
};

static const struct expect cases[] = {
    {"full", "full", 0, 0, 0},       {"full-l", "full-l", 1, 0, 0},
    {"roc", "roc", 0, 1, 0},         {"roc-l", "roc-l", 1, 1, 0},
    {"FULL", "full", 0, 0, 0},       {"Full-L", "full-l", 1, 0, 0},
    {"ROC", "roc", 0, 1, 0},         {"rOc-L", "roc-l", 1, 1, 0},
    {"ss", "ss", 0, 1, 0},           {"SS-L", "ss-l", 1, 1, 0},
    {"Sc", "sc", 1, 1, 0},           {"AUTO", "auto", 1, 1, 0},
    {NULL, "auto", 1, 1, 0},         {"lazy", "auto", 1, 1, 1},
    {"", "auto", 1, 1, 1},           {" roc", "auto", 1, 1, 1},
    {"roc-l ", "auto", 1, 1, 1},     {"ro", "auto", 1, 1, 1},
    {"roc_l", "auto", 1, 1, 1},      {"full-lazy", "auto", 1, 1, 1},
};

static uint64_t query(int kind)
{
    uint64_t v = 0;
    CHECK_OK(ABT_info_query_config((ABT_info_query_kind)kind, &v));
    return v;
}

/* ABT_init with its stderr captured into `err`. */
static void init_capturing_stderr(char *err, size_t size)
{
    err[0] = '\0';
    FILE *tmp = tmpfile();
    if (!tmp) {
        BB_FAIL_AT("%s", "tmpfile failed");
        CHECK_OK(ABT_init(0, NULL));
        return;
    }
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    CHECK_OK(ABT_init(0, NULL));
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(err, 1, size - 1, tmp);
    err[n] = '\0';
    fclose(tmp);
}

static void probe_body(void *arg)
{
    (void)arg;
}

/* The technique in force, checked every way it shows. */
static void check_in_force(const char *label, const struct expect *e)
{
    if (query(ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC) != (uint64_t)e->lazy)
        BB_FAIL_AT("%s: LAZY_STACK_ALLOC is not %d", label, e->lazy);
    if (query(ABT_INFO_QUERY_KIND_DYNAMIC_PROMOTION) != (uint64_t)e->roc)
        BB_FAIL_AT("%s: DYNAMIC_PROMOTION is not %d", label, e->roc);

    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    CHECK(fp != NULL);
    if (fp) {
        CHECK_OK(ABT_info_print_config(fp));
        fclose(fp);
        char line[96];
        snprintf(line, sizeof(line), "ABT_THREAD_TECHNIQUE    : %s (", e->name);
        if (!text || !strstr(text, line))
            BB_FAIL_AT("%s: ABT_info_print_config does not say \"%s\"", label, line);
        /* and what ABT_thread_create_to does under it (child-first) */
        const char *cf = e->roc ? (e->lazy ? "c-roc-e" : "c-roc")
                                : (e->lazy ? "c-full-e" : "c-full");
        snprintf(line, sizeof(line), "; ABT_thread_create_to: %s", cf);
        if (!text || !strstr(text, line))
            BB_FAIL_AT("%s: ABT_info_print_config does not say \"%s\"", label, line);
        /* the line names one technique only */
        const char *at = text ? strstr(text, "ABT_THREAD_TECHNIQUE") : NULL;
        if (at && strstr(at + 1, "ABT_THREAD_TECHNIQUE"))
            BB_FAIL_AT("%s: two ABT_THREAD_TECHNIQUE lines", label);
    }
    free(text);

    /* A ULT not run yet has a stack unless lazy. */
    ABT_xstream self;
    ABT_pool pool;
    ABT_thread t;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    CHECK_OK(ABT_thread_create(pool, probe_body, NULL, ABT_THREAD_ATTR_NULL, &t));
    void *addr = NULL;
    size_t size = 0;
    CHECK_OK(ABT_thread_get_stack(t, &addr, &size));
    if ((addr == NULL) != e->lazy)
        BB_FAIL_AT("%s: a ULT not run yet has stack %p", label, addr);
    CHECK_OK(ABT_thread_free(&t));
}

/* A warning names the variable as it was set: `prefix` is "ABT_" or
 * "ABT_ENV_". */
static void check_message(const char *label, const struct expect *e, const char *prefix,
                          const char *value, const char *err)
{
    if (!e->warns) {
        if (strstr(err, "THREAD_TECHNIQUE="))
            BB_FAIL_AT("%s: unexpected message on stderr: %s", label, err);
        return;
    }
    char named[96];
    snprintf(named, sizeof(named), "bobbin: %sTHREAD_TECHNIQUE=%s ", prefix, value);
    if (!strstr(err, named) || !strstr(err, "using auto"))
        BB_FAIL_AT("%s: stderr does not name the value and the fallback: \"%s\"", label, err);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsetenv("ABT_PRINT_CONFIG");
    unsetenv("ABT_ENV_PRINT_CONFIG");
    char err[1024], label[96];
    const int n = (int)(sizeof(cases) / sizeof(cases[0]));

    for (int i = 0; i < n; i++) {
        const struct expect *e = &cases[i];
        /* through ABT_THREAD_TECHNIQUE, then through ABT_ENV_THREAD_TECHNIQUE */
        for (int env = 0; env < 2; env++) {
            unsetenv("ABT_THREAD_TECHNIQUE");
            unsetenv("ABT_ENV_THREAD_TECHNIQUE");
            if (e->value)
                setenv(env ? "ABT_ENV_THREAD_TECHNIQUE" : "ABT_THREAD_TECHNIQUE", e->value, 1);
            snprintf(label, sizeof(label), "%sTHREAD_TECHNIQUE=\"%s\"", env ? "ABT_ENV_" : "ABT_",
                     e->value ? e->value : "(unset)");
            init_capturing_stderr(err, sizeof(err));
            check_message(label, e, env ? "ABT_ENV_" : "ABT_", e->value, err);
            check_in_force(label, e);
            CHECK_OK(ABT_finalize());
        }
    }

    /* ABT_THREAD_TECHNIQUE wins over ABT_ENV_THREAD_TECHNIQUE. */
    setenv("ABT_ENV_THREAD_TECHNIQUE", "roc", 1);
    setenv("ABT_THREAD_TECHNIQUE", "full-l", 1);
    init_capturing_stderr(err, sizeof(err));
    check_message("both set", &cases[1], "ABT_", "full-l", err);
    check_in_force("both set", &cases[1]);
    CHECK_OK(ABT_finalize());
    unsetenv("ABT_ENV_THREAD_TECHNIQUE");

    /* ABT_PRINT_CONFIG=1: ABT_init prints the line. */
    setenv("ABT_PRINT_CONFIG", "1", 1);
    for (int i = 0; i < 4; i++) {
        setenv("ABT_THREAD_TECHNIQUE", cases[i].value, 1);
        char out[8192], line[96];
        bb_test_init_captured(out, sizeof(out));
        snprintf(line, sizeof(line), "ABT_THREAD_TECHNIQUE    : %s (", cases[i].name);
        if (!strstr(out, line))
            BB_FAIL_AT("ABT_PRINT_CONFIG=1 under %s does not print \"%s\"", cases[i].value,
                       line);
        CHECK_OK(ABT_finalize());
    }
    unsetenv("ABT_PRINT_CONFIG");
    unsetenv("ABT_THREAD_TECHNIQUE");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%d inits in %.1f ms\n", 2 * n + 5,
           (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    BB_TEST_END();
}
