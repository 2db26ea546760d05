/* ULTs in two legacy (ABT_pool_def) pools with a p_remove, served by two
 * ESs, while two external threads keep migrating them between the pools:
 * the library must never hand p_remove a unit the pool has already freed
 * (u_free), and every unit the pool made is freed exactly once.
 *
 * The old code took a ready ULT out of its user pool with p_remove, reading
 * the ULT's user unit without a lock, while the ES that popped it meanwhile
 * could move it on and give that unit back: p_remove got a freed unit (or
 * the new pool's unit, and unlinked it from the other pool's list). Units
 * now leave a user pool only through its pop. The freed units are kept,
 * marked, so that the check works without a sanitizer. */
#include "bb_test.h"

#include <pthread.h>
#include <stdatomic.h>

#define LIVE 0x11feu
#define FREED 0xdeadu

typedef struct node {
    struct node *next, *prev;
    struct node *made_before; /* every unit made, to free them at the end */
    unsigned mark;
    int queued;
} node;

typedef struct {
    pthread_mutex_t lock;
    node *head, *tail;
    size_t size;
} queue;

static atomic_int stale_removes, made, freed;
static _Atomic(node *) last_made;

static queue *queue_of(ABT_pool pool)
{
    void *data;
    CHECK_OK(ABT_pool_get_data(pool, &data));
    return data;
}

static int q_init(ABT_pool pool, ABT_pool_config config)
{
    (void)config;
    queue *q = calloc(1, sizeof(*q));
    pthread_mutex_init(&q->lock, NULL);
    return ABT_pool_set_data(pool, q);
}

static int q_free(ABT_pool pool)
{
    queue *q = queue_of(pool);
    pthread_mutex_destroy(&q->lock);
    free(q);
    return ABT_SUCCESS;
}

static ABT_unit unit_create(ABT_thread thread)
{
    (void)thread;
    node *n = calloc(1, sizeof(*n));
    n->mark = LIVE;
    n->made_before = atomic_load(&last_made);
    while (!atomic_compare_exchange_weak(&last_made, &n->made_before, n))
        ;
    atomic_fetch_add(&made, 1);
    return (ABT_unit)n;
}

/* Marked, and kept until the end: a later use shows. */
static void unit_free(ABT_unit *unit)
{
    node *n = (node *)*unit;
    CHECK_EQ(n->mark, LIVE);
    n->mark = FREED;
    atomic_fetch_add(&freed, 1);
}

static ABT_bool unit_is_in_pool(ABT_unit unit)
{
    return ((node *)unit)->queued ? ABT_TRUE : ABT_FALSE;
}

static size_t q_size(ABT_pool pool)
{
    queue *q = queue_of(pool);
    pthread_mutex_lock(&q->lock);
    size_t n = q->size;
    pthread_mutex_unlock(&q->lock);
    return n;
}

static void unlink_node(queue *q, node *n)
{
    *(n->prev ? &n->prev->next : &q->head) = n->next;
    *(n->next ? &n->next->prev : &q->tail) = n->prev;
    n->queued = 0;
    q->size--;
}

static void q_push(ABT_pool pool, ABT_unit unit)
{
    queue *q = queue_of(pool);
    node *n = (node *)unit;
    pthread_mutex_lock(&q->lock);
    n->queued = 1;
    n->next = NULL;
    n->prev = q->tail;
    *(q->tail ? &q->tail->next : &q->head) = n;
    q->tail = n;
    q->size++;
    pthread_mutex_unlock(&q->lock);
}

static ABT_unit q_pop(ABT_pool pool)
{
    queue *q = queue_of(pool);
    pthread_mutex_lock(&q->lock);
    node *n = q->head;
    if (n)
        unlink_node(q, n);
    pthread_mutex_unlock(&q->lock);
    return n ? (ABT_unit)n : ABT_UNIT_NULL;
}

static int q_remove(ABT_pool pool, ABT_unit unit)
{
    node *n = (node *)unit;
    if (n->mark != LIVE) {
        atomic_fetch_add(&stale_removes, 1);
        return ABT_ERR_POOL;
    }
    queue *q = queue_of(pool);
    pthread_mutex_lock(&q->lock);
    int ret = ABT_ERR_POOL;
    if (n->queued) {
        unlink_node(q, n);
        ret = ABT_SUCCESS;
    }
    pthread_mutex_unlock(&q->lock);
    return ret;
}

static ABT_pool_def def = {
    .access = ABT_POOL_ACCESS_MPMC,
    .u_is_in_pool = unit_is_in_pool,
    .u_create_from_thread = unit_create,
    .u_free = unit_free,
    .p_init = q_init,
    .p_get_size = q_size,
    .p_push = q_push,
    .p_pop = q_pop,
    .p_remove = q_remove,
    .p_free = q_free,
};

#define NUM_ULTS 8
static ABT_pool pools[2];
static ABT_thread ults[NUM_ULTS];
static atomic_int stop;
static double end_time;

static void spin_and_yield(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        for (volatile int k = 0; k < 200; k++)
            ;
        CHECK_OK(ABT_thread_yield());
    }
}

static void *migrate_at_random(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u + 1;
    while (ABT_get_wtime() < end_time && !atomic_load(&stale_removes)) {
        for (int i = 0; i < 100; i++) {
            seed = seed * 1103515245u + 12345u;
            int ret = ABT_thread_migrate_to_pool(ults[(seed >> 8) % NUM_ULTS],
                                                 pools[(seed >> 20) & 1]);
            CHECK(ret == ABT_SUCCESS || ret == ABT_ERR_MIGRATION_TARGET);
        }
    }
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_pool_create((ABT_pool_user_def)&def, ABT_POOL_CONFIG_NULL, &pools[i]));
    ABT_xstream es[2];
    ABT_pool order[2][2] = {{pools[0], pools[1]}, {pools[1], pools[0]}};
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, order[i], ABT_SCHED_CONFIG_NULL,
                                          &es[i]));
    for (int i = 0; i < NUM_ULTS; i++)
        CHECK_OK(ABT_thread_create(pools[i & 1], spin_and_yield, NULL, ABT_THREAD_ATTR_NULL,
                                   &ults[i]));

    end_time = ABT_get_wtime() + BB_TEST_SIZE(1.5, 3.0);
    pthread_t migrators[2];
    for (uintptr_t i = 0; i < 2; i++)
        CHECK_EQ(pthread_create(&migrators[i], NULL, migrate_at_random, (void *)i), 0);
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_join(migrators[i], NULL), 0);
    atomic_store(&stop, 1);
    for (int i = 0; i < NUM_ULTS; i++)
        CHECK_OK(ABT_thread_free(&ults[i]));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));

    CHECK_EQ(atomic_load(&stale_removes), 0);
    CHECK_EQ(atomic_load(&made), atomic_load(&freed));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_pool_free(&pools[i]));
    CHECK_OK(ABT_finalize());
    for (node *n = atomic_load(&last_made), *before; n; n = before) {
        before = n->made_before;
        free(n);
    }
    BB_TEST_END();
}
