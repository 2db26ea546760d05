/* The run-time switches of the critical path's shortcuts: with every
 * combination of ABT_OPT_FAST_CREATE_FREE, ABT_OPT_JOIN_BYPASS and
 * ABT_OPT_DIRECT_YIELD (unset = on, "0" = off; each off alone, all off, all
 * on) ABT_PRINT_CONFIG=1 reports each setting with the right yes/no, and a
 * fork-join workload (recursive Fibonacci with a ULT per call and a yield in
 * each, plus tasklets) gives the right results, on the primary ES (private
 * FIFO pool) and on a secondary ES (private FIFO pool) at once. */
#include "bb_test.h"

static char out[65536];

static const char *const names[3] = {"ABT_OPT_FAST_CREATE_FREE", "ABT_OPT_JOIN_BYPASS",
                                     "ABT_OPT_DIRECT_YIELD"};

/* ABT_init with stdout captured into `out`. */
static void init_captured(void)
{
    bb_test_init_captured(out, sizeof(out));
}

/* The value printed for `name` ("yes"/"no"), or NULL. */
static const char *printed(const char *name, char *buf, size_t size)
{
    const char *p = strstr(out, name);
    if (!p)
        return NULL;
    p += strlen(name);
    while (*p == ' ' || *p == ':' || *p == '\t' || *p == '=')
        p++;
    size_t i = 0;
    while (p[i] && p[i] != '\n' && p[i] != ' ' && i + 1 < size) {
        buf[i] = p[i];
        i++;
    }
    buf[i] = '\0';
    return buf;
}

typedef struct {
    ABT_pool pool;
    int n;
    long result;
} fib_arg;

static void fib(void *arg)
{
    fib_arg *a = arg;
    if (a->n < 2) {
        a->result = a->n;
        return;
    }
    fib_arg x = {a->pool, a->n - 1, 0}, y = {a->pool, a->n - 2, 0};
    ABT_thread tx, ty;
    if (ABT_thread_create(a->pool, fib, &x, ABT_THREAD_ATTR_NULL, &tx) != ABT_SUCCESS ||
        ABT_thread_create(a->pool, fib, &y, ABT_THREAD_ATTR_NULL, &ty) != ABT_SUCCESS) {
        a->result = -1000000;
        return;
    }
    ABT_thread_yield();
    ABT_thread_free(&ty);
    ABT_thread_join(tx);
    ABT_thread_free(&tx);
    a->result = x.result + y.result;
}

static void add_task(void *arg)
{
    __atomic_fetch_add((long *)arg, 1, __ATOMIC_RELAXED);
}

/* On the caller's ES: fib(n), then tasklets, each joined by the caller. */
static void driver(void *arg)
{
    fib_arg *a = arg;
    fib_arg f = {a->pool, a->n, 0};
    fib(&f);
    long count = 0;
    ABT_task k[16];
    for (int i = 0; i < 16; i++)
        if (ABT_task_create(a->pool, add_task, &count, &k[i]) != ABT_SUCCESS)
            k[i] = ABT_TASK_NULL;
    for (int i = 0; i < 16; i++)
        if (k[i] != ABT_TASK_NULL)
            ABT_task_free(&k[i]);
    a->result = f.result * 100 + count;
}

static void run_config(int off_mask)
{
    for (int i = 0; i < 3; i++) {
        if (off_mask & (1 << i))
            setenv(names[i], "0", 1);
        else
            unsetenv(names[i]);
    }
    setenv("ABT_PRINT_CONFIG", "1", 1);
    init_captured();
    unsetenv("ABT_PRINT_CONFIG");
    for (int i = 0; i < 3; i++) {
        char buf[16];
        const char *v = printed(names[i], buf, sizeof(buf));
        const char *want = off_mask & (1 << i) ? "no" : "yes";
        if (!v || strcmp(v, want) != 0)
            BB_FAIL_AT("config %d: %s printed as %s, expected %s", off_mask, names[i],
                       v ? v : "(missing)", want);
    }

    const int n = BB_TEST_SIZE(14, 10);
    const long fibs[] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377};
    ABT_xstream self_es, es;
    ABT_pool p0, p1;
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &p0));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self_es, ABT_SCHED_BASIC, 1, &p0));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &p1));
    fib_arg remote = {p1, n, 0}, local = {p0, n, 0};
    ABT_thread rt;
    CHECK_OK(ABT_thread_create(p1, driver, &remote, ABT_THREAD_ATTR_NULL, &rt));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p1, ABT_SCHED_CONFIG_NULL, &es));
    driver(&local); /* the primary ULT */
    /* Wait without blocking: a wake-up from ES 1 would push the primary ULT
     * into p0, which only ES 0 may touch. */
    ABT_thread_state st;
    while (ABT_thread_get_state(rt, &st) == ABT_SUCCESS && st != ABT_THREAD_STATE_TERMINATED)
        CHECK_OK(ABT_thread_yield());
    CHECK_OK(ABT_thread_free(&rt));
    CHECK_OK(ABT_xstream_free(&es));
    if (local.result != fibs[n] * 100 + 16 || remote.result != fibs[n] * 100 + 16)
        BB_FAIL_AT("config %d: local %ld remote %ld, expected %ld", off_mask, local.result,
                   remote.result, fibs[n] * 100 + 16);
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(30);
    /* bit 0: create/free off, bit 1: bypass off, bit 2: direct yield off */
    const int configs[] = {0, 1, 2, 4, 7, 3, 5, 6};
    for (int i = 0; i < 8; i++)
        run_config(configs[i]);
    BB_TEST_END();
}
