/*
 * ABT_error_get_str: the name of an error code, as Argobots gives it (the
 * macro's own name, not a description). A static table: no allocation, no
 * lock, usable before ABT_init and from a signal handler.
 */
#include <string.h>

#include <abt.h>

#define NAME(code) [code] = #code

static const char *const names[] = {
    NAME(ABT_SUCCESS),
    NAME(ABT_ERR_UNINITIALIZED),
    NAME(ABT_ERR_MEM),
    NAME(ABT_ERR_OTHER),
    NAME(ABT_ERR_INV_XSTREAM),
    NAME(ABT_ERR_INV_XSTREAM_RANK),
    NAME(ABT_ERR_INV_XSTREAM_BARRIER),
    NAME(ABT_ERR_INV_SCHED),
    NAME(ABT_ERR_INV_SCHED_KIND),
    NAME(ABT_ERR_INV_SCHED_PREDEF),
    NAME(ABT_ERR_INV_SCHED_TYPE),
    NAME(ABT_ERR_INV_SCHED_CONFIG),
    NAME(ABT_ERR_INV_POOL),
    NAME(ABT_ERR_INV_POOL_KIND),
    NAME(ABT_ERR_INV_POOL_ACCESS),
    NAME(ABT_ERR_INV_UNIT),
    NAME(ABT_ERR_INV_THREAD),
    NAME(ABT_ERR_INV_THREAD_ATTR),
    NAME(ABT_ERR_INV_TASK),
    NAME(ABT_ERR_INV_KEY),
    NAME(ABT_ERR_INV_MUTEX),
    NAME(ABT_ERR_INV_MUTEX_ATTR),
    NAME(ABT_ERR_INV_COND),
    NAME(ABT_ERR_INV_RWLOCK),
    NAME(ABT_ERR_INV_EVENTUAL),
    NAME(ABT_ERR_INV_FUTURE),
    NAME(ABT_ERR_INV_BARRIER),
    NAME(ABT_ERR_INV_TIMER),
    NAME(ABT_ERR_INV_QUERY_KIND),
    NAME(ABT_ERR_XSTREAM),
    NAME(ABT_ERR_XSTREAM_STATE),
    NAME(ABT_ERR_XSTREAM_BARRIER),
    NAME(ABT_ERR_SCHED),
    NAME(ABT_ERR_SCHED_CONFIG),
    NAME(ABT_ERR_POOL),
    NAME(ABT_ERR_UNIT),
    NAME(ABT_ERR_THREAD),
    NAME(ABT_ERR_TASK),
    NAME(ABT_ERR_KEY),
    NAME(ABT_ERR_MUTEX),
    NAME(ABT_ERR_MUTEX_LOCKED),
    NAME(ABT_ERR_COND),
    NAME(ABT_ERR_COND_TIMEDOUT),
    NAME(ABT_ERR_RWLOCK),
    NAME(ABT_ERR_EVENTUAL),
    NAME(ABT_ERR_FUTURE),
    NAME(ABT_ERR_BARRIER),
    NAME(ABT_ERR_TIMER),
    NAME(ABT_ERR_MIGRATION_TARGET),
    NAME(ABT_ERR_MIGRATION_NA),
    NAME(ABT_ERR_MISSING_JOIN),
    NAME(ABT_ERR_FEATURE_NA),
    NAME(ABT_ERR_INV_TOOL_CONTEXT),
    NAME(ABT_ERR_INV_ARG),
    NAME(ABT_ERR_SYS),
    NAME(ABT_ERR_CPUID),
    NAME(ABT_ERR_INV_POOL_CONFIG),
    NAME(ABT_ERR_INV_POOL_USER_DEF),
};

#undef NAME

int ABT_error_get_str(int err, char *str, size_t *len)
{
    if (err < 0 || err >= (int)(sizeof(names) / sizeof(names[0])) || !names[err])
        return ABT_ERR_OTHER;
    if (str)
        strcpy(str, names[err]); /* the caller provides room, as in Argobots */
    if (len)
        *len = strlen(names[err]);
    return ABT_SUCCESS;
}
