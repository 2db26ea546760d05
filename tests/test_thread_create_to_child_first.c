/* Child-first creation: ABT_thread_create_to pushes the caller (the
 * creator) into its pool, and the child, when it ends, takes the creator
 * back out of it if nobody else took it meanwhile. Checked here, under
 * whatever ABT_THREAD_TECHNIQUE says (scripts/test.sh runs all of them):
 *  - a recursion of create_to runs in the order of plain function calls;
 *  - a child that yields lets the pool's order decide, and then ends
 *    through the scheduler;
 *  - a creator stolen by another ES from a shared pool resumes there,
 *    while its child is still running, and the child ends without it;
 *  - a creator cancelled by its child is not taken back: it ends, as a
 *    cancelled unit does, without running on;
 *  - in a RANDWS pool, a deque whose creations (the creator's push
 *    included) go to its head, the take-back looks there, private or
 *    shared;
 *  - a user pool has no way to give a unit back: the creator is pushed
 *    with ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO (revive_to: REVIVE_TO) and
 *    runs in the pool's order. */
#include <pthread.h>

#include "bb_test.h"

/* ---- depth-first order -------------------------------------------------- */

#define DEPTH 6
static ABT_pool pool0;
static int trace[1 << (DEPTH + 2)];
static int trace_len;

static void visit(void *arg)
{
    int depth = (int)(intptr_t)arg;
    trace[trace_len++] = depth;
    if (depth < DEPTH) {
        ABT_thread_create_to(pool0, visit, (void *)(intptr_t)(depth + 1), ABT_THREAD_ATTR_NULL,
                             NULL);
        trace[trace_len++] = -depth; /* back in the creator, after its child */
        ABT_thread_create_to(pool0, visit, (void *)(intptr_t)(depth + 1), ABT_THREAD_ATTR_NULL,
                             NULL);
    }
}

static int sequential[1 << (DEPTH + 2)];
static int sequential_len;

static void visit_sequentially(int depth)
{
    sequential[sequential_len++] = depth;
    if (depth < DEPTH) {
        visit_sequentially(depth + 1);
        sequential[sequential_len++] = -depth;
        visit_sequentially(depth + 1);
    }
}

/* ---- a child that yields ------------------------------------------------ */

static int seq, child_start, child_end, other_at, creator_at;
static ABT_thread other_thread;

static void other(void *arg)
{
    (void)arg;
    other_at = ++seq;
}

static void yielding_child(void *arg)
{
    (void)arg;
    child_start = ++seq;
    ABT_thread_yield();
    child_end = ++seq;
}

static void plain_child(void *arg)
{
    (void)arg;
    child_start = ++seq;
}

static void creator_of(void *arg)
{
    ABT_thread_create(pool0, other, NULL, ABT_THREAD_ATTR_NULL, &other_thread);
    ABT_thread_create_to(pool0, (void (*)(void *))arg, NULL, ABT_THREAD_ATTR_NULL, NULL);
    creator_at = ++seq;
}

/* ---- a cancelled creator ------------------------------------------------ */

static ABT_thread cancelled_creator;
static int went_on;

static void cancelling_child(void *arg)
{
    (void)arg;
    child_start = ++seq;
    ABT_thread_cancel(cancelled_creator);
}

static void creator_to_cancel(void *arg)
{
    (void)arg;
    ABT_thread_create_to(pool0, cancelling_child, NULL, ABT_THREAD_ATTR_NULL, NULL);
    went_on = 1;
}

/* ---- a stolen creator --------------------------------------------------- */

static ABT_pool shared;
static volatile int creator_resumed;
static int creator_rank_before, creator_rank_after, child_rank;
static ABT_thread stolen_child;

static void child_waiting_for_theft(void *arg)
{
    (void)arg;
    ABT_self_get_xstream_rank(&child_rank);
    while (!__atomic_load_n(&creator_resumed, __ATOMIC_ACQUIRE))
        ; /* no yield: the child does not deviate, its creator is stolen */
}

