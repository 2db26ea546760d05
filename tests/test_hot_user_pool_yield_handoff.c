/* A direct yield through a user pool (src/unit/hotpath.c) whose pop gives
 * a unit the yielder cannot switch to itself hands that unit to the
 * scheduler. The scheduler must run it from its loop, not from the callback
 * of the switch back to it: that left the scheduler's context saved one
 * level deeper on its stack at each hand-off, and a long run of hand-offs
 * overflowed it (found under the ucontext switch, whose frames are large).
 *
 * Here a secondary ES's BASIC scheduler serves one user pool whose pop takes
 * from a second pool first: a built-in FIFO that no scheduler serves,
 * filled with N ULTs. A ULT of the other pool is not one the yielder may
 * switch to (the scheduler first takes it into its own pool, as
 * ABT_xstream_run_unit does), so each of the N first yields is a hand-off,
 * one after the other, with no other return to the scheduler in between
 * (its events, which would be one, are due only after 4N rounds). Scheduler
 * and ULT stacks are 32 KiB, far less than N nested levels need.
 * Checked: every ULT ran to its end, after all of them started (each yield
 * handed over to the next one), and the pool's units balance. Before the
 * fix this overflowed under the techniques that save the scheduler's
 * context at each switch (full, full-l, roc, roc-l); ss and sc restart the
 * scheduler instead. */
#include "pool_user_util.h"

static ABT_pool other; /* the FIFO nobody serves */
static atomic_int started, ended, started_when_ending_first;

static ABT_thread pop_other_first(ABT_pool pool, ABT_pool_context ctx)
{
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(other, &t));
    return t != ABT_THREAD_NULL ? t : up_pop(pool, ctx);
}

static void body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    CHECK_OK(ABT_thread_yield());
    if (atomic_fetch_add(&ended, 1) == 0)
        atomic_store(&started_when_ending_first, atomic_load(&started));
}

int main(void)
{
    BB_TEST_BEGIN(60);
    setenv("ABT_SCHED_STACKSIZE", "32768", 1);
    setenv("ABT_THREAD_STACKSIZE", "32768", 1);
    unsetenv("ABT_OPT_DIRECT_YIELD");
    const int n = BB_TEST_SIZE(4000, 1000);
    CHECK_OK(ABT_init(0, NULL));

    static up_state st;
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    ABT_pool pool = up_new_pool_with(NULL, pop_other_first, cfg);
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &other));

    ABT_thread *ths = calloc((size_t)n, sizeof(*ths));
    for (int i = 0; i < n; i++)
        CHECK_OK(ABT_thread_create(other, body, NULL, ABT_THREAD_ATTR_NULL, &ths[i]));
    /* Events (a normal return to the scheduler) at most once per run. */
    ABT_sched_config sc;
    CHECK_OK(ABT_sched_config_create(&sc, ABT_sched_basic_freq, 4 * n, ABT_sched_config_var_end));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, sc, &es));
    CHECK_OK(ABT_sched_config_free(&sc));
    for (int i = 0; i < n; i++)
        CHECK_OK(ABT_thread_free(&ths[i]));
    CHECK_OK(ABT_xstream_free(&es));

    CHECK_EQ(atomic_load(&started), n);
    CHECK_EQ(atomic_load(&ended), n);
    CHECK_EQ(atomic_load(&started_when_ending_first), n);
    CHECK_EQ(atomic_load(&st.n_create), atomic_load(&st.n_free_unit));
    CHECK_EQ(atomic_load(&up_g.n_misuse), 0);
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_pool_free(&other));
    free(ths);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
