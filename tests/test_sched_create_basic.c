/* ABT_sched_create_basic: without pools it makes its own single MPMC pool
 * (num_pools ignored); NULL entries of a pool array become new MPMC pools;
 * user pools are retained (cannot be freed while the scheduler lives) and
 * kept on error; get_num_pools / get_pools report them with the documented
 * argument checks; bad arguments give SCHED / INV_ARG / INV_SCHED_PREDEF with
 * the output cleared. */
#include "bb_test.h"

#define POISON ((ABT_sched)(void *)0x99)

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));

    ABT_sched s = POISON;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_DEFAULT, 5, NULL, ABT_SCHED_CONFIG_NULL, &s));
    int n = -1;
    CHECK_OK(ABT_sched_get_num_pools(s, &n));
    CHECK_EQ(n, 1);
    ABT_pool own = ABT_POOL_NULL;
    CHECK_OK(ABT_sched_get_pools(s, 1, 0, &own));
    CHECK(own != ABT_POOL_NULL);
    ABT_pool_access a;
    CHECK_OK(ABT_pool_get_access(own, &a));
    CHECK_EQ(a, ABT_POOL_ACCESS_MPMC);
    CHECK_OK(ABT_sched_free(&s));
    CHECK(s == ABT_SCHED_NULL);

    ABT_pool user;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &user));
    ABT_pool arr[3] = {ABT_POOL_NULL, user, ABT_POOL_NULL};
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 3, arr, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_OK(ABT_sched_get_num_pools(s, &n));
    CHECK_EQ(n, 3);
    ABT_pool got[4] = {ABT_POOL_NULL, ABT_POOL_NULL, ABT_POOL_NULL, ABT_POOL_NULL};
    CHECK_OK(ABT_sched_get_pools(s, 3, 0, got));
    CHECK(got[1] == user);
    CHECK(got[0] != ABT_POOL_NULL && got[2] != ABT_POOL_NULL && got[0] != got[2]);
    CHECK(got[3] == ABT_POOL_NULL);
    CHECK_OK(ABT_pool_get_access(got[0], &a));
    CHECK_EQ(a, ABT_POOL_ACCESS_MPMC);
    CHECK_OK(ABT_pool_get_access(got[2], &a));
    CHECK_EQ(a, ABT_POOL_ACCESS_MPMC);
    /* Partial reads. */
    ABT_pool two[2] = {ABT_POOL_NULL, ABT_POOL_NULL};
    CHECK_OK(ABT_sched_get_pools(s, 2, 1, two));
    CHECK(two[0] == user && two[1] == got[2]);
    CHECK_OK(ABT_sched_get_pools(s, 0, 3, two));
    CHECK_ERR(ABT_sched_get_pools(s, 2, 2, two), ABT_ERR_SCHED);
    CHECK_ERR(ABT_sched_get_pools(s, 4, 0, got), ABT_ERR_SCHED);
    CHECK_ERR(ABT_sched_get_pools(s, 1, -1, two), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_get_pools(s, -1, 0, two), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_get_pools(ABT_SCHED_NULL, 1, 0, two), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_sched_get_num_pools(ABT_SCHED_NULL, &n), ABT_ERR_INV_SCHED);

    ABT_pool h = user;
    CHECK_ERR(ABT_pool_free(&h), ABT_ERR_POOL);
    CHECK_OK(ABT_sched_free(&s));
    CHECK_OK(ABT_pool_get_access(user, &a)); /* still alive */
    CHECK_EQ(a, ABT_POOL_ACCESS_PRIV);

    /* Errors. */
    CHECK_ERR(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, NULL, ABT_SCHED_CONFIG_NULL, NULL),
              ABT_ERR_SCHED);
    s = POISON;
    CHECK_ERR(ABT_sched_create_basic(ABT_SCHED_BASIC, -1, &user, ABT_SCHED_CONFIG_NULL, &s),
              ABT_ERR_INV_ARG);
    CHECK(s == ABT_SCHED_NULL);
    s = POISON;
    CHECK_ERR(ABT_sched_create_basic((ABT_sched_predef)77, 1, &user, ABT_SCHED_CONFIG_NULL, &s),
              ABT_ERR_INV_SCHED_PREDEF);
    CHECK(s == ABT_SCHED_NULL);
    /* The other predefined schedulers take the caller's pools too. */
    const ABT_sched_predef others[3] = {ABT_SCHED_PRIO, ABT_SCHED_RANDWS, ABT_SCHED_BASIC_WAIT};
    for (int i = 0; i < 3; i++) {
        CHECK_OK(ABT_sched_create_basic(others[i], 1, &user, ABT_SCHED_CONFIG_NULL, &s));
        int n = 0;
        CHECK_OK(ABT_sched_get_num_pools(s, &n));
        CHECK_EQ(n, 1);
        CHECK_OK(ABT_sched_free(&s));
    }
    ABT_xstream x = (ABT_xstream)(void *)0x1;
    CHECK_ERR(ABT_xstream_create_basic(ABT_SCHED_BASIC, -1, NULL, ABT_SCHED_CONFIG_NULL, &x),
              ABT_ERR_INV_ARG);
    CHECK(x == ABT_XSTREAM_NULL);
    CHECK_ERR(ABT_xstream_create_basic((ABT_sched_predef)77, 1, &user, ABT_SCHED_CONFIG_NULL,
                                       &x),
              ABT_ERR_INV_SCHED_PREDEF);
    /* None of the failed calls kept a hold on the user pool. */
    CHECK_OK(ABT_pool_free(&user));

    ABT_sched null_sched = ABT_SCHED_NULL;
    CHECK_ERR(ABT_sched_free(&null_sched), ABT_ERR_INV_SCHED);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
