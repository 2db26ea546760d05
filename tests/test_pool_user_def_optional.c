/* New-style user pool definitions: errors and optional callbacks.
 * ABT_pool_user_def_free and every ABT_pool_user_def_set_* on a NULL
 * definition -> ABT_ERR_INV_POOL_USER_DEF; ABT_pool_create(NULL def) ->
 * ABT_ERR_INV_POOL_USER_DEF with *newpool NULL. A pool with only the five
 * mandatory callbacks (or with an optional one set and then unset with
 * NULL): ABT_pool_get_size / get_total_size -> ABT_ERR_POOL without
 * get_size, pop_wait / pop_wait_thread(_ex) / pop_timedwait -> ABT_ERR_POOL
 * without pop_wait, print_all(_threads) -> ABT_ERR_POOL without print_all,
 * ABT_pool_remove -> ABT_ERR_POOL always; is_empty, pop_threads and
 * push_threads still work (through pop and push), and so does running units
 * on an ES. The definition is copied at ABT_pool_create: setting a callback
 * afterwards does not change an existing pool. With pop_wait set,
 * pop_timedwait goes through it. A create_unit that fails makes
 * ABT_thread_create / ABT_pool_push_thread return ABT_ERR_OTHER. */
#include "pool_user_util.h"

static atomic_int ran;

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

static void print_unit(void *arg, ABT_unit u)
{
    (void)arg;
    (void)u;
}

static void print_thread(void *arg, ABT_thread t)
{
    (void)arg;
    (void)t;
}

static void check_no_get_size(ABT_pool pool)
{
    size_t size = 0;
    CHECK_ERR(ABT_pool_get_size(pool, &size), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_get_total_size(pool, &size), ABT_ERR_POOL);
}

