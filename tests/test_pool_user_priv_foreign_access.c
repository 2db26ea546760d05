/* A private user pool (legacy ABT_pool_def with ABT_POOL_ACCESS_PRIV) held
 * by ES 1's main scheduler: a ULT or tasklet created into it from the
 * primary ES, by the create shortcut (default attributes) or the general
 * path (an attribute), fails with ABT_ERR_INV_POOL_ACCESS, sets the handle
 * to null, and neither makes a unit of the pool nor pushes one. The same
 * creates from a ULT on ES 1 (which runs from a shared pool, ES 1's second)
 * work, and their units run there. */
#include "pool_user_util.h"

static ABT_pool P;
static up_state st;
static atomic_int ran;

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* On ES 1: its own private pool takes all four kinds of create. */
static void on_es1(void *arg)
{
    ABT_thread_attr attr = *(ABT_thread_attr *)arg;
    ABT_thread t[3];
    ABT_task k;
    CHECK_OK(ABT_thread_create(P, work, NULL, ABT_THREAD_ATTR_NULL, &t[0]));
    CHECK_OK(ABT_thread_create(P, work, NULL, attr, &t[1]));
    CHECK_OK(ABT_thread_create(P, work, NULL, ABT_THREAD_ATTR_NULL, &t[2]));
    CHECK_OK(ABT_task_create(P, work, NULL, &k));
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_task_free(&k));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    ABT_pool_def def = up_legacy_def(ABT_POOL_ACCESS_PRIV, 1);
    CHECK_OK(ABT_pool_create(&def, cfg, &P));
    CHECK_OK(ABT_pool_config_free(&cfg));
    ABT_pool pools[2] = {P, ABT_POOL_NULL};
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[1]));
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &es1));
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 64 << 10));

    /* Freed units in the primary ES's cache, so that the creates below may
     * take the shortcut. */
    ABT_xstream primary;
    ABT_pool own;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &own));
    ABT_thread warm[4];
    ABT_task warm_k[4];
    for (int i = 0; i < 4; i++) {
        CHECK_OK(ABT_thread_create(own, work, NULL, ABT_THREAD_ATTR_NULL, &warm[i]));
        CHECK_OK(ABT_task_create(own, work, NULL, &warm_k[i]));
    }
    for (int i = 0; i < 4; i++) {
        CHECK_OK(ABT_thread_free(&warm[i]));
        CHECK_OK(ABT_task_free(&warm_k[i]));
    }
    atomic_store(&ran, 0);
    /* P's home is ES 1 from the ES's creation on (REFERENCE, section 7). */
    int made = atomic_load(&up_g.n_create), pushed = atomic_load(&st.n_push);

    ABT_thread t = (ABT_thread)(void *)1;
    CHECK_ERR(ABT_thread_create(P, work, NULL, ABT_THREAD_ATTR_NULL, &t), ABT_ERR_INV_POOL_ACCESS);
    CHECK(t == ABT_THREAD_NULL);
    CHECK_ERR(ABT_thread_create(P, work, NULL, ABT_THREAD_ATTR_NULL, NULL),
              ABT_ERR_INV_POOL_ACCESS);
    t = (ABT_thread)(void *)1;
    CHECK_ERR(ABT_thread_create(P, work, NULL, attr, &t), ABT_ERR_INV_POOL_ACCESS);
    CHECK(t == ABT_THREAD_NULL);
    ABT_task k = (ABT_task)(void *)1;
    CHECK_ERR(ABT_task_create(P, work, NULL, &k), ABT_ERR_INV_POOL_ACCESS);
    CHECK(k == ABT_TASK_NULL);
    CHECK_EQ(atomic_load(&up_g.n_create), made);
    CHECK_EQ(atomic_load(&st.n_push), pushed);
    CHECK_EQ(atomic_load(&ran), 0);

    ABT_thread runner;
    CHECK_OK(ABT_thread_create(pools[1], on_es1, &attr, ABT_THREAD_ATTR_NULL, &runner));
    CHECK_OK(ABT_thread_free(&runner));
    CHECK_EQ(atomic_load(&ran), 4);

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_pool_free(&P));
    CHECK_EQ(atomic_load(&up_g.n_create), atomic_load(&up_g.n_free_unit));
    CHECK_EQ(atomic_load(&up_g.n_misuse), 0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
