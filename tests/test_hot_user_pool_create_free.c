/* The create and free shortcuts for user pools (src/unit/hotpath.c):
 * ABT_thread_create / ABT_task_create into a user pool take a cached
 * descriptor, let the pool make its unit, then push; ABT_thread_free /
 * ABT_task_free of a terminated unit give the unit back and recycle the
 * descriptor. For a user pool served by a BASIC secondary ES, in both
 * interfaces (ABT_pool_user_def_create; legacy struct ABT_pool_def without
 * u_get_thread, so units map back through bobbin's unit map), the test checks:
 *  1. balance: named and unnamed ULTs and tasklets all run once; each free
 *     of a terminated named unit gives exactly one unit back, at that free;
 *     at the end every unit made was given back exactly once (and by the
 *     pool that made it), nothing was misused (pushed or freed while in the
 *     pool, pool freed non-empty);
 *  2. recycling: a freed descriptor comes back for the next create (the
 *     cache is LIFO), the pool makes a fresh unit for it and
 *     ABT_thread_get_unit gives that one; a descriptor that goes from the
 *     user pool to a built-in pool and back gives no unit back twice;
 *  3. create_unit failure (the callback returns ABT_UNIT_NULL on demand), for
 *     a named and an unnamed ULT, a named and an unnamed tasklet, a ULT with
 *     an attribute (general path), from the primary ULT and from a ULT on the
 *     pool's own ES: ABT_ERR_OTHER, the handle set to ABT_THREAD_NULL /
 *     ABT_TASK_NULL, nothing pushed, no unit given back, the body never
 *     runs; the next create gets the very descriptor the failed one took
 *     (nothing leaked) and works;
 * in three rounds per interface: default settings, ABT_OPT_FAST_CREATE_FREE=0
 * (the general path: same results), and ABT_MEM_MAX_NUM_STACKS=2 /
 * ABT_MEM_MAX_NUM_DESCS=2 (the ES caches overflow: a free that has given the
 * unit back then finds the cache full must not give it back again). */
#include "pool_user_util.h"

#define NB 8   /* named units of each kind in case 1 */
#define NOVF 24 /* units freed at once in the overflow case */

static const char *round_name;
static int legacy;
static up_state st;
static ABT_pool P; /* the user pool, served by ES 1 */
static ABT_xstream es1;

/* ---- create_unit that fails on demand ---- */
static atomic_int fail_next; /* fail this many of the next creates */
static atomic_int n_failed;

static int take_failure(void)
{
    int n = atomic_load(&fail_next);
    while (n > 0)
        if (atomic_compare_exchange_weak(&fail_next, &n, n - 1)) {
            atomic_fetch_add(&n_failed, 1);
            return 1;
        }
    return 0;
}

static ABT_unit flaky_create_unit(ABT_pool pool, ABT_thread thread)
{
    return take_failure() ? ABT_UNIT_NULL : up_create_unit(pool, thread);
}

static ABT_unit flaky_l_create(ABT_thread thread)
{
    return take_failure() ? ABT_UNIT_NULL : up_l_create_from_thread(thread);
}

static ABT_pool make_pool(void)
{
    ABT_pool pool = ABT_POOL_NULL;
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    if (legacy) {
        ABT_pool_def d = up_legacy_def(ABT_POOL_ACCESS_MPSC, 0);
        d.u_create_from_thread = flaky_l_create;
        CHECK_OK(ABT_pool_create(&d, cfg, &pool));
    } else {
        pool = up_new_pool_with(flaky_create_unit, NULL, cfg);
    }
    CHECK_OK(ABT_pool_config_free(&cfg));
    return pool;
}

static int n_made(void)
{
    return atomic_load(&up_g.n_create);
}
static int n_back(void)
{
    return atomic_load(&up_g.n_free_unit);
}

static atomic_int ran, ran_forbidden;

static void body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

static void forbidden(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran_forbidden, 1);
}

