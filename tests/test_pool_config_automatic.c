/* ABT_pool_config: create / set / get / free with INT, DOUBLE and PTR values
 * (get's type and val are optional; a set overwrites value and type; a NULL
 * val deletes, even an absent key; a missing key -> ABT_ERR_INV_ARG; a bad
 * type -> ABT_ERR_INV_ARG; a NULL config -> ABT_ERR_INV_POOL_CONFIG; free
 * clears the handle). ABT_pool_create hands the config to the pool's init
 * callback. ABT_pool_config_automatic (key -2, INT) non-zero makes a user
 * pool automatic: freed (its free callback runs once) together with the
 * scheduler that used it when that scheduler's ES is freed; zero or absent:
 * the pool outlives the scheduler and the user frees it. */
#include "pool_user_util.h"

static atomic_int ran;

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* Run `n` ULTs on a new ES whose only pool is `pool`, then free the ES. */
static void run_on(ABT_pool pool, int n)
{
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    ABT_thread t[8];
    for (int i = 0; i < n; i++)
        CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < n; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
}

static ABT_pool_config seen_config;
static int seen_value;

static int init_reads_config(ABT_pool pool, ABT_pool_config config)
{
    seen_config = config;
    ABT_pool_config_get(config, 5, NULL, &seen_value);
    return up_init(pool, config);
}

