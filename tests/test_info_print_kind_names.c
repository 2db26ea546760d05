/* The names ABT_info_print_sched / _pool / _thread give to what
 * test_info_print_objects does not show:
 *  - scheduler kinds: PRIO (ABT_sched_create_basic, with its 3 new pools)
 *    and USER (ABT_sched_create);
 *  - pool accesses SPSC, MPSC and SPMC, alone and nested in a scheduler,
 *    in the scheduler's order;
 *  - a stacked scheduler (ABT_pool_add_sched): used IN_POOL, and its ULT,
 *    popped from the pool, has type SCHED; once run it ends, and is
 *    NOT_USED again. */
#include "bb_test.h"
#include "capture_util.h"

/* How many lines of `text` read "label : value" exactly (leading spaces and
 * the padding before the colon ignored). */
static int count_field(const char *text, const char *label, const char *value)
{
    static char vals[64][80];
    int n = fields(text, label, vals, 64), same = 0;
    for (int i = 0; i < n && i < 64; i++)
        same += strcmp(vals[i], value) == 0;
    return same;
}

#define CHECK_FIELD_COUNT(text, label, value, want)                                        \
    do {                                                                                   \
        int got_ = count_field(text, label, value);                                        \
        if (got_ != (want))                                                                \
            BB_FAIL_AT("\"%s : %s\" appears %d times, expected %d, in:\n%s", label, value, \
                       got_, (int)(want), text);                                           \
    } while (0)

static void never_run(ABT_sched sched)
{
    (void)sched;
}

static void check_sched_kinds(void)
{
    char *text;
    ABT_sched prio;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_PRIO, 0, NULL, ABT_SCHED_CONFIG_NULL, &prio));
    CAPTURE(text, ABT_info_print_sched(fp, prio));
    CHECK_FIELD_COUNT(text, "kind", "PRIO", 1);
    CHECK_FIELD_COUNT(text, "pools", "3", 1);
    CHECK_FIELD_COUNT(text, "kind", "BUILTIN", 3); /* its pools */
    CHECK_FIELD_COUNT(text, "used", "NOT_USED", 1);
    free(text);
    CHECK_OK(ABT_sched_free(&prio));

    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = never_run};
    ABT_sched user;
    CHECK_OK(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &user));
    CAPTURE(text, ABT_info_print_sched(fp, user));
    CHECK_FIELD_COUNT(text, "kind", "USER", 1);
    CHECK_FIELD_COUNT(text, "kind", "BUILTIN", 1);
    CHECK_FIELD_COUNT(text, "pools", "1", 1);
    free(text);
    CHECK_OK(ABT_sched_free(&user));
    CHECK_OK(ABT_pool_free(&pool));
}

static void check_access_names(void)
{
    static const struct {
        ABT_pool_access access;
        const char *name;
    } cases[3] = {{ABT_POOL_ACCESS_SPSC, "SPSC"},
                  {ABT_POOL_ACCESS_MPSC, "MPSC"},
                  {ABT_POOL_ACCESS_SPMC, "SPMC"}};
    ABT_pool pools[3];
    char *text;
    for (int i = 0; i < 3; i++) {
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, cases[i].access, ABT_FALSE, &pools[i]));
        CAPTURE(text, ABT_info_print_pool(fp, pools[i]));
        CHECK_FIELD_COUNT(text, "access", cases[i].name, 1);
        free(text);
    }
    /* Nested in a scheduler, in its order. */
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 3, pools, ABT_SCHED_CONFIG_NULL, &sched));
    CAPTURE(text, ABT_info_print_sched(fp, sched));
    const char *at[3];
    for (int i = 0; i < 3; i++) {
        CHECK_FIELD_COUNT(text, "access", cases[i].name, 1);
        at[i] = strstr(text, cases[i].name);
    }
    CHECK(at[0] && at[1] && at[2] && at[0] < at[1] && at[1] < at[2]);
    free(text);
    CHECK_OK(ABT_sched_free(&sched));
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_pool_free(&pools[i]));
}

static void check_stacked(void)
{
    ABT_pool main_pool = bb_test_main_pool();
    ABT_pool inner, holder;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &inner));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &holder));
    ABT_sched_config config;
    CHECK_OK(ABT_sched_config_create(&config, ABT_sched_config_automatic, 0,
                                     ABT_sched_config_var_end));
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &inner, config, &sched));
    CHECK_OK(ABT_sched_config_free(&config));
    CHECK_OK(ABT_pool_add_sched(holder, sched));

    char *text;
    CAPTURE(text, ABT_info_print_sched(fp, sched));
    CHECK_FIELD_COUNT(text, "used", "IN_POOL", 1);
    free(text);

    /* Its ULT, waiting in `holder`, which no scheduler serves. */
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(holder, &t));
    CHECK(t != ABT_THREAD_NULL);
    CAPTURE(text, ABT_info_print_thread(fp, t));
    CHECK(strncmp(text, "ULT", 3) == 0);
    CHECK_FIELD_COUNT(text, "type", "SCHED", 1);
    CHECK_FIELD_COUNT(text, "state", "READY", 1);
    free(text);

    /* Run it: its pool is empty, so it ends at once and can be freed. */
    CHECK_OK(ABT_pool_push_thread(main_pool, t));
    int err = ABT_ERR_SCHED;
    for (int i = 0; i < 10000 && err == ABT_ERR_SCHED; i++) {
        CHECK_OK(ABT_thread_yield());
        CAPTURE(text, ABT_info_print_sched(fp, sched));
        if (count_field(text, "used", "NOT_USED") == 1)
            err = ABT_sched_free(&sched);
        free(text);
    }
    CHECK_OK(err);
    CHECK_OK(ABT_pool_free(&inner));
    CHECK_OK(ABT_pool_free(&holder));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    check_sched_kinds();
    check_access_names();
    check_stacked();
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
