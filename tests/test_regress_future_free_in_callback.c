/* ABT_future_free of a future from its own callback (src/sync/future.c).
 *
 * The last ABT_future_set runs the callback without the future's lock, so
 * that the callback may call into the runtime, and takes the lock again
 * once it returns. A callback that freed its future was told SUCCESS and
 * the setter then locked freed memory (a use after free, seen by ASan;
 * otherwise a corrupted heap). The free is now refused with
 * ABT_ERR_FUTURE while the callback runs, and leaves the handle alone;
 * the future is ready after the set and can be freed then. The callback
 * also sees the future not ready yet (ABT_future_test), as documented. */
#include "bb_test.h"

static ABT_future future;
static int n_calls, free_err = -1, test_err = -1;
static ABT_bool ready_in_cb = ABT_TRUE;

static void callback(void **values)
{
    n_calls++;
    CHECK(values[0] == (void *)&n_calls);
    test_err = ABT_future_test(future, &ready_in_cb);
    ABT_future copy = future;
    free_err = ABT_future_free(&copy);
    CHECK(copy == future); /* refused: the handle is left alone */
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_future_create(1, callback, &future));
    CHECK_OK(ABT_future_set(future, &n_calls));
    CHECK_EQ(n_calls, 1);
    CHECK_EQ(test_err, ABT_SUCCESS);
    CHECK_EQ(ready_in_cb, ABT_FALSE);
    CHECK_EQ(free_err, ABT_ERR_FUTURE);
    ABT_bool ready = ABT_FALSE;
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    CHECK_OK(ABT_future_wait(future));
    CHECK_OK(ABT_future_free(&future));
    CHECK(future == ABT_FUTURE_NULL);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
