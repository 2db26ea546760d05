/* A ULT left waiting in a synchronization object when its ES is cancelled
 * has its queue entry on its own stack, which the last ABT_finalize frees.
 * The finalize takes such entries out of their objects and gives back what
 * the wait took, so that each object works in the next init cycle as if the
 * ULT had never waited. Each case parks a ULT in one object, cancels its
 * ES, finalizes, and uses the object again after a new ABT_init. Before,
 * the next unlock, signal or set reached the freed entry (a crash), a timed
 * waiter's object could never be freed, a barrier's round counted the dead
 * ULT, and a rwlock granted to it stayed held for ever. A waiter woken but
 * never run is left alone, as its object may be gone, but for what it still
 * holds: a timed waiter's count, which may be the last thing keeping a
 * freed object, and a lock granted to it. */
#include <stdatomic.h>
#include <time.h>

#include "bb_test.h"

static ABT_mutex_memory mutex_mem = ABT_MUTEX_INITIALIZER;
static ABT_cond_memory cond_mem = ABT_COND_INITIALIZER;
static ABT_eventual_memory eventual_mem = ABT_EVENTUAL_INITIALIZER;
#define MUTEX ABT_MUTEX_MEMORY_GET_HANDLE(&mutex_mem)
#define COND ABT_COND_MEMORY_GET_HANDLE(&cond_mem)
#define EVENTUAL ABT_EVENTUAL_MEMORY_GET_HANDLE(&eventual_mem)

/* Objects created in one cycle and used in the next. */
static ABT_mutex other_mutex;
static ABT_cond timed_cond;
static ABT_cond freed_cond;
static ABT_rwlock rwlock;
static ABT_barrier barrier;
static ABT_future future;
static ABT_eventual timed_eventual;
static ABT_eventual freed_eventual;

static ABT_xstream es;
static atomic_int yielded;

/* ---- what the parked ULTs do ---------------------------------------------- */

static void lock_mutex(void *arg)
{
    (void)arg;
    ABT_mutex_lock(MUTEX);
    ABT_mutex_unlock(MUTEX);
}

static void lock_other_mutex(void *arg)
{
    (void)arg;
    ABT_mutex_lock(other_mutex);
    ABT_mutex_unlock(other_mutex);
}

static void wait_cond(void *arg)
{
    (void)arg;
    ABT_mutex_lock(MUTEX);
    ABT_cond_wait(COND, MUTEX);
    ABT_mutex_unlock(MUTEX);
}

static void wait_freed_cond(void *arg)
{
    (void)arg;
    ABT_mutex_lock(MUTEX);
    ABT_cond_wait(freed_cond, MUTEX);
    ABT_mutex_unlock(MUTEX);
}

static void wait_timed_cond(void *arg)
{
    (void)arg;
    struct timespec t = bb_test_realtime_in_ms(3600 * 1000L);
    ABT_mutex_lock(MUTEX);
    ABT_cond_timedwait(timed_cond, MUTEX, &t);
    ABT_mutex_unlock(MUTEX);
}

static void write_lock(void *arg)
{
    (void)arg;
    ABT_rwlock_wrlock(rwlock);
    ABT_rwlock_unlock(rwlock);
}

static void read_lock(void *arg)
{
    (void)arg;
    ABT_rwlock_rdlock(rwlock);
    ABT_rwlock_unlock(rwlock);
}

static void wait_barrier(void *arg)
{
    (void)arg;
    ABT_barrier_wait(barrier);
}

static void wait_future(void *arg)
{
    (void)arg;
    ABT_future_wait(future);
}

static void wait_eventual(void *arg)
{
    (void)arg;
    ABT_eventual_wait(EVENTUAL, NULL);
}

static void wait_freed_eventual(void *arg)
{
    (void)arg;
    ABT_eventual_wait(freed_eventual, NULL);
}

static void wait_timed_eventual(void *arg)
{
    (void)arg;
    struct timespec t = bb_test_realtime_in_ms(3600 * 1000L);
    ABT_eventual_timedwait(timed_eventual, NULL, &t);
}

/* ---- parking one ---------------------------------------------------------- */

static void on_yield(ABT_thread thread, ABT_xstream xstream, uint64_t event,
                     ABT_tool_context context, void *arg)
{
    (void)thread, (void)xstream, (void)event, (void)context, (void)arg;
    atomic_store(&yielded, 1);
}

/* Run `fn` as a ULT on a new ES until it waits, then cancel the ES. With a
 * private pool a timed waiter polls (it yields) instead of blocking. */
