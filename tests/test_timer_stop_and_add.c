/* ABT_timer_stop_and_add adds stop - start to *secs (accumulates): three
 * start / 20 ms / stop_and_add rounds give about 0.06 s; it does not move
 * the start, so a second add without a new start counts from the old start
 * again; the stop stamp it sets is what ABT_timer_read then reports. */
#include "bb_test.h"

int main(void)
{
    BB_TEST_BEGIN(20);
    ABT_timer t;
    CHECK_OK(ABT_timer_create(&t));

    double total = 0;
    for (int i = 0; i < 3; i++) {
        CHECK_OK(ABT_timer_start(t));
        usleep(20000);
        double before = total;
        CHECK_OK(ABT_timer_stop_and_add(t, &total));
        double r = -1;
        CHECK_OK(ABT_timer_read(t, &r));
        CHECK(r >= 0.015 && r < 1.0);
        CHECK(total - before > r - 1e-6 && total - before < r + 1e-6);
        usleep(10000); /* not counted: between stop and the next start */
    }
    CHECK(total >= 0.045 && total < 3.0);

    /* Adds to whatever *secs holds. */
    double acc = 100.0;
    CHECK_OK(ABT_timer_start(t));
    usleep(20000);
    CHECK_OK(ABT_timer_stop_and_add(t, &acc));
    CHECK(acc >= 100.015 && acc < 101.0);

    /* No new start: the second add counts from the same start again. */
    double first = 0, second = 0;
    CHECK_OK(ABT_timer_start(t));
    usleep(20000);
    CHECK_OK(ABT_timer_stop_and_add(t, &first));
    usleep(20000);
    CHECK_OK(ABT_timer_stop_and_add(t, &second));
    CHECK(first >= 0.015 && first < 1.0);
    CHECK(second >= first + 0.015 && second < first + 1.0);

    CHECK_OK(ABT_timer_free(&t));
    BB_TEST_END();
}
