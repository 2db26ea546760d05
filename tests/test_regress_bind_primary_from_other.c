/* ABT_xstream_set_cpubind on the primary ES, called from a ULT on another
 * ES (or from an external thread), binds the primary ES's OS thread at
 * once, not only in the record that ABT_xstream_get_cpubind reads. */
#define _GNU_SOURCE
#include "bb_test.h"
#include <pthread.h>
#include <sched.h>

static ABT_xstream primary;
static int target_cpu;
static int err;

static void bind_primary(void *arg)
{
    (void)arg;
    err = ABT_xstream_set_cpubind(primary, target_cpu);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    cpu_set_t allowed;
    CHECK_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
    target_cpu = -1;
    for (int c = CPU_SETSIZE - 1; c >= 0 && target_cpu < 0; c--)
        if (CPU_ISSET(c, &allowed))
            target_cpu = c;
    CHECK(target_cpu >= 0);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_self(&primary));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, bind_primary, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(err);
    cpu_set_t now;
    CHECK_EQ(sched_getaffinity(0, sizeof(now), &now), 0); /* this thread's */
    CHECK_EQ(CPU_COUNT(&now), 1);
    CHECK(CPU_ISSET(target_cpu, &now));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
