/* ABT_thread_migrate_to_pool on a READY ULT waiting in a pool no scheduler
 * serves, to a pool served by ES 1: the ULT runs on ES 1, associated with the
 * target pool, and the source pool is left empty. The migration callback,
 * whether set with ABT_thread_set_callback or with
 * ABT_thread_attr_set_callback, runs exactly once, with the migrated thread
 * and the registered argument, and ABT_thread_get_last_pool already reports
 * the target inside it. A READY unit is moved at once, so the callback has
 * run when the call returns (bobbin, issue3-choices.md). A callback
 * unregistered with NULL is not called. */
#include "bb_test.h"
#include <stdatomic.h>

struct record {
    atomic_int calls;
    ABT_thread thread;   /* what the callback received */
    ABT_pool pool_in_cb; /* ABT_thread_get_last_pool inside the callback */
    int get_ret;
};

struct ran {
    int rank;
    ABT_pool pool;
    atomic_int runs;
};

static void cb(ABT_thread thread, void *arg)
{
    struct record *r = arg;
    r->thread = thread;
    r->get_ret = ABT_thread_get_last_pool(thread, &r->pool_in_cb);
    atomic_fetch_add(&r->calls, 1);
}

static void body(void *arg)
{
    struct ran *r = arg;
    r->rank = -1;
    ABT_self_get_xstream_rank(&r->rank);
    ABT_self_get_last_pool(&r->pool);
    atomic_fetch_add(&r->runs, 1);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es1;
    ABT_pool target;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &target));
    int rank = -1;
    CHECK_OK(ABT_xstream_get_rank(es1, &rank));
    CHECK_EQ(rank, 1);

    ABT_pool idle; /* nobody serves it */
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));

    static struct record rec_set, rec_attr, rec_none;
    static struct ran ran_set, ran_attr, ran_none;

    /* Callback through ABT_thread_set_callback. */
    ABT_thread t_set, t_attr, t_none;
    CHECK_OK(ABT_thread_create(idle, body, &ran_set, ABT_THREAD_ATTR_NULL, &t_set));
    CHECK_OK(ABT_thread_set_callback(t_set, cb, &rec_set));

    /* Callback through the attribute. */
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_callback(attr, cb, &rec_attr));
    CHECK_OK(ABT_thread_create(idle, body, &ran_attr, attr, &t_attr));
    CHECK_OK(ABT_thread_attr_free(&attr));

    /* Registered, then unregistered. */
    CHECK_OK(ABT_thread_create(idle, body, &ran_none, ABT_THREAD_ATTR_NULL, &t_none));
    CHECK_OK(ABT_thread_set_callback(t_none, cb, &rec_none));
    CHECK_OK(ABT_thread_set_callback(t_none, NULL, NULL));

    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(idle, &size));
    CHECK_EQ(size, 3);
    usleep(20000);
    CHECK_EQ(atomic_load(&ran_set.runs), 0); /* really nobody serves it */
    CHECK_EQ(atomic_load(&rec_set.calls), 0);

    CHECK_OK(ABT_thread_migrate_to_pool(t_set, target));
    CHECK_EQ(atomic_load(&rec_set.calls), 1); /* moved at once */
    CHECK_OK(ABT_thread_migrate_to_pool(t_attr, target));
    CHECK_EQ(atomic_load(&rec_attr.calls), 1);
    CHECK_OK(ABT_thread_migrate_to_pool(t_none, target));

    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(t_set, &last));
    CHECK(last == target);

    ABT_thread h_set = t_set, h_attr = t_attr;
    CHECK_OK(ABT_thread_free(&t_set));
    CHECK_OK(ABT_thread_free(&t_attr));
    CHECK_OK(ABT_thread_free(&t_none));

    CHECK_OK(ABT_pool_get_size(idle, &size));
    CHECK_EQ(size, 0);

    struct ran *rans[3] = {&ran_set, &ran_attr, &ran_none};
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(atomic_load(&rans[i]->runs), 1);
        CHECK_EQ(rans[i]->rank, 1);
        CHECK(rans[i]->pool == target);
    }

    CHECK_EQ(atomic_load(&rec_set.calls), 1);
    CHECK(rec_set.thread == h_set);
    CHECK_EQ(rec_set.get_ret, ABT_SUCCESS);
    CHECK(rec_set.pool_in_cb == target);

    CHECK_EQ(atomic_load(&rec_attr.calls), 1);
    CHECK(rec_attr.thread == h_attr);
    CHECK_EQ(rec_attr.get_ret, ABT_SUCCESS);
    CHECK(rec_attr.pool_in_cb == target);

    CHECK_EQ(atomic_load(&rec_none.calls), 0);

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
