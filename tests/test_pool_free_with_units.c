/* ABT_pool_free of a pool that work units still need is refused with
 * ABT_ERR_POOL, the handle untouched (Argobots: undefined):
 *  - a built-in pool holding a ready ULT (the ULT would be lost: its free
 *    would wait forever);
 *  - a built-in pool a blocked ULT is headed for (a pending migration; its
 *    wake-up would push into freed memory);
 *  - a user pool, new-style and legacy, whose unit a terminated ULT still
 *    holds (its free would give the unit back to the freed pool).
 * Once the units are gone, each pool is freed. The same holds for an
 * automatic user pool, which the library frees: it outlives its last
 * scheduler until the ULT holding its unit is freed (before, it was freed
 * with the scheduler, and the ULT's free used it after). */
#include "pool_user_util.h"

static ABT_eventual wake_up;

static void nothing(void *arg)
{
    (void)arg;
}

static void waits(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_eventual_wait(wake_up, NULL));
}

static void ready_unit(void)
{
    ABT_pool P;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(P, nothing, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_pool h = P;
    CHECK_ERR(ABT_pool_free(&h), ABT_ERR_POOL);
    CHECK(h == P);
    bb_test_run_from(P, &t);
    CHECK_OK(ABT_pool_free(&P));
    CHECK(P == ABT_POOL_NULL);
}

static void pending_move(void)
{
    ABT_pool P;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P));
    CHECK_OK(ABT_eventual_create(0, &wake_up));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(bb_test_main_pool(), waits, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state state;
    do {
        CHECK_OK(ABT_thread_yield());
        CHECK_OK(ABT_thread_get_state(t, &state));
    } while (state != ABT_THREAD_STATE_BLOCKED);
    CHECK_OK(ABT_thread_migrate_to_pool(t, P)); /* pending until it wakes */
    size_t n;
    CHECK_OK(ABT_pool_get_size(P, &n));
    CHECK_EQ(n, 0);
    CHECK_ERR(ABT_pool_free(&P), ABT_ERR_POOL);
    CHECK_OK(ABT_eventual_set(wake_up, NULL, 0)); /* it moves into P, ready */
    CHECK_ERR(ABT_pool_free(&P), ABT_ERR_POOL);
    bb_test_run_from(P, &t);
    CHECK_OK(ABT_eventual_free(&wake_up));
    CHECK_OK(ABT_pool_free(&P));
}

/* A ULT of user pool P runs to its end on another ES, which is then freed:
 * the terminated ULT keeps P's unit until it is freed itself. */
static void held_user_unit(ABT_pool P)
{
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &es));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(P, nothing, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK_OK(ABT_xstream_free(&es));
    int freed_units = atomic_load(&up_g.n_free_unit);
    ABT_pool h = P;
    CHECK_ERR(ABT_pool_free(&h), ABT_ERR_POOL);
    CHECK(h == P);
    CHECK_OK(ABT_thread_free(&t)); /* gives the unit back to P */
    CHECK_EQ(atomic_load(&up_g.n_free_unit), freed_units + 1);
    CHECK_OK(ABT_pool_free(&P));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ready_unit();
    pending_move();

    up_state st;
    up_state_init(&st);
    ABT_pool_user_def def = up_new_def(1);
    ABT_pool_config cfg = up_config(&st, 0);
    ABT_pool P;
    CHECK_OK(ABT_pool_create(def, cfg, &P));
    CHECK_OK(ABT_pool_user_def_free(&def));
    held_user_unit(P);
    CHECK_EQ(atomic_load(&st.n_free), 1);

    up_state lst;
    up_state_init(&lst);
    ABT_pool_def ldef = up_legacy_def(ABT_POOL_ACCESS_MPMC, 0);
    ABT_pool_config lcfg = up_config(&lst, 0);
    CHECK_OK(ABT_pool_create((ABT_pool_user_def)&ldef, lcfg, &P));
    held_user_unit(P);
    CHECK_EQ(atomic_load(&lst.n_free), 1);
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_config_free(&lcfg));

    up_state ast;
    up_state_init(&ast);
    def = up_new_def(1);
    cfg = up_config(&ast, 1);
    CHECK_OK(ABT_pool_create(def, cfg, &P));
    CHECK_OK(ABT_pool_user_def_free(&def));
    CHECK_OK(ABT_pool_config_free(&cfg));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &es));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(P, nothing, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK_OK(ABT_xstream_free(&es)); /* its scheduler lets go of P */
    CHECK_EQ(atomic_load(&ast.n_free), 0);
    CHECK_OK(ABT_thread_free(&t)); /* the last holder: P goes now */
    CHECK_EQ(atomic_load(&ast.n_free), 1);
    CHECK_EQ(atomic_load(&ast.n_free_unit), 1);

    CHECK_EQ(atomic_load(&up_g.n_misuse), 0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
