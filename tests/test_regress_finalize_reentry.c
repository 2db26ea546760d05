/* ABT_init and ABT_finalize called from code that the last ABT_finalize runs
 * while it tears the runtime down return ABT_ERR_UNINITIALIZED at once
 * instead of waiting for ever for the init lock that finalize holds: a key
 * destructor of the primary ULT, a user scheduler's and a user pool's free
 * callback, a tool callback and a future callback of units the finalize
 * runs, and ULTs on the primary ES and on a forgotten secondary ES. The
 * runtime is down afterwards and a new init/finalize cycle works. */
#include "bb_test.h"
#include "sched_user_util.h"
#include <pthread.h>
#include <stdatomic.h>

enum { SITE_KEY, SITE_SCHED_FREE, SITE_POOL_FREE, SITE_TOOL, SITE_FUTURE, SITE_PRIMARY_ULT,
       SITE_SECONDARY_ULT, NUM_SITES };
static const char *site_names[NUM_SITES] = {"key destructor", "sched free", "pool free", "tool",
                                            "future", "primary ULT", "secondary ULT"};
static int ret_init[NUM_SITES], ret_fin[NUM_SITES];
static atomic_int finalizing, tool_done;

static void reenter(int site)
{
    ret_init[site] = ABT_init(0, NULL);
    if (ret_init[site] == ABT_SUCCESS)
        (void)ABT_finalize(); /* undo it, so that the last count stays right */
    ret_fin[site] = ABT_finalize();
}

static void key_dtor(void *value)
{
    (void)value;
    reenter(SITE_KEY);
}

/* A user pool: a LIFO of heap units, with a free callback. */
typedef struct up_unit {
    ABT_thread thread;
    struct up_unit *next;
} up_unit;
typedef struct {
    pthread_mutex_t lock;
    up_unit *head;
} up_pool;
static up_pool *pool_data(ABT_pool pool)
{
    void *data = NULL;
    ABT_pool_get_data(pool, &data);
    return data;
}
static ABT_unit up_create_unit(ABT_pool pool, ABT_thread thread)
{
    (void)pool;
    up_unit *u = calloc(1, sizeof(*u));
    u->thread = thread;
    return (ABT_unit)u;
}
static void up_free_unit(ABT_pool pool, ABT_unit unit)
{
    (void)pool;
    free((void *)unit);
}
static ABT_bool up_is_empty(ABT_pool pool)
{
    up_pool *p = pool_data(pool);
    pthread_mutex_lock(&p->lock);
    ABT_bool empty = p->head ? ABT_FALSE : ABT_TRUE;
    pthread_mutex_unlock(&p->lock);
    return empty;
}
static ABT_thread up_pop(ABT_pool pool, ABT_pool_context ctx)
{
    (void)ctx;
    up_pool *p = pool_data(pool);
    pthread_mutex_lock(&p->lock);
    up_unit *u = p->head;
    if (u)
        p->head = u->next;
    pthread_mutex_unlock(&p->lock);
    return u ? u->thread : ABT_THREAD_NULL;
}
static void up_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    (void)ctx;
    up_pool *p = pool_data(pool);
    up_unit *u = (up_unit *)unit;
    pthread_mutex_lock(&p->lock);
    u->next = p->head;
    p->head = u;
    pthread_mutex_unlock(&p->lock);
}
static int up_init(ABT_pool pool, ABT_pool_config config)
{
    (void)config;
    up_pool *p = calloc(1, sizeof(*p));
    pthread_mutex_init(&p->lock, NULL);
    return ABT_pool_set_data(pool, p);
}
static void up_free(ABT_pool pool)
{
    free(pool_data(pool));
    reenter(SITE_POOL_FREE);
}

static int sched_free(ABT_sched sched)
{
    (void)sched;
    reenter(SITE_SCHED_FREE);
    return ABT_SUCCESS;
}

static void tool_cb(ABT_thread thread, ABT_xstream xstream, uint64_t event, ABT_tool_context ctx,
                    void *arg)
{
    (void)thread, (void)xstream, (void)ctx, (void)arg;
    if (event == ABT_TOOL_EVENT_THREAD_FINISH && atomic_load(&finalizing) &&
        !atomic_exchange(&tool_done, 1))
        reenter(SITE_TOOL);
}

