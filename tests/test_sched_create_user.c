/* ABT_sched_create with a user ABT_sched_def: init runs once, gets the
 * scheduler and the config unchanged, can read the user variables with
 * ABT_sched_config_read and sees NULL data; set/get_data keep the user value;
 * NULL pool entries become new (MPSC) pools, the caller's pools are kept in
 * order and retained; get_num_pools / get_pools with their errors (idx + max >
 * n -> ABT_ERR_SCHED); the free callback runs exactly once, at ABT_sched_free.
 * init and free may be NULL. Errors: def NULL or def->run NULL -> INV_ARG,
 * newsched NULL -> ABT_ERR_SCHED, num_pools < 0 -> INV_ARG, NULL sched ->
 * INV_SCHED. */
#include "bb_test.h"

static int init_calls, free_calls, run_calls;
static ABT_sched init_sched, freed_sched;
static ABT_sched_config init_cfg;
static int init_read_ret = -1, init_get_data_ret = -1;
static int cfg_int = -1;
static void *cfg_ptr;
static double cfg_dbl;
static void *init_data = (void *)0x1;
static int data_word;

static int my_init(ABT_sched sched, ABT_sched_config config)
{
    init_calls++;
    init_sched = sched;
    init_cfg = config;
    init_get_data_ret = ABT_sched_get_data(sched, &init_data);
    init_read_ret = ABT_sched_config_read(config, 3, &cfg_int, &cfg_ptr, &cfg_dbl);
    ABT_sched_set_data(sched, &data_word);
    return ABT_SUCCESS;
}

static void my_run(ABT_sched sched)
{
    (void)sched;
    run_calls++;
}

