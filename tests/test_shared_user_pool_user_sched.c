/* A user-defined pool driving user-defined schedulers under load. A new-style
 * user FIFO pool (ABT_pool_user_def_create: create_unit / free_unit /
 * is_empty / pop / push, plus init / free / get_size; a mutex makes it
 * MPMC-safe) is shared by 2 ESs, each running its own user ABT_sched_def
 * scheduler (ABT_pool_pop_thread + ABT_xstream_run_unit +
 * ABT_xstream_check_events + ABT_sched_has_to_stop). The primary ULT pushes
 * 5000 ULTs that yield a few times. All of them run to the end, on the two
 * secondary ESs only; the pool's init and free run once each; every unit the
 * pool created is freed by the end (after the ESs are joined and freed and
 * the pool is freed); both schedulers' run functions return. */
#include "bb_test.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#define N 5000
#define YIELDS 3

/* ---- the pool ------------------------------------------------------------- */

struct node {
    ABT_thread thread;
    struct node *next;
    int queued;
};

struct queue {
    pthread_mutex_t lock;
    struct node *head, *tail;
    size_t size;
};

static atomic_long units_created, units_freed, bad_units;
static atomic_int pool_inits, pool_frees;

static ABT_unit q_create_unit(ABT_pool pool, ABT_thread thread)
{
    (void)pool;
    struct node *n = malloc(sizeof(*n));
    if (!n)
        return ABT_UNIT_NULL;
    n->thread = thread;
    n->next = NULL;
    n->queued = 0;
    atomic_fetch_add(&units_created, 1);
    return (ABT_unit)n;
}

static void q_free_unit(ABT_pool pool, ABT_unit unit)
{
    (void)pool;
    struct node *n = (struct node *)unit;
    if (n->queued)
        atomic_fetch_add(&bad_units, 1); /* freed while still in the queue */
    free(n);
    atomic_fetch_add(&units_freed, 1);
}

static struct queue *queue_of(ABT_pool pool)
{
    void *data = NULL;
    ABT_pool_get_data(pool, &data);
    return data;
}

static int q_init(ABT_pool pool, ABT_pool_config config)
{
    (void)config;
    struct queue *q = calloc(1, sizeof(*q));
    if (!q)
        return ABT_ERR_MEM;
    pthread_mutex_init(&q->lock, NULL);
    atomic_fetch_add(&pool_inits, 1);
    return ABT_pool_set_data(pool, q);
}

static void q_free(ABT_pool pool)
{
    struct queue *q = queue_of(pool);
    if (q->head || q->size)
        atomic_fetch_add(&bad_units, 1);
    pthread_mutex_destroy(&q->lock);
    free(q);
    atomic_fetch_add(&pool_frees, 1);
}

static ABT_bool q_is_empty(ABT_pool pool)
{
    struct queue *q = queue_of(pool);
    pthread_mutex_lock(&q->lock);
    ABT_bool empty = q->head == NULL ? ABT_TRUE : ABT_FALSE;
    pthread_mutex_unlock(&q->lock);
    return empty;
}

static size_t q_get_size(ABT_pool pool)
{
    struct queue *q = queue_of(pool);
    pthread_mutex_lock(&q->lock);
    size_t size = q->size;
    pthread_mutex_unlock(&q->lock);
    return size;
}

static void q_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    (void)ctx;
    struct queue *q = queue_of(pool);
    struct node *n = (struct node *)unit;
    pthread_mutex_lock(&q->lock);
    if (n->queued)
        atomic_fetch_add(&bad_units, 1); /* pushed twice */
    n->queued = 1;
    n->next = NULL;
    if (q->tail)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
    q->size++;
    pthread_mutex_unlock(&q->lock);
}

static ABT_thread q_pop(ABT_pool pool, ABT_pool_context ctx)
{
    (void)ctx;
    struct queue *q = queue_of(pool);
    pthread_mutex_lock(&q->lock);
    struct node *n = q->head;
    if (n) {
        q->head = n->next;
        if (!q->head)
            q->tail = NULL;
        q->size--;
        n->queued = 0;
    }
    pthread_mutex_unlock(&q->lock);
    return n ? n->thread : ABT_THREAD_NULL;
}

/* ---- the scheduler ---------------------------------------------------------- */

static atomic_int run_returns;
static atomic_long sched_errors;

