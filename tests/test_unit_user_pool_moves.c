/* A work unit's ABT_unit follows its pool association (issue3-choices,
 * "Units"): moving a ULT from user pool A to a built-in pool (by
 * ABT_thread_set_associated_pool, ABT_pool_push_thread, ABT_pool_push or
 * ABT_unit_set_associated_pool) calls A's free_unit on the old unit once and
 * ABT_thread_get_unit then gives a built-in unit that maps back to the ULT;
 * moving into a user pool calls that pool's create_unit and get_unit gives
 * the new unit; moving from user pool A to user pool B creates B's unit
 * before freeing A's; re-associating with the same pool changes nothing.
 * A named ULT or tasklet that ends while associated with a user pool keeps
 * its unit until ABT_thread_free / ABT_task_free, which frees it; revive
 * into a user pool creates a unit there. At the end every unit created was
 * freed exactly once, by the pool that created it. */
#include "pool_user_util.h"

static atomic_int ran;

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

static ABT_unit unit_of(ABT_thread t)
{
    ABT_unit u = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(t, &u));
    return u;
}

static ABT_pool pool_of(ABT_thread t)
{
    ABT_pool p = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(t, &p));
    return p;
}

static void check_maps_back(ABT_thread t)
{
    ABT_thread back = ABT_THREAD_NULL;
    CHECK_OK(ABT_unit_get_thread(unit_of(t), &back));
    CHECK(back == t);
}

static ABT_pool_user_def def = ABT_POOL_USER_DEF_NULL;

static ABT_pool make_user_pool(up_state *s, char tag)
{
    if (def == ABT_POOL_USER_DEF_NULL)
        def = up_new_def(1);
    up_state_init(s);
    s->tag = tag;
    ABT_pool_config cfg = up_config(s, -1);
    ABT_pool p;
    CHECK_OK(ABT_pool_create(def, cfg, &p));
    CHECK_OK(ABT_pool_config_free(&cfg));
    return p;
}

/* A user pool whose create_unit fails while `fail_create` is set. */
static atomic_int fail_create;
static ABT_unit flaky_create_unit(ABT_pool pool, ABT_thread thread)
{
    if (atomic_load(&fail_create))
        return ABT_UNIT_NULL;
    return up_create_unit(pool, thread);
}

static void log_reset(void)
{
    memset(up_g.log, 0, sizeof(up_g.log));
    atomic_store(&up_g.nlog, 0);
}

