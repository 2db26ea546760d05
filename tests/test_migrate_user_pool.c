/* Migration into, between and out of new-style user pools, and the units the
 * pools see:
 *  - a READY ULT in a built-in pool migrated into user pool U: U.create_unit
 *    is called for it, the callback reports U;
 *  - that ULT, running from U, migrates itself into user pool V: V's unit is
 *    created first, then U's freed (semantics3.md §10.1); it continues from V;
 *  - it then migrates itself to ES 1's built-in pool: V's unit is freed; it
 *    continues on ES 1;
 *  - a READY ULT waiting in user pool U (which has no p_remove, so it cannot
 *    be taken out at once) is migrated to ES 1's pool before anything serves
 *    U; once an ES serves U, the ULT is moved instead of being run
 *    (semantics3.md §9 case 1): its very first instruction runs on ES 1, and
 *    U's unit is freed;
 *  - in the end every unit created was freed exactly once. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct node {
    ABT_thread thread;
    struct node *next;
};

struct queue {
    pthread_mutex_t lock;
    struct node *head, *tail;
    char name;
};

static ABT_thread ta, tb;
static char log_a[16], log_b[16];
static int nlog_a, nlog_b;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int created, freed;

static struct queue *queue_of(ABT_pool pool)
{
    void *data = NULL;
    ABT_pool_get_data(pool, &data);
    return data;
}

static void log_event(ABT_thread t, char what, char pool)
{
    pthread_mutex_lock(&log_lock);
    if (t == ta && nlog_a < 14) {
        log_a[nlog_a++] = what;
        log_a[nlog_a++] = pool;
    } else if (t == tb && nlog_b < 14) {
        log_b[nlog_b++] = what;
        log_b[nlog_b++] = pool;
    }
    pthread_mutex_unlock(&log_lock);
}

static ABT_unit q_create_unit(ABT_pool pool, ABT_thread thread)
{
    struct node *n = calloc(1, sizeof(*n));
    if (!n)
        return ABT_UNIT_NULL;
    n->thread = thread;
    atomic_fetch_add(&created, 1);
    log_event(thread, 'c', queue_of(pool)->name);
    return (ABT_unit)n;
}

static void q_free_unit(ABT_pool pool, ABT_unit unit)
{
    struct node *n = (struct node *)unit;
    log_event(n->thread, 'f', queue_of(pool)->name);
    atomic_fetch_add(&freed, 1);
    free(n);
}

static ABT_bool q_is_empty(ABT_pool pool)
{
    struct queue *q = queue_of(pool);
    pthread_mutex_lock(&q->lock);
    ABT_bool empty = q->head ? ABT_FALSE : ABT_TRUE;
    pthread_mutex_unlock(&q->lock);
    return empty;
}

static void q_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    (void)ctx;
    struct queue *q = queue_of(pool);
    struct node *n = (struct node *)unit;
    pthread_mutex_lock(&q->lock);
    n->next = NULL;
    if (q->tail)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
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
    }
    pthread_mutex_unlock(&q->lock);
    return n ? n->thread : ABT_THREAD_NULL;
}

static ABT_pool make_pool(ABT_pool_user_def def, char name)
{
    struct queue *q = calloc(1, sizeof(*q));
    pthread_mutex_init(&q->lock, NULL);
    q->name = name;
    ABT_pool pool = ABT_POOL_NULL;
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_OK(ABT_pool_set_data(pool, q));
    return pool;
}

static void free_pool(ABT_pool *pool)
{
    struct queue *q = queue_of(*pool);
    CHECK_OK(ABT_pool_free(pool));
    pthread_mutex_destroy(&q->lock);
    free(q);
}

/* ---- the ULTs --------------------------------------------------------------- */

static ABT_pool upool, vpool, pool1;

struct record {
    atomic_int calls;
    ABT_pool pools[4];
};

static void cb(ABT_thread thread, void *arg)
{
    struct record *r = arg;
    int i = atomic_load(&r->calls);
    if (i < 4)
        ABT_thread_get_last_pool(thread, &r->pools[i]);
    atomic_fetch_add(&r->calls, 1);
}

static int rank_now(void)
{
    int rank = -1;
    ABT_self_get_xstream_rank(&rank);
    return rank;
}

static int a_rank[3] = {-1, -1, -1}, a_ret[2] = {-1, -1};
static ABT_pool a_pool[3];