static void stolen_creator(void *arg)
{
    (void)arg;
    ABT_self_get_xstream_rank(&creator_rank_before);
    ABT_thread_create_to(shared, child_waiting_for_theft, NULL, ABT_THREAD_ATTR_NULL,
                         &stolen_child);
    ABT_self_get_xstream_rank(&creator_rank_after);
    __atomic_store_n(&creator_resumed, 1, __ATOMIC_RELEASE);
}

/* ---- a user pool: a FIFO of ABT_thread handles under a lock ------------- */

#define USER_CAP 64
static ABT_thread user_queue[USER_CAP];
static int user_head, user_tail;
static pthread_mutex_t user_lock = PTHREAD_MUTEX_INITIALIZER;
static ABT_pool_context creator_push_ctx;
static ABT_thread watched;

static ABT_unit user_create_unit(ABT_pool pool, ABT_thread thread)
{
    (void)pool;
    return (ABT_unit)thread;
}

static void user_free_unit(ABT_pool pool, ABT_unit unit)
{
    (void)pool;
    (void)unit;
}

static ABT_bool user_is_empty(ABT_pool pool)
{
    (void)pool;
    pthread_mutex_lock(&user_lock);
    ABT_bool empty = user_head == user_tail ? ABT_TRUE : ABT_FALSE;
    pthread_mutex_unlock(&user_lock);
    return empty;
}

static ABT_thread user_pop(ABT_pool pool, ABT_pool_context ctx)
{
    (void)pool;
    (void)ctx;
    ABT_thread t = ABT_THREAD_NULL;
    pthread_mutex_lock(&user_lock);
    if (user_head != user_tail)
        t = user_queue[user_head++ % USER_CAP];
    pthread_mutex_unlock(&user_lock);
    return t;
}

static void user_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    (void)pool;
    pthread_mutex_lock(&user_lock);
    if ((ABT_thread)unit == watched)
        creator_push_ctx = ctx;
    user_queue[user_tail++ % USER_CAP] = (ABT_thread)unit;
    pthread_mutex_unlock(&user_lock);
}

static ABT_pool user_pool;
static ABT_thread revived;

static void user_creator(void *arg)
{
    (void)arg;
    ABT_self_get_thread(&watched);
    ABT_thread_create(user_pool, other, NULL, ABT_THREAD_ATTR_NULL, NULL);
    ABT_thread_create_to(user_pool, plain_child, NULL, ABT_THREAD_ATTR_NULL, NULL);
    creator_at = ++seq;
}

static void user_reviver(void *arg)
{
    (void)arg;
    ABT_self_get_thread(&watched);
    ABT_thread_revive_to(user_pool, plain_child, NULL, &revived);
    creator_at = ++seq;
}

static void run_on(ABT_pool pool, void (*fn)(void *), void *arg)
{
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, fn, arg, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
}

/* creator_of(child) on a new ES whose one pool is a RANDWS of `access`,
 * made before the ES so that the main ULT may push to it even if private. */
