/* Work-unit IDs are assigned lazily, on first query, from a counter that
 * starts at 0 at every ABT_init: querying C, then A, then B numbers them 0, 1,
 * 2 regardless of creation order. IDs are stable, distinct across ULTs and
 * tasklets, and the self_id / task_self_id / self_get_thread_id calls agree
 * with ABT_thread_get_id. NULL handles give INV_THREAD / INV_TASK. */
#include "bb_test.h"

#define N 200

static ABT_unit_id self_ids[3];
static uint64_t task_self_id_v = 12345;
static ABT_unit_id task_self_thread_id = 54321;
static int r_thread_self_id = -1, r_task_self_id = -1;

static void ult_fn(void *arg)
{
    int idx = (int)(intptr_t)arg;
    ABT_unit_id a = 0, b = 0;
    r_thread_self_id = ABT_thread_self_id(&a);
    ABT_self_get_thread_id(&b);
    self_ids[idx] = (a == b) ? a : (ABT_unit_id)-1;
}

static void task_fn(void *arg)
{
    (void)arg;
    r_task_self_id = ABT_task_self_id(&task_self_id_v);
    ABT_self_get_task_id(&task_self_thread_id);
}

static void noop(void *arg)
{
    (void)arg;
}

static void run_once(int argc, char **argv)
{
    ABT_xstream self_es;
    ABT_pool pool0;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    ABT_thread a, b, c;
    CHECK_OK(ABT_thread_create(pool0, noop, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_create(pool0, noop, NULL, ABT_THREAD_ATTR_NULL, &b));
    CHECK_OK(ABT_thread_create(pool0, noop, NULL, ABT_THREAD_ATTR_NULL, &c));
    ABT_unit_id ia = 99, ib = 99, ic = 99;
    CHECK_OK(ABT_thread_get_id(c, &ic));
    CHECK_OK(ABT_thread_get_id(a, &ia));
    CHECK_OK(ABT_thread_get_id(b, &ib));
    CHECK_EQ(ic, 0);
    CHECK_EQ(ia, 1);
    CHECK_EQ(ib, 2);
    /* Stable: asking again, or after running, gives the same value. */
    CHECK_OK(ABT_thread_join(a));
    ABT_unit_id again = 99;
    CHECK_OK(ABT_thread_get_id(a, &again));
    CHECK_EQ(again, 1);
    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_OK(ABT_thread_free(&c));
    CHECK_OK(ABT_finalize());
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    /* Twice: the numbering restarts at every init. */
    run_once(argc, argv);
    run_once(argc, argv);

    ABT_xstream es;
    ABT_pool pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    /* Many units: all IDs distinct. */
    ABT_thread t[N];
    ABT_unit_id ids[N];
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0)
            CHECK_OK(ABT_task_create(pool1, noop, NULL, &t[i]));
        else
            CHECK_OK(ABT_thread_create(pool1, noop, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    }
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0) {
            uint64_t v = 0;
            CHECK_OK(ABT_task_get_id(t[i], &v));
            ids[i] = v;
        } else {
            CHECK_OK(ABT_thread_get_id(t[i], &ids[i]));
        }
    }
    int dup = 0;
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++)
            if (ids[i] == ids[j])
                dup++;
    CHECK_EQ(dup, 0);
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&t[i]));

    /* Self queries agree with get_id. */
    ABT_thread u;
    CHECK_OK(ABT_thread_create(pool1, ult_fn, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &u));
    CHECK_OK(ABT_thread_join(u));
    ABT_unit_id uid = 0;
    CHECK_OK(ABT_thread_get_id(u, &uid));
    CHECK_OK(r_thread_self_id);
    CHECK_EQ(self_ids[0], uid);
    CHECK_OK(ABT_thread_free(&u));
    ABT_task tk;
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &tk));
    CHECK_OK(ABT_task_join(tk));
    uint64_t tid = 0;
    CHECK_OK(ABT_task_get_id(tk, &tid));
    CHECK_OK(r_task_self_id);
    CHECK_EQ(task_self_id_v, tid);
    CHECK_EQ(task_self_thread_id, tid);
    CHECK_OK(ABT_task_free(&tk));

    /* The primary ULT has an ID too, distinct from the others. */
    ABT_unit_id pid = 0, pid2 = 0;
    CHECK_OK(ABT_thread_self_id(&pid));
    CHECK_OK(ABT_self_get_thread_id(&pid2));
    CHECK_EQ(pid, pid2);
    CHECK_NE(pid, uid);
    CHECK_NE(pid, tid);

    ABT_unit_id x;
    CHECK_ERR(ABT_thread_get_id(ABT_THREAD_NULL, &x), ABT_ERR_INV_THREAD);
    uint64_t y;
    CHECK_ERR(ABT_task_get_id(ABT_TASK_NULL, &y), ABT_ERR_INV_TASK);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
