/* ABT_thread_create_many with a negative count is refused with
 * ABT_ERR_INV_ARG (REFERENCE, section 3), whatever the lists hold, and
 * creates nothing. Mutation testing (thread.c) found nothing checking it. */
#include "bb_test.h"

static int ran;

static void body(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_SEQ_CST);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pools[1] = {bb_test_main_pool()};
    void (*funcs[1])(void *) = {body};
    ABT_thread ts[1] = {ABT_THREAD_NULL};
    CHECK_ERR(ABT_thread_create_many(-1, pools, funcs, NULL, ABT_THREAD_ATTR_NULL, ts),
              ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_thread_create_many(-1, NULL, NULL, NULL, ABT_THREAD_ATTR_NULL, NULL),
              ABT_ERR_INV_ARG);
    CHECK(ts[0] == ABT_THREAD_NULL);
    /* Zero is fine, with or without lists. */
    CHECK_OK(ABT_thread_create_many(0, NULL, NULL, NULL, ABT_THREAD_ATTR_NULL, NULL));
    ABT_thread_yield();
    CHECK_EQ(ran, 0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
