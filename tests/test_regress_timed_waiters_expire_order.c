/* Regression (scaling audit): timed waiters of one object that expire in any
 * order must each leave its queue in constant time.
 *
 * Scenario: N ULTs wait on one eventual with ABT_eventual_timedwait, the
 * first to queue with the latest deadline, so that each expiry takes the
 * newest node, the tail of the queue. Nothing sets the eventual: every wait
 * ends with ABT_ERR_COND_TIMEDOUT. The last deadline is ~0.7 s away; all
 * must be back soon after it.
 *
 * What used to go wrong: the queue was singly linked and an expiry walked it
 * from the head to find its node, under the object's lock: N expiries cost
 * O(N^2) (20,000 waiters: about 8 s after the last deadline, instead of a
 * few milliseconds; 32,000 took 30 s), and every signal or new waiter of
 * the object meanwhile spun on that lock. */
#include <time.h>

#include "bb_test.h"

static ABT_eventual ev;
static struct timespec base; /* the earliest deadline */
static int num;
static int timedout;         /* only ULTs of the primary ES touch it */

static double seconds(struct timespec t)
{
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void waiter(void *arg)
{
    long i = (long)arg;
    /* Deadlines 10 us apart, the latest first. */
    struct timespec deadline = bb_test_timespec_add_ns(base, (long long)(num - i) * 10000);
    if (ABT_eventual_timedwait(ev, NULL, &deadline) == ABT_ERR_COND_TIMEDOUT)
        timedout++;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    num = BB_TEST_SIZE(20000, 2000);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    CHECK_OK(ABT_eventual_create(0, &ev));
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 16384));

    ABT_thread *t = calloc((size_t)num, sizeof(*t));
    CHECK(t != NULL);
    base = bb_test_realtime_in_ms(500); /* time for all of them to queue first */
    for (long i = 0; i < num; i++)
        CHECK_OK(ABT_thread_create(pool, waiter, (void *)i, attr, &t[i]));
    CHECK_OK(ABT_thread_free_many(num, t)); /* they run and wait here */

    struct timespec end;
    clock_gettime(CLOCK_REALTIME, &end);
    double late = seconds(end) - seconds(bb_test_timespec_add_ns(base, (long long)num * 10000));
    printf("back %.3f s after the last deadline\n", late);
    CHECK_EQ(timedout, num);
    if (!bb_test_is_slow_run())
        CHECK(late < 2.0); /* used to be ~8 s */

    free(t);
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_eventual_free(&ev));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
