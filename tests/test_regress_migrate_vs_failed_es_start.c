/* An ES whose thread cannot be created (pthread_create fails: EAGAIN) is
 * taken out again and ABT_xstream_create fails with ABT_ERR_SYS. Until its
 * thread exists it must not count as running: it used to be marked RUNNING
 * before pthread_create, so a migration that searched the ESs meanwhile
 * could pick it, count a move into its pool, and push the ULT there after
 * the failed create had freed that pool (AddressSanitizer:
 * heap-use-after-free), or lose the ULT. The test defines pthread_create
 * (the dynamic linker finds the executable's definition first, for
 * libabt.so too): while `failing` is set, a call from the main thread
 * waits 2 ms, to widen the window, and fails. Meanwhile a ULT on ES 1
 * migrates another one, `wanderer`, to whichever ES the runtime picks, over
 * and over: the primary ES, or (wrongly) the ES whose start is failing.
 * The wanderer must keep running and end, and nothing may be left in the
 * pool of the ES that never ran. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

#include "bb_test.h"

static int (*real_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                                  void *);
static __thread bool is_main;
static atomic_int failing, stop, moves;

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    if (is_main && atomic_load(&failing)) {
        usleep(2000);
        return EAGAIN;
    }
    return real_pthread_create(thread, attr, fn, arg);
}

static void wander(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop))
        CHECK_OK(ABT_thread_yield());
}

/* Any other ES will do; there may be none (MIGRATION_NA), the wanderer may
 * be running or on its way (INV_THREAD, MIGRATION_TARGET). */
static void migrate_over_and_over(void *arg)
{
    ABT_thread wanderer = *(ABT_thread *)arg;
    int unexpected = 0;
    while (!atomic_load(&stop)) {
        int err = ABT_thread_migrate(wanderer);
        if (err == ABT_SUCCESS)
            atomic_fetch_add(&moves, 1);
        else if (err != ABT_ERR_MIGRATION_NA && err != ABT_ERR_MIGRATION_TARGET &&
                 err != ABT_ERR_INV_THREAD && unexpected++ < 3)
            CHECK_OK(err);
        CHECK_OK(ABT_thread_yield());
    }
}

int main(void)
{
    BB_TEST_BEGIN(60);
    real_pthread_create =
        (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(
            RTLD_NEXT, "pthread_create");
    CHECK(real_pthread_create != NULL);
    is_main = true;
    CHECK_OK(ABT_init(0, NULL));
    /* Shared pools, which a migration may move into: ES 1's, and that of
     * each ES whose start fails. */
    ABT_pool pool, doomed_pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &doomed_pool));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    ABT_thread wanderer, migrator;
    CHECK_OK(ABT_thread_create(pool, wander, NULL, ABT_THREAD_ATTR_NULL, &wanderer));
    CHECK_OK(ABT_thread_create(pool, migrate_over_and_over, &wanderer, ABT_THREAD_ATTR_NULL,
                               &migrator));

    atomic_store(&failing, 1);
    for (int i = 0; i < BB_TEST_SIZE(500, 50); i++) {
        ABT_xstream never = ABT_XSTREAM_NULL;
        CHECK_ERR(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &doomed_pool,
                                           ABT_SCHED_CONFIG_NULL, &never),
                  ABT_ERR_SYS);
        CHECK(never == ABT_XSTREAM_NULL);
        CHECK_OK(ABT_thread_yield()); /* the wanderer may be here */
    }
    atomic_store(&failing, 0);
    atomic_store(&stop, 1);
    CHECK_OK(ABT_thread_free(&migrator));
    CHECK_OK(ABT_thread_free(&wanderer));
    CHECK_OK(ABT_xstream_free(&es));
    size_t left;
    CHECK_OK(ABT_pool_get_size(doomed_pool, &left));
    CHECK_EQ(left, 0); /* nothing was moved to an ES that never ran */
    CHECK_OK(ABT_pool_free(&doomed_pool));
    CHECK_OK(ABT_pool_free(&pool));
    printf("%d moves\n", atomic_load(&moves));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
