/* With a single ES, a ULT that blocks on a held mutex gives the ES to other
 * ULTs: A takes the mutex and yields; B calls lock and blocks; C still runs;
 * A sees B BLOCKED and C done, unlocks, and B then gets the mutex. The
 * primary ULT waits in a join meanwhile. */
#include "bb_test.h"

static ABT_mutex mtx;
static ABT_thread tb;
static int a_locked, b_got, c_ran, c_saw_b_got = -1, a_saw_c_ran, b_saw_c_ran;
static int b_lock_ret = -1, a_unlock_ret = -1, yields;
static ABT_thread_state b_state_seen_by_a = ABT_THREAD_STATE_TERMINATED;
static char order[8];
static int norder;

static void ult_a(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mtx);
    a_locked = 1;
    order[norder++] = 'A';
    while (!c_ran && yields < 1000) {
        yields++;
        ABT_thread_yield();
    }
    a_saw_c_ran = c_ran;
    ABT_thread_get_state(tb, &b_state_seen_by_a);
    a_unlock_ret = ABT_mutex_unlock(mtx);
    order[norder++] = 'a';
}

static void ult_b(void *arg)
{
    (void)arg;
    order[norder++] = 'B';
    b_lock_ret = ABT_mutex_lock(mtx);
    b_saw_c_ran = c_ran;
    b_got = 1;
    order[norder++] = 'b';
    ABT_mutex_unlock(mtx);
}

static void ult_c(void *arg)
{
    (void)arg;
    order[norder++] = 'C';
    c_saw_b_got = b_got;
    c_ran = 1;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pool));
    CHECK_OK(ABT_mutex_create(&mtx));

    ABT_thread ta, tc;
    CHECK_OK(ABT_thread_create(pool, ult_a, NULL, ABT_THREAD_ATTR_NULL, &ta));
    CHECK_OK(ABT_thread_create(pool, ult_b, NULL, ABT_THREAD_ATTR_NULL, &tb));
    CHECK_OK(ABT_thread_create(pool, ult_c, NULL, ABT_THREAD_ATTR_NULL, &tc));
    CHECK_OK(ABT_thread_join(ta));
    CHECK_OK(ABT_thread_join(tb));
    CHECK_OK(ABT_thread_join(tc));

    CHECK_EQ(a_locked, 1);
    CHECK_EQ(c_ran, 1);
    CHECK_EQ(c_saw_b_got, 0);  /* C ran while B was blocked */
    CHECK_EQ(a_saw_c_ran, 1);  /* A did not wait forever */
    CHECK_EQ(b_state_seen_by_a, ABT_THREAD_STATE_BLOCKED);
    CHECK_EQ(a_unlock_ret, ABT_SUCCESS);
    CHECK_EQ(b_lock_ret, ABT_SUCCESS);
    CHECK_EQ(b_got, 1);
    CHECK_EQ(b_saw_c_ran, 1);
    order[norder] = '\0';
    printf("order: %s\n", order);
    /* A first; B tries after A yields; C runs before A unlocks; B gets the
     * mutex only after A's unlock. */
    CHECK(strcmp(order, "ABCab") == 0);

    CHECK_OK(ABT_thread_free(&ta));
    CHECK_OK(ABT_thread_free(&tb));
    CHECK_OK(ABT_thread_free(&tc));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
