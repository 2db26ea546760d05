/* A tool hears of a unit's end (FREE) only if it heard of its creation
 * (CREATE): a ULT or tasklet whose creation failed (a user pool's
 * create-unit callback gave no unit), the scheduler and OS-thread units of
 * an ES freed by ABT_xstream_free, and the primary ES's scheduler at
 * ABT_finalize report nothing; a unit created and freed reports both. */
#include "bb_test.h"
#include <pthread.h>

static int creates, frees;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void on_event(ABT_thread unit, ABT_xstream es, uint64_t event, ABT_tool_context ctx,
                     void *arg)
{
    (void)unit;
    (void)es;
    (void)ctx;
    (void)arg;
    pthread_mutex_lock(&lock);
    if (event == ABT_TOOL_EVENT_THREAD_CREATE)
        creates++;
    else if (event == ABT_TOOL_EVENT_THREAD_FREE)
        frees++;
    pthread_mutex_unlock(&lock);
}

static void counts(int *c, int *f)
{
    pthread_mutex_lock(&lock);
    *c = creates;
    *f = frees;
    creates = frees = 0;
    pthread_mutex_unlock(&lock);
}

/* A user pool that never makes a unit: every creation into it fails. */
static ABT_unit no_unit(ABT_pool pool, ABT_thread thread)
{
    (void)pool;
    (void)thread;
    return ABT_UNIT_NULL;
}
static void free_unit(ABT_pool pool, ABT_unit unit)
{
    (void)pool;
    (void)unit;
}
static ABT_bool is_empty(ABT_pool pool)
{
    (void)pool;
    return ABT_TRUE;
}
static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx)
{
    (void)pool;
    (void)ctx;
    return ABT_THREAD_NULL;
}
static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    (void)pool;
    (void)unit;
    (void)ctx;
}

static void body(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    int c, f;
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_tool_register_thread_callback(on_event, ABT_TOOL_EVENT_THREAD_ALL, NULL));

    ABT_pool_user_def def;
    ABT_pool failing, main_pool;
    CHECK_OK(ABT_pool_user_def_create(no_unit, free_unit, is_empty, pop, push, &def));
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &failing));
    ABT_thread t = ABT_THREAD_NULL;
    ABT_task k = ABT_TASK_NULL;
    CHECK(ABT_thread_create(failing, body, NULL, ABT_THREAD_ATTR_NULL, &t) != ABT_SUCCESS);
    CHECK(ABT_task_create(failing, body, NULL, &k) != ABT_SUCCESS);
    CHECK(t == ABT_THREAD_NULL && k == ABT_TASK_NULL);
    counts(&c, &f);
    CHECK_EQ(c, 0);
    CHECK_EQ(f, 0);

    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_free(&es));
    counts(&c, &f);
    CHECK_EQ(c, 0);
    CHECK_EQ(f, 0);

    ABT_xstream self_es;
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &main_pool));
    CHECK_OK(ABT_thread_create(main_pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_task_create(main_pool, body, NULL, &k));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_task_free(&k));
    counts(&c, &f);
    CHECK_EQ(c, 2);
    CHECK_EQ(f, 2);

    CHECK_OK(ABT_pool_free(&failing));
    CHECK_OK(ABT_pool_user_def_free(&def));
    CHECK_OK(ABT_finalize()); /* still registered */
    counts(&c, &f);
    CHECK_EQ(c, 0);
    CHECK_EQ(f, 0);
    BB_TEST_END();
}
