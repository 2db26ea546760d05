/* ABT_thread_yield_to whose target is not waiting READY in a pool the
 * caller may take it from is a plain yield (REFERENCE, section 3, and its
 * note "Differs from Argobots"): the caller goes back to its pool and the
 * scheduler runs what waits there first. Targets here: a suspended ULT and
 * a terminated one. test_thread_yield_to_not_ready checks that the target is
 * left alone, not that the caller yields; mutation testing (hotpath.c,
 * yield_to_general's fallback) found nothing checking it. */
#include "bb_test.h"

#include <stdatomic.h>

static ABT_thread target;
static atomic_int b_ran;
static int saw_b[2] = {-1, -1};
static int err[2] = {-1, -1};

static void suspender(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_self_suspend());
}

static void noop(void *arg)
{
    (void)arg;
}

static void caller(void *arg)
{
    int i = (int)(intptr_t)arg;
    err[i] = ABT_thread_yield_to(target);
    saw_b[i] = atomic_load(&b_ran);
}

static void b_body(void *arg)
{
    (void)arg;
    atomic_store(&b_ran, 1);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    for (int i = 0; i < 2; i++) {
        if (i == 0) { /* suspended */
            CHECK_OK(ABT_thread_create(pool, suspender, NULL, ABT_THREAD_ATTR_NULL, &target));
            ABT_thread_state st = ABT_THREAD_STATE_READY;
            while (st != ABT_THREAD_STATE_BLOCKED)
                CHECK_OK(ABT_thread_get_state(target, &st));
        } else { /* terminated */
            CHECK_OK(ABT_thread_create(pool, noop, NULL, ABT_THREAD_ATTR_NULL, &target));
            CHECK_OK(ABT_thread_join(target));
        }
        atomic_store(&b_ran, 0);
        /* The caller runs before b: b waits in the pool behind it. */
        ABT_thread a, b;
        ABT_pool idle; /* both made while nobody can run them */
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));
        CHECK_OK(ABT_thread_create(idle, caller, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &a));
        CHECK_OK(ABT_thread_create(idle, b_body, NULL, ABT_THREAD_ATTR_NULL, &b));
        ABT_thread list[2];
        CHECK_OK(ABT_pool_pop_threads(idle, list, 2, &(size_t){0}));
        CHECK_OK(ABT_pool_push_threads(pool, list, 2));
        CHECK_OK(ABT_thread_free(&a));
        CHECK_OK(ABT_thread_free(&b));
        CHECK_OK(ABT_pool_free(&idle));
        CHECK_OK(err[i]);
        CHECK_EQ(saw_b[i], 1); /* the caller yielded: b ran first */
        if (i == 0)
            CHECK_OK(ABT_thread_resume(target));
        CHECK_OK(ABT_thread_free(&target));
    }
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
