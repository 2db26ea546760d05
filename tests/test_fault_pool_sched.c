/* Allocation failure inside pool and scheduler creation (issue #5):
 * ABT_pool_create_basic (FIFO, FIFO_WAIT, RANDWS), ABT_pool_create with a
 * new-style user definition, ABT_pool_user_def_create, ABT_pool_config_create,
 * ABT_sched_create_basic (own pools and given pools), ABT_sched_create with a
 * user definition, ABT_sched_config_create. For every k: ABT_ERR_MEM (or
 * ABT_ERR_SYS), the documented output, no leak, and the kind still works. */
#include "pool_user_util.h"
#include "fault_inject.h"

static ABT_pool_user_def g_def;
static ABT_pool_config g_pcfg;
static up_state g_state;
static ABT_pool g_given;
static int g_ran;

static void body(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&g_ran, 1, __ATOMIC_RELAXED);
}

/* Runs one ULT on an ES whose main scheduler uses `pool`. */
static void run_on_pool(ABT_pool pool)
{
    ABT_xstream es;
    ABT_thread t;
    g_ran = 0;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(g_ran, 1);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
}

/* ---- pools ---- */

static void destroy_pool(void **out)
{
    ABT_pool p = (ABT_pool)*out;
    CHECK(p != ABT_POOL_NULL);
    CHECK_OK(ABT_pool_free(&p));
}

static int create_fifo(void **out)
{
    return ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                 (ABT_pool *)out);
}

static int create_fifo_wait(void **out)
{
    return ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                 (ABT_pool *)out);
}

static int create_randws(void **out)
{
    return ABT_pool_create_basic(ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                 (ABT_pool *)out);
}

/* The pool is automatic: the ES's scheduler frees it. */
static void use_pool_basic(void)
{
    ABT_pool p;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p));
    run_on_pool(p);
}

static void setup_user(void)
{
    up_state_init(&g_state);
    g_def = up_new_def(1);
    g_pcfg = up_config(&g_state, 0);
}

static void teardown_user(void)
{
    CHECK_OK(ABT_pool_config_free(&g_pcfg));
    CHECK_OK(ABT_pool_user_def_free(&g_def));
}

static int create_user_pool(void **out)
{
    return ABT_pool_create(g_def, g_pcfg, (ABT_pool *)out);
}

static void use_user_pool(void)
{
    ABT_pool p;
    CHECK_OK(ABT_pool_create(g_def, g_pcfg, &p));
    run_on_pool(p);
    CHECK_OK(ABT_pool_free(&p));
}

static int create_user_def(void **out)
{
    return ABT_pool_user_def_create(up_create_unit, up_free_unit, up_is_empty, up_pop, up_push,
                                    (ABT_pool_user_def *)out);
}

static void destroy_user_def(void **out)
{
    ABT_pool_user_def d = (ABT_pool_user_def)*out;
    CHECK_OK(ABT_pool_user_def_free(&d));
}

static void use_user_def(void)
{
    setup_user();
    use_user_pool();
    teardown_user();
}

static int create_pool_config(void **out)
{
    return ABT_pool_config_create((ABT_pool_config *)out);
}

static void destroy_pool_config(void **out)
{
    ABT_pool_config c = (ABT_pool_config)*out;
    CHECK_OK(ABT_pool_config_free(&c));
}

static void use_pool_config(void)
{
    ABT_pool_config c;
    int v = 7, got = 0;
    CHECK_OK(ABT_pool_config_create(&c));
    CHECK_OK(ABT_pool_config_set(c, 3, ABT_POOL_CONFIG_INT, &v));
    CHECK_OK(ABT_pool_config_get(c, 3, NULL, &got));
    CHECK_EQ(got, 7);
    CHECK_OK(ABT_pool_config_free(&c));
}

/* ---- schedulers ---- */

static void destroy_sched(void **out)
{
    ABT_sched s = (ABT_sched)*out;
    CHECK(s != ABT_SCHED_NULL);
    CHECK_OK(ABT_sched_free(&s));
}

static int create_sched_basic(void **out)
{
    return ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL,
                                  (ABT_sched *)out);
}

static int create_sched_prio(void **out)
{
    return ABT_sched_create_basic(ABT_SCHED_PRIO, 0, NULL, ABT_SCHED_CONFIG_NULL,
                                  (ABT_sched *)out);
}

static void setup_given(void)
{
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &g_given));
}

static void teardown_given(void)
{
    CHECK_OK(ABT_pool_free(&g_given)); /* a failed create must not have taken it */
}

