/* ABT_SET_AFFINITY: unset (bobbin's default) or false-like leaves ESs
 * unbound: the OS runs them on any CPU of the process's set, so get_affinity
 * gives that whole set and get_cpubind its first CPU, as Argobots 1.x does
 * (it reads the OS mask); a true value binds the ES of rank n
 * to the n-th CPU of the process's CPU set (mod its size), the primary ES
 * (rank 0) included, which ULTs observe with sched_getcpu; ABT_ENV_ works
 * too; blanks around a word do not change it (" 1 " is the yes-word, not
 * the list of position 1; blanks alone leave ESs unbound); finalize
 * restores the primary thread's affinity. */
#define _GNU_SOURCE
#include "bb_test.h"
#include "cpu_util.h"
#include <sched.h>

static int cpus[CPU_SETSIZE], ncpus;
static cpu_set_t orig;

typedef struct {
    int expect, wrong;
} probe_t;

static void probe(void *arg)
{
    probe_t *p = arg;
    p->wrong = -1;
    for (int i = 0; i < 20; i++) {
        int c = sched_getcpu();
        if (c != p->expect)
            p->wrong = c;
        ABT_thread_yield();
    }
}

static void check_unbound(void)
{
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    int cpu = -1, num = 0;
    CHECK_OK(ABT_xstream_get_cpubind(es, &cpu));
    CHECK_EQ(cpu, cpus[0]);
    CHECK_OK(ABT_xstream_get_affinity(es, 0, NULL, &num));
    CHECK_EQ(num, ncpus);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
}

static void check_bound(void)
{
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    CHECK_OK(ABT_xstream_self(&primary));
    int cpu = -1;
    CHECK_OK(ABT_xstream_get_cpubind(primary, &cpu));
    CHECK_EQ(cpu, cpus[0]);
    /* The primary thread itself is bound, not only reported as bound. */
    cpu_set_t mine;
    CPU_ZERO(&mine);
    CHECK_EQ(sched_getaffinity(0, sizeof(mine), &mine), 0);
    CHECK_EQ(CPU_COUNT(&mine), 1);
    CHECK(CPU_ISSET(cpus[0], &mine));

    ABT_xstream es[3];
    for (int i = 0; i < 3; i++) {
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
        int expect = cpus[(i + 1) % ncpus];
        /* Bound as soon as ABT_xstream_create returns. */
        cpu = -1;
        CHECK_OK(ABT_xstream_get_cpubind(es[i], &cpu));
        CHECK_EQ(cpu, expect);
        ABT_pool pool;
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pool));
        probe_t p = {.expect = expect};
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool, probe, &p, ABT_THREAD_ATTR_NULL, &t));
        CHECK_OK(ABT_thread_free(&t));
        CHECK_EQ(p.wrong, -1);
        /* Once the ES has surely started, too. */
        cpu = -1;
        CHECK_OK(ABT_xstream_get_cpubind(es[i], &cpu));
        CHECK_EQ(cpu, expect);
    }
    /* set_rank re-binds to the CPU of the new rank. */
    if (ncpus >= 2) {
        CHECK_OK(ABT_xstream_set_rank(es[0], 10));
        CHECK_OK(ABT_xstream_get_cpubind(es[0], &cpu));
        CHECK_EQ(cpu, cpus[10 % ncpus]);
    }
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_finalize());
    cpu_set_t now;
    CPU_ZERO(&now);
    sched_getaffinity(0, sizeof(now), &now);
    CHECK(CPU_EQUAL(&now, &orig));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    ncpus = read_process_cpus(&orig, cpus);

    unsetenv("ABT_SET_AFFINITY");
    unsetenv("ABT_ENV_SET_AFFINITY");
    check_unbound();
    setenv("ABT_SET_AFFINITY", "no", 1);
    check_unbound();
    setenv("ABT_SET_AFFINITY", "0", 1);
    check_unbound();
    setenv("ABT_SET_AFFINITY", "  ", 1); /* blanks only: as empty */
    check_unbound();
    setenv("ABT_SET_AFFINITY", " off ", 1);
    check_unbound();

    setenv("ABT_SET_AFFINITY", "1", 1);
    check_bound();
    setenv("ABT_SET_AFFINITY", "yes", 1);
    check_bound();
    setenv("ABT_SET_AFFINITY", " 1 ", 1); /* the yes-word, not the list "{1}" */
    check_bound();
    unsetenv("ABT_SET_AFFINITY");
    setenv("ABT_ENV_SET_AFFINITY", "true", 1);
    check_bound();
    setenv("ABT_SET_AFFINITY", "off", 1); /* ABT_ wins */
    check_unbound();
    BB_TEST_END();
}