static void park(void (*fn)(void *), int private_pool)
{
    ABT_pool pool;
    ABT_thread t;
    if (private_pool) { /* only its ES may push there once it runs */
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pool));
        CHECK_OK(ABT_thread_create(pool, fn, NULL, ABT_THREAD_ATTR_NULL, &t));
        atomic_store(&yielded, 0);
        CHECK_OK(ABT_tool_register_thread_callback(on_yield, ABT_TOOL_EVENT_THREAD_YIELD, NULL));
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    } else {
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
        CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
        CHECK_OK(ABT_thread_create(pool, fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    }
    ABT_thread_state state = ABT_THREAD_STATE_READY;
    while (private_pool ? !atomic_load(&yielded) : state != ABT_THREAD_STATE_BLOCKED) {
        usleep(200);
        if (ABT_thread_get_state(t, &state) != ABT_SUCCESS) {
            BB_FAIL_AT("%s", "the ULT to park is gone");
            return;
        }
    }
    if (private_pool)
        CHECK_OK(ABT_tool_register_thread_callback(NULL, 0, NULL));
    CHECK_OK(ABT_xstream_cancel(es));
    CHECK_OK(ABT_xstream_join(es));
}

/* ---- the cases ------------------------------------------------------------ */

static void mutex_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_lock(MUTEX));
    park(lock_mutex, 0);
    CHECK_OK(ABT_finalize());

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_unlock(MUTEX)); /* a plain mutex: anybody may unlock it */
    CHECK_OK(ABT_mutex_lock(MUTEX));
    CHECK_OK(ABT_mutex_unlock(MUTEX));
    CHECK_OK(ABT_finalize());
}

static void cond_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    park(wait_cond, 0);
    CHECK_OK(ABT_finalize());

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_cond_signal(COND));
    /* The dead waiter's mutex is forgotten: a wait with another one is fine. */
    CHECK_OK(ABT_mutex_create(&other_mutex));
    CHECK_OK(ABT_mutex_lock(other_mutex));
    struct timespec past = {0, 0};
    CHECK_EQ(ABT_cond_timedwait(COND, other_mutex, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK_OK(ABT_mutex_unlock(other_mutex));
    CHECK_OK(ABT_mutex_free(&other_mutex));
    CHECK_OK(ABT_finalize());
}

/* A signal while the mutex is held moves the waiter into the mutex's queue. */
static void cond_moved_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    park(wait_cond, 0);
    CHECK_OK(ABT_mutex_lock(MUTEX));
    CHECK_OK(ABT_cond_signal(COND));
    CHECK_OK(ABT_finalize());

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_unlock(MUTEX));
    CHECK_OK(ABT_mutex_lock(MUTEX));
    CHECK_OK(ABT_mutex_unlock(MUTEX));
    CHECK_OK(ABT_finalize());
}

/* Queued with an alarm armed, or woken and never run: either way its count
 * goes, or the cond could not be freed. */
static void timed_cond_case(int woken)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_cond_create(&timed_cond));
    park(wait_timed_cond, 0);
    if (woken)
        CHECK_OK(ABT_cond_signal(timed_cond));
    CHECK_OK(ABT_finalize());

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_cond_signal(timed_cond));
    CHECK_OK(ABT_cond_free(&timed_cond));
    CHECK_OK(ABT_finalize());
}

/* Queued as a writer behind a reader, or granted the lock and never run. */
static void rwlock_case(int granted)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_rwlock_create(&rwlock));
    CHECK_OK(ABT_rwlock_rdlock(rwlock));
    park(write_lock, 0);
    if (granted)
        CHECK_OK(ABT_rwlock_unlock(rwlock));
    CHECK_OK(ABT_finalize());

    CHECK_OK(ABT_init(0, NULL));
    if (!granted)
        CHECK_OK(ABT_rwlock_unlock(rwlock));
    CHECK_OK(ABT_rwlock_wrlock(rwlock)); /* waited for ever on a granted one */
    CHECK_OK(ABT_rwlock_unlock(rwlock));
    CHECK_OK(ABT_rwlock_free(&rwlock));
    CHECK_OK(ABT_finalize());
}

static atomic_int passed;

static void pass_barrier(void *arg)
{
    (void)arg;
    ABT_barrier_wait(barrier);
    atomic_store(&passed, 1);
}

static void barrier_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_barrier_create(2, &barrier));
    park(wait_barrier, 0);
    CHECK_OK(ABT_finalize());

    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    ABT_pool pool;
    CHECK_OK(ABT_self_get_xstream(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    atomic_store(&passed, 0);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, pass_barrier, NULL, ABT_THREAD_ATTR_NULL, &t));
    for (int i = 0; i < 100; i++)
        CHECK_OK(ABT_self_yield());
    CHECK_EQ(atomic_load(&passed), 0); /* a round takes two live waiters */
    CHECK_OK(ABT_barrier_wait(barrier));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&passed), 1);
    CHECK_OK(ABT_barrier_free(&barrier));
    CHECK_OK(ABT_finalize());
}

static void future_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_future_create(1, NULL, &future));
    park(wait_future, 0);
    CHECK_OK(ABT_finalize());

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_future_set(future, NULL));
    CHECK_OK(ABT_future_wait(future));
    CHECK_OK(ABT_future_free(&future));
    CHECK_OK(ABT_finalize());
}

