/*
 * Schedulers: a loop, run by a ULT of its own, that pops units from its pools
 * and runs them with bb_xstream_run_unit until it is told to stop.
 *
 * A scheduler is either the main scheduler of an ES, or stacked: pushed into
 * a pool with ABT_pool_add_sched, run as a ULT by whichever scheduler pops it,
 * giving control back to that parent now and then (bb_sched_check_events) and
 * for good when it stops.
 *
 * Stop protocol: another party sets a request bit (FINISH: stop once every
 * pool is empty, blocked units included; REPLACE: the same, for a new main
 * scheduler to take over; EXIT: stop at the next check) and rings the
 * scheduler's bell, in case it sleeps. The loop looks at the bits
 * in bb_sched_has_to_stop, every `event_freq` iterations and whenever it is
 * idle.
 */
#ifndef BB_SCHED_H
#define BB_SCHED_H

#include <abt.h>
#include <stdbool.h>
#include <stdint.h>

#include "bb_bell.h"
#include "bb_config.h"
#include "bb_unit.h"

enum bb_sched_requests {
    BB_SCHED_REQ_FINISH = 1u << 0, /* stop when all pools are empty */
    BB_SCHED_REQ_EXIT = 1u << 1,   /* stop as soon as possible */
    BB_SCHED_REQ_REPLACE = 1u << 2 /* stop once the pools are drained, as FINISH: a new
                                      main scheduler takes over (set_main_sched) */
};

enum bb_sched_use {
    BB_SCHED_UNUSED,
    BB_SCHED_MAIN,   /* main scheduler of an ES */
    BB_SCHED_IN_POOL /* stacked: runs as a ULT taken from a pool */
};

/* Predefined loops, and the kind of a user-defined scheduler. */
#define BB_SCHED_USER (-1)

struct bb_sched {
    void (*run)(ABT_sched sched);
    int (*user_free)(ABT_sched sched);             /* ABT_sched_def.free */
    ABT_pool (*get_migr_pool)(ABT_sched sched);    /* ABT_sched_def.get_migr_pool */
    int kind;                  /* ABT_sched_predef value or BB_SCHED_USER */
    int num_pools;
    bb_pool **pools;
    uint32_t request;          /* bb_sched_requests; atomic */
    int used;                  /* bb_sched_use; atomic (bb_sched_claim) */
    bool automatic;            /* freed with the ES (or the pool slot) that uses it */
    bool leaving;              /* counted in its pools' `leaving`
                                  (bb_sched_destroy_unless_needed) */
    int event_freq;
    unsigned rounds_left;      /* units it may still run before its events are due: the
                                  loop and the direct yield of hotpath.c count down from
                                  event_freq, so one decrement and a test for zero per unit */
    bb_pool *direct_pool;      /* its first pool, if the loop is a predefined one that runs
                                  the head of its first non-empty pool and that pool is a
                                  private FIFO: a ULT of it may yield straight to its head
                                  (hotpath.c), and the loop pops it inline (basic.c);
                                  NULL otherwise */
    bb_pool *direct_user_pool; /* the same for a first pool that is a user pool: a ULT of
                                  it may yield straight to what the pool's pop gives */
    bb_unit *handed;           /* popped from the first pool by such a yield, which could
                                  not run it directly, or after tasklets run on the ES's
                                  big stack (switch.c): the loop runs it before it pops
                                  again (bb_sched_take_handed). Owner ES only */
    bb_xstream *xstream;       /* ES it is the main scheduler of (bb_sched_attach) */
    uint32_t pins;             /* other threads using it as an ES's main scheduler
                                  (bb_xstream_pin_main_sched); retired only at 0; atomic */
    bool has_private_pool;     /* so takes in migrated units at its event checks */
    bb_unit *unit;             /* ULT running the loop; atomic (print). A stacked one
                                  clears it when it stops (stack.c); a main one keeps it
                                  after leaving its ES (leave_es), stale then */
    void *data;                /* ABT_sched_set_data */
    bb_bell *bell;             /* rung by requests, so that a sleeping loop sees them;
                                  never freed (bb_bell_take) */
    struct bb_pool_sleeper *sleepers; /* BASIC_WAIT: one node per pool, made at first sleep */
    uint64_t random;           /* RANDWS: state of the victim picker */
    unsigned idle_vain;        /* BASIC_WAIT: idle periods in a row that polling did not
                                  end (src/sched/basic.c); written by its ES, atomic */
};

/* What bb_xstream.running_sched names while no main scheduler's loop runs:
 * a scheduler with no direct pool, which the direct yield of hotpath.c
 * passes over without a test of its own. Never run. */
extern bb_sched bb_no_sched;

/* The unit a direct yield handed the loop of `s` (see `handed`), if any:
 * what it runs next, before popping its first pool again. */
static inline bb_unit *bb_sched_take_handed(bb_sched *s)
{
    bb_unit *u = s->handed;
    if (__builtin_expect(u != NULL, 0))
        s->handed = NULL;
    return u;
}

/* Whether the loop of `s` may be started afresh at any time (the
 * SCHED_RESTART step, bb_technique.h): a predefined loop keeps what it must
 * remember in its bb_sched, not on its stack, so that a restart loses
 * nothing; a user-defined one may not. */
static inline bool bb_sched_is_stateless(const bb_sched *s)
{
    return s->kind != BB_SCHED_USER;
}

