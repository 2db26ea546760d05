/* Two ULTs of a running ES replace its main scheduler one after the other:
 * the first call waits while the old scheduler drains its pools, and the
 * second comes from a ULT that the old scheduler runs meanwhile. The later
 * call wins, as in Argobots: the pending scheduler is dropped without ever
 * running (a user's scheduler may be freed, an automatic one goes with its
 * automatic pool), both calls return ABT_SUCCESS, and both callers go on
 * under the winner, in its first pool, the earlier one first. */
#include "bb_test.h"

static ABT_xstream es;

typedef struct {
    ABT_sched sched;    /* to install; ABT_SCHED_NULL: a basic one with its own pool */
    int ret;
    ABT_xstream xstream; /* after the call */
    ABT_pool pool;
    int order;
    int is_earlier;
} replacement;

static int returns;

/* Both ULTs must be in their pool before the earlier one calls: if it ran
 * alone, the old scheduler would drain and retire at once, and with it the
 * pool the later one was still to be created in. The later one calls only
 * once the earlier one is parked (one ES: it yields until then). */
static int both_created, earlier_called;

static void yield_until(int *flag)
{
    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
        CHECK_OK(ABT_thread_yield());
}

static void replace(void *arg)
{
    replacement *r = arg;
    if (r->is_earlier) {
        yield_until(&both_created);
        __atomic_store_n(&earlier_called, 1, __ATOMIC_RELEASE);
    } else {
        yield_until(&earlier_called);
    }
    if (r->sched != ABT_SCHED_NULL)
        r->ret = ABT_xstream_set_main_sched(es, r->sched);
    else
        r->ret = ABT_xstream_set_main_sched_basic(es, ABT_SCHED_BASIC, 0, NULL);
    r->order = ++returns;
    CHECK_OK(ABT_self_get_xstream(&r->xstream));
    CHECK_OK(ABT_self_get_last_pool(&r->pool));
}

static ABT_pool new_pool(void)
{
    ABT_pool p;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
    return p;
}

/* Not automatic: the test frees it. */
static ABT_sched new_sched(ABT_pool pool)
{
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 0,
                                     ABT_sched_config_var_end));
    ABT_sched s;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, cfg, &s));
    CHECK_OK(ABT_sched_config_free(&cfg));
    return s;
}

/* Both ULTs wait in `from`, which the ES's scheduler serves; `winner` is the
 * later one's scheduler, whose first pool is `to`. */
static void run_pair(ABT_pool from, replacement *earlier, replacement *later, ABT_sched winner,
                     ABT_pool to)
{
    returns = 0;
    both_created = earlier_called = 0;
    earlier->is_earlier = 1;
    ABT_thread t[2];
    CHECK_OK(ABT_thread_create(from, replace, earlier, ABT_THREAD_ATTR_NULL, &t[0]));
    CHECK_OK(ABT_thread_create(from, replace, later, ABT_THREAD_ATTR_NULL, &t[1]));
    __atomic_store_n(&both_created, 1, __ATOMIC_RELEASE);
    CHECK_OK(ABT_thread_free(&t[0]));
    CHECK_OK(ABT_thread_free(&t[1]));
    for (replacement *r = earlier; r; r = r == earlier ? later : NULL) {
        CHECK_EQ(r->ret, ABT_SUCCESS);
        CHECK(r->xstream == es);
        CHECK(r->pool == to);
    }
    CHECK_EQ(earlier->order, 1);
    CHECK_EQ(later->order, 2);
    ABT_sched now;
    CHECK_OK(ABT_xstream_get_main_sched(es, &now));
    CHECK(now == winner);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool oldpool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &oldpool));

    /* A user's scheduler is dropped: it is free to be freed. */
    ABT_pool p1 = new_pool(), p2 = new_pool(), p3 = new_pool();
    ABT_sched s1 = new_sched(p1), s2 = new_sched(p2), s3 = new_sched(p3);
    replacement a = {.sched = s1}, b = {.sched = s2};
    run_pair(oldpool, &a, &b, s2, p2);
    CHECK_OK(ABT_sched_free(&s1));

    /* An automatic scheduler with an automatic pool, where the earlier
     * caller was waiting, is dropped: the caller was moved out first. */
    replacement c = {.sched = ABT_SCHED_NULL}, d = {.sched = s3};
    run_pair(p2, &c, &d, s3, p3);

    CHECK_OK(ABT_sched_free(&s2)); /* replaced by s3 */
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&s3));
    CHECK_OK(ABT_pool_free(&p1));
    CHECK_OK(ABT_pool_free(&p2));
    CHECK_OK(ABT_pool_free(&p3));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
