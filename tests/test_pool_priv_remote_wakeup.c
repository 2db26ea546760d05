/* A ULT of a private pool (ABT_POOL_ACCESS_PRIV) that blocks is woken by
 * another ES: it is pushed back into its pool by the ES that pops that pool,
 * never by the waker (switch.c, "wake-ups into a private pool from
 * elsewhere"). The private pool is a legacy user pool whose p_push notes
 * which ES calls it; the primary ES pops it. Its ULTs block in
 * ABT_thread_join on a ULT of ES1, in ABT_eventual_wait on an eventual a
 * ULT of ES1 sets, and in ABT_mutex_lock on a mutex a ULT of ES1 holds and
 * unlocks; each waker waits until its waiter is BLOCKED before it wakes it.
 * Every push must come from the primary ES, every waiter must end, and the
 * pool must see each of them pushed back once per wait. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bb_test.h"

#define WAITERS 24 /* a third of each kind */

/* ---- a minimal legacy pool: a locked list, which notes its pushers ---- */

typedef struct node {
    ABT_thread thread;
    struct node *next;
    bool in_pool;
} node;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static node *head, *tail;
static size_t size;
static atomic_int pushes, foreign_pushes;

static ABT_bool u_is_in_pool(ABT_unit unit)
{
    return ((node *)unit)->in_pool ? ABT_TRUE : ABT_FALSE;
}

static ABT_unit u_create_from_thread(ABT_thread thread)
{
    node *n = calloc(1, sizeof(*n));
    if (!n)
        return ABT_UNIT_NULL;
    n->thread = thread;
    return (ABT_unit)n;
}

static void u_free(ABT_unit *unit)
{
    free(*unit);
    *unit = ABT_UNIT_NULL;
}

static size_t p_get_size(ABT_pool pool)
{
    (void)pool;
    pthread_mutex_lock(&lock);
    size_t n = size;
    pthread_mutex_unlock(&lock);
    return n;
}

static void p_push(ABT_pool pool, ABT_unit unit)
{
    (void)pool;
    int rank = -1;
    if (ABT_self_get_xstream_rank(&rank) != ABT_SUCCESS || rank != 0)
        atomic_fetch_add(&foreign_pushes, 1);
    atomic_fetch_add(&pushes, 1);
    node *n = (node *)unit;
    pthread_mutex_lock(&lock);
    n->next = NULL;
    n->in_pool = true;
    if (tail)
        tail->next = n;
    else
        head = n;
    tail = n;
    size++;
    pthread_mutex_unlock(&lock);
}

static ABT_unit p_pop(ABT_pool pool)
{
    (void)pool;
    pthread_mutex_lock(&lock);
    node *n = head;
    if (n) {
        head = n->next;
        if (!head)
            tail = NULL;
        n->in_pool = false;
        size--;
    }
    pthread_mutex_unlock(&lock);
    return n ? (ABT_unit)n : ABT_UNIT_NULL;
}

static ABT_pool_def priv_def = {
    .access = ABT_POOL_ACCESS_PRIV,
    .u_is_in_pool = u_is_in_pool,
    .u_create_from_thread = u_create_from_thread,
    .u_free = u_free,
    .p_get_size = p_get_size,
    .p_push = p_push,
    .p_pop = p_pop,
};

/* ---- waiters on the primary ES, wakers on ES1 ---- */

enum kind { JOIN, EVENTUAL, MUTEX };

typedef struct {
    enum kind kind;
    ABT_thread self;  /* the waiter */
    ABT_thread other; /* JOIN: the ULT it joins, on ES1 */
    ABT_eventual ev;
    ABT_mutex mutex;
    atomic_int ready; /* the waiter is about to wait */
    atomic_int held;  /* MUTEX: the waker holds the mutex */
    atomic_int done;
} pair;

static pair pairs[WAITERS];
static ABT_pool pool1;

static void wait_blocked(pair *p)
{
    while (!atomic_load(&p->ready))
        ABT_thread_yield();
    ABT_thread_state state = ABT_THREAD_STATE_READY;
    while (ABT_thread_get_state(p->self, &state) == ABT_SUCCESS &&
           state != ABT_THREAD_STATE_BLOCKED)
        ABT_thread_yield();
}

static void waker(void *arg)
{
    pair *p = arg;
    if (p->kind == MUTEX) {
        CHECK_OK(ABT_mutex_lock(p->mutex));
        atomic_store(&p->held, 1);
    }
    wait_blocked(p);
    if (p->kind == EVENTUAL)
        CHECK_OK(ABT_eventual_set(p->ev, NULL, 0));
    else if (p->kind == MUTEX)
        CHECK_OK(ABT_mutex_unlock(p->mutex));
    /* JOIN: ending is the wake-up */
}

static void waiter(void *arg)
{
    pair *p = arg;
    if (p->kind == JOIN) {
        atomic_store(&p->ready, 1);
        CHECK_OK(ABT_thread_join(p->other));
    } else if (p->kind == EVENTUAL) {
        atomic_store(&p->ready, 1);
        CHECK_OK(ABT_eventual_wait(p->ev, NULL));
    } else {
        while (!atomic_load(&p->held))
            ABT_thread_yield();
        atomic_store(&p->ready, 1);
        CHECK_OK(ABT_mutex_lock(p->mutex));
        CHECK_OK(ABT_mutex_unlock(p->mutex));
    }
    atomic_store(&p->done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool priv;
    CHECK_OK(ABT_pool_create((ABT_pool_user_def)&priv_def, ABT_POOL_CONFIG_NULL, &priv));
    ABT_xstream es0, es1;
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_set_main_sched_basic(es0, ABT_SCHED_BASIC, 1, &priv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));

    int pushes_before = atomic_load(&pushes);
    ABT_thread wakers[WAITERS];
    for (int i = 0; i < WAITERS; i++) {
        pair *p = &pairs[i];
        p->kind = (enum kind)(i % 3);
        CHECK_OK(ABT_eventual_create(0, &p->ev));
        CHECK_OK(ABT_mutex_create(&p->mutex));
        CHECK_OK(ABT_thread_create(priv, waiter, p, ABT_THREAD_ATTR_NULL, &p->self));
        CHECK_OK(ABT_thread_create(pool1, waker, p, ABT_THREAD_ATTR_NULL, &wakers[i]));
        p->other = wakers[i];
    }
    for (int i = 0; i < WAITERS; i++)
        CHECK_OK(ABT_thread_free(&pairs[i].self));
    for (int i = 0; i < WAITERS; i++) {
        CHECK_OK(ABT_thread_free(&wakers[i]));
        CHECK(atomic_load(&pairs[i].done));
        CHECK_OK(ABT_eventual_free(&pairs[i].ev));
        CHECK_OK(ABT_mutex_free(&pairs[i].mutex));
    }
    CHECK_EQ(atomic_load(&foreign_pushes), 0);
    /* at least: each waiter created, and pushed back after its wait */
    CHECK(atomic_load(&pushes) - pushes_before >= 2 * WAITERS);

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
