/* Regression (review finding on ABT_pool_remove): removing from pool Q a
 * unit that sits in another pool P returns ABT_ERR_POOL and leaves both
 * pools as they were: same sizes, and popping them still gives exactly
 * their own units. The same for a unit that is in no pool at all. Checked
 * for every built-in kind, private and shared.
 *
 * What used to go wrong: the built-in remove unlinked the unit without
 * checking that it belonged to the pool, corrupting both lists (P lost the
 * unit while still counting it, Q's count went wrong or negative). */
#include "bb_test.h"

static int ran;

static void work(void *arg)
{
    (void)arg;
    ran++;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &main_pool));

    const ABT_pool_kind kinds[] = {ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT, ABT_POOL_RANDWS};
    const ABT_pool_access accesses[] = {ABT_POOL_ACCESS_PRIV, ABT_POOL_ACCESS_MPMC};
    int expected_ran = 0;
    for (int k = 0; k < 3; k++) {
        for (int a = 0; a < 2; a++) {
            ABT_pool P, Q;
            CHECK_OK(ABT_pool_create_basic(kinds[k], accesses[a], ABT_FALSE, &P));
            CHECK_OK(ABT_pool_create_basic(kinds[k], accesses[a], ABT_FALSE, &Q));
            ABT_thread t[3]; /* t[0], t[1] in P; t[2] in Q */
            ABT_unit u[3];
            for (int i = 0; i < 3; i++) {
                CHECK_OK(ABT_thread_create(i < 2 ? P : Q, work, NULL, ABT_THREAD_ATTR_NULL,
                                           &t[i]));
                CHECK_OK(ABT_thread_get_unit(t[i], &u[i]));
            }

            /* Both of P's units, from Q: refused, nothing changes. */
            for (int i = 0; i < 2; i++)
                CHECK_ERR(ABT_pool_remove(Q, u[i]), ABT_ERR_POOL);
            /* And Q's unit, from P. */
            CHECK_ERR(ABT_pool_remove(P, u[2]), ABT_ERR_POOL);
            size_t sp = 99, sq = 99;
            CHECK_OK(ABT_pool_get_size(P, &sp));
            CHECK_OK(ABT_pool_get_size(Q, &sq));
            CHECK_EQ(sp, 2);
            CHECK_EQ(sq, 1);

            /* The lists are intact: P gives t[0] and t[1], Q gives t[2]. */
            ABT_unit x[2] = {ABT_UNIT_NULL, ABT_UNIT_NULL}, y = ABT_UNIT_NULL;
            CHECK_OK(ABT_pool_pop(P, &x[0]));
            CHECK_OK(ABT_pool_pop(P, &x[1]));
            CHECK((x[0] == u[0] && x[1] == u[1]) || (x[0] == u[1] && x[1] == u[0]));
            y = (ABT_unit)(void *)0x1;
            CHECK_OK(ABT_pool_pop(P, &y));
            CHECK(y == ABT_UNIT_NULL);
            CHECK_OK(ABT_pool_pop(Q, &y));
            CHECK(y == u[2]);
            y = (ABT_unit)(void *)0x1;
            CHECK_OK(ABT_pool_pop(Q, &y));
            CHECK(y == ABT_UNIT_NULL);

            /* A unit in no pool: refused by both, sizes stay 0. */
            CHECK_ERR(ABT_pool_remove(P, u[0]), ABT_ERR_POOL);
            CHECK_ERR(ABT_pool_remove(Q, u[2]), ABT_ERR_POOL);
            CHECK_OK(ABT_pool_get_size(P, &sp));
            CHECK_OK(ABT_pool_get_size(Q, &sq));
            CHECK_EQ(sp, 0);
            CHECK_EQ(sq, 0);

            /* Run the units on the primary ES, so that they can be freed. */
            for (int i = 0; i < 3; i++)
                CHECK_OK(ABT_pool_push(main_pool, u[i]));
            for (int i = 0; i < 3; i++)
                CHECK_OK(ABT_thread_free(&t[i]));
            expected_ran += 3;
            CHECK_EQ(ran, expected_ran);
            CHECK_OK(ABT_pool_free(&P));
            CHECK_OK(ABT_pool_free(&Q));
        }
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
