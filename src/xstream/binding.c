/*
 * Binding execution streams to CPUs: ABT_xstream_set/get_cpubind and
 * ABT_xstream_set/get_affinity. The binding is remembered in the ES and
 * applied to its OS thread now if it runs, else when it starts. With
 * ABT_SET_AFFINITY, an ES with no explicit binding is bound by its rank to
 * one of the runtime's CPU sets (by default, the CPU at position rank mod
 * number of CPUs of the process's CPU set; src/xstream/cpu_sets.c).
 *
 * Any thread may change an ES's binding while the ES's thread starts and
 * applies it, or while another thread changes it too: the binding fields
 * of every ES are guarded by one lock (binding is rare).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "bb_runtime.h"

static pthread_mutex_t binding_lock = PTHREAD_MUTEX_INITIALIZER;

/* An empty CPU set of the size the kernel takes (read_cpus, config.c), not
 * a fixed cpu_set_t, which holds only 1024 CPUs. NULL without memory. */
static cpu_set_t *new_cpu_set(size_t *size)
{
    cpu_set_t *set = CPU_ALLOC(bb_rt.config.cpu_set_bits);
    *size = CPU_ALLOC_SIZE(bb_rt.config.cpu_set_bits);
    if (set)
        CPU_ZERO_S(*size, set);
    return set;
}

/* Bind `thread` to the CPUs `cpus[0..n-1]`. */
static int bind_thread(pthread_t thread, const int *cpus, int n)
{
    size_t size;
    cpu_set_t *set = new_cpu_set(&size);
    if (!set)
        return ABT_ERR_MEM;
    for (int i = 0; i < n; i++)
        CPU_SET_S(cpus[i], size, set);
    int err = pthread_setaffinity_np(thread, size, set) == 0 ? ABT_SUCCESS : ABT_ERR_SYS;
    CPU_FREE(set);
    return err;
}

static bool cpu_is_usable(int cpuid)
{
    for (int i = 0; i < bb_rt.config.num_cpus; i++)
        if (bb_rt.config.cpus[i] == cpuid)
            return true;
    return false;
}

/* The CPUs the ES is bound to (an explicit binding first), or NULL if it is
 * not bound. Under binding_lock. */
static const int *bound_cpus(const bb_xstream *es, int *n)
{
    *n = 1;
    if (es->binding.cpuid >= 0)
        return &es->binding.cpuid;
    *n = es->binding.num_affinity;
    if (es->binding.affinity)
        return es->binding.affinity;
    *n = es->binding.num_rank_cpus;
    return es->binding.rank_cpus;
}

static int apply(bb_xstream *es)
{
    /* An ES's own thread uses pthread_self(): at its start, pthread_create
     * may not have stored es->thread yet. */
    bool self = es == bb_self_xstream();
    if (!self && !es->is_primary &&
        (!es->has_thread || bb_load_acquire(&es->state) == ABT_XSTREAM_STATE_TERMINATED))
        return ABT_SUCCESS; /* the thread binds itself when it (re)starts; an ended
                               one may be gone, and its id then names the caller */
    pthread_t thread = self ? pthread_self() : es->thread;
    int n;
    const int *cpus = bound_cpus(es, &n);
    if (!cpus)
        return bind_thread(thread, bb_rt.config.cpus, bb_rt.config.num_cpus);
    return bind_thread(thread, cpus, n);
}

/* With ABT_SET_AFFINITY, an ES nobody bound explicitly follows its rank. */
static void choose_rank_cpu(bb_xstream *es)
{
    if (bb_rt.config.set_affinity && !es->binding.explicit_binding)
        es->binding.rank_cpus = bb_cpu_sets_for_rank(&bb_rt.config.rank_cpus, es->rank,
                                             &es->binding.num_rank_cpus);
}

/* At creation, once the ES has its rank and before its thread starts. Other
 * threads may already see the ES (cpuid is -1 until then). */
void bb_xstream_init_binding(bb_xstream *es)
{
    pthread_mutex_lock(&binding_lock);
    choose_rank_cpu(es);
    pthread_mutex_unlock(&binding_lock);
}

/* The ES's thread is about to end: under the lock, so that apply() either
 * sees it ended or binds it while it still exists. */
void bb_xstream_publish_terminated(bb_xstream *es)
{
    pthread_mutex_lock(&binding_lock);
    bb_store_release(&es->state, (uint32_t)ABT_XSTREAM_STATE_TERMINATED);
    pthread_mutex_unlock(&binding_lock);
}

/* The ES's thread was created (thread != NULL) or joined: apply() may bind
 * it from another thread only while it exists. */
void bb_xstream_set_thread(bb_xstream *es, const pthread_t *thread)
{
    pthread_mutex_lock(&binding_lock);
    es->has_thread = thread != NULL;
    if (thread)
        es->thread = *thread;
    pthread_mutex_unlock(&binding_lock);
}

/* Called by the ES's own thread when it starts (the primary ES: at init). */
void bb_xstream_apply_binding(bb_xstream *es)
{
    int n;
    pthread_mutex_lock(&binding_lock);
    if (bound_cpus(es, &n))
        apply(es);
    pthread_mutex_unlock(&binding_lock);
}

