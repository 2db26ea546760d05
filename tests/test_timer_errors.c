/* Error codes of the timer routines (the same before ABT_init and while the
 * runtime is up): a NULL timer handle -> ABT_ERR_INV_TIMER for dup, free
 * (*timer NULL), start, stop, read, stop_and_read and stop_and_add; a NULL
 * output pointer -> ABT_ERR_INV_ARG for create, dup, free, read,
 * stop_and_read and stop_and_add. create and dup set *newtimer to
 * ABT_TIMER_NULL on error. Failed calls leave a valid timer unchanged. */
#include "bb_test.h"

static void check_errors(void)
{
    ABT_timer t, good;
    double s = 123.0;

    CHECK_ERR(ABT_timer_create(NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_timer_create(&good));

    t = good;
    CHECK_ERR(ABT_timer_dup(ABT_TIMER_NULL, &t), ABT_ERR_INV_TIMER);
    CHECK(t == ABT_TIMER_NULL);
    CHECK_ERR(ABT_timer_dup(good, NULL), ABT_ERR_INV_ARG);

    CHECK_ERR(ABT_timer_free(NULL), ABT_ERR_INV_ARG);
    t = ABT_TIMER_NULL;
    CHECK_ERR(ABT_timer_free(&t), ABT_ERR_INV_TIMER);

    CHECK_ERR(ABT_timer_start(ABT_TIMER_NULL), ABT_ERR_INV_TIMER);
    CHECK_ERR(ABT_timer_stop(ABT_TIMER_NULL), ABT_ERR_INV_TIMER);
    CHECK_ERR(ABT_timer_read(ABT_TIMER_NULL, &s), ABT_ERR_INV_TIMER);
    CHECK_ERR(ABT_timer_stop_and_read(ABT_TIMER_NULL, &s), ABT_ERR_INV_TIMER);
    CHECK_ERR(ABT_timer_stop_and_add(ABT_TIMER_NULL, &s), ABT_ERR_INV_TIMER);
    CHECK(s == 123.0);

    CHECK_ERR(ABT_timer_read(good, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_timer_stop_and_read(good, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_timer_stop_and_add(good, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_timer_get_overhead(NULL), ABT_ERR_INV_ARG);

    /* The good timer still works. */
    CHECK_OK(ABT_timer_start(good));
    usleep(2000);
    CHECK_OK(ABT_timer_stop_and_read(good, &s));
    CHECK(s >= 0.001 && s < 1.0);
    CHECK_OK(ABT_timer_free(&good));
    CHECK(good == ABT_TIMER_NULL);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    check_errors();
    CHECK_OK(ABT_init(0, NULL));
    check_errors();
    CHECK_OK(ABT_finalize());
    check_errors();
    BB_TEST_END();
}