static int my_free(ABT_sched sched)
{
    free_calls++;
    freed_sched = sched;
    return ABT_ERR_OTHER; /* ignored */
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));

    ABT_sched_config_var v_int = {0, ABT_SCHED_CONFIG_INT};
    ABT_sched_config_var v_ptr = {1, ABT_SCHED_CONFIG_PTR};
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, v_int, 31, v_ptr, (void *)&data_word,
                                     ABT_sched_config_var_end));

    ABT_pool user;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_SPSC, ABT_FALSE, &user));
    ABT_pool arr[3] = {ABT_POOL_NULL, user, ABT_POOL_NULL};
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .init = my_init, .run = my_run,
                         .free = my_free, .get_migr_pool = NULL};
    ABT_sched s = ABT_SCHED_NULL;
    cfg_dbl = 8.5;
    CHECK_OK(ABT_sched_create(&def, 3, arr, cfg, &s));
    CHECK(s != ABT_SCHED_NULL);
    CHECK_EQ(init_calls, 1);
    CHECK(init_sched == s);
    CHECK(init_cfg == cfg);
    CHECK_EQ(init_read_ret, ABT_SUCCESS);
    CHECK_EQ(cfg_int, 31);
    CHECK(cfg_ptr == (void *)&data_word);
    CHECK(cfg_dbl == 8.5); /* idx 2 absent: untouched */
    CHECK_EQ(init_get_data_ret, ABT_SUCCESS);
    CHECK(init_data == NULL);
    CHECK_EQ(free_calls, 0);
    CHECK_EQ(run_calls, 0);
    CHECK(arr[0] == ABT_POOL_NULL && arr[2] == ABT_POOL_NULL); /* caller's array kept */
    /* The scheduler does not depend on the config afterwards. */
    CHECK_OK(ABT_sched_config_free(&cfg));

    /* Data. */
    void *data = NULL;
    CHECK_OK(ABT_sched_get_data(s, &data));
    CHECK(data == (void *)&data_word);
    CHECK_OK(ABT_sched_set_data(s, (void *)&free_calls));
    CHECK_OK(ABT_sched_get_data(s, &data));
    CHECK(data == (void *)&free_calls);
    CHECK_OK(ABT_sched_set_data(s, NULL));
    CHECK_OK(ABT_sched_get_data(s, &data));
    CHECK(data == NULL);
    CHECK_ERR(ABT_sched_set_data(ABT_SCHED_NULL, NULL), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_sched_get_data(ABT_SCHED_NULL, &data), ABT_ERR_INV_SCHED);

    /* Pools. */
    int n = -1;
    CHECK_OK(ABT_sched_get_num_pools(s, &n));
    CHECK_EQ(n, 3);
    ABT_pool got[4] = {ABT_POOL_NULL, ABT_POOL_NULL, ABT_POOL_NULL, ABT_POOL_NULL};
    CHECK_OK(ABT_sched_get_pools(s, 3, 0, got));
    CHECK(got[1] == user);
    CHECK(got[0] != ABT_POOL_NULL && got[2] != ABT_POOL_NULL);
    CHECK(got[0] != got[2] && got[0] != user && got[2] != user);
    CHECK(got[3] == ABT_POOL_NULL);
    ABT_pool_access access;
    CHECK_OK(ABT_pool_get_access(got[0], &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPSC);
    CHECK_OK(ABT_pool_get_access(got[2], &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPSC);
    ABT_pool one = ABT_POOL_NULL;
    CHECK_OK(ABT_sched_get_pools(s, 1, 2, &one));
    CHECK(one == got[2]);
    ABT_pool two[2] = {ABT_POOL_NULL, ABT_POOL_NULL};
    CHECK_OK(ABT_sched_get_pools(s, 2, 1, two));
    CHECK(two[0] == user && two[1] == got[2]);
    CHECK_OK(ABT_sched_get_pools(s, 0, 3, two));
    CHECK_ERR(ABT_sched_get_pools(s, 2, 2, two), ABT_ERR_SCHED);
    CHECK_ERR(ABT_sched_get_pools(s, 1, 3, two), ABT_ERR_SCHED);
    CHECK_ERR(ABT_sched_get_pools(s, 4, 0, got), ABT_ERR_SCHED);
    CHECK_ERR(ABT_sched_get_pools(s, -1, 0, two), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_get_pools(s, 1, -1, two), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_get_pools(ABT_SCHED_NULL, 1, 0, two), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_sched_get_pools(ABT_SCHED_NULL, -1, 0, two), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_sched_get_num_pools(ABT_SCHED_NULL, &n), ABT_ERR_INV_SCHED);

    /* The user pool is retained while the scheduler lives. */
    ABT_pool h = user;
    CHECK_ERR(ABT_pool_free(&h), ABT_ERR_POOL);

    /* free: the callback once, with the handle; the new pools go with it. */
    CHECK_OK(ABT_sched_free(&s));
    CHECK(s == ABT_SCHED_NULL);
    CHECK_EQ(free_calls, 1);
    CHECK(freed_sched == init_sched);
    CHECK_EQ(init_calls, 1);
    CHECK_EQ(run_calls, 0);
    CHECK_OK(ABT_pool_free(&user));

    /* Minimal definition: only run. A NULL config reaches init as NULL, and
     * reading it fails as documented. */
    ABT_sched_def min_def = {.type = ABT_SCHED_TYPE_TASK, .run = my_run};
    CHECK_OK(ABT_sched_create(&min_def, 0, NULL, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_OK(ABT_sched_get_num_pools(s, &n));
    CHECK_EQ(n, 0);
    CHECK_ERR(ABT_sched_get_pools(s, 1, 0, two), ABT_ERR_SCHED);
    CHECK_OK(ABT_sched_get_data(s, &data));
    CHECK(data == NULL);
    CHECK_OK(ABT_sched_free(&s));
    CHECK_EQ(free_calls, 1);

    init_calls = 0;
    init_cfg = (ABT_sched_config)(void *)0x1;
    ABT_pool single = ABT_POOL_NULL;
    CHECK_OK(ABT_sched_create(&def, 1, &single, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_EQ(init_calls, 1);
    CHECK(init_cfg == ABT_SCHED_CONFIG_NULL);
    CHECK_EQ(init_read_ret, ABT_ERR_INV_SCHED_CONFIG);
    CHECK_OK(ABT_sched_free(&s));
    CHECK_EQ(free_calls, 2);

    /* Errors: nothing created, no callback called. */
    init_calls = 0;
    ABT_sched poison = (ABT_sched)(void *)0x99;
    s = poison;
    CHECK_ERR(ABT_sched_create(NULL, 0, NULL, ABT_SCHED_CONFIG_NULL, &s), ABT_ERR_INV_ARG);
    ABT_sched_def no_run = {.init = my_init, .free = my_free};
    CHECK_ERR(ABT_sched_create(&no_run, 0, NULL, ABT_SCHED_CONFIG_NULL, &s), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_create(&def, 0, NULL, ABT_SCHED_CONFIG_NULL, NULL), ABT_ERR_SCHED);
    CHECK_ERR(ABT_sched_create(&def, -1, arr, ABT_SCHED_CONFIG_NULL, &s), ABT_ERR_INV_ARG);
    CHECK_EQ(init_calls, 0);
    CHECK_EQ(free_calls, 2);

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