/* Wait (yielding) until every unit made but `alive` has been given back:
 * unnamed units give theirs back as they end, just after their body. */
static void wait_given_back(int alive)
{
    while (n_made() - n_back() > alive)
        ABT_thread_yield();
}

#define ROUND_FAIL(fmt, ...) BB_FAIL_AT("%s: " fmt, round_name, __VA_ARGS__)

/* Wait (yielding) until `counter` reaches `n`; the watchdog ends a hang. */
static void wait_for(atomic_int *counter, int n)
{
    while (atomic_load(counter) < n)
        ABT_thread_yield();
}

/* ---- 1: balance ---- */
static void case_balance(void)
{
    ABT_thread t[NB];
    ABT_task k[NB];
    int ran0 = atomic_load(&ran);
    for (int i = 0; i < NB; i++) {
        CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_OK(ABT_task_create(P, body, NULL, &k[i]));
    }
    for (int i = 0; i < NB; i++) {
        CHECK_OK(ABT_thread_join(t[i]));
        CHECK_OK(ABT_thread_join(k[i])); /* a tasklet is a thread in 1.x */
    }
    for (int i = 0; i < NB; i++) {
        int before = n_back();
        CHECK_OK(ABT_thread_free(&t[i]));
        CHECK(t[i] == ABT_THREAD_NULL);
        if (n_back() != before + 1)
            ROUND_FAIL("thread_free gave back %d unit(s), expected 1", n_back() - before);
        before = n_back();
        CHECK_OK(ABT_task_free(&k[i]));
        CHECK(k[i] == ABT_TASK_NULL);
        if (n_back() != before + 1)
            ROUND_FAIL("task_free gave back %d unit(s), expected 1", n_back() - before);
    }
    /* Unnamed ones (after the frees above: they give their units back as
     * they end, on ES 1); the final balance counts them. */
    for (int i = 0; i < NB; i++) {
        CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, NULL));
        CHECK_OK(ABT_task_create(P, body, NULL, NULL));
    }
    wait_for(&ran, ran0 + 4 * NB);
    wait_given_back(0);
    CHECK_EQ(atomic_load(&ran) - ran0, 4 * NB);
}

/* ---- 2: recycling ---- */
static void case_recycle(void)
{
    ABT_thread a = ABT_THREAD_NULL, b = ABT_THREAD_NULL, c = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_join(a));
    ABT_thread old = a;
    CHECK_OK(ABT_thread_free(&a));

    int made = n_made(), back = n_back();
    CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, &b));
    if (b != old)
        ROUND_FAIL("%s", "a freed ULT descriptor was not reused by the next create");
    CHECK_EQ(n_made(), made + 1); /* a fresh unit for the recycled descriptor */
    CHECK_EQ(n_back(), back);
    ABT_unit unit = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(b, &unit));
    CHECK(unit != ABT_UNIT_NULL);
    CHECK(((up_unit *)unit)->thread == b);
    ABT_thread back_to = ABT_THREAD_NULL;
    CHECK_OK(ABT_unit_get_thread(unit, &back_to));
    CHECK(back_to == b);
    CHECK_OK(ABT_thread_join(b));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_EQ(n_back(), back + 1);

    /* The descriptor goes to a built-in pool (run by the primary ES), and
     * back: no unit is given back by the built-in one's free. */
    ABT_pool main_pool = up_primary_main_pool();
    back = n_back();
    made = n_made();
    CHECK_OK(ABT_thread_create(main_pool, body, NULL, ABT_THREAD_ATTR_NULL, &c));
    CHECK_OK(ABT_thread_join(c));
    CHECK_OK(ABT_thread_free(&c));
    CHECK_OK(ABT_task_create(main_pool, body, NULL, &c));
    CHECK_OK(ABT_task_free(&c));
    CHECK_EQ(n_made(), made);
    CHECK_EQ(n_back(), back);
    CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, &c));
    CHECK_EQ(n_made(), made + 1);
    CHECK_OK(ABT_thread_free(&c));
    CHECK_EQ(n_back(), back + 1);
}

