/*
 * ABT_info_print_*: human-readable dumps of the runtime's objects, one
 * "label : value" line per field, nested objects indented. The format is
 * bobbin's own (Argobots does not specify one); the fields are those an
 * Argobots user looks for.
 *
 * Printers read live objects without the objects' own locks (an ES may be
 * running what is printed): every value is a snapshot. The ES table's lock
 * (bb_rt.lock) is taken to name a unit's ES and to walk all ESs. They work before ABT_init for
 * objects that exist without it, as in Argobots; only the process-wide ones
 * (configuration, all ESs) need the runtime up.
 */
#include <stdio.h>

#include "bb_attr.h"
#include "bb_info.h"
#include "bb_pool.h"
#include "bb_print.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_technique.h"
#include "bb_unit.h"
#include "bb_xstream.h"

/* ---- names ------------------------------------------------------------------ */

static const char *xstream_state_name(uint32_t state)
{
    return state == ABT_XSTREAM_STATE_TERMINATED ? "TERMINATED" : "RUNNING"; /* or starting */
}

static const char *thread_state_name(int state)
{
    switch (state) {
    case ABT_THREAD_STATE_READY:
        return "READY";
    case ABT_THREAD_STATE_RUNNING:
        return "RUNNING";
    case ABT_THREAD_STATE_BLOCKED:
        return "BLOCKED";
    default:
        return "TERMINATED";
    }
}

static const char *sched_kind_name(int kind)
{
    switch (kind) {
    case ABT_SCHED_DEFAULT:
        return "DEFAULT";
    case ABT_SCHED_BASIC:
        return "BASIC";
    case ABT_SCHED_PRIO:
        return "PRIO";
    case ABT_SCHED_RANDWS:
        return "RANDWS";
    case ABT_SCHED_BASIC_WAIT:
        return "BASIC_WAIT";
    default:
        return "USER";
    }
}

static const char *sched_use_name(int used)
{
    switch (used) {
    case BB_SCHED_MAIN:
        return "MAIN";
    case BB_SCHED_IN_POOL:
        return "IN_POOL";
    default:
        return "NOT_USED";
    }
}

static const char *access_name(int access)
{
    switch (access) {
    case ABT_POOL_ACCESS_PRIV:
        return "PRIV";
    case ABT_POOL_ACCESS_SPSC:
        return "SPSC";
    case ABT_POOL_ACCESS_MPSC:
        return "MPSC";
    case ABT_POOL_ACCESS_SPMC:
        return "SPMC";
    case ABT_POOL_ACCESS_MPMC:
        return "MPMC";
    default:
        return "UNKNOWN";
    }
}

static const char *yes_no(bool b)
{
    return b ? "yes" : "no";
}

/* ---- objects ------------------------------------------------------------------ */

void bb_info_print_xstream(FILE *fp, bb_xstream *es, int indent)
{
    bb_fprintf(fp, "%*sxstream %p:\n", indent, "", (void *)es);
    indent += 2;
    bb_fprintf(fp, "%*srank        : %d\n", indent, "", bb_load_relaxed(&es->rank));
    bb_fprintf(fp, "%*stype        : %s\n", indent, "", es->is_primary ? "PRIMARY" : "SECONDARY");
    bb_fprintf(fp, "%*sstate       : %s\n", indent, "",
               xstream_state_name(bb_load_relaxed(&es->state)));
    bb_fprintf(fp, "%*srunning     : %p\n", indent, "", (void *)bb_load_relaxed(&es->current));
    bb_fprintf(fp, "%*smain sched  : %p\n", indent, "", (void *)es->main_sched);
    bb_fprintf(fp, "%*scpu         : %d\n", indent, "", bb_xstream_cpuid(es));
    uint32_t steps = bb_load_relaxed(&es->ult_steps);
    bb_fprintf(fp, "%*stechnique   : %s%s; ABT_thread_create_to: %s\n", indent, "",
               bb_technique_name_of_steps(steps), es->adaptive ? " (chosen by auto)" : "",
               bb_technique_child_first_name(steps));
    uint64_t ended = bb_load_relaxed(&es->ults_ended); /* a glimpse of a running ES */
    uint64_t deviated = bb_load_relaxed(&es->ults_deviated);
    uint64_t joiner_run = bb_load_relaxed(&es->ults_joiner_run);
    bb_fprintf(fp, "%*sULTs ended  : %llu, %llu of them deviated (%.1f%%), %llu run by their "
                "joiner\n",
               indent, "", (unsigned long long)ended, (unsigned long long)deviated,
               ended ? 100.0 * (double)deviated / (double)ended : 0.0,
               (unsigned long long)joiner_run);
}