static void sched_run(ABT_sched sched)
{
    ABT_pool pool;
    if (ABT_sched_get_pools(sched, 1, 0, &pool) != ABT_SUCCESS) {
        atomic_fetch_add(&sched_errors, 1);
        return;
    }
    for (unsigned round = 1;; round++) {
        ABT_thread t = ABT_THREAD_NULL;
        if (ABT_pool_pop_thread(pool, &t) != ABT_SUCCESS)
            atomic_fetch_add(&sched_errors, 1);
        if (t != ABT_THREAD_NULL) {
            ABT_unit u = ABT_UNIT_NULL;
            if (ABT_thread_get_unit(t, &u) != ABT_SUCCESS ||
                ABT_xstream_run_unit(u, pool) != ABT_SUCCESS)
                atomic_fetch_add(&sched_errors, 1);
        }
        if (t == ABT_THREAD_NULL || round % 16 == 0) {
            if (ABT_xstream_check_events(sched) != ABT_SUCCESS)
                atomic_fetch_add(&sched_errors, 1);
            ABT_bool stop = ABT_FALSE;
            if (ABT_sched_has_to_stop(sched, &stop) != ABT_SUCCESS)
                atomic_fetch_add(&sched_errors, 1);
            if (stop)
                break;
            if (t == ABT_THREAD_NULL)
                sched_yield();
        }
    }
    atomic_fetch_add(&run_returns, 1);
}

/* ---- the work --------------------------------------------------------------- */

static atomic_int finished[N];
static atomic_int done, on_primary, wrong_pool;
static ABT_pool upool;

static void worker(void *arg)
{
    long i = (long)arg;
    for (int k = 0; k <= YIELDS; k++) {
        int rank = -1;
        ABT_self_get_xstream_rank(&rank);
        if (rank == 0)
            atomic_fetch_add(&on_primary, 1);
        ABT_pool p = ABT_POOL_NULL;
        ABT_self_get_last_pool(&p);
        if (p != upool)
            atomic_fetch_add(&wrong_pool, 1);
        if (k < YIELDS)
            ABT_thread_yield();
    }
    atomic_fetch_add(&finished[i], 1);
    atomic_fetch_add(&done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));

    ABT_pool_user_def def;
    CHECK_OK(ABT_pool_user_def_create(q_create_unit, q_free_unit, q_is_empty, q_pop, q_push,
                                      &def));
    CHECK_OK(ABT_pool_user_def_set_init(def, q_init));
    CHECK_OK(ABT_pool_user_def_set_free(def, q_free));
    CHECK_OK(ABT_pool_user_def_set_get_size(def, q_get_size));
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &upool));
    CHECK_OK(ABT_pool_user_def_free(&def)); /* the pool keeps its own copy */
    CHECK_EQ(atomic_load(&pool_inits), 1);
    ABT_pool_access access;
    CHECK_OK(ABT_pool_get_access(upool, &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPMC);

    ABT_sched_def sdef = {.type = ABT_SCHED_TYPE_ULT, .run = sched_run};
    ABT_sched scheds[2];
    ABT_xstream es[2];
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_sched_create(&sdef, 1, &upool, ABT_SCHED_CONFIG_NULL, &scheds[i]));
        CHECK_OK(ABT_xstream_create(scheds[i], &es[i]));
    }

    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(upool, worker, (void *)i, ABT_THREAD_ATTR_NULL, NULL));

    for (int i = 0; i < 20000 && atomic_load(&done) < N; i++)
        usleep(1000);
    CHECK_EQ(atomic_load(&done), N);

    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_EQ(atomic_load(&run_returns), 2);
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_sched_free(&scheds[i])); /* not automatic: ours */

    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(upool, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_pool_free(&upool));
    CHECK_EQ(atomic_load(&pool_frees), 1);

    int not_once = 0;
    for (int i = 0; i < N; i++)
        if (atomic_load(&finished[i]) != 1)
            not_once++;
    CHECK_EQ(not_once, 0);
    CHECK_EQ(atomic_load(&on_primary), 0);
    CHECK_EQ(atomic_load(&wrong_pool), 0);
    CHECK_EQ(atomic_load(&sched_errors), 0);
    CHECK_EQ(atomic_load(&bad_units), 0);
    CHECK_EQ(atomic_load(&units_created), N);
    CHECK_EQ(atomic_load(&units_created), atomic_load(&units_freed));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
