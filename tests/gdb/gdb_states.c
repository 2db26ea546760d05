/*
 * The inferior of the gdb script's test (tests/gdb/run_gdb_test.sh): work
 * units in every state the script must show, frozen while the primary ULT
 * sits in bobbin_gdb_checkpoint(), where gdb stops.
 *
 *   ES 0 (primary): main (running), then in its pool:
 *       yield_worker        ready, yielded at least once (saved where it called ABT_thread_yield)
 *       mutex_worker        blocked in ABT_mutex_lock (main holds the mutex)
 *       cond_worker         blocked in ABT_cond_wait
 *       join_worker         blocked in ABT_thread_join of spin_worker_es1
 *       suspend_worker      blocked in ABT_self_suspend
 *   ES 1: spin_worker_es1   running (spins until `release`)
 *   ES 2: spin_worker_es2   running, and behind it in ES 2's pool:
 *       fresh_worker        ready, never ran
 *       tasklet_worker      a ready tasklet
 *
 * Every function a test looks for has a distinctive name and is noinline, so
 * that it is a frame of its own in a backtrace. After the checkpoint
 * everything is released and joined: the program exits 0 only if gdb left
 * every register as it found it.
 */
#include <abt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

#define CHECK(call)                                                                        \
    do {                                                                                   \
        int err_ = (call);                                                                 \
        if (err_ != ABT_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, err_);   \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* Shared across ESs, hence accessed atomically (through these macros). */
static int release;               /* set after the checkpoint: everything may finish */
static int spinners_up;           /* spinners that reached their loop */
static int yields;                /* times yield_worker yielded */
static int cond_ready;            /* the condition cond_worker waits for */
#define LOAD(var) __atomic_load_n(&(var), __ATOMIC_ACQUIRE)
#define STORE(var, value) __atomic_store_n(&(var), (value), __ATOMIC_RELEASE)

static ABT_mutex held_mutex;      /* recursive, locked by main across the checkpoint */
static ABT_mutex cond_mutex;
static ABT_cond cond;
static ABT_thread spinner_es1;    /* what join_worker joins */

/* gdb stops here (a breakpoint on it). Kept out of line and with a side
 * effect, so that the call stays in main's backtrace. */
NOINLINE void bobbin_gdb_checkpoint(void);
NOINLINE void bobbin_gdb_checkpoint(void)
{
    __asm__ volatile("" ::: "memory");
}

static NOINLINE void spin_worker_es1(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&spinners_up, 1, __ATOMIC_SEQ_CST);
    while (!LOAD(release)) /* in this very frame: no helper a tail call would hide */
        __asm__ volatile("" ::: "memory");
}

static NOINLINE void spin_worker_es2(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&spinners_up, 1, __ATOMIC_SEQ_CST);
    while (!LOAD(release)) /* in this very frame: no helper a tail call would hide */
        __asm__ volatile("" ::: "memory");
}

static NOINLINE void yield_worker(void *arg)
{
    (void)arg;
    while (!LOAD(release)) {
        __atomic_fetch_add(&yields, 1, __ATOMIC_RELAXED);
        ABT_thread_yield();
    }
}

static NOINLINE void mutex_worker(void *arg)
{
    (void)arg;
    CHECK(ABT_mutex_lock(held_mutex));
    CHECK(ABT_mutex_unlock(held_mutex));
}

static NOINLINE void cond_worker(void *arg)
{
    (void)arg;
    CHECK(ABT_mutex_lock(cond_mutex));
    while (!LOAD(cond_ready))
        CHECK(ABT_cond_wait(cond, cond_mutex));
    CHECK(ABT_mutex_unlock(cond_mutex));
}

static NOINLINE void join_worker(void *arg)
{
    (void)arg;
    CHECK(ABT_thread_join(spinner_es1));
}

static NOINLINE void suspend_worker(void *arg)
{
    (void)arg;
    CHECK(ABT_self_suspend());
}

static NOINLINE void fresh_worker(void *arg)
{
    (void)arg;
}

static NOINLINE void tasklet_worker(void *arg)
{
    (void)arg;
}

static ABT_thread_state state_of(ABT_thread t)
{
    ABT_thread_state state;
    CHECK(ABT_thread_get_state(t, &state));
    return state;
}

/* Yield until `t` is blocked (it runs on this ES, so it needs our yields). */
static void yield_until_blocked(ABT_thread t)
{
    while (state_of(t) != ABT_THREAD_STATE_BLOCKED)
        CHECK(ABT_thread_yield());
}