static void print_pool(FILE *fp, bb_pool *p, int indent)
{
    bool can_size = bb_pool_can(p, BB_POOL_CAN_SIZE);
    bb_fprintf(fp, "%*spool %p:\n", indent, "", (void *)p);
    indent += 2;
    bb_fprintf(fp, "%*sid          : %llu\n", indent, "", (unsigned long long)p->id);
    bb_fprintf(fp, "%*skind        : %s\n", indent, "", p->user ? "USER" : "BUILTIN");
    bb_fprintf(fp, "%*saccess      : %s\n", indent, "", access_name(p->access));
    bb_fprintf(fp, "%*sautomatic   : %s\n", indent, "", yes_no(p->automatic));
    bb_fprintf(fp, "%*sschedulers  : %ld\n", indent, "", (long)bb_load_relaxed(&p->num_scheds));
    bb_fprintf(fp, "%*sempty       : %s\n", indent, "", yes_no(bb_pool_is_empty(p)));
    bb_fprintf(fp, "%*ssize        : %zu%s\n", indent, "", can_size ? p->ops->size(p) : 0,
               can_size ? "" : " (the pool cannot tell)");
    bb_fprintf(fp, "%*sblocked     : %ld\n", indent, "", (long)bb_load_relaxed(&p->num_blocked));
    bb_fprintf(fp, "%*sdata        : %p\n", indent, "", p->data);
}

static void print_sched(FILE *fp, bb_sched *s, int indent)
{
    bb_fprintf(fp, "%*ssched %p:\n", indent, "", (void *)s);
    indent += 2;
    bb_fprintf(fp, "%*skind        : %s\n", indent, "", sched_kind_name(s->kind));
    bb_fprintf(fp, "%*sused        : %s\n", indent, "",
               sched_use_name(__atomic_load_n(&s->used, __ATOMIC_RELAXED)));
    bb_fprintf(fp, "%*sautomatic   : %s\n", indent, "", yes_no(s->automatic));
    bb_fprintf(fp, "%*srequests    : 0x%x\n", indent, "", bb_load_relaxed(&s->request));
    bb_fprintf(fp, "%*sevent freq  : %d\n", indent, "", s->event_freq);
    if (s->kind == ABT_SCHED_BASIC_WAIT) { /* src/sched/basic.c, sleep_spin_ns */
        if (bb_sched_polls_before_sleep(s))
            bb_fprintf(fp, "%*sidle polling: up to %d us, then sleeps\n", indent, "",
                       BB_IDLE_SPIN_NS / 1000);
        else
            bb_fprintf(fp, "%*sidle polling: none, sleeps at once (its last polls were in vain)\n",
                       indent, "");
    }
    bb_fprintf(fp, "%*sthread      : %p\n", indent, "", (void *)bb_load_relaxed(&s->unit));
    bb_fprintf(fp, "%*sdata        : %p\n", indent, "", s->data);
    bb_fprintf(fp, "%*spools       : %d\n", indent, "", s->num_pools);
    for (int i = 0; i < s->num_pools; i++)
        print_pool(fp, s->pools[i], indent + 2);
}

void bb_info_print_unit_header(FILE *fp, bb_unit *u, int indent)
{
    bb_fprintf(fp, "%*s%s %p (id %llu):\n", indent, "", bb_unit_is_ult(u) ? "ULT" : "tasklet",
               (void *)u, (unsigned long long)bb_unit_get_id(u));
}

static const char *unit_type_name(const bb_unit *u)
{
    if (u->flags & BB_UNIT_PRIMARY)
        return "PRIMARY";
    if (u->flags & BB_UNIT_SCHED)
        return "SCHED";
    return "USER";
}

