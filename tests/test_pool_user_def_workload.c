/* A new-style user pool (ABT_pool_user_def_create plus every optional
 * setter; the definition is freed right after ABT_pool_create, since the
 * pool keeps a copy) serves as the only pool of a secondary ES
 * (ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ...)), then of a
 * BASIC_WAIT ES, running named and unnamed ULTs (which yield and create
 * children) and tasklets. Checks: every unit runs; create_unit and free_unit
 * are called exactly once per unit, by the right pool; init once, free once
 * (at ABT_pool_free: the pool is not automatic); running units see the pool
 * as their last pool and their unit maps back to them; pushes carry the
 * OP_THREAD_CREATE and OP_THREAD_YIELD contexts; ABT_pool_get_size and
 * is_empty go through the callbacks; pop_threads / push_threads use
 * pop_many / push_many; print_all_threads uses print_all. */
#include "pool_user_util.h"

#define NAMED_ULT 60
#define NAMED_TASK 40
#define UNNAMED_ULT 60
#define UNNAMED_TASK 40
#define CHILDREN 2 /* unnamed ULTs created by each named ULT */
#define PER_ROUND (NAMED_ULT + NAMED_TASK + UNNAMED_ULT + UNNAMED_TASK + NAMED_ULT * CHILDREN)

static atomic_int bad_pool, bad_unit;

static void check_self(void)
{
    ABT_pool last = ABT_POOL_NULL;
    ABT_self_get_last_pool(&last);
    if (last != up_wl.pool)
        atomic_fetch_add(&bad_pool, 1);
    ABT_unit unit = ABT_UNIT_NULL;
    ABT_thread me = ABT_THREAD_NULL, back = ABT_THREAD_NULL;
    ABT_self_get_unit(&unit);
    ABT_self_get_thread(&me);
    if (unit == ABT_UNIT_NULL || ABT_unit_get_thread(unit, &back) != ABT_SUCCESS || back != me ||
        ((up_unit *)unit)->thread != me || ((up_unit *)unit)->pool != up_wl.pool)
        atomic_fetch_add(&bad_unit, 1);
}

static void one_round(ABT_sched_predef predef)
{
    int created_before = atomic_load(&up_g.n_create);
    /* the join drains the pool: the unnamed units finish too */
    up_wl_run(predef, NAMED_ULT, NAMED_TASK, UNNAMED_ULT, UNNAMED_TASK, CHILDREN);
    CHECK_EQ(atomic_load(&up_g.n_create) - created_before, PER_ROUND);
}