/* Give `es` the binding `next` (one without an explicit binding follows its
 * rank) and bind its thread. If the OS refuses, the ES keeps the binding its
 * thread still has, so that the getters and a later start or revive do not
 * show or apply one that failed. The affinity array no longer in use is
 * freed. Under binding_lock. */
static int rebind(bb_xstream *es, bb_binding next)
{
    bb_binding old = es->binding;
    es->binding = next;
    choose_rank_cpu(es);
    int err = apply(es);
    if (err != ABT_SUCCESS)
        es->binding = old;
    int *unused = err != ABT_SUCCESS ? next.affinity : old.affinity;
    if (unused != es->binding.affinity)
        free(unused);
    return err;
}

int bb_xstream_rebind_for_rank(bb_xstream *es)
{
    int err = ABT_SUCCESS;
    pthread_mutex_lock(&binding_lock);
    if (bb_rt.config.set_affinity && !es->binding.explicit_binding)
        err = rebind(es, es->binding);
    pthread_mutex_unlock(&binding_lock);
    return err;
}

int bb_xstream_cpuid(bb_xstream *es)
{
    int n;
    pthread_mutex_lock(&binding_lock);
    const int *cpus = bound_cpus(es, &n);
    int cpuid = cpus ? cpus[0] : -1;
    pthread_mutex_unlock(&binding_lock);
    return cpuid;
}

/* ABT_finalize: give the primary thread back the CPUs it had before init. */
void bb_xstream_restore_primary_binding(void)
{
    if (bb_rt.config.num_cpus)
        (void)bind_thread(pthread_self(), bb_rt.config.cpus, bb_rt.config.num_cpus);
}

int ABT_xstream_set_cpubind(ABT_xstream xstream, int cpuid)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    if (!cpu_is_usable(cpuid))
        return ABT_ERR_CPUID;
    bb_xstream *es = bb_xstream_of(xstream);
    pthread_mutex_lock(&binding_lock);
    bb_binding next = es->binding;
    next.cpuid = cpuid;
    next.explicit_binding = true;
    next.affinity = NULL;
    next.num_affinity = 0;
    int err = rebind(es, next);
    pthread_mutex_unlock(&binding_lock);
    return err;
}

int ABT_xstream_get_cpubind(ABT_xstream xstream, int *cpuid)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    if (!cpuid)
        return ABT_ERR_INV_ARG;
    bb_xstream *es = bb_xstream_of(xstream);
    int err = ABT_SUCCESS;
    pthread_mutex_lock(&binding_lock);
    int n;
    const int *cpus = bound_cpus(es, &n);
    if (cpus)
        *cpuid = cpus[0]; /* the first CPU of its set */
    else if (bb_rt.config.num_cpus > 0)
        *cpuid = bb_rt.config.cpus[0]; /* unbound: the OS picks from the process's set */
    else
        err = ABT_ERR_CPUID; /* the process's set is unknown: bound to no CPU */
    pthread_mutex_unlock(&binding_lock);
    return err;
}

int ABT_xstream_set_affinity(ABT_xstream xstream, int num_cpuids, int *cpuids)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    if (num_cpuids < 0 || (num_cpuids > 0 && !cpuids))
        return ABT_ERR_INV_ARG;
    for (int i = 0; i < num_cpuids; i++)
        if (!cpu_is_usable(cpuids[i]))
            return ABT_ERR_CPUID;
    bb_xstream *es = bb_xstream_of(xstream);
    int *copy = NULL;
    if (num_cpuids > 0) {
        copy = malloc((size_t)num_cpuids * sizeof(int));
        if (!copy)
            return ABT_ERR_MEM;
        memcpy(copy, cpuids, (size_t)num_cpuids * sizeof(int));
    }
    pthread_mutex_lock(&binding_lock);
    bb_binding next = es->binding;
    next.affinity = copy;
    next.num_affinity = num_cpuids;
    next.cpuid = num_cpuids == 1 ? cpuids[0] : -1;
    next.explicit_binding = num_cpuids > 0; /* none: back to the default binding */
    int err = rebind(es, next);
    pthread_mutex_unlock(&binding_lock);
    return err;
}

int ABT_xstream_get_affinity(ABT_xstream xstream, int max_cpuids, int *cpuids,
                             int *num_cpuids)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    if (max_cpuids < 0 || (max_cpuids > 0 && !cpuids))
        return ABT_ERR_INV_ARG;
    bb_xstream *es = bb_xstream_of(xstream);
    pthread_mutex_lock(&binding_lock);
    int n;
    const int *set = bound_cpus(es, &n);
    if (!set) {
        set = bb_rt.config.cpus;
        n = bb_rt.config.num_cpus;
    }
    for (int i = 0; i < n && i < max_cpuids; i++)
        cpuids[i] = set[i];
    pthread_mutex_unlock(&binding_lock);
    if (num_cpuids)
        *num_cpuids = n;
    return ABT_SUCCESS;
}
