/*
 * Process-wide state: whether the runtime is up, its configuration (read from
 * the environment at ABT_init), and the table of execution streams.
 */
#ifndef BB_RUNTIME_H
#define BB_RUNTIME_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bb_atomic.h"
#include "bb_cpu_sets.h"
#include "bb_xstream.h"

/* Guard pages below ULT stacks, in the terms of ABT_STACK_OVERFLOW_CHECK
 * (the values are those of ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK). */
enum bb_stack_guard {
    BB_STACK_GUARD_NONE = 0,   /* any other value of the variable */
    BB_STACK_GUARD_BEST = 2,   /* "mprotect", the default: while the mapping budget lasts */
    BB_STACK_GUARD_STRICT = 3  /* "mprotect_strict": no guard, no stack (ABT_ERR_MEM) */
};

/* What backs descriptor chunks and stack slabs, in the terms of
 * ABT_MEM_LP_ALLOC (src/mem/large_pages.c). */
enum bb_large_pages {
    BB_LP_NONE,               /* "malloc": small chunks, one mapping per stack */
    BB_LP_REGULAR,            /* "mmap_rp", the default: 2 MiB regions of regular pages */
    BB_LP_THP,                /* "thp" */
    BB_LP_HUGETLB_OR_REGULAR, /* "mmap_hp_rp" */
    BB_LP_HUGETLB_OR_THP      /* "mmap_hp_thp" */
};

typedef struct {
    size_t thread_stacksize;   /* ABT_THREAD_STACKSIZE */
    size_t sched_stacksize;    /* ABT_SCHED_STACKSIZE */
    int sched_event_freq;      /* ABT_SCHED_EVENT_FREQ: predefined schedulers' default */
    uint64_t sched_sleep_nsec; /* ABT_SCHED_SLEEP_NSEC, as Argobots reports it (100 unset) */
    bool idle_sleeps;          /* it was set, not 0: polling schedulers sleep that long */
    int max_xstreams;          /* ABT_MAX_NUM_XSTREAMS, raised by higher ranks; atomic */
    bool set_affinity;         /* ABT_SET_AFFINITY: bind ESs by rank to rank_cpus */
    bb_cpu_sets rank_cpus;     /* the ES of rank r: set r mod num_sets (config.c) */
    uint32_t mem_max_stacks;   /* ABT_MEM_MAX_NUM_STACKS */
    uint32_t mem_max_descs;    /* ABT_MEM_MAX_NUM_DESCS */
    bool print_config;         /* ABT_PRINT_CONFIG */
    int stack_guard;           /* ABT_STACK_OVERFLOW_CHECK: a bb_stack_guard */
    int large_pages;           /* ABT_MEM_LP_ALLOC: a bb_large_pages */
    bool print_raw_stack;      /* ABT_PRINT_RAW_STACK: stack dumps include a hex dump */
    uint32_t shortcuts;        /* bb_shortcut bits enabled by ABT_OPT_* (all by default) */
    int technique;             /* ABT_THREAD_TECHNIQUE: a bb_technique (bb_technique.h) */
    int num_cpus;              /* CPUs this process may run on */
    int *cpus;                 /* their ids, in order */
    int cpu_set_bits;          /* the size of CPU set the kernel takes (>= 1024) */
} bb_config_t;

struct bb_runtime {
    uint32_t up;                   /* atomic: ABT_init done, ABT_finalize not yet */
    int init_count;                /* nesting of ABT_init calls; under init_lock (init.c) */
    pthread_mutex_t lock;          /* the ES table (xstreams, xstreams_cap, num_xstreams);
                                      not init/finalize: init.c's init_lock serializes
                                      those */
    bb_config_t config;
    bb_xstream **xstreams;         /* by rank; under lock */
    int xstreams_cap;
    int num_xstreams;              /* atomic for readers */
    bb_xstream *primary_xstream;
    bb_unit *primary_ult;
    uint64_t next_unit_id;         /* atomic */
    uint64_t next_pool_id;         /* atomic */
};

extern struct bb_runtime bb_rt;

static inline bool bb_is_up(void)
{
    return bb_load_acquire(&bb_rt.up) != 0;
}

/* Shortcuts of the critical path (src/unit/hotpath.c). Each is on by
 * default and can be switched off at run time (ABT_OPT_FAST_CREATE_FREE=0, ...)
 * to measure what it brings; see bench/report.sh. */
enum bb_shortcut {
    BB_SHORTCUT_CREATE_FREE = 1u << 0, /* ABT_OPT_FAST_CREATE_FREE: create and free inline */
    BB_SHORTCUT_BYPASS = 1u << 1, /* ABT_OPT_JOIN_BYPASS: a joiner runs a ready joinee itself */
    BB_SHORTCUT_YIELD = 1u << 2,  /* ABT_OPT_DIRECT_YIELD: yield switches to the next ULT */
    BB_SHORTCUT_RETURN = 1u << 3, /* a ULT may end by a return (bb_technique.h, RETURN); not
                                     an option: off only while a tool watches switches */
    BB_SHORTCUT_YIELD_SWAP = 1u << 4 /* BB_SHORTCUT_YIELD through a built-in pool, and
                                        yield_to: their switch is a bare swap, so off while
                                        a tool watches switches (their general paths tell it) */
};

/* The shortcuts usable now: none before ABT_init and after ABT_finalize, and
 * none while a tool callback is registered (the general paths report the
 * events). One load tells the hot path whether it may take a shortcut. */
extern __attribute__((visibility("hidden"))) uint32_t bb_shortcuts;
void bb_shortcuts_update(void);

static inline bool bb_shortcut_on(uint32_t which)
{
    return bb_bits_any(&bb_shortcuts, which);
}

int bb_config_read_env(bb_config_t *config); /* ABT_ERR_MEM without memory */
void bb_config_free(bb_config_t *config);
void bb_config_print(const bb_config_t *config, FILE *out);

int bb_xstream_table_add(bb_xstream *es, int rank);
void bb_xstream_table_remove(bb_xstream *es);
int bb_xstream_table_rank_of_locked(const bb_xstream *es);
int bb_xstream_table_set_rank(bb_xstream *es, int rank);

#endif
