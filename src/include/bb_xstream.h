/*
 * Execution streams: one OS thread each, running a main scheduler.
 *
 * The primary ES is the OS thread that called ABT_init; its primary ULT runs
 * on that thread's own stack. Every ES's main scheduler runs as a unit with a
 * stack of its own (`sched_unit`); a secondary ES's pthread keeps its own
 * context in `native_unit`, which starts the scheduler and is back when it
 * stops.
 *
 * The fields under "Hot" belong to the ES itself while it runs; the few that
 * other threads also read or write (`current`, `main_sched`, `retiring`,
 * `ult_steps`) say who does and under what lock. Those under "Shared" are
 * read or written by other threads too, as each one's comment says.
 */
#ifndef BB_XSTREAM_H
#define BB_XSTREAM_H

#include <abt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "bb_arch.h"
#include "bb_config.h"
#include "bb_mem.h"
#include "bb_unit.h"

/* Where an ES's thread may run (src/xstream/binding.c). */
typedef struct bb_binding {
    int cpuid;                 /* CPU it is bound to, or -1 */
    bool explicit_binding;     /* set by set_cpubind/set_affinity: not moved by rank */
    int *affinity;             /* CPUs it may run on (NULL: any) */
    int num_affinity;
    const int *rank_cpus;      /* with ABT_SET_AFFINITY and no explicit binding: the set
                                  of its rank (in bb_rt.config.rank_cpus), else NULL */
    int num_rank_cpus;
} bb_binding;

struct bb_xstream {
    /* Hot, the ES's own (but see above). */
    bb_unit *current;          /* unit running on this ES now; written by the ES only,
                                  atomically since others peek */
    bb_mem_cache cache;        /* free descriptors and stacks */
    bb_sched *main_sched;      /* written under sched_lock (install_main_sched: by the ES,
                                  or by set_main_sched's caller while the ES is
                                  terminated; new_xstream sets it before the ES is in the
                                  table). Others read it under sched_lock (pins, stop
                                  requests, ring_main_sched), but is_primary_main
                                  (sched.c) relaxed, without the lock */
    bb_unit *sched_unit;       /* the ULT that runs the main scheduler loop */
    bool adaptive;             /* ABT_THREAD_TECHNIQUE=auto: ult_steps change (bb_technique.h) */
    uint64_t ults_ended;       /* ULTs that ended on it, and how many of them had */
    uint64_t ults_deviated;    /* deviated (saved their context at least once) */
    uint64_t ults_joiner_run;  /* ULTs a joiner ran itself (the join bypass, hotpath.c) */
    uint64_t adapt_ended;      /* the counts at the last choice of auto */
    uint64_t adapt_deviated;
    uint64_t adapt_joiner_run;
    uint32_t deviation_percent; /* auto's running averages of the share that deviated */
    uint32_t joiner_run_percent; /* and of the share that their joiner ran, */
    uint32_t waiting_average;   /* and of the units waiting in its pools */
    bb_fpu_control sched_fpu;  /* the floating-point control it starts with, each time: a
                                  restart must not inherit that of the ULT it leaves */
    bb_sched *running_sched;   /* main scheduler whose loop runs now, or &bb_no_sched */
    bb_unit *restartable;      /* sched_unit while a predefined (stateless) loop runs on
                                  it, else NULL: it may be started afresh, so a ULT it
                                  starts need not save its context (bb_technique.h) */
    bb_sched *retiring;        /* replaced main scheduler, running until its pools drain;
                                  changed under sched_lock, which other threads hold to
                                  read it (bb_xstream_ring_main_sched) */
    bb_unit *replacer;         /* ULT parked in set_main_sched until the switch */
    bb_unit *self_joiners;     /* ULTs parked in ABT_xstream_join of this ES until it stops,
                                  linked through bb_unit.next */
    uint32_t ult_steps;        /* bb_ult_step bits of its threading technique (bb_technique.h);
                                  printers on other threads read it, relaxed */
    bool sched_stack_small;    /* sched_unit has a ULT-size stack, smaller than
                                  ABT_SCHED_STACKSIZE (SC: make_sched_unit) */
    void *big_stack;           /* ABT_SCHED_STACKSIZE, for what must not run on that small
                                  stack (bb_xstream_big_stack); mapped at its first use */
    uint32_t big_stack_flags;  /* its bb_unit_flags (guard page) */
    /* Shared with other ESs. */
    bb_spinlock sched_lock;    /* orders the changes of main_sched with other threads'
                                  looks at it: pins, stop requests */
    uint32_t stop_bits;        /* BB_SCHED_REQ_FINISH / EXIT asked of this ES (join,
                                  free, cancel, exit, finalize): every main scheduler it
                                  gets inherits them; under sched_lock */
    bb_unit *remote_ready;     /* ULTs of private pools it pops, woken elsewhere, for it to
                                  make ready (switch.c); BB_INBOX_CLOSED while its
                                  scheduler does not run; atomic */
    int rank;                  /* atomic */
    uint32_t state;            /* ABT_xstream_state, or BB_XSTREAM_STARTING; atomic */
    uint8_t in_dump;           /* stopped in a stack dump's rendezvous (src/info/dump.c);
                                  atomic */
    bool is_primary;
    bool has_thread;           /* a pthread runs (or ran and is not yet joined) */
    pthread_mutex_t join_lock; /* one pthread_join of that thread, however many join the
                                  ES at once; revive restarts it under it too */
    pthread_t thread;
    bb_unit *finalizer;        /* primary ES: the primary ULT, back from ABT_finalize */
    bb_unit *native_unit;      /* secondary ES: its OS thread's own context, which starts
                                  the scheduler on its stack and is back when it stops */
    const void *native_stack;  /* its OS thread's own stack, learned at the first switch */
    size_t native_stack_size;  /* (for AddressSanitizer's fiber annotations) */
    bb_unit *asan_from;        /* the switch in flight, for src/unit/fibers.c */
    void (*asan_fn)(void *);
    void *asan_arg;
    bb_binding binding;        /* under binding.c's lock */
};