static void check_no_pop_wait(ABT_pool pool)
{
    ABT_unit u;
    ABT_thread t;
    CHECK_ERR(ABT_pool_pop_wait(pool, &u, 0.01), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_pop_wait_thread(pool, &t, 0.01), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_pop_wait_thread_ex(pool, &t, 0.01, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_pop_timedwait(pool, &u, up_realtime() + 0.01), ABT_ERR_POOL);
}

static void check_no_print(ABT_pool pool)
{
    CHECK_ERR(ABT_pool_print_all(pool, NULL, print_unit), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_print_all_threads(pool, NULL, print_thread), ABT_ERR_POOL);
}

/* create_unit that fails while `fail_create` is set */
static atomic_int fail_create;
static ABT_unit flaky_create_unit(ABT_pool pool, ABT_thread thread)
{
    if (atomic_load(&fail_create))
        return ABT_UNIT_NULL;
    return up_create_unit(pool, thread);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    /* ---- NULL definitions ---- */
    const ABT_pool_user_def N = ABT_POOL_USER_DEF_NULL;
    ABT_pool_user_def nd = ABT_POOL_USER_DEF_NULL;
    CHECK_ERR(ABT_pool_user_def_free(&nd), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_init(N, up_init), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_free(N, up_free), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_get_size(N, up_get_size), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_pop_wait(N, up_pop_wait), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_pop_many(N, up_pop_many), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_push_many(N, up_push_many), ABT_ERR_INV_POOL_USER_DEF);
    CHECK_ERR(ABT_pool_user_def_set_print_all(N, up_print_all), ABT_ERR_INV_POOL_USER_DEF);
    ABT_pool pool = (ABT_pool)(void *)0x8;
    CHECK_ERR(ABT_pool_create(N, ABT_POOL_CONFIG_NULL, &pool), ABT_ERR_INV_POOL_USER_DEF);
    CHECK(pool == ABT_POOL_NULL);

    /* ---- only the mandatory callbacks ---- */
    ABT_pool_user_def def = up_new_def(0);
    CHECK(def != ABT_POOL_USER_DEF_NULL);
    static up_state st;
    up_state_init(&st);
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    void *data = (void *)0x8;
    CHECK_OK(ABT_pool_get_data(pool, &data));
    CHECK(data == NULL); /* no init: nobody set it */
    CHECK_OK(ABT_pool_set_data(pool, &st));
    ABT_pool_access access;
    CHECK_OK(ABT_pool_get_access(pool, &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPMC);

    /* Setting callbacks on the definition now changes nothing for `pool`. */
    CHECK_OK(ABT_pool_user_def_set_get_size(def, up_get_size));
    CHECK_OK(ABT_pool_user_def_set_pop_wait(def, up_pop_wait));
    CHECK_OK(ABT_pool_user_def_set_print_all(def, up_print_all));
    check_no_get_size(pool);
    check_no_pop_wait(pool);
    check_no_print(pool);

    ABT_thread t[4];
    for (int i = 0; i < 4; i++)
        CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    ABT_unit u0;
    CHECK_OK(ABT_thread_get_unit(t[0], &u0));
    CHECK(((up_unit *)u0)->thread == t[0]);
    CHECK_EQ(atomic_load(&st.n_create), 4);
    CHECK_ERR(ABT_pool_remove(pool, u0), ABT_ERR_POOL);
    ABT_bool empty = ABT_TRUE;
    CHECK_OK(ABT_pool_is_empty(pool, &empty));
    CHECK_EQ(empty, ABT_FALSE);
    ABT_thread buf[6];
    size_t num = 0;
    CHECK_OK(ABT_pool_pop_threads(pool, buf, 6, &num));
    CHECK_EQ(num, 4);
    for (int i = 0; i < 4; i++)
        CHECK(buf[i] == t[i]);
    CHECK_OK(ABT_pool_is_empty(pool, &empty));
    CHECK_EQ(empty, ABT_TRUE);
    ABT_thread with_null[5] = {t[3], ABT_THREAD_NULL, t[2], t[1], t[0]};
    CHECK_OK(ABT_pool_push_threads(pool, with_null, 5));
    CHECK_EQ(atomic_load(&st.n_push), 4 + 4);
    CHECK_OK(ABT_pool_pop_threads_ex(pool, buf, 2, &num, ABT_POOL_CONTEXT_OWNER_SECONDARY));
    CHECK_EQ(num, 2);
    CHECK(buf[0] == t[3] && buf[1] == t[2]);
    CHECK_OK(ABT_pool_push_threads(pool, buf, 2));
    CHECK_EQ(atomic_load(&st.n_create), 4); /* same pool: units kept */
    CHECK_EQ(atomic_load(&st.n_free_unit), 0);

    /* The pool still drives an ES. */
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    for (int i = 0; i < 4; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(atomic_load(&ran), 4);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(atomic_load(&st.n_free_unit), 4);
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_EQ(atomic_load(&st.n_free), 0); /* no free callback was set */

    /* ---- set, then unset with NULL ---- */
    CHECK_OK(ABT_pool_user_def_set_get_size(def, NULL));
    CHECK_OK(ABT_pool_user_def_set_pop_wait(def, NULL));
    CHECK_OK(ABT_pool_user_def_set_print_all(def, NULL));
    CHECK_OK(ABT_pool_user_def_set_init(def, up_init));
    CHECK_OK(ABT_pool_user_def_set_free(def, up_free));
    static up_state st2;
    up_state_init(&st2);
    ABT_pool_config cfg = up_config(&st2, -1);
    CHECK_OK(ABT_pool_create(def, cfg, &pool));
    check_no_get_size(pool);
    check_no_pop_wait(pool);
    check_no_print(pool);
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_EQ(atomic_load(&st2.n_init), 1);
    CHECK_EQ(atomic_load(&st2.n_free), 1);

    /* ---- each optional callback on its own ---- */
    CHECK_OK(ABT_pool_user_def_set_get_size(def, up_get_size));
    static up_state st3;
    up_state_init(&st3);
    ABT_pool_config_free(&cfg);
    cfg = up_config(&st3, -1);
    CHECK_OK(ABT_pool_create(def, cfg, &pool));
    size_t size = 7;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 0);
    CHECK_EQ(atomic_load(&st3.n_get_size), 1);
    check_no_pop_wait(pool);
    check_no_print(pool);
    CHECK_OK(ABT_pool_free(&pool));

    CHECK_OK(ABT_pool_user_def_set_get_size(def, NULL));
    CHECK_OK(ABT_pool_user_def_set_pop_wait(def, up_pop_wait));
    static up_state st4;
    up_state_init(&st4);
    ABT_pool_config_free(&cfg);
    cfg = up_config(&st4, -1);
    CHECK_OK(ABT_pool_create(def, cfg, &pool));
    check_no_get_size(pool);
    check_no_print(pool);
    ABT_thread x = (ABT_thread)(void *)0x8;
    CHECK_OK(ABT_pool_pop_wait_thread_ex(pool, &x, 0.02, ABT_POOL_CONTEXT_OWNER_PRIMARY));
    CHECK(x == ABT_THREAD_NULL);
    CHECK_EQ(atomic_load(&st4.n_pop_wait), 1);
    CHECK(st4.last_wait_secs == 0.02);
    CHECK_EQ(st4.last_pop_ctx, ABT_POOL_CONTEXT_OWNER_PRIMARY);
    ABT_unit u = (ABT_unit)(void *)0x8;
    CHECK_OK(ABT_pool_pop_wait(pool, &u, 0.02));
    CHECK(u == ABT_UNIT_NULL);
    CHECK_EQ(atomic_load(&st4.n_pop_wait), 2);
    /* pop_timedwait through pop_wait: a relative time of at most 0.05 s */
    u = (ABT_unit)(void *)0x8;
    CHECK_OK(ABT_pool_pop_timedwait(pool, &u, up_realtime() + 0.05));
    CHECK(u == ABT_UNIT_NULL);
    CHECK_EQ(atomic_load(&st4.n_pop_wait), 3);
    CHECK(st4.last_wait_secs > 0.0 && st4.last_wait_secs <= 0.05);
    CHECK_OK(ABT_pool_free(&pool));

    CHECK_OK(ABT_pool_user_def_set_pop_wait(def, NULL));
    CHECK_OK(ABT_pool_user_def_set_print_all(def, up_print_all));
    static up_state st5;
    up_state_init(&st5);
    ABT_pool_config_free(&cfg);
    cfg = up_config(&st5, -1);
    CHECK_OK(ABT_pool_create(def, cfg, &pool));
    check_no_get_size(pool);
    check_no_pop_wait(pool);
    CHECK_OK(ABT_pool_print_all_threads(pool, NULL, print_thread));
    CHECK_OK(ABT_pool_print_all(pool, NULL, print_unit));
    CHECK_EQ(atomic_load(&st5.n_print), 2);
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_user_def_free(&def));

    /* ---- a failing create_unit ---- */
    CHECK_OK(ABT_pool_user_def_create(flaky_create_unit, up_free_unit, up_is_empty, up_pop,
                                      up_push, &def));
    CHECK_OK(ABT_pool_user_def_set_init(def, up_init));
    CHECK_OK(ABT_pool_user_def_set_free(def, up_free));
    static up_state st6;
    up_state_init(&st6);
    cfg = up_config(&st6, -1);
    CHECK_OK(ABT_pool_create(def, cfg, &pool));
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_user_def_free(&def));
    atomic_store(&fail_create, 1);
    ABT_thread y = (ABT_thread)(void *)0x8;
    CHECK_ERR(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &y), ABT_ERR_OTHER);
    CHECK_ERR(ABT_task_create(pool, work, NULL, &y), ABT_ERR_OTHER);
    ABT_thread z;
    CHECK_OK(ABT_thread_create(main_pool, work, NULL, ABT_THREAD_ATTR_NULL, &z));
    ABT_thread popped = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(main_pool, &popped)); /* take z back out */
    CHECK(popped == z);
    CHECK_ERR(ABT_pool_push_thread(pool, z), ABT_ERR_OTHER);
    CHECK_EQ(atomic_load(&st6.n_push), 0);
    atomic_store(&fail_create, 0);
    CHECK_OK(ABT_pool_push_thread(main_pool, z));
    CHECK_OK(ABT_thread_free(&z));
    CHECK_EQ(atomic_load(&st6.n_create), 0);
    CHECK_EQ(atomic_load(&st6.n_free_unit), 0);
    CHECK_OK(ABT_pool_free(&pool));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