/* ---- 3: create_unit failure ---- */

/* Failed creates of each kind, then creates that work. `where` names the
 * caller for the messages; `alive`: units of P alive meanwhile (the caller). */
static void fail_each_kind(const char *where, int alive)
{
    /* Warm the cache: the last freed descriptor is the next one handed out. */
    ABT_thread warm = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, &warm));
    CHECK_OK(ABT_thread_join(warm));
    ABT_thread cached = warm;
    CHECK_OK(ABT_thread_free(&warm));
    ABT_task warm_k = ABT_TASK_NULL;
    CHECK_OK(ABT_task_create(P, body, NULL, &warm_k));
    CHECK_OK(ABT_thread_join(warm_k));
    ABT_task cached_k = warm_k;
    CHECK_OK(ABT_task_free(&warm_k));

    size_t size0 = 1;
    CHECK_OK(ABT_pool_get_size(P, &size0));
    CHECK_EQ(size0, 0);
    int pushes = atomic_load(&st.n_push), back = n_back(), failed = atomic_load(&n_failed);
    ABT_thread_attr attr = ABT_THREAD_ATTR_NULL;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 64 * 1024));

    ABT_thread t = (ABT_thread)(intptr_t)64; /* garbage: must be overwritten */
    atomic_store(&fail_next, 1);
    CHECK_ERR(ABT_thread_create(P, forbidden, NULL, ABT_THREAD_ATTR_NULL, &t), ABT_ERR_OTHER);
    if (t != ABT_THREAD_NULL)
        ROUND_FAIL("%s: failed named ULT create left the handle %p", where, (void *)t);
    atomic_store(&fail_next, 1);
    CHECK_ERR(ABT_thread_create(P, forbidden, NULL, ABT_THREAD_ATTR_NULL, NULL), ABT_ERR_OTHER);
    ABT_task k = (ABT_task)(intptr_t)64;
    atomic_store(&fail_next, 1);
    CHECK_ERR(ABT_task_create(P, forbidden, NULL, &k), ABT_ERR_OTHER);
    if (k != ABT_TASK_NULL)
        ROUND_FAIL("%s: failed named tasklet create left the handle %p", where, (void *)k);
    atomic_store(&fail_next, 1);
    CHECK_ERR(ABT_task_create(P, forbidden, NULL, NULL), ABT_ERR_OTHER);
    t = (ABT_thread)(intptr_t)64;
    atomic_store(&fail_next, 1);
    CHECK_ERR(ABT_thread_create(P, forbidden, NULL, attr, &t), ABT_ERR_OTHER);
    CHECK(t == ABT_THREAD_NULL);
    /* Many in a row: the cache must not drain. */
    atomic_store(&fail_next, 100);
    for (int i = 0; i < 50; i++) {
        CHECK_ERR(ABT_thread_create(P, forbidden, NULL, ABT_THREAD_ATTR_NULL, &t), ABT_ERR_OTHER);
        CHECK_ERR(ABT_task_create(P, forbidden, NULL, &k), ABT_ERR_OTHER);
    }
    CHECK_OK(ABT_thread_attr_free(&attr));

    CHECK_EQ(atomic_load(&fail_next), 0);
    CHECK_EQ(atomic_load(&n_failed) - failed, 105);
    if (atomic_load(&st.n_push) != pushes)
        ROUND_FAIL("%s: failed creates pushed %d unit(s)", where, atomic_load(&st.n_push) - pushes);
    CHECK_EQ(n_back(), back); /* no unit was made, none to give back */
    size_t size1 = 1;
    CHECK_OK(ABT_pool_get_size(P, &size1));
    CHECK_EQ(size1, 0);

    /* Later creates work and reuse the descriptors the failures took. */
    int ran0 = atomic_load(&ran);
    ABT_thread again = ABT_THREAD_NULL;
    ABT_task again_k = ABT_TASK_NULL;
    CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, &again));
    CHECK_OK(ABT_task_create(P, body, NULL, &again_k));
    if (again != cached)
        ROUND_FAIL("%s: the ULT descriptor taken by the failed creates was not given back",
                   where);
    if (again_k != cached_k && cached_k != cached) /* one shared cache with lazy stacks */
        ROUND_FAIL("%s: the tasklet descriptor taken by the failed creates was not given back",
                   where);
    CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_task_create(P, body, NULL, NULL));
    CHECK_OK(ABT_thread_free(&again));
    CHECK_OK(ABT_task_free(&again_k));
    wait_for(&ran, ran0 + 4);
    wait_given_back(alive);
    CHECK_EQ(atomic_load(&ran_forbidden), 0);
}

