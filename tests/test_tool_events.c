/* The tool interface: a callback registered for some events hears exactly
 * those, for every unit, in life-cycle order (CREATE, RUN, FINISH, JOIN,
 * FREE; YIELD; SUSPEND on a mutex and RESUME), and ABT_tool_query_thread
 * answers from the event's context (pool, caller, depth, sync object).
 * Registering NULL stops the events; ABT_finalize forgets the
 * registration. Errors: before ABT_init, NULL context, NULL val (in the
 * callback: INV_ARG), unknown kind. */
#include "bb_test.h"
#include <pthread.h>

enum { MAX_EVENTS = 256 };

static struct {
    ABT_thread unit;
    uint64_t event;
    ABT_pool pool;
    int depth;
    ABT_exec_entity_type caller_type;
    ABT_thread caller;
    ABT_sync_event_type sync_type;
    void *sync_obj;
} events[MAX_EVENTS];
static int num_events;
static pthread_mutex_t events_lock = PTHREAD_MUTEX_INITIALIZER;
static ABT_thread watched;
static int query_errors;
static int creates_seen, others_seen; /* every unit's events */

static void on_event(ABT_thread unit, ABT_xstream es, uint64_t event, ABT_tool_context ctx,
                     void *arg)
{
    (void)es;
    pthread_mutex_lock(&events_lock);
    if (event == ABT_TOOL_EVENT_THREAD_CREATE)
        creates_seen++;
    else
        others_seen++;
    pthread_mutex_unlock(&events_lock);
    if (arg != &events || unit != watched)
        return;
    pthread_mutex_lock(&events_lock);
    if (num_events < MAX_EVENTS) {
        int i = num_events++;
        events[i].unit = unit;
        events[i].event = event;
        query_errors += ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_POOL, &events[i].pool) != ABT_SUCCESS;
        query_errors += ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_STACK_DEPTH, &events[i].depth) != ABT_SUCCESS;
        query_errors += ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_CALLER_TYPE, &events[i].caller_type) != ABT_SUCCESS;
        query_errors += ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_CALLER_HANDLE, &events[i].caller) != ABT_SUCCESS;
        query_errors += ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_SYNC_OBJECT_TYPE, &events[i].sync_type) != ABT_SUCCESS;
        query_errors += ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_SYNC_OBJECT_HANDLE, &events[i].sync_obj) != ABT_SUCCESS;
        int dummy;
        query_errors += ABT_tool_query_thread(ctx, event, (ABT_tool_query_kind)99, &dummy) != ABT_ERR_OTHER;
        query_errors += ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_POOL, NULL) != ABT_ERR_INV_ARG;
    }
    pthread_mutex_unlock(&events_lock);
}

static ABT_mutex mutex;

static void body(void *arg)
{
    (void)arg;
    ABT_thread_yield();
    ABT_mutex_lock(mutex); /* held by the primary: blocks */
    ABT_mutex_unlock(mutex);
}

static int find(uint64_t event, int from)
{
    for (int i = from; i < num_events; i++)
        if (events[i].event == event)
            return i;
    return -1;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_ERR(ABT_tool_register_thread_callback(on_event, ABT_TOOL_EVENT_THREAD_ALL, &events),
              ABT_ERR_UNINITIALIZED);
    CHECK_OK(ABT_init(0, NULL));
    ABT_bool enabled;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_TOOL, &enabled));
    CHECK_EQ(enabled, ABT_TRUE);
    CHECK_ERR(ABT_tool_query_thread(ABT_TOOL_CONTEXT_NULL, ABT_TOOL_EVENT_THREAD_RUN,
                                    ABT_TOOL_QUERY_KIND_POOL, &(ABT_pool){0}),
              ABT_ERR_INV_TOOL_CONTEXT);

    ABT_xstream es;
    ABT_pool pool;
    ABT_thread self;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_self_get_thread(&self));
    CHECK_OK(ABT_mutex_create(&mutex));
    CHECK_OK(ABT_tool_register_thread_callback(on_event, ABT_TOOL_EVENT_THREAD_ALL, &events));

    /* Create it unstarted (in a pool nobody runs until we yield), so that
     * `watched` is set before its first event. */
    ABT_thread t;
    ABT_mutex_lock(mutex);
    ABT_thread_attr attr = ABT_THREAD_ATTR_NULL;
    CHECK_OK(ABT_thread_create(pool, body, NULL, attr, &t));
    /* CREATE fired before we knew the handle: record from now on. */
    watched = t;
    for (int i = 0; i < 5; i++)
        CHECK_OK(ABT_thread_yield()); /* t runs, yields, blocks on the mutex */
    CHECK_OK(ABT_mutex_unlock(mutex));
    CHECK_OK(ABT_thread_free(&t));

    int run = find(ABT_TOOL_EVENT_THREAD_RUN, 0);
    int yield = find(ABT_TOOL_EVENT_THREAD_YIELD, 0);
    int suspend = find(ABT_TOOL_EVENT_THREAD_SUSPEND, 0);
    int resume = find(ABT_TOOL_EVENT_THREAD_RESUME, 0);
    int finish = find(ABT_TOOL_EVENT_THREAD_FINISH, 0);
    int join = find(ABT_TOOL_EVENT_THREAD_JOIN, 0);
    int freed = find(ABT_TOOL_EVENT_THREAD_FREE, 0);
    CHECK(run >= 0 && yield > run && suspend > yield && resume > suspend);
    CHECK(finish > resume && join > finish && freed > join);
    CHECK_EQ(query_errors, 0);
    CHECK_EQ(events[run].depth, 1); /* on the main scheduler */
    CHECK_EQ(events[yield].pool, pool);
    CHECK_EQ(events[yield].sync_type, ABT_SYNC_EVENT_TYPE_USER);
    CHECK_EQ(events[suspend].sync_type, ABT_SYNC_EVENT_TYPE_MUTEX);
    CHECK(events[suspend].sync_obj == (void *)mutex);
    CHECK_EQ(events[resume].caller_type, ABT_EXEC_ENTITY_TYPE_THREAD);
    CHECK_EQ(events[resume].caller, self); /* the unlocker woke it */
    CHECK_EQ(events[join].caller, self);

    /* Only the events of the mask; NULL stops them all. */
    CHECK_OK(ABT_tool_register_thread_callback(on_event, ABT_TOOL_EVENT_THREAD_CREATE, &events));
    creates_seen = others_seen = 0;
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(creates_seen, 1);
    CHECK_EQ(others_seen, 0);
    CHECK_OK(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_ALL, &events));
    creates_seen = others_seen = 0;
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(creates_seen + others_seen, 0);

    /* A new ABT_init starts with nothing registered. */
    CHECK_OK(ABT_tool_register_thread_callback(on_event, ABT_TOOL_EVENT_THREAD_ALL, &events));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    CHECK_OK(ABT_init(0, NULL));
    creates_seen = others_seen = 0;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_mutex_create(&mutex));
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(creates_seen + others_seen, 0);

    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
