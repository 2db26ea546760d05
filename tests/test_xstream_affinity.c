/* ABT_xstream_set_affinity / get_affinity: a set of CPUs becomes the OS
 * thread's mask (seen from a ULT); get_affinity reports it without padding
 * and with the full count; a one-CPU set pins the ES (and get_cpubind reports
 * the first CPU of the set); num_cpuids == 0 resets to all CPUs; negative
 * counts are ABT_ERR_INV_ARG; an unknown CPU is refused. */
#define _GNU_SOURCE
#include "bb_test.h"
#include "cpu_util.h"
#include <sched.h>

static int cpus[CPU_SETSIZE], ncpus;

typedef struct {
    cpu_set_t mask;
    int wrong_cpu;
    int only; /* -1: any CPU of the mask is fine */
} probe_t;

static void probe(void *arg)
{
    probe_t *p = arg;
    p->wrong_cpu = -1;
    CPU_ZERO(&p->mask);
    sched_getaffinity(0, sizeof(p->mask), &p->mask);
    for (int i = 0; i < 30; i++) {
        int c = sched_getcpu();
        if (!CPU_ISSET(c, &p->mask) || (p->only >= 0 && c != p->only))
            p->wrong_cpu = c;
        ABT_thread_yield();
    }
}

static probe_t run_probe(ABT_xstream es, int only)
{
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    probe_t p;
    p.only = only;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, probe, &p, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(p.wrong_cpu, -1);
    return p;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    cpu_set_t orig;
    ncpus = read_process_cpus(&orig, cpus);

    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    int out[4], n = -1;

    CHECK_ERR(ABT_xstream_set_affinity(ABT_XSTREAM_NULL, 1, cpus), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_get_affinity(ABT_XSTREAM_NULL, 4, out, &n), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_set_affinity(es, -1, cpus), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_get_affinity(es, -1, out, &n), ABT_ERR_INV_ARG);

    /* All usable CPUs, listed in reverse order. */
    int rev[CPU_SETSIZE];
    for (int i = 0; i < ncpus; i++)
        rev[i] = cpus[ncpus - 1 - i];
    CHECK_OK(ABT_xstream_set_affinity(es, ncpus, rev));
    probe_t p = run_probe(es, -1);
    CHECK(CPU_EQUAL(&p.mask, &orig));
    n = -1;
    CHECK_OK(ABT_xstream_get_affinity(es, 0, NULL, &n));
    CHECK_EQ(n, ncpus);
    if (ncpus >= 2) {
        out[0] = out[1] = -7;
        CHECK_OK(ABT_xstream_get_affinity(es, 1, out, &n));
        CHECK_EQ(n, ncpus);
        CHECK(out[0] == cpus[0] || out[0] == cpus[1]);
        CHECK_EQ(out[1], -7); /* no padding */
        /* get_cpubind reports one CPU of the binding. */
        int one = -1;
        CHECK_OK(ABT_xstream_get_cpubind(es, &one));
        CHECK(one == cpus[0] || one == cpus[1]);
    }

    /* One CPU: pinned. */
    int last = cpus[ncpus - 1];
    CHECK_OK(ABT_xstream_set_affinity(es, 1, &last));
    p = run_probe(es, last);
    CHECK_EQ(CPU_COUNT(&p.mask), 1);
    CHECK(CPU_ISSET(last, &p.mask));
    out[0] = out[1] = -7;
    CHECK_OK(ABT_xstream_get_affinity(es, 4, out, &n));
    CHECK_EQ(n, 1);
    CHECK_EQ(out[0], last);
    CHECK_EQ(out[1], -7);
    int one = -1;
    CHECK_OK(ABT_xstream_get_cpubind(es, &one));
    CHECK_EQ(one, last);
    CHECK_OK(ABT_xstream_get_affinity(es, 4, out, NULL)); /* count is optional */

    /* A CPU that does not exist, alone or with a valid one. */
    int bad[2] = {cpus[0], CPU_SETSIZE - 1};
    int ret = ABT_xstream_set_affinity(es, 2, bad);
    CHECK(ret == ABT_ERR_CPUID || ret == ABT_ERR_SYS);

    /* Reset: every CPU again. */
    CHECK_OK(ABT_xstream_set_affinity(es, 0, NULL));
    p = run_probe(es, -1);
    CHECK(CPU_EQUAL(&p.mask, &orig));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
