/*
 * ABT_thread_migrate, which picks its target ES from the runtime's table of
 * ESs, while other ESs are created and freed (found by fuzz/fuzz_life.c):
 *
 * - The mover could pick an ES just as it was being freed: the target pool
 *   was chosen under a pin of the ES's scheduler, the move made after the
 *   pin was let go. If the scheduler found its pools drained in between, it
 *   stopped, the free destroyed its automatic pool, and the mover was pushed
 *   into freed memory: lost, its joiner (here ABT_thread_free) hung.
 * - start_thread published the ES's RUNNING state with a relaxed store, so
 *   the acquire load of the search synchronised with nothing, and its read
 *   of the new ES's main scheduler was a data race (ThreadSanitizer
 *   reported it; under TSan any report fails the test, exit code 66).
 */
#include "bb_test.h"

#include <stdatomic.h>

static atomic_int stop, migrations;

/* Moves itself from ES to ES until told to stop. */
static void mover(void *arg)
{
    (void)arg;
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    while (!atomic_load(&stop)) {
        int ret = ABT_thread_migrate(self);
        if (ret != ABT_SUCCESS && ret != ABT_ERR_MIGRATION_NA)
            CHECK_EQ(ret, ABT_SUCCESS);
        atomic_fetch_add(&migrations, 1);
    }
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream steady;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &steady));
    ABT_pool steady_pool;
    CHECK_OK(ABT_xstream_get_main_pools(steady, 1, &steady_pool));
    ABT_thread m;
    CHECK_OK(ABT_thread_create(steady_pool, mover, NULL, ABT_THREAD_ATTR_NULL, &m));

    /* New ESs, each found by the mover while it is young. */
    int rounds = BB_TEST_SIZE(20000, 600);
    for (int i = 0; i < rounds; i++) {
        ABT_xstream x;
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &x));
        for (int j = 0; j < 3; j++)
            CHECK_OK(ABT_thread_yield()); /* the mover may be in our pool */
        CHECK_OK(ABT_xstream_free(&x));
    }
    atomic_store(&stop, 1);
    CHECK_OK(ABT_thread_free(&m));
    CHECK_OK(ABT_xstream_free(&steady));
    CHECK_OK(ABT_finalize());
    CHECK(atomic_load(&migrations) > 0);
    BB_TEST_END();
}
