/* Legacy user pools (a struct ABT_pool_def passed by address to
 * ABT_pool_create), with and without u_get_thread (without it the runtime
 * maps units back to threads itself): as the only pool of a secondary BASIC
 * ES they run named and unnamed ULTs (yielding, creating children) and
 * tasklets; u_create_from_thread and u_free are called exactly once per
 * unit; p_init once at creation and p_free once at ABT_pool_free. By hand:
 * ABT_thread_get_unit gives the unit u_create_from_thread made and
 * ABT_unit_get_thread maps it back; ABT_pool_pop returns units,
 * ABT_pool_pop_thread threads; ABT_pool_remove goes through p_remove and
 * returns its code (ABT_ERR_POOL for a unit not in the pool);
 * print_all / print_all_threads go through p_print_all; pop_wait and
 * pop_timedwait go through p_pop_timedwait with an absolute deadline on the
 * ABT_get_wtime clock (CLOCK_REALTIME); ABT_pool_get_access reports
 * def.access, for every access value. */
#include "pool_user_util.h"

#define NAMED_ULT 40
#define NAMED_TASK 30
#define UNNAMED_ULT 40
#define UNNAMED_TASK 30
#define CHILDREN 2
#define PER_ROUND (NAMED_ULT + NAMED_TASK + UNNAMED_ULT + UNNAMED_TASK + NAMED_ULT * CHILDREN)

static atomic_int bad;

static void check_self(void)
{
    ABT_pool last = ABT_POOL_NULL;
    ABT_unit unit = ABT_UNIT_NULL;
    ABT_thread me = ABT_THREAD_NULL, back = ABT_THREAD_NULL;
    ABT_self_get_last_pool(&last);
    ABT_self_get_unit(&unit);
    ABT_self_get_thread(&me);
    if (last != up_wl.pool || unit == ABT_UNIT_NULL || ((up_unit *)unit)->thread != me ||
        ABT_unit_get_thread(unit, &back) != ABT_SUCCESS || back != me)
        atomic_fetch_add(&bad, 1);
}

static void plain(void *arg)
{
    (void)arg;
}

struct seen {
    int n;
    ABT_unit units[8];
    ABT_thread threads[8];
};

static void see_unit(void *arg, ABT_unit u)
{
    struct seen *s = arg;
    if (s->n < 8)
        s->units[s->n] = u;
    s->n++;
}

static void see_thread(void *arg, ABT_thread t)
{
    struct seen *s = arg;
    if (s->n < 8)
        s->threads[s->n] = t;
    s->n++;
}