static int create_sched_given(void **out)
{
    ABT_pool pools[2] = {g_given, ABT_POOL_NULL}; /* NULL entry: the sched makes one */
    return ABT_sched_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL,
                                  (ABT_sched *)out);
}

static void use_sched(void)
{
    ABT_sched s;
    ABT_xstream es;
    ABT_pool pool;
    ABT_thread t;
    g_ran = 0;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_OK(ABT_xstream_create(s, &es));
    CHECK_OK(ABT_sched_get_pools(s, 1, 0, &pool));
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(g_ran, 1);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    /* create_basic's scheduler is automatic: the ES freed it */
}

static void user_run(ABT_sched sched)
{
    ABT_pool pool;
    ABT_sched_get_pools(sched, 1, 0, &pool);
    for (;;) {
        ABT_thread t;
        ABT_pool_pop_thread(pool, &t);
        if (t != ABT_THREAD_NULL)
            ABT_self_schedule(t, ABT_POOL_NULL);
        ABT_bool stop;
        ABT_sched_has_to_stop(sched, &stop);
        if (stop == ABT_TRUE)
            break;
        ABT_xstream_check_events(sched);
    }
}

static ABT_sched_def g_sched_def = {.type = ABT_SCHED_TYPE_ULT, .run = user_run};

static int create_sched_user(void **out)
{
    ABT_pool pools[1] = {ABT_POOL_NULL};
    return ABT_sched_create(&g_sched_def, 1, pools, ABT_SCHED_CONFIG_NULL, (ABT_sched *)out);
}

static int create_sched_config(void **out)
{
    return ABT_sched_config_create((ABT_sched_config *)out, ABT_sched_basic_freq, 5,
                                   ABT_sched_config_automatic, 1, ABT_sched_config_var_end);
}

static void destroy_sched_config(void **out)
{
    ABT_sched_config c = (ABT_sched_config)*out;
    CHECK_OK(ABT_sched_config_free(&c));
}

static void use_sched_config(void)
{
    ABT_sched_config c;
    ABT_sched s;
    CHECK_OK(ABT_sched_config_create(&c, ABT_sched_basic_freq, 5, ABT_sched_config_var_end));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, c, &s));
    CHECK_OK(ABT_sched_free(&s));
    CHECK_OK(ABT_sched_config_free(&c));
}

int main(void)
{
    BB_TEST_BEGIN(60);
    fi_begin();
    fi_case cases[] = {
        {.name = "ABT_pool_create_basic(FIFO)", .out_rule = FI_OUT_NULL,
         .create = create_fifo, .destroy = destroy_pool, .use = use_pool_basic},
        {.name = "ABT_pool_create_basic(FIFO_WAIT)", .out_rule = FI_OUT_NULL,
         .create = create_fifo_wait, .destroy = destroy_pool, .use = use_pool_basic},
        {.name = "ABT_pool_create_basic(RANDWS)", .out_rule = FI_OUT_NULL,
         .create = create_randws, .destroy = destroy_pool, .use = use_pool_basic},
        {.name = "ABT_pool_create(user def)", .out_rule = FI_OUT_NULL, .setup = setup_user,
         .create = create_user_pool, .destroy = destroy_pool, .use = use_user_pool,
         .teardown = teardown_user},
        {.name = "ABT_pool_user_def_create", .out_rule = FI_OUT_UNTOUCHED,
         .create = create_user_def, .destroy = destroy_user_def, .use = use_user_def},
        {.name = "ABT_pool_config_create", .out_rule = FI_OUT_UNTOUCHED,
         .create = create_pool_config, .destroy = destroy_pool_config, .use = use_pool_config},
        {.name = "ABT_sched_create_basic(BASIC, own pools)", .out_rule = FI_OUT_NULL,
         .create = create_sched_basic, .destroy = destroy_sched, .use = use_sched},
        {.name = "ABT_sched_create_basic(PRIO, own pools)", .out_rule = FI_OUT_NULL,
         .create = create_sched_prio, .destroy = destroy_sched, .use = use_sched},
        {.name = "ABT_sched_create_basic(given + NULL pool)", .out_rule = FI_OUT_NULL,
         .setup = setup_given, .create = create_sched_given, .destroy = destroy_sched,
         .use = use_sched, .teardown = teardown_given},
        {.name = "ABT_sched_create(user def)", .out_rule = FI_OUT_NULL,
         .create = create_sched_user, .destroy = destroy_sched, .use = use_sched},
        {.name = "ABT_sched_config_create", .out_rule = FI_OUT_UNTOUCHED,
         .create = create_sched_config, .destroy = destroy_sched_config,
         .use = use_sched_config},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        fi_sweep(&cases[i]);
    BB_TEST_END();
}
