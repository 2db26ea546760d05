/* ABT_thread_set_arg may be called from any thread on a unit that another
 * ES is about to start: the unit's start read the argument with a plain
 * load while set_arg stores it atomically, a data race that
 * ThreadSanitizer reports (the build under it fails this test). ULTs and
 * tasklets, on two secondary ESs, while the primary ULT and an external
 * thread set the argument of every unit that may still start. The value
 * set is the one the unit was made with, so each function checks it gets
 * its own. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

enum { N = 64, ROUNDS = 40 };
static ABT_thread units[N];
static long args[N];
static atomic_int published, wrong, started;

static void body(void *arg)
{
    long *a = arg;
    if (a < args || a >= args + N)
        atomic_fetch_add(&wrong, 1);
    atomic_fetch_add(&started, 1);
}

static void set_all_args(void)
{
    int n = atomic_load(&published);
    for (int i = 0; i < n; i++)
        ABT_thread_set_arg(units[i], &args[i]);
}

static atomic_int stop, ext_round, ext_done;
static void *external(void *arg)
{
    (void)arg;
    int seen = 0;
    while (!atomic_load(&stop)) {
        int r = atomic_load(&ext_round);
        if (r == seen)
            continue;
        set_all_args();
        seen = r;
        atomic_store(&ext_done, r);
    }
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[2];
    ABT_pool pools[2];
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pools[i]));
    }
    pthread_t ext;
    CHECK(pthread_create(&ext, NULL, external, NULL) == 0);
    for (int r = 1; r <= ROUNDS; r++) {
        atomic_store(&published, 0);
        for (int i = 0; i < N; i++) {
            if (i % 3 == 0)
                CHECK_OK(ABT_task_create(pools[i % 2], body, &args[i], &units[i]));
            else
                CHECK_OK(ABT_thread_create(pools[i % 2], body, &args[i], ABT_THREAD_ATTR_NULL,
                                           &units[i]));
            atomic_store(&published, i + 1);
        }
        atomic_store(&ext_round, r);
        set_all_args();
        while (atomic_load(&ext_done) != r)
            ; /* the external thread is done with this round's handles */
        CHECK_OK(ABT_thread_free_many(N, units));
    }
    atomic_store(&stop, 1);
    pthread_join(ext, NULL);
    CHECK_EQ(atomic_load(&wrong), 0);
    CHECK_EQ(atomic_load(&started), N * ROUNDS);
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