static void fail_on_es1(void *arg)
{
    (void)arg;
    fail_each_kind("on the pool's ES", 1); /* itself */
}

static void case_create_fails(void)
{
    fail_each_kind("primary ULT", 0);
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_create(P, fail_on_es1, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
}

/* ---- the overflow round: more frees than the caches hold ---- */
static void case_overflow(void)
{
    ABT_thread t[NOVF];
    ABT_task k[NOVF];
    for (int i = 0; i < NOVF; i++) {
        CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_OK(ABT_task_create(P, body, NULL, &k[i]));
    }
    for (int i = 0; i < NOVF; i++) {
        CHECK_OK(ABT_thread_join(t[i]));
        CHECK_OK(ABT_thread_join(k[i]));
    }
    for (int i = 0; i < NOVF; i++) {
        int before = n_back();
        CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_OK(ABT_task_free(&k[i]));
        if (n_back() != before + 2)
            ROUND_FAIL("freeing unit pair %d gave back %d unit(s), expected 2", i,
                       n_back() - before);
    }
}

static void run_round(const char *name, int is_legacy, int overflow)
{
    round_name = name;
    legacy = is_legacy;
    memset(&up_g, 0, sizeof(up_g));
    atomic_store(&ran_forbidden, 0);
    CHECK_OK(ABT_init(0, NULL));
    P = make_pool();
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &es1));
    if (overflow) {
        case_overflow();
    } else {
        case_balance();
        case_recycle();
        case_create_fails();
    }
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&P));
    CHECK_OK(ABT_finalize());

    if (n_made() != n_back() || n_made() == 0)
        ROUND_FAIL("%d unit(s) made, %d given back", n_made(), n_back());
    CHECK_EQ(atomic_load(&up_g.n_misuse), 0);
    CHECK_EQ(atomic_load(&st.n_free_unit_wrong_pool), 0);
    CHECK_EQ(atomic_load(&st.n_free), 1);
    CHECK_EQ(atomic_load(&ran_forbidden), 0);
    CHECK_EQ(atomic_load(&fail_next), 0);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    static const char *const names[2][3] = {
        {"new-style, default", "new-style, ABT_OPT_FAST_CREATE_FREE=0",
         "new-style, caches of 2"},
        {"legacy, default", "legacy, ABT_OPT_FAST_CREATE_FREE=0", "legacy, caches of 2"}};
    for (int l = 0; l < 2; l++) {
        unsetenv("ABT_OPT_FAST_CREATE_FREE");
        run_round(names[l][0], l, 0);
        setenv("ABT_OPT_FAST_CREATE_FREE", "0", 1);
        run_round(names[l][1], l, 0);
        unsetenv("ABT_OPT_FAST_CREATE_FREE");
        setenv("ABT_MEM_MAX_NUM_STACKS", "2", 1);
        setenv("ABT_MEM_MAX_NUM_DESCS", "2", 1);
        run_round(names[l][2], l, 1);
        unsetenv("ABT_MEM_MAX_NUM_STACKS");
        unsetenv("ABT_MEM_MAX_NUM_DESCS");
    }
    BB_TEST_END();
}
