/* ABT_pool_pop_timedwait's deadline is absolute, on the ABT_get_wtime clock
 * (real time): when the system clock is set during the wait, the deadline
 * moves with it, as a deadline of pthread_cond_timedwait does. The timeout
 * of ABT_pool_pop_wait is a duration: setting the clock must not stretch or
 * cut it.
 *
 * A test cannot set the clock of the machine it runs on. So it checks what
 * the library asks the kernel for: the futex waits of the calling thread
 * (futex_watch_util.h). pop_timedwait on an empty
 * FIFO_WAIT pool must sleep with FUTEX_CLOCK_REALTIME until the deadline it
 * was given; pop_wait must sleep without it. (Setting the clock forward by
 * a minute during a 20 s pop_timedwait ends it at once; it used to sleep
 * the 20 s out.) */
#include <linux/futex.h>
#include <stdbool.h>
#include <time.h>

#include "bb_test.h"

static __thread bool watched; /* the futex waits of this thread are recorded */
static int waits, realtime_waits;
static struct timespec realtime_deadline;

static bool on_futex(long a[6], long *result)
{
    (void)result;
    int cmd = (int)a[1] & FUTEX_CMD_MASK;
    if (watched && (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET)) {
        waits++;
        if (((int)a[1] & FUTEX_CLOCK_REALTIME) && a[3]) {
            realtime_waits++;
            realtime_deadline = *(const struct timespec *)a[3];
        }
    }
    return false;
}

#include "futex_watch_util.h"

static double seconds_of(struct timespec ts)
{
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void start_watching(void)
{
    waits = realtime_waits = 0;
    watched = true;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    futex_watch_init();
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_unit unit;

    /* An absolute deadline: a sleep on the real-time clock until it. */
    double deadline = ABT_get_wtime() + 0.05;
    start_watching();
    CHECK_OK(ABT_pool_pop_timedwait(pool, &unit, deadline));
    watched = false;
    CHECK(unit == ABT_UNIT_NULL);
    CHECK(ABT_get_wtime() >= deadline);
    CHECK(waits >= 1);
    CHECK_EQ(realtime_waits, waits);
    double asked = seconds_of(realtime_deadline);
    if (asked < deadline - 1e-6 || asked > deadline + 1e-6)
        BB_FAIL_AT("the kernel was asked to wake at %.6f, not at the deadline %.6f", asked,
                   deadline);

    /* A timeout: never a sleep on the real-time clock. */
    start_watching();
    CHECK_OK(ABT_pool_pop_wait(pool, &unit, 0.05));
    watched = false;
    CHECK(unit == ABT_UNIT_NULL);
    CHECK(waits >= 1);
    CHECK_EQ(realtime_waits, 0);

    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
