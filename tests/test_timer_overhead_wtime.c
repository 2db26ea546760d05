/* ABT_timer_get_overhead gives a small positive mean cost of a start/stop
 * pair (well under a millisecond), measured anew at each call; NULL ->
 * ABT_ERR_INV_ARG. ABT_get_wtime is CLOCK_REALTIME in seconds: it lies
 * between two clock_gettime(CLOCK_REALTIME) readings taken around it (with a
 * little slack for rounding), never goes backwards over a short loop, and
 * advances by about 20 ms over a 20 ms sleep. */
#include "bb_test.h"
#include <time.h>

static double realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    double o1 = -1, o2 = -1;
    CHECK_OK(ABT_timer_get_overhead(&o1));
    CHECK_OK(ABT_timer_get_overhead(&o2));
    CHECK(o1 > 0 && o1 < 1e-3);
    CHECK(o2 > 0 && o2 < 1e-3);
    CHECK_ERR(ABT_timer_get_overhead(NULL), ABT_ERR_INV_ARG);

    for (int i = 0; i < 100; i++) {
        double before = realtime();
        double w = ABT_get_wtime();
        double after = realtime();
        CHECK(w >= before - 1e-6 && w <= after + 1e-6);
    }
    double prev = ABT_get_wtime();
    for (int i = 0; i < 10000; i++) {
        double w = ABT_get_wtime();
        CHECK(w >= prev);
        prev = w;
    }
    double w0 = ABT_get_wtime();
    usleep(20000);
    double w1 = ABT_get_wtime();
    CHECK(w1 - w0 >= 0.015 && w1 - w0 < 1.0);

    CHECK_OK(ABT_init(0, NULL));
    double before = realtime();
    double w = ABT_get_wtime();
    double after = realtime();
    CHECK(w >= before - 1e-6 && w <= after + 1e-6);
    CHECK_OK(ABT_timer_get_overhead(&o1));
    CHECK(o1 > 0 && o1 < 1e-3);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
