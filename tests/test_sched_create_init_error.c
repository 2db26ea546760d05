/* ABT_sched_create whose init callback fails: the init's own error code is
 * returned, *newsched is ABT_SCHED_NULL, the free callback is not called,
 * the pools made for NULL entries are freed (the sanitizer build checks for
 * leaks) and the caller's pools are released (they can be freed afterwards).
 * A later successful create with the same def works normally. */
#include "bb_test.h"

static int init_calls, free_calls;
static int init_result;
static int read_value = -1;

static int failing_init(ABT_sched sched, ABT_sched_config config)
{
    (void)sched;
    init_calls++;
    ABT_sched_config_read(config, 1, &read_value);
    return init_result;
}

static void run_nothing(ABT_sched sched)
{
    (void)sched;
}

static int count_free(ABT_sched sched)
{
    (void)sched;
    free_calls++;
    return ABT_SUCCESS;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));

    ABT_pool p1, p2;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &p2));
    ABT_sched_config_var v0 = {0, ABT_SCHED_CONFIG_INT};
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, v0, 5, ABT_sched_config_automatic, 1,
                                     ABT_sched_config_var_end));
    ABT_sched_def def = {.init = failing_init, .run = run_nothing, .free = count_free};

    const int codes[3] = {ABT_ERR_OTHER, ABT_ERR_MEM, ABT_ERR_INV_ARG};
    for (int i = 0; i < 3; i++) {
        init_result = codes[i];
        ABT_pool pools[4] = {p1, ABT_POOL_NULL, p2, ABT_POOL_NULL};
        ABT_sched s = (ABT_sched)(void *)0x99;
        read_value = -1;
        CHECK_ERR(ABT_sched_create(&def, 4, pools, cfg, &s), codes[i]);
        CHECK(s == ABT_SCHED_NULL);
        CHECK_EQ(init_calls, i + 1);
        CHECK_EQ(read_value, 5);
        CHECK_EQ(free_calls, 0);
    }

    /* The user pools are not held any more: they work and can be freed. */
    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(p1, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_pool_free(&p1));
    CHECK_OK(ABT_pool_free(&p2));

    /* Now a success with the same definition. */
    init_result = ABT_SUCCESS;
    ABT_sched s;
    CHECK_OK(ABT_sched_create(&def, 0, NULL, cfg, &s));
    CHECK_EQ(init_calls, 4);
    CHECK_OK(ABT_sched_free(&s));
    CHECK_EQ(free_calls, 1);

    CHECK_OK(ABT_sched_config_free(&cfg));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