/* Whether the BASIC_WAIT loop of `s` polls before it sleeps: unless its
 * last BB_IDLE_VAIN_SPINS polls were in vain (src/sched/basic.c). */
static inline bool bb_sched_polls_before_sleep(const bb_sched *s)
{
    return bb_load_relaxed(&s->idle_vain) < BB_IDLE_VAIN_SPINS;
}

/* Its first pool, where units created "on an ES" go; NULL for a user
 * scheduler made with no pools. */
static inline bb_pool *bb_sched_first_pool(const bb_sched *s)
{
    return s->num_pools > 0 ? s->pools[0] : NULL;
}

/* Whether `s` pops from `pool`: only a unit of the ES that `s` is the main
 * scheduler of may take units out of it (a private pool belongs to its ES
 * alone). Compares pointers only: `pool` may be gone. */
static inline bool bb_sched_has_pool(const bb_sched *s, const bb_pool *pool)
{
    for (int i = 0; i < s->num_pools; i++)
        if (s->pools[i] == pool)
            return true;
    return false;
}

/* Take an unused scheduler for `use` (MAIN or IN_POOL); false if somebody
 * uses it already. Atomic: two ESs may race for one scheduler. */
static inline bool bb_sched_claim(bb_sched *s, int use)
{
    int expected = BB_SCHED_UNUSED;
    return __atomic_compare_exchange_n(&s->used, &expected, use, false, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
}

/* Give a scheduler up; the last thing done with it, since the user may free
 * or reuse it as soon as it reads UNUSED. */
static inline void bb_sched_unclaim(bb_sched *s)
{
    __atomic_store_n(&s->used, BB_SCHED_UNUSED, __ATOMIC_RELEASE);
}

/* The end of a bb_xstream_pin_main_sched: what the caller did with `s` is
 * done before its retirement may begin. */
static inline void bb_sched_unpin(bb_sched *s)
{
    bb_fetch_add_acq_rel(&s->pins, (uint32_t)-1);
}

static inline bool bb_sched_is_used(bb_sched *s)
{
    return __atomic_load_n(&s->used, __ATOMIC_ACQUIRE) != BB_SCHED_UNUSED;
}

static inline bb_sched *bb_sched_of(ABT_sched handle)
{
    return (bb_sched *)(void *)handle;
}

static inline ABT_sched bb_sched_handle(bb_sched *s)
{
    return (ABT_sched)(void *)s;
}

/* Creation options shared by predefined and user-defined schedulers. */
typedef struct {
    int kind;                  /* ABT_sched_predef or BB_SCHED_USER */
    int num_pools;
    bb_pool **pools;           /* NULL entries (or no array): make pools */
    int new_pool_kind;         /* ABT_pool_kind of the pools it makes */
    int new_pool_access;       /* and their access */
    bool automatic;
    int event_freq;
} bb_sched_spec;

int bb_sched_create(const bb_sched_spec *spec, bb_sched **out);
int bb_sched_create_default(bb_sched **out);
int bb_sched_create_predef(int predef, int num_pools, bb_pool **pools, ABT_sched_config config,
                           bool automatic_default, bb_sched **out);
void bb_sched_destroy(bb_sched *sched);
/* Destroys `s`, unless that would free an automatic pool (`s` holds it
 * last) with work still in it or bound for it; returns whether it did. */
bool bb_sched_destroy_unless_needed(bb_sched *s);
/* The end of a scheduler's use (it left its ES, or its stacked run ended):
 * an automatic one is destroyed, unless bb_sched_destroy_unless_needed
 * keeps it; then it goes back to the user with that work, no longer
 * automatic, as one that is not automatic always does: the user frees it. */
void bb_sched_free_or_give_back(bb_sched *s);
void bb_sched_destroy_with_pools(bb_sched *sched);
/* Destroys `s`, made by a call that then failed: the pools of `given` (the
 * caller's array, NULL entries or all NULL for pools `s` made) are let go
 * of but never freed; only those `s` made go with it. */
void bb_sched_discard(bb_sched *s, bb_pool *const *given);
void bb_sched_request(bb_sched *sched, uint32_t bits);
/* `s` becomes, or stops being, the main scheduler of `es`: its private
 * pools get, or lose, their home (bb_pool.h). Attaching fails with
 * ABT_ERR_INV_POOL_ACCESS, changing nothing, if one of them is another
 * ES's already. */
int bb_sched_attach(bb_sched *s, bb_xstream *es);
void bb_sched_detach(bb_sched *s);
bool bb_sched_has_to_stop(bb_sched *sched);
bool bb_sched_pools_are_drained(bb_sched *sched);
void bb_sched_check_events(bb_sched *sched);

/* The function the API shows for a scheduler's unit (ABT_thread_get_thread_func,
 * ABT_self_get_thread_func). stack.c. */
void (*bb_sched_unit_func(const bb_unit *u))(void *);
bool bb_sched_unit_is_stacked(const bb_unit *u); /* stack.c */
bb_pool *bb_sched_migration_pool(bb_sched *sched);

/* Predefined loops, basic.c. */
void bb_sched_basic_run(ABT_sched handle);
void bb_sched_basic_wait_run(ABT_sched handle);
void bb_sched_randws_run(ABT_sched handle);

/* Configurations, config.c. */
int bb_sched_config_int(ABT_sched_config config, const ABT_sched_config_var *var, int fallback);

#endif
