/* ABT_thread_yield_to: on one ES with ULTs A, B, C queued in that order, A
 * yields to C, so C runs before B; A goes to the back of the pool. Errors:
 * NULL target, the caller itself and a tasklet target -> INV_THREAD.
 * From a tasklet or an external thread it returns SUCCESS and does nothing
 * (1.x). */
#include <pthread.h>
#include "bb_test.h"

static char order[32];
static int pos;
static ABT_thread ta, tb, tc;
static ABT_task tk;
static int r_null = -1, r_self = -1, r_task = -1, r_from_task = -1, r_ext = -1;
static int r_yield_to = -1;

static void note(char c)
{
    order[pos++] = c;
}

static void fa(void *arg)
{
    (void)arg;
    note('a');
    r_null = ABT_thread_yield_to(ABT_THREAD_NULL);
    r_self = ABT_thread_yield_to(ta);
    r_task = ABT_thread_yield_to(tk);
    note('A');
    r_yield_to = ABT_thread_yield_to(tc);
    note('z');
}

static void fb(void *arg)
{
    (void)arg;
    note('b');
}

static void fc(void *arg)
{
    (void)arg;
    note('c');
}

static void task_fn(void *arg)
{
    (void)arg;
    r_from_task = ABT_thread_yield_to(tb);
    note('k');
}

static ABT_pool g_pool;

static void setup(void *arg)
{
    (void)arg;
    ABT_thread_create(g_pool, fa, NULL, ABT_THREAD_ATTR_NULL, &ta);
    ABT_task_create(g_pool, task_fn, NULL, &tk);
    ABT_thread_create(g_pool, fb, NULL, ABT_THREAD_ATTR_NULL, &tb);
    ABT_thread_create(g_pool, fc, NULL, ABT_THREAD_ATTR_NULL, &tc);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext = ABT_thread_yield_to(tb);
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    /* The queue is built by a ULT on the ES itself, so nothing is popped
     * before all four units are in place: ta, tk, tb, tc. */
    g_pool = pool;
    ABT_thread s;
    CHECK_OK(ABT_thread_create(pool, setup, NULL, ABT_THREAD_ATTR_NULL, &s));
    CHECK_OK(ABT_thread_free(&s));
    CHECK_OK(ABT_thread_join(ta));
    CHECK_OK(ABT_thread_join(tb));
    CHECK_OK(ABT_thread_join(tc));
    CHECK_OK(ABT_task_join(tk));
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_self, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_yield_to, ABT_SUCCESS);
    CHECK_EQ(r_from_task, ABT_SUCCESS);
    CHECK_EQ(r_ext, ABT_SUCCESS);
    CHECK_EQ(pos, 6);
    CHECK(strcmp(order, "aAckbz") == 0);
    if (strcmp(order, "aAckbz") != 0)
        fprintf(stderr, "order was %s\n", order);

    CHECK_OK(ABT_thread_free(&ta));
    CHECK_OK(ABT_thread_free(&tb));
    CHECK_OK(ABT_thread_free(&tc));
    CHECK_OK(ABT_task_free(&tk));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