/* Everything by hand on an unscheduled legacy pool. */
static void by_hand(ABT_pool pool, up_state *st, ABT_pool main_pool)
{
    int created = atomic_load(&up_g.n_create), freed = atomic_load(&up_g.n_free_unit);
    ABT_thread t[3];
    ABT_unit u[3];
    for (int i = 0; i < 3; i++) {
        CHECK_OK(ABT_thread_create(pool, plain, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_OK(ABT_thread_get_unit(t[i], &u[i]));
        CHECK(((up_unit *)u[i])->thread == t[i]); /* made by u_create_from_thread */
        ABT_thread back = ABT_THREAD_NULL;
        CHECK_OK(ABT_unit_get_thread(u[i], &back));
        CHECK(back == t[i]);
    }
    CHECK_EQ(atomic_load(&up_g.n_create) - created, 3);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 3);

    struct seen s = {0};
    CHECK_OK(ABT_pool_print_all(pool, &s, see_unit));
    CHECK_EQ(s.n, 3);
    for (int i = 0; i < 3; i++)
        CHECK(s.units[i] == u[i]);
    memset(&s, 0, sizeof(s));
    CHECK_OK(ABT_pool_print_all_threads(pool, &s, see_thread));
    CHECK_EQ(s.n, 3);
    for (int i = 0; i < 3; i++)
        CHECK(s.threads[i] == t[i]);
    CHECK_EQ(atomic_load(&st->n_print), 2);

    /* remove #1 through p_remove; again: p_remove's ABT_ERR_POOL comes back */
    CHECK_OK(ABT_pool_remove(pool, u[1]));
    CHECK_EQ(atomic_load(&st->n_remove), 1);
    CHECK_ERR(ABT_pool_remove(pool, u[1]), ABT_ERR_POOL);
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 2);
    ABT_pool last;
    CHECK_OK(ABT_thread_get_last_pool(t[1], &last));
    CHECK(last == pool);

    ABT_unit x = ABT_UNIT_NULL;
    CHECK_OK(ABT_pool_pop(pool, &x));
    CHECK(x == u[0]);
    ABT_thread y = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(pool, &y));
    CHECK(y == t[2]);
    CHECK_OK(ABT_pool_pop_thread(pool, &y));
    CHECK(y == ABT_THREAD_NULL);
    CHECK_OK(ABT_pool_pop(pool, &x));
    CHECK(x == ABT_UNIT_NULL);

    /* pop_threads / push_threads loop over p_pop / p_push. */
    ABT_thread arr[4] = {t[2], ABT_THREAD_NULL, t[1], t[0]};
    CHECK_OK(ABT_pool_push_threads(pool, arr, 4));
    ABT_thread buf[4];
    size_t num = 0;
    CHECK_OK(ABT_pool_pop_threads(pool, buf, 4, &num));
    CHECK_EQ(num, 3);
    CHECK(buf[0] == t[2] && buf[1] == t[1] && buf[2] == t[0]);
    /* legacy push of the unit handle */
    CHECK_OK(ABT_pool_push(pool, u[1]));
    CHECK_OK(ABT_pool_pop_thread(pool, &y));
    CHECK(y == t[1]);
    CHECK_EQ(atomic_load(&up_g.n_create) - created, 3); /* same pool: kept */

    /* pop_wait through p_pop_timedwait(now + secs), a realtime deadline */
    double before = up_realtime();
    CHECK_OK(ABT_pool_pop_wait(pool, &x, 0.05));
    double after = up_realtime();
    CHECK(x == ABT_UNIT_NULL);
    CHECK_EQ(atomic_load(&st->n_timedwait), 1);
    CHECK(st->last_abstime >= before + 0.05 - 1e-3 && st->last_abstime <= after + 0.05 + 1e-3);
    CHECK(after - before >= 0.05 - 1e-3);
    ABT_thread th = (ABT_thread)(void *)0x8;
    CHECK_OK(ABT_pool_pop_wait_thread(pool, &th, 0.02));
    CHECK(th == ABT_THREAD_NULL);
    CHECK_EQ(atomic_load(&st->n_timedwait), 2);
    double deadline = up_realtime() + 0.03;
    CHECK_OK(ABT_pool_pop_timedwait(pool, &x, deadline));
    CHECK(x == ABT_UNIT_NULL);
    CHECK_EQ(atomic_load(&st->n_timedwait), 3);
    CHECK(st->last_abstime == deadline); /* handed on as it is, not recomputed */
    /* with a unit there */
    CHECK_OK(ABT_pool_push_thread(pool, t[2]));
    CHECK_OK(ABT_pool_pop_wait(pool, &x, 5.0));
    CHECK(x == u[2]);

    /* run them on the primary ES: each leaves the pool (u_free) */
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_pool_push_thread(main_pool, t[i]));
    CHECK_EQ(atomic_load(&up_g.n_free_unit) - freed, 3);
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(atomic_load(&up_g.n_free_unit) - freed, 3);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool main_pool = up_primary_main_pool();
    up_wl.check = check_self;

    /* get_access reports def.access */
    for (int a = ABT_POOL_ACCESS_PRIV; a <= ABT_POOL_ACCESS_MPMC; a++) {
        ABT_pool_def d = up_legacy_def((ABT_pool_access)a, a % 2);
        static up_state sa;
        up_state_init(&sa);
        ABT_pool_config cfg = up_config(&sa, -1);
        ABT_pool p;
        CHECK_OK(ABT_pool_create(&d, cfg, &p));
        CHECK_OK(ABT_pool_config_free(&cfg));
        ABT_pool_access got = (ABT_pool_access)-1;
        CHECK_OK(ABT_pool_get_access(p, &got));
        CHECK_EQ(got, a);
        CHECK_EQ(atomic_load(&sa.n_init), 1);
        CHECK_OK(ABT_pool_free(&p));
        CHECK_EQ(atomic_load(&sa.n_free), 1);
    }

    for (int with_get_thread = 1; with_get_thread >= 0; with_get_thread--) {
        static up_state st;
        up_state_init(&st);
        ABT_pool_def def = up_legacy_def(ABT_POOL_ACCESS_MPMC, with_get_thread);
        ABT_pool_config cfg = up_config(&st, -1);
        CHECK_OK(ABT_pool_create(&def, cfg, &up_wl.pool));
        CHECK_OK(ABT_pool_config_free(&cfg));
        memset(&def, 0, sizeof(def)); /* the pool keeps its own copy */
        CHECK_EQ(atomic_load(&st.n_init), 1);

        by_hand(up_wl.pool, &st, main_pool);

        int created = atomic_load(&up_g.n_create), freed = atomic_load(&up_g.n_free_unit);
        int done_before = atomic_load(&up_wl.done);
        up_wl_run(ABT_SCHED_BASIC, NAMED_ULT, NAMED_TASK, UNNAMED_ULT, UNNAMED_TASK, CHILDREN);
        CHECK_EQ(atomic_load(&up_wl.done) - done_before, PER_ROUND);
        CHECK_EQ(atomic_load(&up_g.n_create) - created, PER_ROUND);
        CHECK_EQ(atomic_load(&up_g.n_free_unit) - freed, PER_ROUND);
        CHECK_EQ(atomic_load(&bad), 0);
        size_t size = 1;
        CHECK_OK(ABT_pool_get_size(up_wl.pool, &size));
        CHECK_EQ(size, 0);
        CHECK_EQ(atomic_load(&st.n_free), 0);
        CHECK_OK(ABT_pool_free(&up_wl.pool));
        CHECK_EQ(atomic_load(&st.n_free), 1);
        CHECK_EQ(atomic_load(&st.n_init), 1);
    }
    CHECK_EQ(atomic_load(&up_g.n_create), atomic_load(&up_g.n_free_unit));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