static int init_fails(ABT_pool pool, ABT_pool_config config)
{
    (void)pool;
    (void)config;
    return ABT_ERR_SYS;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));

    CHECK_EQ(ABT_pool_config_automatic.key, -2);
    CHECK_EQ(ABT_pool_config_automatic.type, ABT_POOL_CONFIG_INT);

    /* ---- the map ---- */
    ABT_pool_config cfg = ABT_POOL_CONFIG_NULL;
    CHECK_OK(ABT_pool_config_create(&cfg));
    CHECK(cfg != ABT_POOL_CONFIG_NULL);
    int i42 = 42;
    double d = 2.5;
    void *ptr = &d;
    CHECK_OK(ABT_pool_config_set(cfg, 0, ABT_POOL_CONFIG_INT, &i42));
    CHECK_OK(ABT_pool_config_set(cfg, 1, ABT_POOL_CONFIG_DOUBLE, &d));
    CHECK_OK(ABT_pool_config_set(cfg, 7, ABT_POOL_CONFIG_PTR, &ptr));

    ABT_pool_config_type type = (ABT_pool_config_type)-1;
    int iv = 0;
    double dv = 0;
    void *pv = NULL;
    CHECK_OK(ABT_pool_config_get(cfg, 0, &type, &iv));
    CHECK_EQ(type, ABT_POOL_CONFIG_INT);
    CHECK_EQ(iv, 42);
    CHECK_OK(ABT_pool_config_get(cfg, 1, &type, &dv));
    CHECK_EQ(type, ABT_POOL_CONFIG_DOUBLE);
    CHECK(dv == 2.5);
    CHECK_OK(ABT_pool_config_get(cfg, 7, &type, &pv));
    CHECK_EQ(type, ABT_POOL_CONFIG_PTR);
    CHECK(pv == &d);
    /* type and val are optional */
    iv = 0;
    CHECK_OK(ABT_pool_config_get(cfg, 0, NULL, &iv));
    CHECK_EQ(iv, 42);
    CHECK_OK(ABT_pool_config_get(cfg, 1, &type, NULL));
    CHECK_EQ(type, ABT_POOL_CONFIG_DOUBLE);
    CHECK_OK(ABT_pool_config_get(cfg, 7, NULL, NULL));

    /* overwrite: value and type */
    double d2 = -1.25;
    CHECK_OK(ABT_pool_config_set(cfg, 0, ABT_POOL_CONFIG_DOUBLE, &d2));
    CHECK_OK(ABT_pool_config_get(cfg, 0, &type, &dv));
    CHECK_EQ(type, ABT_POOL_CONFIG_DOUBLE);
    CHECK(dv == -1.25);
    int i7 = 7;
    CHECK_OK(ABT_pool_config_set(cfg, 0, ABT_POOL_CONFIG_INT, &i7));
    CHECK_OK(ABT_pool_config_get(cfg, 0, &type, &iv));
    CHECK_EQ(type, ABT_POOL_CONFIG_INT);
    CHECK_EQ(iv, 7);

    /* missing keys, deletion */
    CHECK_ERR(ABT_pool_config_get(cfg, 3, &type, &iv), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_pool_config_set(cfg, 1, ABT_POOL_CONFIG_DOUBLE, NULL));
    CHECK_ERR(ABT_pool_config_get(cfg, 1, &type, &dv), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_pool_config_set(cfg, 1, ABT_POOL_CONFIG_DOUBLE, NULL)); /* absent: fine */
    CHECK_OK(ABT_pool_config_set(cfg, 99, ABT_POOL_CONFIG_INT, NULL));
    CHECK_OK(ABT_pool_config_get(cfg, 0, &type, &iv)); /* the others survive */
    CHECK_EQ(iv, 7);
    CHECK_OK(ABT_pool_config_get(cfg, 7, &type, &pv));
    CHECK(pv == &d);
    CHECK_OK(ABT_pool_config_set(cfg, 1, ABT_POOL_CONFIG_INT, &i42)); /* back again */
    CHECK_OK(ABT_pool_config_get(cfg, 1, &type, &iv));
    CHECK_EQ(iv, 42);

    /* a bad type */
    CHECK_ERR(ABT_pool_config_set(cfg, 2, (ABT_pool_config_type)9, &i42), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_pool_config_get(cfg, 2, &type, &iv), ABT_ERR_INV_ARG);

    /* NULL config */
    CHECK_ERR(ABT_pool_config_set(ABT_POOL_CONFIG_NULL, 0, ABT_POOL_CONFIG_INT, &i42),
              ABT_ERR_INV_POOL_CONFIG);
    CHECK_ERR(ABT_pool_config_get(ABT_POOL_CONFIG_NULL, 0, &type, &iv), ABT_ERR_INV_POOL_CONFIG);
    ABT_pool_config none = ABT_POOL_CONFIG_NULL;
    CHECK_ERR(ABT_pool_config_free(&none), ABT_ERR_INV_POOL_CONFIG);

    /* ---- the config reaches the init callback ---- */
    ABT_pool_user_def def = up_new_def(1);
    CHECK_OK(ABT_pool_user_def_set_init(def, init_reads_config));
    int five = 5555;
    CHECK_OK(ABT_pool_config_set(cfg, 5, ABT_POOL_CONFIG_INT, &five));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create(def, cfg, &pool));
    CHECK(seen_config == cfg);
    CHECK_EQ(seen_value, 5555);
    /* a config entry unrelated to automatic: the pool is not automatic */
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK(seen_config == ABT_POOL_CONFIG_NULL);
    CHECK_OK(ABT_pool_free(&pool));

    /* an init error is returned; the free callback does not run */
    int frees = atomic_load(&up_g.n_free);
    CHECK_OK(ABT_pool_user_def_set_init(def, init_fails));
    pool = (ABT_pool)(void *)0x8;
    CHECK_ERR(ABT_pool_create(def, cfg, &pool), ABT_ERR_SYS);
    CHECK(pool == ABT_POOL_NULL);
    CHECK_EQ(atomic_load(&up_g.n_free), frees);
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK(cfg == ABT_POOL_CONFIG_NULL);
    CHECK_OK(ABT_pool_user_def_set_init(def, up_init));

    /* ---- automatic ---- */
    static up_state s_auto, s_zero, s_absent, s_unused;
    up_state_init(&s_auto);
    up_state_init(&s_zero);
    up_state_init(&s_absent);
    up_state_init(&s_unused);

    cfg = up_config(&s_auto, 1);
    CHECK_OK(ABT_pool_create(def, cfg, &pool));
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_EQ(atomic_load(&s_auto.n_init), 1);
    run_on(pool, 8);
    /* freed with the automatic scheduler of the freed ES */
    CHECK_EQ(atomic_load(&s_auto.n_free), 1);
    CHECK_EQ(atomic_load(&s_auto.n_create), 8);
    CHECK_EQ(atomic_load(&s_auto.n_free_unit), 8);

    ABT_pool pz, pa;
    cfg = up_config(&s_zero, 0);
    CHECK_OK(ABT_pool_create(def, cfg, &pz));
    CHECK_OK(ABT_pool_config_free(&cfg));
    cfg = up_config(&s_absent, -1);
    CHECK_OK(ABT_pool_create(def, cfg, &pa));
    CHECK_OK(ABT_pool_config_free(&cfg));
    run_on(pz, 3);
    run_on(pa, 3);
    CHECK_EQ(atomic_load(&s_zero.n_free), 0);
    CHECK_EQ(atomic_load(&s_absent.n_free), 0);
    /* still usable after its scheduler is gone */
    size_t size = 9;
    CHECK_OK(ABT_pool_get_size(pz, &size));
    CHECK_EQ(size, 0);
    run_on(pz, 2);
    CHECK_OK(ABT_pool_free(&pz));
    CHECK_OK(ABT_pool_free(&pa));
    CHECK_EQ(atomic_load(&s_zero.n_free), 1);
    CHECK_EQ(atomic_load(&s_absent.n_free), 1);

    /* an automatic pool never attached to a scheduler: the user frees it */
    cfg = up_config(&s_unused, 1);
    CHECK_OK(ABT_pool_create(def, cfg, &pool));
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_EQ(atomic_load(&s_unused.n_free), 1);

    CHECK_EQ(atomic_load(&ran), 8 + 3 + 3 + 2);
    CHECK_OK(ABT_pool_user_def_free(&def));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
