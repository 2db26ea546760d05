/* ABT_timer_dup makes an independent timer with copies of both stamps: a
 * dup of a stopped timer reads the same interval; a dup of a fresh timer
 * reads 0; a dup of a started timer, stopped later, measures from the
 * original start; changing either timer afterwards does not change the
 * other. */
#include "bb_test.h"

int main(void)
{
    BB_TEST_BEGIN(20);
    ABT_timer t, d, f, fd;
    double st = -1, sd = -1;

    CHECK_OK(ABT_timer_create(&f));
    CHECK_OK(ABT_timer_dup(f, &fd));
    CHECK(fd != ABT_TIMER_NULL && fd != f);
    CHECK_OK(ABT_timer_read(fd, &sd));
    CHECK(sd == 0.0);

    CHECK_OK(ABT_timer_create(&t));
    CHECK_OK(ABT_timer_start(t));
    usleep(20000);
    CHECK_OK(ABT_timer_stop(t));
    CHECK_OK(ABT_timer_dup(t, &d));
    CHECK(d != t);
    CHECK_OK(ABT_timer_read(t, &st));
    CHECK_OK(ABT_timer_read(d, &sd));
    CHECK(st >= 0.015 && st < 1.0);
    CHECK(sd == st);

    /* Independent: restarting t leaves d as it was. */
    CHECK_OK(ABT_timer_start(t));
    CHECK_OK(ABT_timer_stop(t));
    CHECK_OK(ABT_timer_read(d, &sd));
    CHECK(sd == st);
    CHECK_OK(ABT_timer_free(&d));

    /* Dup of a started timer carries the start. */
    CHECK_OK(ABT_timer_start(t));
    usleep(20000);
    CHECK_OK(ABT_timer_dup(t, &d));
    usleep(20000);
    CHECK_OK(ABT_timer_stop_and_read(d, &sd));
    CHECK(sd >= 0.035 && sd < 2.0);
    /* and changing d leaves t alone: t's stop is still the older one */
    CHECK_OK(ABT_timer_read(t, &st));
    CHECK(st < 0);

    CHECK_OK(ABT_timer_free(&d));
    CHECK_OK(ABT_timer_free(&t));
    CHECK_OK(ABT_timer_free(&f));
    CHECK_OK(ABT_timer_free(&fd));
    BB_TEST_END();
}
