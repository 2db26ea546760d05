/* ABT_MEM_MAX_NUM_STACKS / ABT_MEM_MAX_NUM_DESCS: tiny caches (and
 * out-of-range or garbage values, which are clamped or ignored) still give a
 * correct runtime under churn: ULTs and tasklets created on one ES and freed
 * on another, many times over, across re-initializations. */
#include "bb_test.h"
#include <stdatomic.h>

#define ROUNDS 40
#define PER 64

static atomic_int count;

static void ult_fn(void *arg)
{
    (void)arg;
    ABT_thread_yield();
    atomic_fetch_add(&count, 1);
}

static void task_fn(void *arg)
{
    (void)arg;
    atomic_fetch_add(&count, 1);
}

static void churn(void)
{
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[2];
    ABT_pool pool[2];
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pool[i]));
    }
    atomic_store(&count, 0);
    for (int r = 0; r < ROUNDS; r++) {
        ABT_thread t[PER];
        ABT_task k[PER];
        for (int i = 0; i < PER; i++) {
            CHECK_OK(ABT_thread_create(pool[(r + i) % 2], ult_fn, NULL, ABT_THREAD_ATTR_NULL,
                                       &t[i]));
            CHECK_OK(ABT_task_create(pool[(r + i + 1) % 2], task_fn, NULL, &k[i]));
        }
        for (int i = 0; i < PER; i++) {
            CHECK_OK(ABT_thread_free(&t[i]));
            CHECK_OK(ABT_task_free(&k[i]));
        }
    }
    CHECK_EQ(atomic_load(&count), ROUNDS * PER * 2);
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(20);
    setenv("ABT_MEM_MAX_NUM_STACKS", "4", 1);
    setenv("ABT_MEM_MAX_NUM_DESCS", "4", 1);
    churn();
    setenv("ABT_MEM_MAX_NUM_STACKS", "0", 1);
    setenv("ABT_MEM_MAX_NUM_DESCS", "1", 1);
    churn();
    setenv("ABT_MEM_MAX_NUM_STACKS", "-5", 1);
    setenv("ABT_MEM_MAX_NUM_DESCS", "many", 1);
    churn();
    unsetenv("ABT_MEM_MAX_NUM_STACKS");
    unsetenv("ABT_MEM_MAX_NUM_DESCS");
    setenv("ABT_ENV_MEM_MAX_NUM_STACKS", "16", 1);
    setenv("ABT_ENV_MEM_MAX_NUM_DESCS", "16", 1);
    churn();
    BB_TEST_END();
}
