/* Tasklets: ABT_task_create / create_on_xstream run the function with its
 * argument on the right ES; a fresh tasklet is READY with no last ES;
 * afterwards get_xstream names the ES, get_last_pool(_id) the pool; tasklets
 * are migratable by default and set_migratable works; ABT_task_self /
 * task_self_id inside a tasklet return its own handle / ID; from a ULT they
 * give ABT_ERR_INV_TASK and from an external thread ABT_ERR_INV_XSTREAM. */
#include <pthread.h>
#include "bb_test.h"

static int ranks[4] = {-1, -1, -1, -1};
static ABT_task self_seen[4];
static int r_self[4] = {-1, -1, -1, -1};
static int r_ult_self = -1, r_ult_self_id = -1, r_ext_self = -1, r_ext_self_id = -1;
static ABT_task ult_self_out = (ABT_task)(intptr_t)0x10;

static void body(void *arg)
{
    int idx = (int)(intptr_t)arg;
    ABT_self_get_xstream_rank(&ranks[idx]);
    r_self[idx] = ABT_task_self(&self_seen[idx]);
}

static void ult_fn(void *arg)
{
    (void)arg;
    uint64_t id;
    r_ult_self = ABT_task_self(&ult_self_out);
    r_ult_self_id = ABT_task_self_id(&id);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    ABT_task t;
    uint64_t id;
    r_ext_self = ABT_task_self(&t);
    r_ext_self_id = ABT_task_self_id(&id);
    return NULL;
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

    ABT_task t[4];
    CHECK_OK(ABT_task_create(pool0, body, (void *)(intptr_t)0, &t[0]));
    CHECK_OK(ABT_task_create(pool1, body, (void *)(intptr_t)1, &t[1]));
    CHECK_OK(ABT_task_create_on_xstream(self_es, body, (void *)(intptr_t)2, &t[2]));
    CHECK_OK(ABT_task_create_on_xstream(es, body, (void *)(intptr_t)3, &t[3]));

    /* t[0] and t[2] sit in the primary pool, which does not run yet. */
    ABT_task_state st = (ABT_task_state)-1;
    CHECK_OK(ABT_task_get_state(t[0], &st));
    CHECK_EQ(st, ABT_TASK_STATE_READY);
    ABT_xstream xs = (ABT_xstream)(intptr_t)0x10;
    CHECK_OK(ABT_task_get_xstream(t[2], &xs));
    CHECK(xs == ABT_XSTREAM_NULL);
    ABT_bool m = ABT_FALSE;
    CHECK_OK(ABT_task_is_migratable(t[0], &m));
    CHECK_EQ(m, ABT_TRUE);
    CHECK_OK(ABT_task_set_migratable(t[0], ABT_FALSE));
    CHECK_OK(ABT_task_is_migratable(t[0], &m));
    CHECK_EQ(m, ABT_FALSE);
    void *arg = NULL;
    CHECK_OK(ABT_task_get_arg(t[2], &arg));
    CHECK(arg == (void *)(intptr_t)2);
    ABT_bool b = ABT_FALSE;
    CHECK_OK(ABT_task_equal(t[0], t[0], &b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_task_equal(t[0], t[1], &b));
    CHECK_EQ(b, ABT_FALSE);

    int pool0_id, pool1_id;
    CHECK_OK(ABT_pool_get_id(pool0, &pool0_id));
    CHECK_OK(ABT_pool_get_id(pool1, &pool1_id));
    for (int i = 0; i < 4; i++) {
        CHECK_OK(ABT_task_join(t[i]));
        CHECK_OK(ABT_task_get_state(t[i], &st));
        CHECK_EQ(st, ABT_TASK_STATE_TERMINATED);
        CHECK_EQ(ranks[i], (i & 1) ? 1 : 0);
        CHECK_OK(ABT_task_get_xstream(t[i], &xs));
        CHECK(xs == ((i & 1) ? es : self_es));
        ABT_pool last = ABT_POOL_NULL;
        CHECK_OK(ABT_task_get_last_pool(t[i], &last));
        CHECK(last == ((i & 1) ? pool1 : pool0));
        int id = -5;
        CHECK_OK(ABT_task_get_last_pool_id(t[i], &id));
        CHECK_EQ(id, (i & 1) ? pool1_id : pool0_id);
        CHECK_OK(r_self[i]);
        CHECK(self_seen[i] == t[i]);
    }
    for (int i = 0; i < 4; i++) {
        CHECK_OK(ABT_task_free(&t[i]));
        CHECK(t[i] == ABT_TASK_NULL);
    }

    ABT_thread u;
    CHECK_OK(ABT_thread_create(pool1, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &u));
    CHECK_OK(ABT_thread_free(&u));
    CHECK_EQ(r_ult_self, ABT_ERR_INV_TASK);
    CHECK(ult_self_out == ABT_TASK_NULL);
    CHECK_EQ(r_ult_self_id, ABT_ERR_INV_TASK);
    /* ... and from the primary ULT. */
    ABT_task tt;
    CHECK_ERR(ABT_task_self(&tt), ABT_ERR_INV_TASK);

    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext_self, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(r_ext_self_id, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
