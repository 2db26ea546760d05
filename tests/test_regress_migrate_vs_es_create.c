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
 *
 * The first fix counted the move in the target until the migration call
 * returned; a ULT that moves itself and is cancelled on the way (a cancel
 * ends it as the target's scheduler is about to run it) never returns, and
 * the count kept the target ES from ever finishing a join. The second part
 * checks that.
 */
#include "bb_test.h"

#include <stdatomic.h>

static atomic_int stop, migrations;

/* Moves itself from ES to ES (each move at the yield after the call) until
 * told to stop. */
static void mover(void *arg)
{
    (void)arg;
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    while (!atomic_load(&stop)) {
        int ret = ABT_thread_migrate(self);
        if (ret != ABT_SUCCESS && ret != ABT_ERR_MIGRATION_NA)
            CHECK_EQ(ret, ABT_SUCCESS);
        CHECK_OK(ABT_thread_yield());
        atomic_fetch_add(&migrations, 1);
    }
}

static ABT_xstream target;

/* Asks for its own cancel, then moves itself to `target` (by_pick: with
 * ABT_thread_migrate, which finds it: the only ES but its own) and yields:
 * it ends in the target's pool, as the target's scheduler is about to run
 * it. */
static void cancelled_mover(void *by_pick)
{
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    CHECK_OK(ABT_thread_cancel(self));
    if (by_pick)
        CHECK_OK(ABT_thread_migrate(self));
    else
        CHECK_OK(ABT_thread_migrate_to_xstream(self, target));
    ABT_thread_yield();
    CHECK(0); /* not reached: cancelled */
}

static void check_cancelled_move(int by_pick)
{
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &target));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(bb_test_main_pool(), cancelled_mover, by_pick ? (void *)1 : NULL,
                               ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_join(target)); /* hung: a count of the move was left behind */
    CHECK_OK(ABT_xstream_free(&target));
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

    /* New ESs, each found by the mover while it is young: 20,000 of them,
     * or as many as 20 s allow. An ES's create and free take 50 us on an
     * idle machine, but up to 3 ms when other jobs load its CPUs (each
     * stop waits for the ES's thread to be scheduled again): then a fixed
     * count outlived the watchdog. */
    int rounds = BB_TEST_SIZE(20000, 600);
    double give_up = ABT_get_wtime() + 20.0;
    for (int i = 0; i < rounds && ABT_get_wtime() < give_up; i++) {
        ABT_xstream x;
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &x));
        for (int j = 0; j < 3; j++)
            CHECK_OK(ABT_thread_yield()); /* the mover may be in our pool */
        CHECK_OK(ABT_xstream_free(&x));
    }
    atomic_store(&stop, 1);
    CHECK_OK(ABT_thread_free(&m));
    CHECK_OK(ABT_xstream_free(&steady));

    check_cancelled_move(0);
    check_cancelled_move(1);
    CHECK_OK(ABT_finalize());
    CHECK(atomic_load(&migrations) > 0);
    BB_TEST_END();
}
