/* Regression: migrating a ULT out of a shared pool while it moves between
 * pools. Four ULTs yield without end on two ESs, whose main pools A and B are
 * shared; the primary ULT migrates them back and forth between A and B as
 * fast as it can. A migration takes a ready ULT out of its pool under the
 * pool's lock, while the ESs pop the ULTs, run them and push them into the
 * pool a pending migration names, under that pool's lock. The pool's remove
 * once decided whether the ULT was in its list from the ULT's own links and
 * pool, which another ES may be writing under another lock: a data race
 * (ThreadSanitizer reports it), and, when the ULT had just been popped from
 * one pool and associated with this one, a wrong yes that unlinked it from
 * a list it was not in. Checks: every call succeeds (or finds the ULT there
 * already), every ULT finishes exactly once, and both
 * pools are empty at the end. */
#include "bb_test.h"
#include <stdatomic.h>

#define N 4
#define MIGRATIONS BB_TEST_SIZE(200000, 20000)

static atomic_int stop, finished[N];
static atomic_long runs[N];

static void spinner(void *arg)
{
    long i = (long)arg;
    while (!atomic_load(&stop)) {
        atomic_fetch_add(&runs[i], 1);
        ABT_thread_yield();
    }
    atomic_fetch_add(&finished[i], 1);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[2];
    ABT_pool pools[2];
    for (int e = 0; e < 2; e++) {
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[e]));
        CHECK_OK(ABT_xstream_get_main_pools(es[e], 1, &pools[e]));
        ABT_pool_access access;
        CHECK_OK(ABT_pool_get_access(pools[e], &access));
        CHECK_EQ(access, ABT_POOL_ACCESS_MPMC);
    }
    ABT_thread t[N];
    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(pools[i % 2], spinner, (void *)i, ABT_THREAD_ATTR_NULL, &t[i]));

    /* Moving from the start: every ULT has run before the migrations begin. */
    for (int i = 0; i < N; i++)
        while (atomic_load(&runs[i]) == 0)
            usleep(100);

    long moved = 0, there = 0, other = 0;
    for (int k = 0; k < MIGRATIONS; k++) {
        int ret = ABT_thread_migrate_to_pool(t[k % N], pools[(k / N) % 2]);
        if (ret == ABT_SUCCESS)
            moved++;
        else if (ret == ABT_ERR_MIGRATION_TARGET)
            there++;
        else if (other++ < 5)
            fprintf(stderr, "migration %d returned %d\n", k, ret);
    }
    CHECK_EQ(other, 0);
    CHECK(moved > 0);
    atomic_store(&stop, 1);
    for (int i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(atomic_load(&finished[i]), 1);
    }
    for (int e = 0; e < 2; e++) {
        size_t size = 1;
        CHECK_OK(ABT_pool_get_size(pools[e], &size));
        CHECK_EQ(size, 0);
        CHECK_OK(ABT_xstream_free(&es[e]));
    }
    printf("%ld migrated, %ld already there\n", moved, there);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
