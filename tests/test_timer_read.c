/* ABT_timer_read gives stop - start: a fresh timer reads 0; start, sleep
 * 20 ms, stop reads about 0.02 s (generous bounds) and reading again gives
 * the same value (the clock is not read); ABT_timer_stop_and_read stops and
 * reads in one call; a later stop overwrites the stop stamp, a later start
 * the start stamp. Timers used from a ULT on another ES and a tasklet work
 * the same. */
#include "bb_test.h"

#define LO 0.015
#define HI 1.0

static int in_unit_bad = -1;

static int measure_20ms(void)
{
    int bad = 0;
    ABT_timer t;
    double s = -1;
    if (ABT_timer_create(&t) != ABT_SUCCESS)
        return 1;
    bad += ABT_timer_start(t) != ABT_SUCCESS;
    usleep(20000);
    bad += ABT_timer_stop_and_read(t, &s) != ABT_SUCCESS;
    bad += !(s >= LO && s < HI);
    bad += ABT_timer_free(&t) != ABT_SUCCESS;
    return bad;
}

static void unit_fn(void *arg)
{
    (void)arg;
    in_unit_bad = measure_20ms();
}

int main(void)
{
    BB_TEST_BEGIN(20);
    ABT_timer t;
    double s = -1;
    CHECK_OK(ABT_timer_create(&t));
    CHECK(t != ABT_TIMER_NULL);
    CHECK_OK(ABT_timer_read(t, &s));
    CHECK(s == 0.0);

    CHECK_OK(ABT_timer_start(t));
    usleep(20000);
    CHECK_OK(ABT_timer_stop(t));
    CHECK_OK(ABT_timer_read(t, &s));
    CHECK(s >= LO && s < HI);
    double again = -1;
    usleep(5000);
    CHECK_OK(ABT_timer_read(t, &again));
    CHECK(again == s);

    /* A later stop extends the interval. */
    usleep(20000);
    CHECK_OK(ABT_timer_stop(t));
    CHECK_OK(ABT_timer_read(t, &again));
    CHECK(again >= s + LO && again < HI + s);

    /* A new start shortens it: stop_and_read measures from the new start. */
    CHECK_OK(ABT_timer_start(t));
    usleep(20000);
    CHECK_OK(ABT_timer_stop_and_read(t, &s));
    CHECK(s >= LO && s < HI);
    CHECK_OK(ABT_timer_read(t, &again));
    CHECK(again == s);

    /* Back to back: tiny but not negative. */
    CHECK_OK(ABT_timer_start(t));
    CHECK_OK(ABT_timer_stop_and_read(t, &s));
    CHECK(s >= 0 && s < 0.01);
    CHECK_OK(ABT_timer_free(&t));

    CHECK_OK(ABT_init(0, NULL));
    CHECK_EQ(measure_20ms(), 0);
    ABT_xstream es1, es0;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_get_main_pools(es0, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    ABT_thread u;
    CHECK_OK(ABT_thread_create(pool1, unit_fn, NULL, ABT_THREAD_ATTR_NULL, &u));
    CHECK_OK(ABT_thread_free(&u));
    CHECK_EQ(in_unit_bad, 0);
    in_unit_bad = -1;
    ABT_task k;
    CHECK_OK(ABT_task_create(pool0, unit_fn, NULL, &k));
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(in_unit_bad, 0);
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
