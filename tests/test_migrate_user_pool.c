/* Migration into, between and out of new-style user pools, and the units the
 * pools see:
 *  - a READY ULT in a built-in pool migrated into user pool U: U.create_unit
 *    is called for it, the callback reports U;
 *  - that ULT, running from U, migrates itself into user pool V and yields
 *    (the move happens there): V's unit is created first, then U's freed
 *    (semantics3.md §10.1); it continues from V;
 *  - it then migrates itself to ES 1's built-in pool and yields: V's unit is
 *    freed; it continues on ES 1;
 *  - a READY ULT waiting in user pool U (which has no p_remove, so it cannot
 *    be taken out at once) is migrated to ES 1's pool before anything serves
 *    U; once an ES serves U, the ULT is moved instead of being run
 *    (semantics3.md §9 case 1): its very first instruction runs on ES 1, and
 *    U's unit is freed;
 *  - in the end every unit created was freed exactly once.
 * U and V are pool_user_util.h's FIFO pool with only the five mandatory
 * callbacks (up_new_def(0)); its on_unit hook logs each unit event. */
#include "pool_user_util.h"

static ABT_thread ta, tb;
static char log_a[16], log_b[16];
static int nlog_a, nlog_b;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void log_event(ABT_thread t, char what, char pool)
{
    pthread_mutex_lock(&log_lock);
    if (t == ta && nlog_a < 14) {
        log_a[nlog_a++] = what;
        log_a[nlog_a++] = pool;
    } else if (t == tb && nlog_b < 14) {
        log_b[nlog_b++] = what;
        log_b[nlog_b++] = pool;
    }
    pthread_mutex_unlock(&log_lock);
}

/* create_unit ('C') logs 'c', free_unit ('F') 'f', each with the pool's tag */
static void log_unit(up_state *s, ABT_thread thread, char ev)
{
    log_event(thread, ev == 'C' ? 'c' : 'f', s->tag);
}

static ABT_pool make_pool(ABT_pool_user_def def, up_state *s, char name)
{
    up_state_init(s);
    s->tag = name;
    s->on_unit = log_unit;
    ABT_pool pool = ABT_POOL_NULL;
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_OK(ABT_pool_set_data(pool, s));
    return pool;
}

/* ---- the ULTs --------------------------------------------------------------- */

static ABT_pool upool, vpool, pool1;

struct record {
    atomic_int calls;
    ABT_pool pools[4];
};

static void cb(ABT_thread thread, void *arg)
{
    struct record *r = arg;
    int i = atomic_load(&r->calls);
    if (i < 4)
        ABT_thread_get_last_pool(thread, &r->pools[i]);
    atomic_fetch_add(&r->calls, 1);
}

static int rank_now(void)
{
    int rank = -1;
    ABT_self_get_xstream_rank(&rank);
    return rank;
}

static int a_rank[3] = {-1, -1, -1}, a_ret[2] = {-1, -1};
static ABT_pool a_pool[3];

static void body_a(void *arg)
{
    (void)arg;
    ABT_thread me;
    ABT_self_get_thread(&me);
    a_rank[0] = rank_now();
    ABT_self_get_last_pool(&a_pool[0]);
    a_ret[0] = ABT_thread_migrate_to_pool(me, vpool);
    ABT_thread_yield();
    a_rank[1] = rank_now();
    ABT_self_get_last_pool(&a_pool[1]);
    a_ret[1] = ABT_thread_migrate_to_pool(me, pool1);
    ABT_thread_yield();
    a_rank[2] = rank_now();
    ABT_self_get_last_pool(&a_pool[2]);
}

static int b_first_rank = -1, b_rank_after = -1;
static ABT_pool b_first_pool;

static void body_b(void *arg)
{
    (void)arg;
    b_first_rank = rank_now();
    ABT_self_get_last_pool(&b_first_pool);
    ABT_thread_yield();
    b_rank_after = rank_now();
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    static up_state ustate, vstate;
    ABT_pool_user_def def = up_new_def(0);
    upool = make_pool(def, &ustate, 'U');
    vpool = make_pool(def, &vstate, 'V');
    CHECK_OK(ABT_pool_user_def_free(&def));

    ABT_xstream es1, es2;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    ABT_pool idle;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));

    static struct record rec_a, rec_b;
    /* b: created in U directly, migrated while READY there. */
    CHECK_OK(ABT_thread_create(upool, body_b, NULL, ABT_THREAD_ATTR_NULL, &tb));
    log_event(tb, 'c', 'U'); /* created before `tb` was known */
    CHECK_OK(ABT_thread_set_callback(tb, cb, &rec_b));
    CHECK_EQ(atomic_load(&up_g.n_create), 1);
    CHECK_OK(ABT_thread_migrate_to_pool(tb, pool1));

    /* a: built-in -> U while READY. */
    CHECK_OK(ABT_thread_create(idle, body_a, NULL, ABT_THREAD_ATTR_NULL, &ta));
    CHECK_OK(ABT_thread_set_callback(ta, cb, &rec_a));
    CHECK_OK(ABT_thread_migrate_to_pool(ta, upool));
    CHECK_EQ(atomic_load(&rec_a.calls), 1);
    CHECK(rec_a.pools[0] == upool);
    ABT_unit unit;
    ABT_thread back = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_get_unit(ta, &unit));
    CHECK_OK(ABT_unit_get_thread(unit, &back));
    CHECK(back == ta);

    /* Now ES 2 serves U and V. */
    ABT_pool served[2] = {upool, vpool};
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, served, ABT_SCHED_CONFIG_NULL, &es2));
    ABT_thread ha = ta, hb = tb;
    CHECK_OK(ABT_thread_free(&ta));
    CHECK_OK(ABT_thread_free(&tb));
    ta = ha;
    tb = hb;

    CHECK_EQ(a_rank[0], 2);
    CHECK(a_pool[0] == upool);
    CHECK_EQ(a_ret[0], ABT_SUCCESS);
    CHECK_EQ(a_rank[1], 2);
    CHECK(a_pool[1] == vpool);
    CHECK_EQ(a_ret[1], ABT_SUCCESS);
    CHECK_EQ(a_rank[2], 1);
    CHECK(a_pool[2] == pool1);
    CHECK_EQ(atomic_load(&rec_a.calls), 3);
    CHECK(rec_a.pools[1] == vpool);
    CHECK(rec_a.pools[2] == pool1);
    log_a[nlog_a] = 0;
    if (strcmp(log_a, "cUcVfUfV") != 0)
        BB_FAIL_AT("unit events of a: \"%s\", expected \"cUcVfUfV\"", log_a);

    if (b_first_rank != 1)
        BB_FAIL_AT("b, migrated while READY in U, first ran on ES %d, expected ES 1", b_first_rank);
    CHECK(b_first_pool == pool1);
    CHECK_EQ(b_rank_after, 1);
    CHECK_EQ(atomic_load(&rec_b.calls), 1);
    CHECK(rec_b.pools[0] == pool1);
    log_b[nlog_b] = 0;
    if (strcmp(log_b, "cUfU") != 0)
        BB_FAIL_AT("unit events of b: \"%s\", expected \"cUfU\"", log_b);

    CHECK_EQ(atomic_load(&up_g.n_create), 3);
    CHECK_EQ(atomic_load(&up_g.n_free_unit), 3);

    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&upool));
    CHECK_OK(ABT_pool_free(&vpool));
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
