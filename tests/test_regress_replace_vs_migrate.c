/* Other threads use an ES's main scheduler while that ES replaces it (found
 * by a stress audit: the release build crashed in 10 of 10 runs, and
 * AddressSanitizer showed the use after free). Two ULTs on ES 0 keep
 * replacing ES 0's main scheduler with a new automatic BASIC one over the
 * same pool (each replaced one is freed), while ULTs on ES 1 keep migrating
 * themselves to ES 0 (ABT_thread_migrate_to_xstream reads ES 0's main
 * scheduler and its migration pool) and back, yielding after each call, and ask for ES 0's main
 * scheduler and pools. A scheduler another thread has pinned is now
 * retired only once that thread is done with it. Checks that every call
 * succeeds, every migration lands on ES 0, and every ULT finishes. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

#define MIGRATORS 4

static ABT_pool on0, on1;
static ABT_xstream es0, es1;
static atomic_int stop, errors, wrong_es;
static atomic_long replaced, migrated;

static void note(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
}

static void replacer(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        note(ABT_xstream_set_main_sched_basic(es0, ABT_SCHED_BASIC, 1, &on0));
        atomic_fetch_add(&replaced, 1);
        note(ABT_thread_yield());
    }
}

static void migrator(void *arg)
{
    (void)arg;
    ABT_thread self;
    note(ABT_self_get_thread(&self));
    while (!atomic_load(&stop)) {
        note(ABT_thread_migrate_to_xstream(self, es0));
        note(ABT_thread_yield()); /* the move happens here */
        ABT_xstream where;
        note(ABT_self_get_xstream(&where));
        if (where != es0)
            atomic_fetch_add(&wrong_es, 1);
        atomic_fetch_add(&migrated, 1);
        ABT_sched s;
        ABT_pool pools[1];
        note(ABT_xstream_get_main_sched(es0, &s));
        note(ABT_xstream_get_main_pools(es0, 1, pools));
        note(ABT_thread_migrate_to_pool(self, on1));
        note(ABT_thread_yield());
    }
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &on0));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &on1));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &on0, ABT_SCHED_CONFIG_NULL, &es0));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &on1, ABT_SCHED_CONFIG_NULL, &es1));
    ABT_thread ts[2 + MIGRATORS];
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_create(on0, replacer, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    for (int i = 2; i < 2 + MIGRATORS; i++)
        CHECK_OK(ABT_thread_create(on1, migrator, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));

    long ms = BB_TEST_SIZE(1500, 500);
    struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
    atomic_store(&stop, 1);
    for (int i = 0; i < 2 + MIGRATORS; i++)
        CHECK_OK(ABT_thread_free(&ts[i]));
    CHECK_OK(ABT_xstream_free(&es0));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&on0));
    CHECK_OK(ABT_pool_free(&on1));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_EQ(atomic_load(&wrong_es), 0);
    CHECK(atomic_load(&replaced) > 0);
    CHECK(atomic_load(&migrated) > 0);
    BB_TEST_END();
}