static void body_a(void *arg)
{
    (void)arg;
    ABT_thread me;
    ABT_self_get_thread(&me);
    a_rank[0] = rank_now();
    ABT_self_get_last_pool(&a_pool[0]);
    a_ret[0] = ABT_thread_migrate_to_pool(me, vpool);
    a_rank[1] = rank_now();
    ABT_self_get_last_pool(&a_pool[1]);
    a_ret[1] = ABT_thread_migrate_to_pool(me, pool1);
    a_rank[2] = rank_now();
    ABT_self_get_last_pool(&a_pool[2]);
}

static int b_first_rank = -1, b_rank_after = -1;
static ABT_pool b_first_pool;

static void body_b(void *arg)
{
    (void)arg;
    b_first_rank = rank_now();
    ABT_self_get_last_pool(&b_first_pool);
    ABT_thread_yield();
    b_rank_after = rank_now();
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool_user_def def;
    CHECK_OK(ABT_pool_user_def_create(q_create_unit, q_free_unit, q_is_empty, q_pop, q_push,
                                      &def));
    upool = make_pool(def, 'U');
    vpool = make_pool(def, 'V');
    CHECK_OK(ABT_pool_user_def_free(&def));

    ABT_xstream es1, es2;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    ABT_pool idle;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));

    static struct record rec_a, rec_b;
    /* b: created in U directly, migrated while READY there. */
    CHECK_OK(ABT_thread_create(upool, body_b, NULL, ABT_THREAD_ATTR_NULL, &tb));
    log_event(tb, 'c', 'U'); /* created before `tb` was known */
    CHECK_OK(ABT_thread_set_callback(tb, cb, &rec_b));
    CHECK_EQ(atomic_load(&created), 1);
    CHECK_OK(ABT_thread_migrate_to_pool(tb, pool1));

    /* a: built-in -> U while READY. */
    CHECK_OK(ABT_thread_create(idle, body_a, NULL, ABT_THREAD_ATTR_NULL, &ta));
    CHECK_OK(ABT_thread_set_callback(ta, cb, &rec_a));
    CHECK_OK(ABT_thread_migrate_to_pool(ta, upool));
    CHECK_EQ(atomic_load(&rec_a.calls), 1);
    CHECK(rec_a.pools[0] == upool);
    ABT_unit unit;
    ABT_thread back = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_get_unit(ta, &unit));
    CHECK_OK(ABT_unit_get_thread(unit, &back));
    CHECK(back == ta);

    /* Now ES 2 serves U and V. */
    ABT_pool served[2] = {upool, vpool};
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, served, ABT_SCHED_CONFIG_NULL, &es2));
    ABT_thread ha = ta, hb = tb;
    CHECK_OK(ABT_thread_free(&ta));
    CHECK_OK(ABT_thread_free(&tb));
    ta = ha;
    tb = hb;

    CHECK_EQ(a_rank[0], 2);
    CHECK(a_pool[0] == upool);
    CHECK_EQ(a_ret[0], ABT_SUCCESS);
    CHECK_EQ(a_rank[1], 2);
    CHECK(a_pool[1] == vpool);
    CHECK_EQ(a_ret[1], ABT_SUCCESS);
    CHECK_EQ(a_rank[2], 1);
    CHECK(a_pool[2] == pool1);
    CHECK_EQ(atomic_load(&rec_a.calls), 3);
    CHECK(rec_a.pools[1] == vpool);
    CHECK(rec_a.pools[2] == pool1);
    log_a[nlog_a] = 0;
    if (strcmp(log_a, "cUcVfUfV") != 0)
        BB_FAIL_AT("unit events of a: \"%s\", expected \"cUcVfUfV\"", log_a);

    if (b_first_rank != 1)
        BB_FAIL_AT("b, migrated while READY in U, first ran on ES %d, expected ES 1", b_first_rank);
    CHECK(b_first_pool == pool1);
    CHECK_EQ(b_rank_after, 1);
    CHECK_EQ(atomic_load(&rec_b.calls), 1);
    CHECK(rec_b.pools[0] == pool1);
    log_b[nlog_b] = 0;
    if (strcmp(log_b, "cUfU") != 0)
        BB_FAIL_AT("unit events of b: \"%s\", expected \"cUfU\"", log_b);

    CHECK_EQ(atomic_load(&created), 3);
    CHECK_EQ(atomic_load(&freed), 3);

    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_xstream_free(&es1));
    free_pool(&upool);
    free_pool(&vpool);
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
