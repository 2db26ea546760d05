/* Memory handed between ESs: ULTs (and tasklets) are created by a ULT on ES
 * A into A's pool, run there, and are freed by a ULT on ES B (and the other
 * way round), round after round, with small per-ES caches so that the global
 * depot is exercised. Every unit runs exactly once with its own argument. */
#include "bb_test.h"
#include <stdatomic.h>

#define ROUNDS BB_TEST_SIZE(150, 10)
#define BATCH 200

static atomic_long total;
static ABT_pool pool[2];
static ABT_thread handoff[2][BATCH];
static ABT_task thandoff[2][BATCH];
static long args[2][BATCH];

static void ult_fn(void *arg)
{
    long *a = arg;
    ABT_thread_yield();
    atomic_fetch_add_explicit(&total, *a, memory_order_relaxed);
}

static void task_fn(void *arg)
{
    atomic_fetch_add_explicit(&total, *(long *)arg, memory_order_relaxed);
}

typedef struct {
    int side, round;
    int errors;
} step_t;

/* Runs on ES `side`: create a batch there. */
static void creator(void *arg)
{
    step_t *s = arg;
    for (int i = 0; i < BATCH; i++) {
        args[s->side][i] = (long)s->round * BATCH + i;
        if (ABT_thread_create(pool[s->side], ult_fn, &args[s->side][i], ABT_THREAD_ATTR_NULL,
                              &handoff[s->side][i]) != ABT_SUCCESS)
            s->errors++;
        if (ABT_task_create(pool[s->side], task_fn, &args[s->side][i],
                            &thandoff[s->side][i]) != ABT_SUCCESS)
            s->errors++;
    }
}

/* Runs on the other ES: free the batch created by `side`. */
static void freer(void *arg)
{
    step_t *s = arg;
    for (int i = 0; i < BATCH; i++) {
        if (ABT_thread_free(&handoff[s->side][i]) != ABT_SUCCESS)
            s->errors++;
        if (ABT_task_free(&thandoff[s->side][i]) != ABT_SUCCESS)
            s->errors++;
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    setenv("ABT_MEM_MAX_NUM_STACKS", "8", 1);
    setenv("ABT_MEM_MAX_NUM_DESCS", "8", 1);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[2];
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pool[i]));
    }
    long expect = 0;
    int errors = 0;
    for (int r = 0; r < ROUNDS; r++) {
        step_t s[2] = {{0, r, 0}, {1, r, 0}};
        ABT_thread c[2], f[2];
        for (int i = 0; i < 2; i++)
            CHECK_OK(ABT_thread_create(pool[i], creator, &s[i], ABT_THREAD_ATTR_NULL, &c[i]));
        for (int i = 0; i < 2; i++)
            CHECK_OK(ABT_thread_free(&c[i]));
        /* Batch made on ES i is freed by a ULT on ES 1-i. */
        for (int i = 0; i < 2; i++)
            CHECK_OK(ABT_thread_create(pool[1 - i], freer, &s[i], ABT_THREAD_ATTR_NULL, &f[i]));
        for (int i = 0; i < 2; i++)
            CHECK_OK(ABT_thread_free(&f[i]));
        errors += s[0].errors + s[1].errors;
        for (int i = 0; i < BATCH; i++)
            expect += 2 * 2 * ((long)r * BATCH + i);
    }
    CHECK_EQ(errors, 0);
    CHECK_EQ(atomic_load(&total), expect);
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_finalize());
    unsetenv("ABT_MEM_MAX_NUM_STACKS");
    unsetenv("ABT_MEM_MAX_NUM_DESCS");
    BB_TEST_END();
}
