/* A private pool (ABT_POOL_ACCESS_PRIV) whose home is another ES: once ES 1's
 * main scheduler holds pool P, every call that would push to P or pop from
 * it on another ES, or on a thread that is no ES, fails with
 * ABT_ERR_INV_POOL_ACCESS, changes nothing and leaks nothing. The same calls
 * work on ES 1 itself, before ES 1 exists, while ES 1 is joined (nothing
 * pops P then; what was pushed runs once ES 1 is revived), and after ES 1
 * is freed. A NULL output or array argument is reported before the access,
 * as REFERENCE.md lists it. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static atomic_int ran, checked;
static ABT_pool P;

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* Every kind of push or pop into P must fail with `expected`, leaving P and
 * the units offered as they were. `spare` is a terminated ULT in no pool. */
static void check_refused(ABT_thread spare, ABT_xstream es1)
{
    const int expected = ABT_ERR_INV_POOL_ACCESS;
    ABT_thread t = (ABT_thread)(void *)1;
    CHECK_EQ(ABT_thread_create(P, work, NULL, ABT_THREAD_ATTR_NULL, &t), expected);
    CHECK(t == ABT_THREAD_NULL);
    CHECK_EQ(ABT_thread_create(P, work, NULL, ABT_THREAD_ATTR_NULL, NULL), expected);
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_EQ(ABT_thread_create(P, work, NULL, attr, NULL), expected);
    CHECK_OK(ABT_thread_attr_free(&attr));
    ABT_task task = (ABT_task)(void *)1;
    CHECK_EQ(ABT_task_create(P, work, NULL, &task), expected);
    CHECK(task == ABT_TASK_NULL);
    if (es1 != ABT_XSTREAM_NULL)
        CHECK_EQ(ABT_thread_create_on_xstream(es1, work, NULL, ABT_THREAD_ATTR_NULL, NULL),
                 expected);
    CHECK_EQ(ABT_thread_revive(P, work, NULL, &spare), expected);
    CHECK_EQ(ABT_pool_push_thread(P, spare), expected);
    CHECK_EQ(ABT_pool_push_threads(P, &spare, 1), expected);
    ABT_thread popped = (ABT_thread)(void *)1;
    CHECK_EQ(ABT_pool_pop_thread(P, &popped), expected);
    ABT_thread many[4];
    size_t n = 99;
    CHECK_EQ(ABT_pool_pop_threads(P, many, 4, &n), expected);
    ABT_unit unit;
    CHECK_EQ(ABT_pool_pop(P, &unit), expected);
    CHECK_EQ(ABT_pool_pop_wait(P, &unit, 0.0), expected);
    /* A NULL output comes first (REFERENCE.md's order); a NULL array for
     * pop_threads, checked later, does not. */
    CHECK_EQ(ABT_pool_pop_thread(P, NULL), ABT_ERR_INV_ARG);
    CHECK_EQ(ABT_pool_pop(P, NULL), ABT_ERR_INV_ARG);
    CHECK_EQ(ABT_pool_pop_wait(P, NULL, 0.0), ABT_ERR_INV_ARG);
    CHECK_EQ(ABT_pool_pop_threads(P, many, 4, NULL), ABT_ERR_INV_ARG);
    CHECK_EQ(ABT_pool_pop_threads(P, NULL, 4, &n), expected);
    CHECK_EQ(ABT_pool_push_threads(P, NULL, 1), ABT_ERR_INV_ARG);
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_EQ(ABT_pool_add_sched(P, sched), expected);
    CHECK_OK(ABT_sched_free(&sched)); /* not taken by the refused call */
    ABT_thread_state state;
    CHECK_OK(ABT_thread_get_state(spare, &state));
    CHECK_EQ(state, ABT_THREAD_STATE_TERMINATED);
}

static ABT_thread spare_ult;

static void *outsider(void *arg)
{
    (void)arg;
    ABT_thread t = (ABT_thread)(void *)1;
    CHECK_EQ(ABT_thread_create(P, work, NULL, ABT_THREAD_ATTR_NULL, &t), ABT_ERR_INV_POOL_ACCESS);
    CHECK(t == ABT_THREAD_NULL);
    ABT_thread popped;
    CHECK_EQ(ABT_pool_pop_thread(P, &popped), ABT_ERR_INV_POOL_ACCESS);
    return NULL;
}

/* Runs on ES 1: its home, where everything is allowed. */
static void on_home(void *arg)
{
    (void)arg;
    while (!atomic_load(&checked))
        ABT_thread_yield();
    ABT_thread t;
    CHECK_OK(ABT_thread_create(P, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    ABT_task task;
    CHECK_OK(ABT_task_create(P, work, NULL, &task));
    CHECK_OK(ABT_task_free(&task));
    ABT_thread popped;
    CHECK_OK(ABT_pool_pop_thread(P, &popped)); /* allowed, whatever it finds */
    if (popped != ABT_THREAD_NULL)
        CHECK_OK(ABT_pool_push_thread(P, popped));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &P));
    ABT_xstream self;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &main_pool));
    CHECK_OK(ABT_thread_create(main_pool, work, NULL, ABT_THREAD_ATTR_NULL, &spare_ult));
    CHECK_OK(ABT_thread_join(spare_ult));

    /* No home yet: the primary may fill P. `on_home` waits until the
     * checks below are done. */
    CHECK_OK(ABT_thread_create(P, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_task_create(P, work, NULL, NULL));
    ABT_thread home_ult;
    CHECK_OK(ABT_thread_create(P, on_home, NULL, ABT_THREAD_ATTR_NULL, &home_ult));

    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &es1));
    check_refused(spare_ult, es1);
    pthread_t thread;
    CHECK_EQ(pthread_create(&thread, NULL, outsider, NULL), 0);
    CHECK_EQ(pthread_join(thread, NULL), 0);
    atomic_store(&checked, 1);
    CHECK_OK(ABT_thread_free(&home_ult));
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_EQ(atomic_load(&ran), 1 + 2 + 2); /* spare, two before ES 1, two on it */

    /* Joined: nothing pops P, so the primary may push; ES 1 runs it once
     * revived. */
    CHECK_OK(ABT_thread_revive(P, work, NULL, &spare_ult));
    CHECK_OK(ABT_xstream_revive(es1));
    CHECK_OK(ABT_thread_join(spare_ult));
    CHECK_EQ(atomic_load(&ran), 6);
    check_refused(spare_ult, es1);

    /* Freed: P has no home any more. */
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_thread_revive(P, work, NULL, &spare_ult));
    ABT_thread popped;
    CHECK_OK(ABT_pool_pop_thread(P, &popped));
    CHECK(popped == spare_ult);
    CHECK_OK(ABT_pool_push_thread(main_pool, popped));
    CHECK_OK(ABT_thread_free(&spare_ult));
    CHECK_EQ(atomic_load(&ran), 7);
    CHECK_OK(ABT_pool_free(&P));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
