/* Binding an ES whose thread has ended but which is not joined yet (found by
 * a stress audit: ABT_xstream_set_cpubind and _set_affinity then bound the
 * calling thread instead, through the ended thread's cleared id). ES 1 is
 * cancelled and has ended; the primary binds it to each CPU in turn: each
 * call succeeds, the caller's own CPU set does not change, the binding is
 * reported back, and ES 1 runs on that CPU once revived. */
#define _GNU_SOURCE
#include "bb_test.h"
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

static atomic_int cpu_seen = -1;

static void where(void *arg)
{
    (void)arg;
    atomic_store(&cpu_seen, sched_getcpu());
}

static bool ended(ABT_xstream es)
{
    ABT_xstream_state state;
    CHECK_OK(ABT_xstream_get_state(es, &state));
    return state == ABT_XSTREAM_STATE_TERMINATED;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    cpu_set_t mine;
    CHECK(sched_getaffinity(0, sizeof(mine), &mine) == 0);
    ABT_xstream es1;
    ABT_pool pool1;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool1));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool1, ABT_SCHED_CONFIG_NULL, &es1));
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &mine))
            continue;
        CHECK_OK(ABT_xstream_cancel(es1));
        while (!ended(es1))
            sched_yield();
        CHECK_OK(ABT_xstream_set_cpubind(es1, cpu));
        int affinity[1] = {cpu}, got = -1;
        CHECK_OK(ABT_xstream_set_affinity(es1, 1, affinity));
        cpu_set_t now;
        CHECK(sched_getaffinity(0, sizeof(now), &now) == 0);
        CHECK(CPU_EQUAL(&now, &mine));
        CHECK_OK(ABT_xstream_join(es1));
        CHECK_OK(ABT_xstream_revive(es1));
        ABT_thread t;
        atomic_store(&cpu_seen, -1);
        CHECK_OK(ABT_thread_create(pool1, where, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_OK(ABT_thread_free(&t));
        CHECK_EQ(atomic_load(&cpu_seen), cpu);
        int n = 0;
        CHECK_OK(ABT_xstream_get_affinity(es1, 1, &got, &n));
        CHECK_EQ(got, cpu);
    }
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&pool1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
