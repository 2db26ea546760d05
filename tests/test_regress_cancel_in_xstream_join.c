/* An external thread cancelled (deferred, the default) while it waits in
 * ABT_xstream_join leaves the ES joinable by others. The join ends in
 * pthread_join, a cancellation point, under the ES's lock that makes
 * concurrent joiners reap its thread once: the cancel used to unwind out
 * of it with the lock held, so that the next ABT_xstream_free (and
 * ABT_finalize) waited for it for ever.
 *
 * A ULT keeps the ES busy until the test lets it end, so that the external
 * thread's join waits in pthread_join when it is cancelled (and if it is
 * not there yet, the pending cancel is acted on there). */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "bb_test.h"

static ABT_xstream es;
static atomic_int release, joining;

static void busy(void *arg)
{
    (void)arg;
    while (!atomic_load(&release))
        ABT_thread_yield();
}

static void *joiner(void *arg)
{
    (void)arg;
    atomic_store(&joining, 1);
    ABT_xstream_join(es); /* cancelled in it */
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    if (BB_TEST_UNDER_TSAN) {
        puts("skipped: ThreadSanitizer's pthread_join does not survive a cancel in it");
        return 77;
    }
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, busy, NULL, ABT_THREAD_ATTR_NULL, &t));

    pthread_t ext;
    CHECK_EQ(pthread_create(&ext, NULL, joiner, NULL), 0);
    while (!atomic_load(&joining))
        sched_yield();
    nanosleep(&(struct timespec){.tv_nsec = 50 * 1000 * 1000}, NULL); /* into pthread_join */
    CHECK_EQ(pthread_cancel(ext), 0);
    void *result = NULL;
    CHECK_EQ(pthread_join(ext, &result), 0);
    CHECK(result == PTHREAD_CANCELED);

    atomic_store(&release, 1);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_free(&es)); /* hung here */
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