static int nvisit;
static void count_visit(void *arg, ABT_thread t)
{
    (void)arg;
    (void)t;
    nvisit++;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    (void)up_primary_main_pool(); /* checks the primary's pools are there */
    up_wl.check = check_self;

    static up_state st;
    up_state_init(&st);
    ABT_pool_user_def def = up_new_def(1);
    ABT_pool_config cfg = up_config(&st, -1);
    CHECK_OK(ABT_pool_create(def, cfg, &up_wl.pool));
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_user_def_free(&def));
    CHECK(def == ABT_POOL_USER_DEF_NULL);
    CHECK_EQ(atomic_load(&st.n_init), 1);
    ABT_pool_access access;
    CHECK_OK(ABT_pool_get_access(up_wl.pool, &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPMC);

    /* By hand, before any scheduler uses it. */
    ABT_bool empty = ABT_FALSE;
    CHECK_OK(ABT_pool_is_empty(up_wl.pool, &empty));
    CHECK_EQ(empty, ABT_TRUE);
    ABT_thread t[5];
    for (int i = 0; i < 5; i++)
        CHECK_OK(ABT_thread_create(up_wl.pool, up_wl_leaf, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    CHECK_EQ(atomic_load(&st.n_create), 5);
    CHECK(st.last_push_ctx & ABT_POOL_CONTEXT_OP_THREAD_CREATE);
    int gs = atomic_load(&st.n_get_size);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(up_wl.pool, &size));
    CHECK_EQ(size, 5);
    CHECK(atomic_load(&st.n_get_size) > gs);
    CHECK_OK(ABT_pool_get_total_size(up_wl.pool, &size));
    CHECK_EQ(size, 5);
    CHECK_OK(ABT_pool_is_empty(up_wl.pool, &empty));
    CHECK_EQ(empty, ABT_FALSE);
    nvisit = 0;
    CHECK_OK(ABT_pool_print_all_threads(up_wl.pool, NULL, count_visit));
    CHECK_EQ(nvisit, 5);
    CHECK_EQ(atomic_load(&st.n_print), 1);
    ABT_thread buf[5];
    size_t num = 0;
    CHECK_OK(ABT_pool_pop_threads_ex(up_wl.pool, buf, 5, &num, ABT_POOL_CONTEXT_OWNER_SECONDARY));
    CHECK_EQ(num, 5);
    CHECK(atomic_load(&st.n_pop_many) >= 1);
    CHECK_EQ(st.last_pop_ctx, ABT_POOL_CONTEXT_OWNER_SECONDARY);
    for (int i = 0; i < 5; i++)
        CHECK(buf[i] == t[i]);
    CHECK_OK(ABT_pool_push_threads_ex(up_wl.pool, buf, 5, ABT_POOL_CONTEXT_OP_THREAD_RESUME));
    CHECK(atomic_load(&st.n_push_many) >= 1);
    CHECK_EQ(st.last_push_ctx, ABT_POOL_CONTEXT_OP_THREAD_RESUME);
    /* re-pushing into the same pool keeps the units */
    CHECK_EQ(atomic_load(&st.n_create), 5);
    CHECK_EQ(atomic_load(&st.n_free_unit), 0);
    ABT_thread x = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread_ex(up_wl.pool, &x, ABT_POOL_CONTEXT_OWNER_PRIMARY));
    CHECK(x == t[0]);
    CHECK_EQ(st.last_pop_ctx, ABT_POOL_CONTEXT_OWNER_PRIMARY);
    CHECK_OK(ABT_pool_push_thread_ex(up_wl.pool, x, ABT_POOL_CONTEXT_OP_THREAD_MIGRATE));
    CHECK_EQ(st.last_push_ctx, ABT_POOL_CONTEXT_OP_THREAD_MIGRATE);
    CHECK_OK(ABT_pool_pop_thread(up_wl.pool, &x));
    CHECK(x == t[1]);
    CHECK_EQ(st.last_pop_ctx, ABT_POOL_CONTEXT_OP_POOL_OTHER);
    CHECK_OK(ABT_pool_push_thread(up_wl.pool, x));
    CHECK_EQ(st.last_push_ctx, ABT_POOL_CONTEXT_OP_POOL_OTHER);
    ABT_unit u = ABT_UNIT_NULL;
    CHECK_OK(ABT_pool_pop(up_wl.pool, &u)); /* the legacy pop gives the user's unit */
    ABT_unit tu = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(t[2], &tu));
    CHECK(u == tu);
    CHECK_EQ(st.last_pop_ctx, ABT_POOL_CONTEXT_OP_POOL_OTHER);
    CHECK_OK(ABT_pool_push(up_wl.pool, u));
    CHECK_EQ(st.last_push_ctx, ABT_POOL_CONTEXT_OP_POOL_OTHER);
    /* pop_wait on a pool with units */
    CHECK_OK(ABT_pool_pop_wait_thread_ex(up_wl.pool, &x, 1.5, ABT_POOL_CONTEXT_OWNER_SECONDARY));
    CHECK(x == t[3]);
    CHECK(st.last_wait_secs == 1.5);
    CHECK_EQ(st.last_pop_ctx, ABT_POOL_CONTEXT_OWNER_SECONDARY);
    CHECK_OK(ABT_pool_push_thread(up_wl.pool, x));
    CHECK_EQ(atomic_load(&st.n_create), 5);

    /* Now a BASIC ES runs those five and a big mixed workload. */
    one_round(ABT_SCHED_BASIC);
    for (int i = 0; i < 5; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(atomic_load(&up_wl.done), 5 + PER_ROUND);
    /* and a BASIC_WAIT ES (sleeps on the user pool between pushes) */
    one_round(ABT_SCHED_BASIC_WAIT);
    CHECK_EQ(atomic_load(&up_wl.done), 5 + 2 * PER_ROUND);

    CHECK_EQ(atomic_load(&bad_pool), 0);
    CHECK_EQ(atomic_load(&bad_unit), 0);
    CHECK_EQ(atomic_load(&st.n_create), 5 + 2 * PER_ROUND);
    CHECK_EQ(atomic_load(&st.n_free_unit), 5 + 2 * PER_ROUND);
    CHECK_EQ(atomic_load(&st.n_free_unit_wrong_pool), 0);
    unsigned long long seen = atomic_load(&st.push_ctx_seen);
    CHECK(seen & ABT_POOL_CONTEXT_OP_THREAD_CREATE);
    CHECK(seen & ABT_POOL_CONTEXT_OP_THREAD_YIELD);
    CHECK_OK(ABT_pool_get_size(up_wl.pool, &size));
    CHECK_EQ(size, 0);
    CHECK_EQ(atomic_load(&st.n_init), 1);
    CHECK_EQ(atomic_load(&st.n_free), 0); /* not automatic: still alive */
    CHECK_OK(ABT_pool_free(&up_wl.pool));
    CHECK_EQ(atomic_load(&st.n_free), 1);
    CHECK_EQ(atomic_load(&st.n_init), 1);

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
