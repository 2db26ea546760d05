/* Regression (seventeenth audit, failure injection): ABT_xstream_set_cpubind
 * and ABT_xstream_set_affinity recorded the new binding before asking the
 * OS, and kept it when the OS refused: the call returned ABT_ERR_SYS, yet
 * get_cpubind and get_affinity showed the binding that failed, and a later
 * revive applied it. (A cgroup's CPU set that shrinks after ABT_init makes
 * the OS refuse.) This test makes pthread_setaffinity_np fail on demand by
 * defining it here, which takes precedence over the C library's for
 * libabt's calls, and checks that a refused binding changes nothing the
 * getters or the thread itself show. */
#define _GNU_SOURCE
#include "bb_test.h"
#include "cpu_util.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

static int refuse; /* the next calls of pthread_setaffinity_np fail */

int pthread_setaffinity_np(pthread_t thread, size_t size, const cpu_set_t *set)
{
    if (__atomic_load_n(&refuse, __ATOMIC_RELAXED))
        return EINVAL;
    int (*real)(pthread_t, size_t, const cpu_set_t *) =
        (int (*)(pthread_t, size_t, const cpu_set_t *))dlsym(RTLD_NEXT, "pthread_setaffinity_np");
    return real ? real(thread, size, set) : ENOSYS;
}

typedef struct {
    int cpubind;
    int num;
    int cpus[CPU_SETSIZE];
} shown;

static int cpus[CPU_SETSIZE];

static void mask_count(void *arg)
{
    cpu_set_t mask;
    CHECK_EQ(sched_getaffinity(0, sizeof(mask), &mask), 0);
    *(int *)arg = CPU_COUNT(&mask);
}

/* What the getters show, and how many CPUs the ES's thread may run on. */
static shown show(ABT_xstream es, int *thread_cpus)
{
    shown s;
    memset(&s, 0, sizeof(s));
    CHECK_OK(ABT_xstream_get_cpubind(es, &s.cpubind));
    CHECK_OK(ABT_xstream_get_affinity(es, CPU_SETSIZE, s.cpus, &s.num));
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_thread probe;
    CHECK_OK(ABT_thread_create(pool, mask_count, thread_cpus, ABT_THREAD_ATTR_NULL, &probe));
    CHECK_OK(ABT_thread_free(&probe));
    return s;
}

static void check_unchanged(ABT_xstream es, const shown *before, int before_thread, int line)
{
    int now_thread;
    shown now = show(es, &now_thread);
    if (memcmp(&now, before, sizeof(now)) != 0 || now_thread != before_thread)
        BB_FAIL_AT("(line %d) a refused binding changed what the ES shows: cpubind %d -> %d, "
                   "%d -> %d CPUs in its set, %d -> %d in its thread's mask",
                   line, before->cpubind, now.cpubind, before->num, now.num, before_thread,
                   now_thread);
}

static void refused(ABT_xstream es, int num, int *set_cpus, int line)
{
    int before_thread;
    shown before = show(es, &before_thread);
    __atomic_store_n(&refuse, 1, __ATOMIC_RELAXED);
    int err = num < 0 ? ABT_xstream_set_cpubind(es, set_cpus[0])
                      : ABT_xstream_set_affinity(es, num, set_cpus);
    __atomic_store_n(&refuse, 0, __ATOMIC_RELAXED);
    if (err != ABT_ERR_SYS)
        BB_FAIL_AT("(line %d) a binding the OS refused returned %d, not ABT_ERR_SYS", line, err);
    check_unchanged(es, &before, before_thread, line);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    cpu_set_t mask;
    int ncpus = read_process_cpus(&mask, cpus);
    if (ncpus < 2) {
        printf("SKIP: needs 2 CPUs\n");
        return 77;
    }
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));

    /* Unbound. */
    refused(es, -1, &cpus[1], __LINE__);
    refused(es, 1, &cpus[1], __LINE__);
    refused(es, 2, &cpus[0], __LINE__);

    /* Bound to one CPU. */
    CHECK_OK(ABT_xstream_set_cpubind(es, cpus[1]));
    refused(es, -1, &cpus[0], __LINE__);
    refused(es, 0, NULL, __LINE__);
    refused(es, 2, &cpus[0], __LINE__);

    /* Bound to a set. */
    CHECK_OK(ABT_xstream_set_affinity(es, 2, &cpus[0]));
    refused(es, -1, &cpus[1], __LINE__);
    refused(es, 0, NULL, __LINE__);

    /* Accepted again: the binding takes. */
    CHECK_OK(ABT_xstream_set_cpubind(es, cpus[0]));
    int thread_cpus;
    shown now = show(es, &thread_cpus);
    CHECK_EQ(now.cpubind, cpus[0]);
    CHECK_EQ(now.num, 1);
    CHECK_EQ(thread_cpus, 1);

    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