#define LOG_IS(str)                                                                        \
    do {                                                                                   \
        if (strcmp(up_g.log, (str)) != 0)                                                  \
            BB_FAIL_AT("unit callbacks: \"%s\", expected \"%s\"", up_g.log, (str));        \
        log_reset();                                                                       \
    } while (0)

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    static up_state sa, sb;
    ABT_pool A = make_user_pool(&sa, 'A');
    ABT_pool B = make_user_pool(&sb, 'B');
    ABT_pool F;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &F));
    log_reset();

    /* Created in A: A makes its unit. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(A, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    LOG_IS("CA");
    ABT_unit ua = unit_of(t);
    CHECK(ua == sa.last_created);
    CHECK(((up_unit *)ua)->thread == t);
    check_maps_back(t);
    ABT_thread x = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(A, &x));
    CHECK(x == t);

    /* A -> built-in F by set_associated_pool: A frees its unit. */
    CHECK_OK(ABT_thread_set_associated_pool(t, F));
    LOG_IS("FA");
    CHECK(sa.last_freed == ua);
    CHECK(pool_of(t) == F);
    ABT_unit uf = unit_of(t);
    CHECK(uf != ua);
    CHECK(uf != ABT_UNIT_NULL);
    check_maps_back(t);
    /* same pool again: nothing */
    CHECK_OK(ABT_thread_set_associated_pool(t, F));
    LOG_IS("");
    CHECK(unit_of(t) == uf);

    /* F -> A by push_thread: A makes a new unit. */
    CHECK_OK(ABT_pool_push_thread(A, t));
    LOG_IS("CA");
    ABT_unit ua2 = unit_of(t);
    CHECK(ua2 == sa.last_created);
    CHECK(pool_of(t) == A);
    check_maps_back(t);
    CHECK_OK(ABT_pool_pop_thread(A, &x));
    CHECK(x == t);
    /* same user pool: the unit is kept */
    CHECK_OK(ABT_thread_set_associated_pool(t, A));
    CHECK_OK(ABT_pool_push_thread_ex(A, t, ABT_POOL_CONTEXT_OP_THREAD_YIELD));
    LOG_IS("");
    CHECK(unit_of(t) == ua2);
    CHECK_EQ(sa.last_push_ctx, ABT_POOL_CONTEXT_OP_THREAD_YIELD);
    CHECK_OK(ABT_pool_pop_thread(A, &x));

    /* A -> B by push_thread: B creates first, then A frees. */
    CHECK_OK(ABT_pool_push_thread(B, t));
    LOG_IS("CBFA");
    CHECK(sa.last_freed == ua2);
    ABT_unit ub = unit_of(t);
    CHECK(ub == sb.last_created);
    CHECK(((up_unit *)ub)->pool == B);
    check_maps_back(t);
    CHECK_OK(ABT_pool_pop_thread(B, &x));
    CHECK(x == t);

    /* B -> F by the legacy ABT_pool_push with B's unit. */
    CHECK_OK(ABT_pool_push(F, ub));
    LOG_IS("FB");
    CHECK(sb.last_freed == ub);
    CHECK(pool_of(t) == F);
    check_maps_back(t);
    ABT_unit u = ABT_UNIT_NULL;
    CHECK_OK(ABT_pool_pop(F, &u));
    CHECK(u == unit_of(t));

    /* F -> A by ABT_unit_set_associated_pool with the built-in unit. */
    CHECK_OK(ABT_unit_set_associated_pool(u, A));
    LOG_IS("CA");
    CHECK(pool_of(t) == A);
    CHECK(unit_of(t) == sa.last_created);
    check_maps_back(t);
    /* A -> B by set_associated_pool */
    CHECK_OK(ABT_thread_set_associated_pool(t, B));
    LOG_IS("CBFA");
    CHECK(unit_of(t) == sb.last_created);

    /* A failed move (the target's create_unit fails): ABT_ERR_OTHER, and the
     * ULT stays with B and B's unit. */
    ABT_pool_user_def cdef;
    CHECK_OK(ABT_pool_user_def_create(flaky_create_unit, up_free_unit, up_is_empty, up_pop,
                                      up_push, &cdef));
    CHECK_OK(ABT_pool_user_def_set_init(cdef, up_init));
    CHECK_OK(ABT_pool_user_def_set_free(cdef, up_free));
    static up_state sc;
    up_state_init(&sc);
    sc.tag = 'C';
    ABT_pool_config ccfg = up_config(&sc, -1);
    ABT_pool C;
    CHECK_OK(ABT_pool_create(cdef, ccfg, &C));
    CHECK_OK(ABT_pool_config_free(&ccfg));
    CHECK_OK(ABT_pool_user_def_free(&cdef));
    ub = unit_of(t);
    atomic_store(&fail_create, 1);
    CHECK_ERR(ABT_thread_set_associated_pool(t, C), ABT_ERR_OTHER);
    CHECK_ERR(ABT_pool_push_thread(C, t), ABT_ERR_OTHER);
    atomic_store(&fail_create, 0);
    LOG_IS("");
    CHECK(pool_of(t) == B);
    CHECK(unit_of(t) == ub);
    CHECK_EQ(atomic_load(&sc.n_push), 0);
    CHECK_OK(ABT_pool_free(&C));

    /* B -> the primary's main pool: runs there, no unit callback at free. */
    CHECK_OK(ABT_pool_push_thread(main_pool, t));
    LOG_IS("FB");
    CHECK_OK(ABT_thread_free(&t));
    LOG_IS("");
    CHECK_EQ(atomic_load(&ran), 1);

    /* A named ULT that runs (as a child of this ULT) while associated with A:
     * the unit lives until ABT_thread_free. Same for a tasklet. */
    ABT_thread t2, k;
    CHECK_OK(ABT_thread_create(A, work, NULL, ABT_THREAD_ATTR_NULL, &t2));
    CHECK_OK(ABT_task_create(A, work, NULL, &k));
    LOG_IS("CACA");
    CHECK_OK(ABT_pool_pop_thread(A, &x));
    CHECK(x == t2);
    CHECK_OK(ABT_pool_pop_thread(A, &x));
    CHECK(x == k);
    CHECK_OK(ABT_self_schedule(t2, ABT_POOL_NULL));
    CHECK_OK(ABT_self_schedule(k, ABT_POOL_NULL));
    ABT_thread_state state;
    CHECK_OK(ABT_thread_get_state(t2, &state));
    CHECK_EQ(state, ABT_THREAD_STATE_TERMINATED);
    CHECK_EQ(atomic_load(&ran), 3);
    LOG_IS("");
    CHECK(pool_of(t2) == A);
    CHECK(((up_unit *)unit_of(t2))->thread == t2);

    /* Revive the terminated t2 into B: B creates, A frees. */
    CHECK_OK(ABT_thread_revive(B, work, NULL, &t2));
    LOG_IS("CBFA");
    CHECK(pool_of(t2) == B);
    CHECK_OK(ABT_pool_pop_thread(B, &x));
    CHECK(x == t2);
    CHECK_OK(ABT_self_schedule(t2, ABT_POOL_NULL));
    CHECK_EQ(atomic_load(&ran), 4);
    CHECK_OK(ABT_thread_free(&t2));
    LOG_IS("FB");
    CHECK_OK(ABT_task_free(&k));
    LOG_IS("FA");

    /* ABT_self_schedule with a pool re-associates before running. */
    ABT_thread t3;
    CHECK_OK(ABT_thread_create(F, work, NULL, ABT_THREAD_ATTR_NULL, &t3));
    CHECK_OK(ABT_pool_pop_thread(F, &x));
    CHECK_OK(ABT_self_schedule(t3, A));
    LOG_IS("CA");
    CHECK_OK(ABT_thread_free(&t3));
    LOG_IS("FA");

    /* Totals: every unit freed once, by its own pool. */
    CHECK_EQ(atomic_load(&sa.n_create), atomic_load(&sa.n_free_unit));
    CHECK_EQ(atomic_load(&sb.n_create), atomic_load(&sb.n_free_unit));
    CHECK_EQ(atomic_load(&sa.n_free_unit_wrong_pool), 0);
    CHECK_EQ(atomic_load(&sb.n_free_unit_wrong_pool), 0);
    CHECK_EQ(atomic_load(&sa.n_create), 6);
    CHECK_EQ(atomic_load(&sb.n_create), 3);

    CHECK_OK(ABT_pool_free(&A));
    CHECK_OK(ABT_pool_free(&B));
    CHECK_OK(ABT_pool_free(&F));
    CHECK_OK(ABT_pool_user_def_free(&def));
    CHECK_EQ(atomic_load(&sa.n_free), 1);
    CHECK_EQ(atomic_load(&sb.n_free), 1);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
