/* Timers and ABT_get_wtime need no ABT_init: before ABT_init a timer is
 * created, dup'ed, started, stopped, read and freed; a timer created before
 * ABT_init keeps working while the runtime is up and after ABT_finalize, and
 * one created while the runtime is up is freed after ABT_finalize.
 * ABT_timer_get_overhead works before ABT_init too. */
#include "bb_test.h"

static void interval(ABT_timer t)
{
    CHECK_OK(ABT_timer_start(t));
    usleep(2000);
    CHECK_OK(ABT_timer_stop(t));
    double secs = -1;
    CHECK_OK(ABT_timer_read(t, &secs));
    CHECK(secs >= 0.001 && secs < 2.0);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    double w = ABT_get_wtime();
    CHECK(w > 1e9);
    ABT_timer t, d;
    CHECK_OK(ABT_timer_create(&t));
    interval(t);
    CHECK_OK(ABT_timer_dup(t, &d));
    interval(d);
    double secs = -1;
    CHECK_OK(ABT_timer_stop_and_read(d, &secs));
    CHECK(secs > 0 && secs < 2.0);
    secs = 0;
    CHECK_OK(ABT_timer_stop_and_add(d, &secs));
    CHECK(secs > 0 && secs < 2.0);
    CHECK_OK(ABT_timer_free(&d));
    double overhead = -1;
    CHECK_OK(ABT_timer_get_overhead(&overhead));
    CHECK(overhead >= 0 && overhead < 1e-3);

    CHECK_OK(ABT_init(0, NULL));
    interval(t);
    ABT_timer in;
    CHECK_OK(ABT_timer_create(&in));
    interval(in);
    CHECK(ABT_get_wtime() >= w);
    CHECK_OK(ABT_finalize());

    interval(t);
    interval(in);
    CHECK_OK(ABT_timer_free(&in));
    CHECK_OK(ABT_timer_free(&t));
    CHECK(t == ABT_TIMER_NULL && in == ABT_TIMER_NULL);
    BB_TEST_END();
}
