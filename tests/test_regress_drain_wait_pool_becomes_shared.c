/* A scheduler asked to finish waits for the blocked ULTs of a pool only it
 * serves; once a second scheduler serves the pool, they no longer hold it
 * back (as in Argobots). An ABT_SCHED_BASIC_WAIT scheduler asleep waiting
 * for such a ULT was not woken when the pool got its second scheduler, and
 * slept on: ABT_xstream_join of its ES hung until the ULT came back.
 *
 * ES 1 (BASIC_WAIT over FIFO_WAIT pool P) has a ULT blocked on an
 * eventual; a pthread joins ES 1, which then sleeps. A new ES 2 over P must
 * let that join return while the ULT is still blocked (a hang is caught by
 * the watchdog). Then the eventual is set, and ES 2 runs the ULT. Also with
 * the second scheduler made by ABT_sched_create_basic, before any ES runs
 * it (Argobots counts the schedulers that hold a pool, as bobbin does). */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "bb_test.h"

static ABT_eventual ev;
static ABT_xstream es1;
static atomic_int joined;

static void waiter(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_eventual_wait(ev, NULL));
}

static void *joiner(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_xstream_join(es1));
    atomic_store(&joined, 1);
    return NULL;
}

static void round_with(int by_new_es)
{
    ABT_pool p;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &p, ABT_SCHED_CONFIG_NULL, &es1));
    ABT_xstream es2;
    ABT_sched s2;
    CHECK_OK(ABT_eventual_create(0, &ev));
    ABT_thread u;
    CHECK_OK(ABT_thread_create(p, waiter, NULL, ABT_THREAD_ATTR_NULL, &u));
    ABT_thread_state state;
    do {
        usleep(1000);
        CHECK_OK(ABT_thread_get_state(u, &state));
    } while (state != ABT_THREAD_STATE_BLOCKED);

    atomic_store(&joined, 0);
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, joiner, NULL), 0);
    usleep(50 * 1000); /* ES 1 asked to finish, asleep waiting for `u` */
    if (by_new_es)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &p, ABT_SCHED_CONFIG_NULL,
                                          &es2));
    else
        CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC_WAIT, 1, &p, ABT_SCHED_CONFIG_NULL, &s2));
    CHECK_EQ(pthread_join(t, NULL), 0); /* hangs without the wake-up */
    CHECK_EQ(atomic_load(&joined), 1);
    CHECK_OK(ABT_thread_get_state(u, &state));
    CHECK_EQ(state, ABT_THREAD_STATE_BLOCKED);

    if (!by_new_es)
        CHECK_OK(ABT_xstream_create(s2, &es2));
    CHECK_OK(ABT_eventual_set(ev, NULL, 0));
    CHECK_OK(ABT_thread_free(&u)); /* run by ES 2 */
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_eventual_free(&ev));
    CHECK_OK(ABT_pool_free(&p));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    round_with(1);
    round_with(0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