#define BB_INBOX_CLOSED ((bb_unit *)1)

/* bb_xstream.state while its thread is being created (start_thread): not
 * RUNNING yet for a migration; ABT_xstream_get_state says RUNNING. */
#define BB_XSTREAM_STARTING 2u

/* Wake-ups into private pools from elsewhere (switch.c): the ES makes the
 * ULTs in its inbox ready (at its schedulers' event checks), and closes it
 * when its scheduler stops, opens it when it starts. */
void bb_xstream_take_remote_ready(bb_xstream *es);
void bb_xstream_close_inbox(bb_xstream *es);
void bb_xstream_open_inbox(bb_xstream *es);

static inline bb_xstream *bb_xstream_of(ABT_xstream handle)
{
    return (bb_xstream *)(void *)handle;
}

static inline ABT_xstream bb_xstream_handle(bb_xstream *es)
{
    return (ABT_xstream)(void *)es;
}

/* The ES the calling OS thread runs, or NULL for an external thread.
 * Initial-exec: one %fs-relative load, no call to __tls_get_addr. */
extern __thread bb_xstream *bb_tls_xstream __attribute__((tls_model("initial-exec")));

/* Not instrumented by ThreadSanitizer: an instrumented read hands TSan the
 * variable's address, computed from a thread pointer the compiler may keep
 * across a call in which the ULT moved to another ES (run_child_first,
 * across the ULT's function), and TSan then reports a race with the next
 * thread to reuse the old one's TLS. GCC does not inline a function whose
 * sanitizers differ from its caller's, so under TSan this is a call that
 * reads the thread pointer afresh; in every other build it is one load. */
static inline __attribute__((no_sanitize_thread)) bb_xstream *bb_self_xstream(void)
{
    return bb_tls_xstream;
}

/* The same, but never NULL: an external thread gets a stand-in whose
 * current unit is no ULT, so that the yields' shortcut, which starts by
 * testing that unit, needs no test for NULL before. Read nothing else of
 * it. */
extern __thread bb_xstream *bb_tls_here __attribute__((tls_model("initial-exec")));

static inline bb_xstream *bb_self_xstream_or_outside(void)
{
    return bb_tls_here;
}

/* Make `es` (NULL: none) the ES of the calling OS thread. */
void bb_xstream_set_self(bb_xstream *es);

/* The unit the caller runs as: NULL from an external thread. */
static inline bb_unit *bb_self_unit(void)
{
    bb_xstream *es = bb_tls_xstream;
    return es ? es->current : 0;
}

static inline bb_mem_cache *bb_self_mem_cache(void)
{
    bb_xstream *es = bb_tls_xstream;
    return es ? &es->cache : 0;
}

/* Other threads' uses of an ES's main scheduler, which the ES may replace
 * meanwhile (xstream.c). */
/* A stop request reaches whichever scheduler is main now and every later
 * one. */
void bb_xstream_request_stop(bb_xstream *es, uint32_t bits);
/* Wake the main scheduler of `es` if it sleeps (BASIC_WAIT), so that it
 * takes in its inbox (remote_ready). */
void bb_xstream_ring_main_sched(bb_xstream *es);
/* The main scheduler of `es`, pinned: it is not retired until
 * bb_sched_unpin. Never NULL for an ES in the table or held by the user:
 * new_xstream sets it before the ES enters the table, and a failed create
 * clears it only after taking the ES out. */
bb_sched *bb_xstream_pin_main_sched(bb_xstream *es);
/* The first pool of the main scheduler of `es` (NULL if it has none), for
 * ABT_*_create_on_xstream. That scheduler stays pinned in *pinned (if not
 * NULL) until the caller's bb_sched_unpin, after its push: unpinned, it
 * could be replaced and retired in between, freeing the pool. */
bb_pool *bb_xstream_pin_first_main_pool(bb_xstream *es, bb_sched **pinned);

int bb_xstream_create_primary(bb_xstream **out);
/* ABT_finalize, in this order (init.c): */
void bb_xstream_join_secondaries(void);
void bb_xstream_stop_primary(bb_xstream *es); /* runs what is left */
void bb_xstream_free_secondaries(void);
void bb_xstream_free_primary(bb_xstream *es);
void bb_xstream_run_unit(bb_xstream *es, bb_unit *u, bb_pool *pool);
/* ABT_init (true) and ABT_finalize once every ES thread is joined (false):
 * an ES thread that ends inside a work unit is reported (xstream.c). */
void bb_xstream_watch_threads(bool on);
int bb_xstream_run_unit_from_user(bb_xstream *es, bb_unit *u, bb_pool *pool);
void *bb_xstream_big_stack(bb_xstream *es); /* NULL if it cannot be mapped */
void bb_xstream_init_binding(bb_xstream *es);
void bb_xstream_set_thread(bb_xstream *es, const pthread_t *thread);
void bb_xstream_publish_terminated(bb_xstream *es); /* binding.c */
void bb_xstream_apply_binding(bb_xstream *es);
int bb_xstream_rebind_for_rank(bb_xstream *es);
int bb_xstream_cpuid(bb_xstream *es); /* first bound CPU or -1, under the binding lock */
void bb_xstream_restore_primary_binding(void);

#endif
