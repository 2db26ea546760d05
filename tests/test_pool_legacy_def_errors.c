/* Legacy struct ABT_pool_def errors: a definition missing any one of the
 * mandatory members (u_create_from_thread, u_free, p_get_size, p_push,
 * p_pop) -> ABT_ERR_INV_POOL_USER_DEF; an invalid access ->
 * ABT_ERR_INV_POOL_ACCESS; *newpool is ABT_POOL_NULL after a failure; a
 * failing p_init returns its code and p_free is not called. A minimal
 * definition (only the mandatory members; the ignored u_get_type /
 * u_get_thread / u_get_task / u_create_from_task left NULL) works:
 * ABT_pool_remove -> ABT_ERR_POOL without p_remove, pop_wait /
 * pop_wait_thread(_ex) / pop_timedwait -> ABT_ERR_POOL without
 * p_pop_timedwait, print_all(_threads) -> ABT_ERR_POOL without p_print_all;
 * get_size, is_empty, pop_threads and push_threads work, and it can serve
 * an ES. */
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

static int init_fails(ABT_pool pool, ABT_pool_config config)
{
    (void)pool;
    (void)config;
    return ABT_ERR_MEM;
}

static ABT_pool_def minimal(void)
{
    ABT_pool_def d;
    memset(&d, 0, sizeof(d));
    d.access = ABT_POOL_ACCESS_MPSC;
    d.u_create_from_thread = up_l_create_from_thread;
    d.u_free = up_l_free;
    d.p_get_size = up_l_get_size;
    d.p_push = up_l_push;
    d.p_pop = up_l_pop;
    return d;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));

    /* Each mandatory member missing in turn (from a complete definition). */
    for (int missing = 0; missing < 5; missing++) {
        ABT_pool_def d = up_legacy_def(ABT_POOL_ACCESS_MPMC, 1);
        switch (missing) {
        case 0: d.u_create_from_thread = NULL; break;
        case 1: d.u_free = NULL; break;
        case 2: d.p_get_size = NULL; break;
        case 3: d.p_push = NULL; break;
        case 4: d.p_pop = NULL; break;
        }
        int inits = atomic_load(&up_g.n_init);
        ABT_pool p = (ABT_pool)(void *)0x8;
        CHECK_ERR(ABT_pool_create(&d, ABT_POOL_CONFIG_NULL, &p), ABT_ERR_INV_POOL_USER_DEF);
        CHECK(p == ABT_POOL_NULL);
        CHECK_EQ(atomic_load(&up_g.n_init), inits); /* p_init not called */
    }
    {
        ABT_pool_def d = up_legacy_def((ABT_pool_access)42, 1);
        ABT_pool p = (ABT_pool)(void *)0x8;
        CHECK_ERR(ABT_pool_create(&d, ABT_POOL_CONFIG_NULL, &p), ABT_ERR_INV_POOL_ACCESS);
        CHECK(p == ABT_POOL_NULL);
        d = up_legacy_def((ABT_pool_access)-1, 1);
        CHECK_ERR(ABT_pool_create(&d, ABT_POOL_CONFIG_NULL, &p), ABT_ERR_INV_POOL_ACCESS);
    }
    {
        ABT_pool_def d = up_legacy_def(ABT_POOL_ACCESS_MPMC, 1);
        d.p_init = init_fails;
        int frees = atomic_load(&up_g.n_free);
        ABT_pool p = (ABT_pool)(void *)0x8;
        CHECK_ERR(ABT_pool_create(&d, ABT_POOL_CONFIG_NULL, &p), ABT_ERR_MEM);
        CHECK(p == ABT_POOL_NULL);
        CHECK_EQ(atomic_load(&up_g.n_free), frees);
    }

    /* The minimal definition. */
    ABT_pool_def d = minimal();
    ABT_pool pool;
    CHECK_OK(ABT_pool_create(&d, ABT_POOL_CONFIG_NULL, &pool));
    static up_state st;
    up_state_init(&st);
    CHECK_OK(ABT_pool_set_data(pool, &st)); /* no p_init: attach the state now */
    ABT_pool_access access;
    CHECK_OK(ABT_pool_get_access(pool, &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPSC);

    ABT_thread t[3];
    ABT_unit u[3];
    for (int i = 0; i < 3; i++) {
        CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_OK(ABT_thread_get_unit(t[i], &u[i]));
    }
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 3);
    CHECK_OK(ABT_pool_get_total_size(pool, &size));
    CHECK_EQ(size, 3);
    ABT_bool empty = ABT_TRUE;
    CHECK_OK(ABT_pool_is_empty(pool, &empty));
    CHECK_EQ(empty, ABT_FALSE);

    CHECK_ERR(ABT_pool_remove(pool, u[1]), ABT_ERR_POOL);
    ABT_unit x;
    ABT_thread y;
    CHECK_ERR(ABT_pool_pop_wait(pool, &x, 0.01), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_pop_wait_thread(pool, &y, 0.01), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_pop_wait_thread_ex(pool, &y, 0.01, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_pop_timedwait(pool, &x, up_realtime() + 0.01), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_print_all(pool, NULL, print_unit), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_print_all_threads(pool, NULL, print_thread), ABT_ERR_POOL);

    /* pop_threads / push_threads, unit round trips (the runtime maps units
     * back by itself: the definition has no u_get_thread). */
    ABT_thread buf[4];
    size_t num = 0;
    CHECK_OK(ABT_pool_pop_threads(pool, buf, 4, &num));
    CHECK_EQ(num, 3);
    for (int i = 0; i < 3; i++) {
        CHECK(buf[i] == t[i]);
        ABT_thread back = ABT_THREAD_NULL;
        CHECK_OK(ABT_unit_get_thread(u[i], &back));
        CHECK(back == t[i]);
    }
    CHECK_OK(ABT_pool_is_empty(pool, &empty));
    CHECK_EQ(empty, ABT_TRUE);
    CHECK_OK(ABT_pool_push_threads(pool, t, 3));
    CHECK_OK(ABT_pool_pop(pool, &x));
    CHECK(x == u[0]);
    CHECK_OK(ABT_pool_push(pool, x));

    /* Serve an ES. */
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    for (int i = 0; i < 20; i++)
        CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(atomic_load(&ran), 23);
    CHECK_EQ(atomic_load(&up_g.n_create), 23);
    CHECK_EQ(atomic_load(&up_g.n_free_unit), 23);
    CHECK_OK(ABT_pool_free(&pool)); /* no p_free: nothing to call */
    CHECK_EQ(atomic_load(&st.n_free), 0);

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
