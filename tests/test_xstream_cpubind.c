/* ABT_xstream_set_cpubind really binds the ES's OS thread: a ULT on it only
 * ever observes that CPU (sched_getcpu) and a one-CPU affinity mask; the
 * binding can be changed while running, set on a terminated ES (applied at
 * revive), and applied to the primary ES; get_cpubind reports it, and for
 * an unbound ES, which may run on any CPU of the process's set, the first
 * CPU of that set (as Argobots, which reads the OS's mask). ABT_finalize
 * restores the primary thread's original affinity. */
#define _GNU_SOURCE
#include "bb_test.h"
#include "cpu_util.h"
#include <sched.h>

static int cpus[CPU_SETSIZE], ncpus;

typedef struct {
    int wrong_cpu;  /* a sample on another CPU, or -1 */
    int mask_count; /* CPU_COUNT of the thread's mask */
    int mask_has;   /* the expected CPU is in the mask */
    int expect;
} probe_t;

static void probe(void *arg)
{
    probe_t *p = arg;
    p->wrong_cpu = -1;
    for (int i = 0; i < 50; i++) {
        int c = sched_getcpu();
        if (c != p->expect)
            p->wrong_cpu = c;
        ABT_thread_yield();
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof(set), &set);
    p->mask_count = CPU_COUNT(&set);
    p->mask_has = CPU_ISSET(p->expect, &set);
}

static void expect_on(ABT_xstream es, int cpu)
{
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    probe_t p = {.expect = cpu};
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, probe, &p, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(p.wrong_cpu, -1);
    CHECK_EQ(p.mask_count, 1);
    CHECK(p.mask_has);
    int got = -1;
    CHECK_OK(ABT_xstream_get_cpubind(es, &got));
    CHECK_EQ(got, cpu);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    cpu_set_t orig;
    ncpus = read_process_cpus(&orig, cpus);

    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    int got = 12345;
    CHECK_OK(ABT_xstream_get_cpubind(es, &got));
    CHECK_EQ(got, cpus[0]);
    CHECK_ERR(ABT_xstream_set_cpubind(ABT_XSTREAM_NULL, cpus[0]), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_get_cpubind(ABT_XSTREAM_NULL, &got), ABT_ERR_INV_XSTREAM);

    /* Every usable CPU, switching while the ES runs. */
    for (int i = 0; i < ncpus; i++) {
        CHECK_OK(ABT_xstream_set_cpubind(es, cpus[i]));
        expect_on(es, cpus[i]);
    }
    /* A CPU that does not exist. */
    int ret = ABT_xstream_set_cpubind(es, CPU_SETSIZE - 1);
    CHECK(ret == ABT_ERR_CPUID || ret == ABT_ERR_SYS);

    /* Bound while terminated, effective after the revive. */
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_set_cpubind(es, cpus[0]));
    CHECK_OK(ABT_xstream_revive(es));
    expect_on(es, cpus[0]);
    CHECK_OK(ABT_xstream_free(&es));

    /* The primary ES. */
    int last = cpus[ncpus - 1];
    CHECK_OK(ABT_xstream_set_cpubind(primary, last));
    CHECK_EQ(sched_getcpu(), last);
    CHECK_OK(ABT_xstream_get_cpubind(primary, &got));
    CHECK_EQ(got, last);
    cpu_set_t now;
    CPU_ZERO(&now);
    sched_getaffinity(0, sizeof(now), &now);
    CHECK_EQ(CPU_COUNT(&now), 1);
    CHECK_OK(ABT_finalize());

    CPU_ZERO(&now);
    sched_getaffinity(0, sizeof(now), &now);
    CHECK(CPU_EQUAL(&now, &orig));
    BB_TEST_END();
}