static ABT_future future;
static void future_cb(void **values)
{
    (void)values;
    reenter(SITE_FUTURE);
}
static void future_setter(void *arg)
{
    (void)arg;
    ABT_future_set(future, NULL); /* the last compartment: runs future_cb */
    ABT_future_free(&future);
}

static void primary_ult(void *arg)
{
    (void)arg;
    reenter(SITE_PRIMARY_ULT);
}

/* Waits until the primary ULT is inside ABT_finalize, which joins this ES. */
static void secondary_ult(void *arg)
{
    (void)arg;
    while (!atomic_load(&finalizing))
        ABT_thread_yield();
    usleep(100000);
    reenter(SITE_SECONDARY_ULT);
}

static void noop(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    for (int i = 0; i < NUM_SITES; i++)
        ret_init[i] = ret_fin[i] = -1;
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_self_get_xstream(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    ABT_key key;
    CHECK_OK(ABT_key_create(key_dtor, &key));
    CHECK_OK(ABT_self_set_specific(key, &key));
    CHECK_OK(ABT_key_free(&key)); /* the value is still destroyed in ABT_finalize */

    /* A forgotten ES with an automatic user scheduler over an automatic
     * user pool: both are freed by ABT_finalize. */
    ABT_pool_user_def def;
    CHECK_OK(ABT_pool_user_def_create(up_create_unit, up_free_unit, up_is_empty, up_pop, up_push,
                                      &def));
    CHECK_OK(ABT_pool_user_def_set_init(def, up_init));
    CHECK_OK(ABT_pool_user_def_set_free(def, up_free));
    ABT_pool_config pool_config;
    CHECK_OK(ABT_pool_config_create(&pool_config));
    int automatic = 1;
    CHECK_OK(ABT_pool_config_set(pool_config, ABT_pool_config_automatic.key, ABT_POOL_CONFIG_INT,
                                 &automatic));
    ABT_pool user_pool;
    CHECK_OK(ABT_pool_create(def, pool_config, &user_pool));
    CHECK_OK(ABT_pool_config_free(&pool_config));
    CHECK_OK(ABT_pool_user_def_free(&def));
    ABT_sched_config sched_config;
    CHECK_OK(ABT_sched_config_create(&sched_config, ABT_sched_config_automatic, 1,
                                     ABT_sched_config_var_end));
    ABT_sched_def sched_def = {.type = ABT_SCHED_TYPE_ULT, .run = one_pool_sched_run,
                               .free = sched_free};
    ABT_sched sched;
    CHECK_OK(ABT_sched_create(&sched_def, 1, &user_pool, sched_config, &sched));
    CHECK_OK(ABT_sched_config_free(&sched_config));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(sched, &es));
    CHECK_OK(ABT_thread_create(user_pool, secondary_ult, NULL, ABT_THREAD_ATTR_NULL, NULL));

    /* Units the finalize runs on the primary ES. */
    CHECK_OK(ABT_tool_register_thread_callback(tool_cb, ABT_TOOL_EVENT_THREAD_ALL, NULL));
    CHECK_OK(ABT_future_create(1, future_cb, &future));
    CHECK_OK(ABT_thread_create(main_pool, future_setter, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_thread_create(main_pool, primary_ult, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_thread_create(main_pool, noop, NULL, ABT_THREAD_ATTR_NULL, NULL));

    atomic_store(&finalizing, 1);
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    for (int i = 0; i < NUM_SITES; i++) {
        if (ret_init[i] != ABT_ERR_UNINITIALIZED || ret_fin[i] != ABT_ERR_UNINITIALIZED)
            fprintf(stderr, "%s: ABT_init %d, ABT_finalize %d\n", site_names[i], ret_init[i],
                    ret_fin[i]);
        CHECK_EQ(ret_init[i], ABT_ERR_UNINITIALIZED);
        CHECK_EQ(ret_fin[i], ABT_ERR_UNINITIALIZED);
    }

    /* A fresh cycle works. */
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_finalize());
    CHECK_OK(ABT_initialized());
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    BB_TEST_END();
}
