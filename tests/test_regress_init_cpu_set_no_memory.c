/* Regression (seventeenth audit, failure injection): ABT_init went on
 * without the process's CPU set when it had no memory to read it, and
 * returned ABT_SUCCESS; every binding then failed with ABT_ERR_CPUID and
 * ABT_SET_AFFINITY was ignored, without a word. It now fails with
 * ABT_ERR_MEM, leaves nothing behind, and a later ABT_init works. The test
 * makes the C library's allocator of CPU sets (behind CPU_ALLOC) fail on
 * demand by defining it here, which takes precedence for libabt's calls. */
#define _GNU_SOURCE
#include "bb_test.h"

#include <dlfcn.h>
#include <sched.h>

static int refuse;

cpu_set_t *__sched_cpualloc(size_t count)
{
    if (refuse)
        return NULL;
    cpu_set_t *(*real)(size_t) = (cpu_set_t * (*)(size_t)) dlsym(RTLD_NEXT, "__sched_cpualloc");
    return real ? real(count) : NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    refuse = 1;
    CHECK_ERR(ABT_init(0, NULL), ABT_ERR_MEM);
    CHECK_EQ(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    refuse = 0;

    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    int cpuid;
    CHECK_OK(ABT_xstream_get_cpubind(self, &cpuid)); /* the CPU set is known */
    CHECK_OK(ABT_xstream_set_cpubind(self, cpuid));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
