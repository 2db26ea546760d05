/* CPU binding edges (REFERENCE.md, ABT_xstream_set_cpubind and
 * set_affinity):
 * - set_cpubind with a CPU outside the process's CPU set (-1, or the last
 *   CPU number when the process does not have it) is ABT_ERR_CPUID, on a
 *   running ES and on a terminated one, and the binding stays as it was.
 * - With ABT_SET_AFFINITY, set_affinity with no CPUs goes back to the
 *   default binding, which follows the rank: an ES bound explicitly, then
 *   reset so, then given a new rank, is bound to the new rank's CPU. */
#define _GNU_SOURCE
#include "bb_test.h"
#include "cpu_util.h"
#include <sched.h>

static int cpus[CPU_SETSIZE], ncpus;
static cpu_set_t orig;

static void check_bad_cpuid(ABT_xstream es)
{
    int before = -2, after = -2;
    CHECK_OK(ABT_xstream_get_cpubind(es, &before));
    CHECK_ERR(ABT_xstream_set_cpubind(es, -1), ABT_ERR_CPUID);
    if (!CPU_ISSET(CPU_SETSIZE - 1, &orig))
        CHECK_ERR(ABT_xstream_set_cpubind(es, CPU_SETSIZE - 1), ABT_ERR_CPUID);
    CHECK_OK(ABT_xstream_get_cpubind(es, &after));
    CHECK_EQ(after, before);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    ncpus = read_process_cpus(&orig, cpus);

    unsetenv("ABT_SET_AFFINITY");
    unsetenv("ABT_ENV_SET_AFFINITY");
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    check_bad_cpuid(es);
    CHECK_OK(ABT_xstream_join(es)); /* terminated */
    check_bad_cpuid(es);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());

    if (ncpus >= 2) {
        setenv("ABT_SET_AFFINITY", "1", 1);
        CHECK_OK(ABT_init(0, NULL));
        CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 1, &es));
        int cpu = -1;
        CHECK_OK(ABT_xstream_get_cpubind(es, &cpu));
        CHECK_EQ(cpu, cpus[1 % ncpus]);
        CHECK_OK(ABT_xstream_set_cpubind(es, cpus[0])); /* explicit */
        CHECK_OK(ABT_xstream_set_affinity(es, 0, NULL)); /* back to the rank's */
        CHECK_OK(ABT_xstream_get_cpubind(es, &cpu));
        CHECK_EQ(cpu, cpus[1 % ncpus]);
        CHECK_OK(ABT_xstream_set_rank(es, 2)); /* follows the new rank */
        CHECK_OK(ABT_xstream_get_cpubind(es, &cpu));
        CHECK_EQ(cpu, cpus[2 % ncpus]);
        CHECK_OK(ABT_xstream_free(&es));
        CHECK_OK(ABT_finalize());
        unsetenv("ABT_SET_AFFINITY");
    }
    BB_TEST_END();
}
