/* Query routines on live units: last ES / last pool / last pool ID,
 * get_unit, get_arg / set_arg (a new argument set before the ULT starts is
 * the one it receives), get_thread_func, is_primary, is_unnamed, equal
 * (ABT_THREAD_NULL equals ABT_TASK_NULL), and migratable flags (default TRUE
 * for ULTs and tasklets, FALSE for the primary ULT, on which set_migratable is
 * a successful no-op), set_callback. */
#include "bb_test.h"

static void *received;

static void body(void *arg)
{
    received = arg;
}

static void other_body(void *arg)
{
    (void)arg;
}

static void cb(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    int pool1_id = -5;
    CHECK_OK(ABT_pool_get_id(pool1, &pool1_id));

    /* Created on the primary pool, which cannot run until we block. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool0, body, (void *)0x111, ABT_THREAD_ATTR_NULL, &t));
    void *arg = NULL;
    CHECK_OK(ABT_thread_get_arg(t, &arg));
    CHECK(arg == (void *)0x111);
    CHECK_OK(ABT_thread_set_arg(t, (void *)0x222));
    CHECK_OK(ABT_thread_get_arg(t, &arg));
    CHECK(arg == (void *)0x222);
    void (*f)(void *) = NULL;
    CHECK_OK(ABT_thread_get_thread_func(t, &f));
    CHECK(f == body);
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(t, &last));
    CHECK(last == pool0);
    int id = -5, pool0_id = -6;
    CHECK_OK(ABT_pool_get_id(pool0, &pool0_id));
    CHECK_OK(ABT_thread_get_last_pool_id(t, &id));
    CHECK_EQ(id, pool0_id);
    ABT_unit unit = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(t, &unit));
    CHECK(unit != ABT_UNIT_NULL);
    ABT_bool b = ABT_TRUE;
    CHECK_OK(ABT_thread_is_primary(t, &b));
    CHECK_EQ(b, ABT_FALSE);
    b = ABT_TRUE;
    CHECK_OK(ABT_thread_is_unnamed(t, &b));
    CHECK_EQ(b, ABT_FALSE);
    b = ABT_FALSE;
    CHECK_OK(ABT_thread_is_migratable(t, &b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_thread_set_migratable(t, ABT_FALSE));
    CHECK_OK(ABT_thread_is_migratable(t, &b));
    CHECK_EQ(b, ABT_FALSE);
    CHECK_OK(ABT_thread_set_migratable(t, ABT_TRUE));
    CHECK_OK(ABT_thread_is_migratable(t, &b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_thread_set_callback(t, cb, NULL));
    CHECK_OK(ABT_thread_set_callback(t, NULL, NULL));

    CHECK_OK(ABT_thread_join(t));
    CHECK(received == (void *)0x222);
    ABT_xstream last_es = ABT_XSTREAM_NULL;
    CHECK_OK(ABT_thread_get_last_xstream(t, &last_es));
    CHECK(last_es == self_es);

    /* equal. */
    ABT_thread t2;
    CHECK_OK(ABT_thread_create(pool1, other_body, NULL, ABT_THREAD_ATTR_NULL, &t2));
    b = ABT_FALSE;
    CHECK_OK(ABT_thread_equal(t, t, &b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_thread_equal(t, t2, &b));
    CHECK_EQ(b, ABT_FALSE);
    CHECK_OK(ABT_thread_equal(ABT_THREAD_NULL, ABT_TASK_NULL, &b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_thread_equal(t, ABT_THREAD_NULL, &b));
    CHECK_EQ(b, ABT_FALSE);
    CHECK_OK(ABT_thread_join(t2));
    CHECK_OK(ABT_thread_get_last_xstream(t2, &last_es));
    CHECK(last_es == es);
    CHECK_OK(ABT_thread_get_last_pool_id(t2, &id));
    CHECK_EQ(id, pool1_id);
    ABT_unit unit2 = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(t2, &unit2));
    CHECK(unit2 != unit);

    /* The primary ULT. */
    ABT_thread primary;
    CHECK_OK(ABT_thread_self(&primary));
    CHECK_OK(ABT_thread_is_primary(primary, &b));
    CHECK_EQ(b, ABT_TRUE);
    b = ABT_TRUE;
    CHECK_OK(ABT_thread_is_migratable(primary, &b));
    CHECK_EQ(b, ABT_FALSE);
    CHECK_OK(ABT_thread_set_migratable(primary, ABT_TRUE)); /* 1.x: ignored */
    CHECK_OK(ABT_thread_is_migratable(primary, &b));
    CHECK_EQ(b, ABT_FALSE);
    /* The primary ULT is created without a handle: it counts as unnamed
     * (Argobots behaviour), though it is never freed automatically. */
    b = ABT_FALSE;
    CHECK_OK(ABT_thread_is_unnamed(primary, &b));
    CHECK_EQ(b, ABT_TRUE);
    b = ABT_FALSE;
    CHECK_OK(ABT_self_is_unnamed(&b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_thread_get_last_xstream(primary, &last_es));
    CHECK(last_es == self_es);
    CHECK_OK(ABT_thread_get_last_pool(primary, &last));
    CHECK(last == pool0);
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(primary, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_RUNNING);

    /* Tasklets are migratable by default too. */
    ABT_task tk;
    CHECK_OK(ABT_task_create(pool1, other_body, NULL, &tk));
    b = ABT_FALSE;
    CHECK_OK(ABT_thread_is_migratable(tk, &b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_thread_is_primary(tk, &b));
    CHECK_EQ(b, ABT_FALSE);
    CHECK_OK(ABT_task_free(&tk));

    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_thread_free(&t2));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
