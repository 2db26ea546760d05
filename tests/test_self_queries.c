/* ABT_self_* queries from the primary ULT, a named ULT, an unnamed ULT and a
 * tasklet: ES / rank, own handle (also for unnamed units and tasklets), ID,
 * is_primary (tasklet: INV_THREAD and FALSE), on_primary_xstream,
 * is_unnamed, last pool / pool id, unit, arg (set_arg changes what get_arg
 * and ABT_thread_get_arg see), thread func. */
#include "bb_test.h"

struct seen {
    int r_es, r_rank, r_thread, r_id, r_primary, r_onprim, r_unnamed, r_pool, r_pool_id,
        r_unit, r_setarg, r_getarg, r_func;
    ABT_xstream es;
    int rank;
    ABT_thread self;
    ABT_unit_id id;
    ABT_bool primary, onprim, unnamed;
    ABT_pool pool;
    int pool_id;
    ABT_unit unit;
    void *arg_before, *arg_after;
    void (*func)(void *);
};

static struct seen s_named, s_unnamed, s_task;
static int unnamed_done;

static void probe(void *arg)
{
    struct seen *s = arg;
    s->r_es = ABT_self_get_xstream(&s->es);
    s->r_rank = ABT_self_get_xstream_rank(&s->rank);
    s->r_thread = ABT_self_get_thread(&s->self);
    s->r_id = ABT_self_get_thread_id(&s->id);
    s->primary = ABT_TRUE;
    s->r_primary = ABT_self_is_primary(&s->primary);
    s->r_onprim = ABT_self_on_primary_xstream(&s->onprim);
    s->r_unnamed = ABT_self_is_unnamed(&s->unnamed);
    s->r_pool = ABT_self_get_last_pool(&s->pool);
    s->r_pool_id = ABT_self_get_last_pool_id(&s->pool_id);
    s->r_unit = ABT_self_get_unit(&s->unit);
    s->r_getarg = ABT_self_get_arg(&s->arg_before);
    s->r_setarg = ABT_self_set_arg((void *)0xabc);
    ABT_self_get_arg(&s->arg_after);
    s->r_func = ABT_self_get_thread_func(&s->func);
    if (s == &s_unnamed)
        __atomic_store_n(&unnamed_done, 1, __ATOMIC_RELEASE);
}

static void check_common(struct seen *s, ABT_xstream es, ABT_pool pool, int pool_id)
{
    CHECK_OK(s->r_es);
    CHECK_OK(s->r_rank);
    CHECK_OK(s->r_thread);
    CHECK_OK(s->r_id);
    CHECK_OK(s->r_onprim);
    CHECK_OK(s->r_unnamed);
    CHECK_OK(s->r_pool);
    CHECK_OK(s->r_pool_id);
    CHECK_OK(s->r_unit);
    CHECK_OK(s->r_getarg);
    CHECK_OK(s->r_setarg);
    CHECK_OK(s->r_func);
    CHECK(s->es == es);
    CHECK_EQ(s->rank, 1);
    CHECK(s->self != ABT_THREAD_NULL);
    CHECK_EQ(s->onprim, ABT_FALSE);
    CHECK(s->pool == pool);
    CHECK_EQ(s->pool_id, pool_id);
    CHECK(s->unit != ABT_UNIT_NULL);
    CHECK(s->arg_before == (void *)s);
    CHECK(s->arg_after == (void *)0xabc);
    CHECK(s->func == probe);
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
    int pool1_id;
    CHECK_OK(ABT_pool_get_id(pool1, &pool1_id));

    /* Named ULT. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool1, probe, &s_named, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    check_common(&s_named, es, pool1, pool1_id);
    CHECK(s_named.self == t);
    CHECK_OK(s_named.r_primary);
    CHECK_EQ(s_named.primary, ABT_FALSE);
    CHECK_EQ(s_named.unnamed, ABT_FALSE);
    ABT_unit_id tid;
    CHECK_OK(ABT_thread_get_id(t, &tid));
    CHECK_EQ(s_named.id, tid);
    ABT_unit u;
    CHECK_OK(ABT_thread_get_unit(t, &u));
    CHECK(s_named.unit == u);
    void *arg;
    CHECK_OK(ABT_thread_get_arg(t, &arg));
    CHECK(arg == (void *)0xabc);
    CHECK_OK(ABT_thread_free(&t));

    /* Unnamed ULT. */
    CHECK_OK(ABT_thread_create(pool1, probe, &s_unnamed, ABT_THREAD_ATTR_NULL, NULL));
    while (!__atomic_load_n(&unnamed_done, __ATOMIC_ACQUIRE))
        ABT_thread_yield();
    check_common(&s_unnamed, es, pool1, pool1_id);
    CHECK_EQ(s_unnamed.unnamed, ABT_TRUE);
    CHECK_OK(s_unnamed.r_primary);

    /* Tasklet. */
    ABT_task tk;
    CHECK_OK(ABT_task_create(pool1, probe, &s_task, &tk));
    CHECK_OK(ABT_task_join(tk));
    check_common(&s_task, es, pool1, pool1_id);
    CHECK(s_task.self == tk);
    CHECK_EQ(s_task.r_primary, ABT_ERR_INV_THREAD);
    CHECK_EQ(s_task.primary, ABT_FALSE);
    CHECK_EQ(s_task.unnamed, ABT_FALSE);
    CHECK_OK(ABT_task_free(&tk));

    /* The primary ULT. */
    ABT_bool b = ABT_FALSE;
    CHECK_OK(ABT_self_is_primary(&b));
    CHECK_EQ(b, ABT_TRUE);
    b = ABT_FALSE;
    CHECK_OK(ABT_self_on_primary_xstream(&b));
    CHECK_EQ(b, ABT_TRUE);
    int rank = -1;
    CHECK_OK(ABT_self_get_xstream_rank(&rank));
    CHECK_EQ(rank, 0);
    ABT_xstream xs;
    CHECK_OK(ABT_self_get_xstream(&xs));
    CHECK(xs == self_es);
    ABT_thread me, me2;
    CHECK_OK(ABT_self_get_thread(&me));
    CHECK_OK(ABT_thread_self(&me2));
    CHECK(me == me2);
    ABT_pool p;
    CHECK_OK(ABT_self_get_last_pool(&p));
    CHECK(p == pool0);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