static void eventual_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    park(wait_eventual, 0);
    CHECK_OK(ABT_finalize());

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_eventual_set(EVENTUAL, NULL, 0));
    CHECK_OK(ABT_eventual_wait(EVENTUAL, NULL));
    CHECK_OK(ABT_eventual_reset(EVENTUAL));
    CHECK_OK(ABT_finalize());
}

/* A waiter woken but never run holds nothing of its object, which may be
 * freed at once: the finalize must not touch it (AddressSanitizer saw a
 * use after free when it did). */
static void freed_after_wake_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_eventual_create(0, &freed_eventual));
    park(wait_freed_eventual, 0);
    CHECK_OK(ABT_eventual_set(freed_eventual, NULL, 0));
    CHECK_OK(ABT_eventual_free(&freed_eventual));
    CHECK_OK(ABT_finalize());
}

/* In a private pool a timed waiter polls, ready in the pool, queued all the
 * same. */
static void polling_eventual_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_eventual_create(0, &timed_eventual));
    park(wait_timed_eventual, 1);
    CHECK_OK(ABT_finalize());

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_eventual_free(&timed_eventual)); /* was refused: a waiter was queued */
    CHECK_OK(ABT_finalize());
}

/* ---- woken, never run ----------------------------------------------------- */

/* Each object is freed right after the wake, which its woken waiter does
 * not prevent: the finalize must then not touch it (AddressSanitizer). */
static void cond_woken_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_cond_create(&freed_cond));
    park(wait_freed_cond, 0);
    CHECK_OK(ABT_cond_signal(freed_cond)); /* the mutex is free: not moved */
    CHECK_OK(ABT_cond_free(&freed_cond));
    CHECK_OK(ABT_finalize());
}

static void future_woken_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_future_create(1, NULL, &future));
    park(wait_future, 0);
    CHECK_OK(ABT_future_set(future, NULL));
    CHECK_OK(ABT_future_free(&future));
    CHECK_OK(ABT_finalize());
}

static void barrier_released_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_barrier_create(2, &barrier));
    park(wait_barrier, 0);
    CHECK_OK(ABT_barrier_wait(barrier)); /* the second arrival releases both */
    CHECK_OK(ABT_barrier_free(&barrier));
    CHECK_OK(ABT_finalize());
}

static void mutex_woken_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&other_mutex));
    CHECK_OK(ABT_mutex_lock(other_mutex));
    park(lock_other_mutex, 0);
    CHECK_OK(ABT_mutex_unlock(other_mutex));
    CHECK_OK(ABT_mutex_free(&other_mutex));
    CHECK_OK(ABT_finalize());
}

/* A woken timed waiter still holds its count, which keeps its object's
 * memory: freed meanwhile, the cond or eventual goes with the finalize's
 * visit (LeakSanitizer reports it otherwise). */
static void timed_cond_freed_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_cond_create(&timed_cond));
    park(wait_timed_cond, 0);
    CHECK_OK(ABT_cond_signal(timed_cond));
    CHECK_OK(ABT_cond_free(&timed_cond));
    CHECK_OK(ABT_finalize());
}

static void timed_eventual_freed_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_eventual_create(0, &timed_eventual));
    park(wait_timed_eventual, 0);
    CHECK_OK(ABT_eventual_set(timed_eventual, NULL, 0));
    CHECK_OK(ABT_eventual_free(&timed_eventual));
    CHECK_OK(ABT_finalize());
}

/* A reader granted the lock by the writer's unlock, never run: the grant
 * is undone, so that a writer gets the lock in the next cycle. */
static void rwlock_reader_granted_case(void)
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_rwlock_create(&rwlock));
    CHECK_OK(ABT_rwlock_wrlock(rwlock));
    park(read_lock, 0);
    CHECK_OK(ABT_rwlock_unlock(rwlock));
    CHECK_OK(ABT_finalize());

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_rwlock_wrlock(rwlock)); /* waited for ever on a granted one */
    CHECK_OK(ABT_rwlock_unlock(rwlock));
    CHECK_OK(ABT_rwlock_free(&rwlock));
    CHECK_OK(ABT_finalize());
}

static void timed_cond_queued(void) { timed_cond_case(0); }
static void timed_cond_woken(void) { timed_cond_case(1); }
static void rwlock_queued(void) { rwlock_case(0); }
static void rwlock_granted(void) { rwlock_case(1); }

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(60);
    void (*cases[])(void) = {mutex_case,     cond_case,      cond_moved_case, timed_cond_queued,
                             timed_cond_woken, rwlock_queued, rwlock_granted, barrier_case,
                             future_case,    eventual_case,  polling_eventual_case,
                             freed_after_wake_case, cond_woken_case, future_woken_case,
                             barrier_released_case, mutex_woken_case, timed_cond_freed_case,
                             timed_eventual_freed_case, rwlock_reader_granted_case};
    int n = (int)(sizeof(cases) / sizeof(cases[0]));
    int only = argc > 1 ? atoi(argv[1]) : -1; /* one case, by index */
    for (int i = 0; i < n; i++)
        if (only < 0 || only == i)
            cases[i]();
    BB_TEST_END();
}