int main(void)
{
    /* Longer than any gdb session of the test, shorter than ctest's TIMEOUT:
     * a hang without a debugger still ends. */
    alarm(55);
    setvbuf(stdout, NULL, _IONBF, 0);
    CHECK(ABT_init(0, NULL));

    ABT_xstream es[3];
    ABT_pool pool[3];
    CHECK(ABT_xstream_self(&es[0]));
    for (int i = 1; i < 3; i++)
        CHECK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
    for (int i = 0; i < 3; i++)
        CHECK(ABT_xstream_get_main_pools(es[i], 1, &pool[i]));

    /* Recursive, so that the mutex records its holder for the script to name. */
    ABT_mutex_attr recursive;
    CHECK(ABT_mutex_attr_create(&recursive));
    CHECK(ABT_mutex_attr_set_recursive(recursive, ABT_TRUE));
    CHECK(ABT_mutex_create_with_attr(recursive, &held_mutex));
    CHECK(ABT_mutex_attr_free(&recursive));
    CHECK(ABT_mutex_create(&cond_mutex));
    CHECK(ABT_cond_create(&cond));
    CHECK(ABT_mutex_lock(held_mutex));

    /* One spinner occupies each secondary ES for good. */
    ABT_thread spinner_es2;
    CHECK(ABT_thread_create(pool[1], spin_worker_es1, NULL, ABT_THREAD_ATTR_NULL, &spinner_es1));
    CHECK(ABT_thread_create(pool[2], spin_worker_es2, NULL, ABT_THREAD_ATTR_NULL, &spinner_es2));
    while (LOAD(spinners_up) < 2)
        CHECK(ABT_thread_yield());

    /* Queued behind the spinner of ES 2, these never get to run. */
    ABT_thread fresh;
    ABT_task tasklet;
    CHECK(ABT_thread_create(pool[2], fresh_worker, NULL, ABT_THREAD_ATTR_NULL, &fresh));
    CHECK(ABT_task_create(pool[2], tasklet_worker, NULL, &tasklet));

    /* On the primary ES, each one runs until it blocks (or yields). */
    ABT_thread yielder, mutex_waiter, cond_waiter, joiner, suspended;
    CHECK(ABT_thread_create(pool[0], yield_worker, NULL, ABT_THREAD_ATTR_NULL, &yielder));
    CHECK(ABT_thread_create(pool[0], mutex_worker, NULL, ABT_THREAD_ATTR_NULL, &mutex_waiter));
    CHECK(ABT_thread_create(pool[0], cond_worker, NULL, ABT_THREAD_ATTR_NULL, &cond_waiter));
    CHECK(ABT_thread_create(pool[0], join_worker, NULL, ABT_THREAD_ATTR_NULL, &joiner));
    CHECK(ABT_thread_create(pool[0], suspend_worker, NULL, ABT_THREAD_ATTR_NULL, &suspended));
    yield_until_blocked(mutex_waiter);
    yield_until_blocked(cond_waiter);
    yield_until_blocked(joiner);
    yield_until_blocked(suspended);
    while (LOAD(yields) == 0)
        CHECK(ABT_thread_yield());

    /* Give the units ids, so that gdb shows numbers rather than addresses
     * (except for the tasklet: the script must cope with both). */
    ABT_thread all[] = {joiner, spinner_es1, spinner_es2, fresh, yielder,
                        mutex_waiter, cond_waiter, suspended};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        ABT_unit_id id;
        CHECK(ABT_thread_get_id(all[i], &id));
    }

    bobbin_gdb_checkpoint();

    /* Let everything finish. */
    STORE(release, 1);
    CHECK(ABT_mutex_unlock(held_mutex));
    CHECK(ABT_mutex_lock(cond_mutex));
    cond_ready = 1;
    CHECK(ABT_cond_signal(cond));
    CHECK(ABT_mutex_unlock(cond_mutex));
    while (state_of(suspended) != ABT_THREAD_STATE_BLOCKED)
        CHECK(ABT_thread_yield());
    CHECK(ABT_thread_resume(suspended));
    /* The joiner goes first: nobody may free what another ULT still joins. */
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        CHECK(ABT_thread_free(&all[i]));
    CHECK(ABT_task_free(&tasklet));
    for (int i = 1; i < 3; i++)
        CHECK(ABT_xstream_free(&es[i]));
    CHECK(ABT_cond_free(&cond));
    CHECK(ABT_mutex_free(&cond_mutex));
    CHECK(ABT_mutex_free(&held_mutex));
    CHECK(ABT_finalize());
    printf("gdb_states: done\n");
    return 0;
}