static void print_unit(FILE *fp, bb_unit *u, int indent)
{
    bb_info_print_unit_header(fp, u, indent);
    indent += 2;
    bb_xstream *es = bb_load_relaxed(&u->xstream);
    /* The ES may have been freed since the unit ran there: look it up in the
     * table instead of reading it. */
    pthread_mutex_lock(&bb_rt.lock);
    int rank = bb_xstream_table_rank_of_locked(es);
    pthread_mutex_unlock(&bb_rt.lock);
    bb_fprintf(fp, "%*stype        : %s\n", indent, "", unit_type_name(u));
    bb_fprintf(fp, "%*syieldable   : %s\n", indent, "", yes_no(bb_unit_is_ult(u)));
    bb_fprintf(fp, "%*sstate       : %s\n", indent, "", thread_state_name(bb_unit_state(u)));
    if (es && rank < 0)
        bb_fprintf(fp, "%*slast xstream: %p (freed)\n", indent, "", (void *)es);
    else
        bb_fprintf(fp, "%*slast xstream: %p (rank %d)\n", indent, "", (void *)es, rank);
    bb_fprintf(fp, "%*spool        : %p\n", indent, "", (void *)bb_load_relaxed(&u->pool));
    bb_fprintf(fp, "%*sfunction    : %p\n", indent, "",
               (void *)(uintptr_t)bb_load_relaxed(&u->func));
    bb_fprintf(fp, "%*sargument    : %p\n", indent, "", bb_load_relaxed(&u->arg));
    bb_fprintf(fp, "%*snamed       : %s\n", indent, "", yes_no(!bb_unit_is_unnamed(u)));
    bb_fprintf(fp, "%*smigratable  : %s\n", indent, "", yes_no(bb_load_relaxed(&u->migratable)));
    bb_fprintf(fp, "%*srequests    : 0x%x\n", indent, "", bb_load_relaxed(&u->requests));
    bb_fprintf(fp, "%*skeys        : %p\n", indent, "", (void *)bb_load_relaxed(&u->keys));
    if (bb_unit_is_ult(u)) /* a lazy stack comes and goes */
        bb_fprintf(fp, "%*sstack       : %p, %zu bytes\n", indent, "", bb_load_relaxed(&u->stack),
                   u->stacksize);
}

/* ---- public API ------------------------------------------------------------------ */

int ABT_info_print_config(FILE *fp)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!fp)
        return ABT_ERR_INV_ARG;
    bb_config_print(&bb_rt.config, fp);
    fflush(fp);
    return ABT_SUCCESS;
}

int ABT_info_print_all_xstreams(FILE *fp)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!fp)
        return ABT_ERR_INV_ARG;
    pthread_mutex_lock(&bb_rt.lock); /* no ES comes or goes meanwhile */
    bb_fprintf(fp, "execution streams: %d\n", bb_rt.num_xstreams);
    for (int rank = 0; rank < bb_rt.xstreams_cap; rank++)
        if (bb_rt.xstreams[rank])
            bb_info_print_xstream(fp, bb_rt.xstreams[rank], 2);
    pthread_mutex_unlock(&bb_rt.lock);
    fflush(fp);
    return ABT_SUCCESS;
}

int ABT_info_print_xstream(FILE *fp, ABT_xstream xstream)
{
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    if (!fp)
        return ABT_ERR_INV_ARG;
    bb_info_print_xstream(fp, bb_xstream_of(xstream), 0);
    fflush(fp);
    return ABT_SUCCESS;
}

int ABT_info_print_sched(FILE *fp, ABT_sched sched)
{
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    if (!fp)
        return ABT_ERR_INV_ARG;
    print_sched(fp, bb_sched_of(sched), 0);
    fflush(fp);
    return ABT_SUCCESS;
}

int ABT_info_print_pool(FILE *fp, ABT_pool pool)
{
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (!fp)
        return ABT_ERR_INV_ARG;
    print_pool(fp, bb_pool_of(pool), 0);
    fflush(fp);
    return ABT_SUCCESS;
}

static int print_unit_handle(FILE *fp, ABT_thread handle, int null_error)
{
    if (handle == ABT_THREAD_NULL)
        return null_error;
    if (!fp)
        return ABT_ERR_INV_ARG;
    print_unit(fp, bb_unit_of(handle), 0);
    fflush(fp);
    return ABT_SUCCESS;
}

int ABT_info_print_thread(FILE *fp, ABT_thread thread)
{
    return print_unit_handle(fp, thread, ABT_ERR_INV_THREAD);
}

int ABT_info_print_task(FILE *fp, ABT_task task)
{
    return print_unit_handle(fp, (ABT_thread)(void *)task, ABT_ERR_INV_TASK);
}

int ABT_info_print_thread_attr(FILE *fp, ABT_thread_attr attr)
{
    if (attr == ABT_THREAD_ATTR_NULL)
        return ABT_ERR_INV_THREAD_ATTR;
    if (!fp)
        return ABT_ERR_INV_ARG;
    bb_attr *a = bb_attr_of(attr);
    bb_fprintf(fp,
               "thread attr %p: stack %p, stack size %zu, migratable %s, "
               "migration callback argument %p\n",
               (void *)a, a->stack, a->stacksize, yes_no(a->migratable), a->migrate_cb_arg);
    fflush(fp);
    return ABT_SUCCESS;
}
