/* Two ESs sharing a pool under load. Two secondary ESs run predefined
 * schedulers over [shared MPMC pool, own pool]. 20000 ULTs and tasklets are
 * pushed into the shared pool concurrently by the primary ULT and by an
 * external pthread; some of them create a child (ULT or tasklet) into their
 * own ES's pool (ABT_xstream_self + ABT_xstream_get_main_pools) or into the
 * pool they came from (ABT_self_get_last_pool); some ULTs yield on the way.
 * Every unit runs exactly once, each child on the ES whose pool it was put
 * in, and nothing is left in any pool.
 * Run twice:
 *  - BASIC schedulers, FIFO pools, own pools PRIV;
 *  - BASIC_WAIT schedulers, FIFO_WAIT pools, own pools MPSC (so that the ESs
 *    may sleep: every pool shared); the producers pause now and then so that
 *    the ESs go idle and must be woken by the next push, and some children go
 *    into the *other* ES's own pool (a push from another ES must wake it). */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

#define TOTAL BB_TEST_SIZE(20000, 4000)
#define CHILDREN (TOTAL / 4)
#define ALL (TOTAL + CHILDREN)

struct variant {
    const char *name;
    ABT_sched_predef predef;
    ABT_pool_kind kind;
    ABT_pool_access own_access;
    int pause_and_cross;
};

static const struct variant *cur;
static ABT_pool shared;
static ABT_pool own[2];
static ABT_xstream es[2];
static atomic_int ran[20000 + 20000 / 4]; /* ALL at its largest */
static atomic_int child_wrong_es;
static atomic_int create_errors;
static atomic_int done;

static int own_index_of_self(void)
{
    ABT_xstream self;
    ABT_pool pools[2] = {ABT_POOL_NULL, ABT_POOL_NULL};
    if (ABT_xstream_self(&self) != ABT_SUCCESS ||
        ABT_xstream_get_main_pools(self, 2, pools) != ABT_SUCCESS)
        return -1;
    return pools[1] == own[0] ? 0 : pools[1] == own[1] ? 1 : -1;
}

static void child(void *arg)
{
    long id = (long)arg;
    int expect = -1; /* which ES must run it, or -1: any */
    ABT_pool last = ABT_POOL_NULL;
    ABT_self_get_last_pool(&last);
    if (last == own[0])
        expect = 0;
    else if (last == own[1])
        expect = 1;
    else if (last != shared)
        atomic_fetch_add(&child_wrong_es, 1);
    if (expect >= 0 && own_index_of_self() != expect)
        atomic_fetch_add(&child_wrong_es, 1);
    atomic_fetch_add(&ran[id], 1);
    atomic_fetch_add(&done, 1);
}

static void unit(void *arg)
{
    long id = (long)arg;
    ABT_unit_type type = ABT_UNIT_TYPE_EXT;
    ABT_self_get_type(&type);
    if (type == ABT_UNIT_TYPE_THREAD && id % 5 == 1)
        ABT_thread_yield();
    if (id % 4 == 0) {
        long cid = TOTAL + id / 4;
        ABT_pool into = ABT_POOL_NULL;
        int me = own_index_of_self();
        if (me < 0) {
            atomic_fetch_add(&create_errors, 1);
            atomic_fetch_add(&ran[cid], 1000); /* fails the check, keeps the count */
            atomic_fetch_add(&done, 1);
        } else {
            if (id % 8 == 0)
                into = own[me];
            else if (cur->pause_and_cross && id % 16 == 4)
                into = own[1 - me];
            else
                ABT_self_get_last_pool(&into);
            int ret = (id % 3 == 0)
                          ? ABT_task_create(into, child, (void *)cid, NULL)
                          : ABT_thread_create(into, child, (void *)cid, ABT_THREAD_ATTR_NULL, NULL);
            if (ret != ABT_SUCCESS) {
                atomic_fetch_add(&create_errors, 1);
                atomic_fetch_add(&done, 1);
            }
        }
    }
    if (type == ABT_UNIT_TYPE_THREAD && id % 7 == 2)
        ABT_thread_yield();
    atomic_fetch_add(&ran[id], 1);
    atomic_fetch_add(&done, 1);
}

static void produce(long from, long to)
{
    for (long id = from; id < to; id++) {
        int ret = (id % 3 == 0)
                      ? ABT_task_create(shared, unit, (void *)id, NULL)
                      : ABT_thread_create(shared, unit, (void *)id, ABT_THREAD_ATTR_NULL, NULL);
        if (ret != ABT_SUCCESS) {
            atomic_fetch_add(&create_errors, 1);
            atomic_fetch_add(&done, 2); /* itself and maybe a child: fail below anyway */
        }
        if (cur->pause_and_cross && id % 2000 == 1999)
            usleep(3000); /* let the ESs run dry and fall asleep */
    }
}

static void *external_producer(void *arg)
{
    (void)arg;
    produce(TOTAL / 2, TOTAL);
    return NULL;
}

static void run_variant(const struct variant *v)
{
    cur = v;
    atomic_store(&done, 0);
    atomic_store(&child_wrong_es, 0);
    atomic_store(&create_errors, 0);
    for (int i = 0; i < ALL; i++)
        atomic_store(&ran[i], 0);

    CHECK_OK(ABT_pool_create_basic(v->kind, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &shared));
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_pool_create_basic(v->kind, v->own_access, ABT_FALSE, &own[i]));
        ABT_pool pools[2] = {shared, own[i]};
        CHECK_OK(ABT_xstream_create_basic(v->predef, 2, pools, ABT_SCHED_CONFIG_NULL, &es[i]));
    }

    pthread_t ext;
    CHECK_EQ(pthread_create(&ext, NULL, external_producer, NULL), 0);
    produce(0, TOTAL / 2);
    pthread_join(ext, NULL);

    for (int i = 0; i < 20000 && atomic_load(&done) < ALL; i++)
        usleep(1000);
    int got = atomic_load(&done);
    if (got != ALL)
        fprintf(stderr, "[%s] %d of %d units done\n", v->name, got, ALL);
    CHECK_EQ(got, ALL);

    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_EQ(atomic_load(&done), ALL);
    int bad = 0;
    for (int i = 0; i < ALL; i++)
        if (atomic_load(&ran[i]) != 1) {
            if (bad++ < 5)
                fprintf(stderr, "[%s] unit %d ran %d times\n", v->name, i,
                        atomic_load(&ran[i]));
        }
    CHECK_EQ(bad, 0);
    CHECK_EQ(atomic_load(&child_wrong_es), 0);
    CHECK_EQ(atomic_load(&create_errors), 0);
    size_t size = 1;
    CHECK_OK(ABT_pool_get_total_size(shared, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_pool_free(&shared));
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_pool_get_total_size(own[i], &size));
        CHECK_EQ(size, 0);
        CHECK_OK(ABT_pool_free(&own[i]));
    }
    if (bb_test_failures)
        fprintf(stderr, "failures so far after variant %s\n", v->name);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    static const struct variant basic = {"BASIC/FIFO", ABT_SCHED_BASIC, ABT_POOL_FIFO,
                                         ABT_POOL_ACCESS_PRIV, 0};
    static const struct variant wait = {"BASIC_WAIT/FIFO_WAIT", ABT_SCHED_BASIC_WAIT,
                                        ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPSC, 1};
    run_variant(&basic);
    run_variant(&wait);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