static void run_on_randws(ABT_pool_access access, void (*child)(void *))
{
    ABT_pool deque;
    ABT_thread t;
    ABT_xstream es;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_RANDWS, access, ABT_TRUE, &deque));
    pool0 = deque;
    seq = child_start = child_end = other_at = creator_at = 0;
    CHECK_OK(ABT_thread_create(deque, creator_of, (void *)child, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &deque, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_thread_free(&other_thread));
    CHECK_OK(ABT_xstream_free(&es));
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(argc, argv));
    ABT_xstream es0;
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_get_main_pools(es0, 1, &pool0));

    /* Without deviation, create_to is a function call. */
    run_on(pool0, visit, (void *)(intptr_t)0);
    visit_sequentially(0);
    CHECK_EQ(trace_len, sequential_len);
    for (int i = 0; i < sequential_len; i++)
        CHECK_EQ(trace[i], sequential[i]);

    /* A child that does not yield: its creator runs before `other`. */
    seq = 0;
    run_on(pool0, creator_of, (void *)plain_child);
    CHECK_OK(ABT_thread_free(&other_thread));
    CHECK_EQ(child_start, 1);
    CHECK_EQ(creator_at, 2);
    CHECK_EQ(other_at, 3);

    /* A child that yields: the pool's order, then the child ends alone. */
    seq = 0;
    run_on(pool0, creator_of, (void *)yielding_child);
    CHECK_OK(ABT_thread_free(&other_thread));
    CHECK_EQ(child_start, 1);
    CHECK_EQ(other_at, 2);
    CHECK_EQ(creator_at, 3);
    CHECK_EQ(child_end, 4);

    /* A creator cancelled while its child runs does not run on. */
    seq = 0;
    child_start = 0;
    CHECK_OK(ABT_thread_create(pool0, creator_to_cancel, NULL, ABT_THREAD_ATTR_NULL,
                               &cancelled_creator));
    CHECK_OK(ABT_thread_join(cancelled_creator));
    CHECK_EQ(child_start, 1);
    CHECK_EQ(went_on, 0);
    CHECK_OK(ABT_thread_free(&cancelled_creator));

    /* A creator stolen from a shared pool by the other ES. */
    ABT_xstream es1, es2;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &shared));
    ABT_sched s1, s2;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL, &s1));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL, &s2));
    CHECK_OK(ABT_xstream_create(s1, &es1));
    CHECK_OK(ABT_xstream_create(s2, &es2));
    ABT_thread creator;
    CHECK_OK(ABT_thread_create(shared, stolen_creator, NULL, ABT_THREAD_ATTR_NULL, &creator));
    CHECK_OK(ABT_thread_free(&creator));
    CHECK_OK(ABT_thread_free(&stolen_child));
    CHECK(creator_rank_before == 1 || creator_rank_before == 2);
    CHECK_EQ(child_rank, creator_rank_before);
    CHECK(creator_rank_after != child_rank); /* the other ES took it */
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_join(es2));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_pool_free(&shared));

    /* A RANDWS pool: the creator, taken back from the head, runs before
     * `other`; after a yield, the head (the creator) comes first too. */
    ABT_pool main_pool = pool0;
    ABT_pool_access deque_access[] = {ABT_POOL_ACCESS_PRIV, ABT_POOL_ACCESS_MPMC};
    for (int i = 0; i < 2; i++) {
        run_on_randws(deque_access[i], plain_child);
        CHECK_EQ(child_start, 1);
        CHECK_EQ(creator_at, 2);
        CHECK_EQ(other_at, 3);
        run_on_randws(deque_access[i], yielding_child);
        CHECK_EQ(child_start, 1);
        CHECK_EQ(creator_at, 2);
        CHECK_EQ(other_at, 3);
        CHECK_EQ(child_end, 4);
    }
    pool0 = main_pool;

    /* A user pool: pushed with the right context, then its own order. */
    ABT_pool_user_def def;
    CHECK_OK(ABT_pool_user_def_create(user_create_unit, user_free_unit, user_is_empty, user_pop,
                                      user_push, &def));
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &user_pool));
    ABT_sched us;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &user_pool, ABT_SCHED_CONFIG_NULL, &us));
    ABT_xstream es3;
    CHECK_OK(ABT_xstream_create(us, &es3));
    seq = 0;
    run_on(user_pool, user_creator, NULL);
    CHECK_EQ(creator_push_ctx, ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO);
    CHECK_EQ(child_start, 1);
    CHECK_EQ(other_at, 2);
    CHECK_EQ(creator_at, 3);

    CHECK_OK(ABT_thread_create(user_pool, plain_child, NULL, ABT_THREAD_ATTR_NULL, &revived));
    CHECK_OK(ABT_thread_join(revived));
    seq = 0;
    run_on(user_pool, user_reviver, NULL);
    CHECK_EQ(creator_push_ctx, ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO);
    CHECK_EQ(child_start, 1);
    CHECK_EQ(creator_at, 2);
    CHECK_OK(ABT_thread_free(&revived));

    CHECK_OK(ABT_xstream_join(es3));
    CHECK_OK(ABT_xstream_free(&es3));
    CHECK_OK(ABT_pool_free(&user_pool));
    CHECK_OK(ABT_pool_user_def_free(&def));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
