/*
 * ABT_info_query_config: what this build and this run of the library do,
 * in the terms of Argobots' configure options. Each answer must agree with
 * what the corresponding routines really do.
 */
#include <stdint.h>
#include <string.h>

#include "bb_config.h"
#include "bb_runtime.h"
#include "bb_technique.h"

static void put_bool(void *val, bool b)
{
    *(ABT_bool *)val = b ? ABT_TRUE : ABT_FALSE;
}

/* Waiters that cannot switch sleep in the kernel instead of spinning. */
enum { WAIT_POLICY_PASSIVE = 0 };

static bool is_known(int kind)
{
    return kind >= ABT_INFO_QUERY_KIND_ENABLED_DEBUG &&
           kind <= ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC;
}

int ABT_info_query_config(ABT_info_query_kind query_kind, void *val)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!is_known((int)query_kind))
        return ABT_ERR_INV_QUERY_KIND;
    if (!val)
        return ABT_ERR_INV_ARG;
    const bb_config_t *c = &bb_rt.config;
    switch ((int)query_kind) {
    case ABT_INFO_QUERY_KIND_ENABLED_DEBUG:
    case ABT_INFO_QUERY_KIND_ENABLED_PRINT_ERRNO:
    case ABT_INFO_QUERY_KIND_ENABLED_LOG:
    case ABT_INFO_QUERY_KIND_ENABLED_CHECK_POOL_PRODUCER:
    case ABT_INFO_QUERY_KIND_ENABLED_CHECK_POOL_CONSUMER:
    case ABT_INFO_QUERY_KIND_ENABLED_STACK_UNWIND:
        put_bool(val, false);
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_DYNAMIC_PROMOTION: /* ABT_THREAD_TECHNIQUE */
        put_bool(val, (bb_technique_steps(c->technique) & BB_STEP_RETURN) != 0);
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC:
        put_bool(val, (bb_technique_steps(c->technique) & BB_STEP_LAZY_STACK) != 0);
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_CHECK_ERROR:
    case ABT_INFO_QUERY_KIND_ENABLED_PRESERVE_FPU:
    case ABT_INFO_QUERY_KIND_ENABLED_THREAD_CANCEL:
    case ABT_INFO_QUERY_KIND_ENABLED_TASK_CANCEL:
    case ABT_INFO_QUERY_KIND_ENABLED_MIGRATION:
    case ABT_INFO_QUERY_KIND_ENABLED_STACKABLE_SCHED:
    case ABT_INFO_QUERY_KIND_ENABLED_EXTERNAL_THREAD:
    case ABT_INFO_QUERY_KIND_ENABLED_TOOL:
    /* Valgrind friendly, as Argobots' --enable-valgrind: every build has
     * valgrind's client requests (CMakeLists.txt insists on the header) and
     * registers each ULT stack with valgrind when it runs under one of its
     * memory-tracking tools (memcheck, helgrind, drd: fibers.c). */
    case ABT_INFO_QUERY_KIND_ENABLED_VALGRIND:
        put_bool(val, true);
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_PRINT_CONFIG:
        put_bool(val, c->print_config);
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_AFFINITY:
        put_bool(val, c->set_affinity);
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_FCONTEXT: /* our own assembly switch, as Argobots' fcontext */
        put_bool(val, strcmp(BB_CONTEXT_NAME, "ucontext") != 0);
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS:
        *(unsigned int *)val = (unsigned int)bb_load_relaxed(&c->max_xstreams);
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE:
        *(size_t *)val = c->thread_stacksize;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_DEFAULT_SCHED_STACKSIZE:
        *(size_t *)val = c->sched_stacksize;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_DEFAULT_SCHED_EVENT_FREQ:
        *(uint64_t *)val = (uint64_t)c->sched_event_freq;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_DEFAULT_SCHED_SLEEP_NSEC:
        *(uint64_t *)val = c->sched_sleep_nsec;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_SCHED_SLEEP: /* ABT_SCHED_SLEEP_NSEC set */
        put_bool(val, c->idle_sleeps);
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK:
        *(int *)val = c->stack_guard; /* ABT_STACK_OVERFLOW_CHECK */
        return ABT_SUCCESS;
    default: /* ABT_INFO_QUERY_KIND_WAIT_POLICY */
        *(int *)val = WAIT_POLICY_PASSIVE;
        return ABT_SUCCESS;
    }
}
