/*
 * The work unit: what a pool holds and a scheduler runs.
 *
 * A tasklet is a bb_unit. A ULT is a bb_unit that also has a context and a
 * stack (flag BB_UNIT_ULT). Everything else (create, run, finish, join, free)
 * is one code path for both. The public create, join, free, yield and
 * yield_to, with their shortcuts, are in src/unit/hotpath.c; the general life
 * cycle (create, terminate, join, release) is in unit.c; running, switching
 * and ending are in switch.c. The public ABT_thread and ABT_task handles are
 * both pointers to a bb_unit.
 *
 * Ownership: a unit is owned by its creator until it is pushed into a pool;
 * then by the pool until popped; then by the ES that runs it. When it
 * terminates, a named unit (the user holds a handle) is owned by that handle
 * until ABT_thread_free; an unnamed one is released by the runtime at once.
 */
#ifndef BB_UNIT_H
#define BB_UNIT_H

#include <abt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bb_atomic.h"

typedef struct bb_unit bb_unit;
typedef struct bb_pool bb_pool;
typedef struct bb_sched bb_sched;
typedef struct bb_xstream bb_xstream;

enum bb_unit_flags {
    BB_UNIT_ULT = 1u << 0,          /* has a context; may yield and block */
    BB_UNIT_NAMED = 1u << 1,        /* a user handle exists; freed by ABT_*_free */
    BB_UNIT_PRIMARY = 1u << 2,      /* the primary ULT (the thread that called ABT_init) */
    BB_UNIT_SCHED = 1u << 3,        /* runs a scheduler loop */
    BB_UNIT_SLAB_STACK = 1u << 4,   /* stack carved from a large-page slab: never unmapped alone */
    BB_UNIT_USER_STACK = 1u << 5,   /* stack memory belongs to the user */
    BB_UNIT_CACHED_STACK = 1u << 6, /* stack of the default size, from the stack cache */
    BB_UNIT_GUARDED_STACK = 1u << 7, /* a guard page sits below the stack */
    /* BB_UNIT_ULT without BB_UNIT_SCHED: the direct yield's test (hotpath.c)
     * in one instruction. Set and cleared with those two. */
    BB_UNIT_PLAIN_ULT = 1u << 8
};

enum bb_unit_requests {
    BB_REQ_CANCEL = 1u << 0, /* terminate without running (further) */
    BB_REQ_MIGRATE = 1u << 1 /* move to `migrate_to` at the next chance */
};

/* bb_unit.resumable. A ULT suspending itself is SUSPENDING from just before
 * its state reads BLOCKED until it may be resumed: a resume that saw it
 * BLOCKED in between waits instead of failing (bb_unit_claim_suspension). */
enum bb_resumable {
    BB_NOT_RESUMABLE = 0, /* running, ready, or blocked on something else */
    BB_RESUMABLE = 1,     /* suspended by the user, nobody has resumed it yet */
    BB_SUSPENDING = 2     /* about to be RESUMABLE */
};

/* bb_unit.state of a descriptor that holds no unit (in a memory cache). */
#define BB_UNIT_STATE_FREE 0xf4eeu

/* Values of bb_unit.joiner besides a waiter (see bb_waiter.h). */
#define BB_JOIN_NOBODY ((uintptr_t)0)
#define BB_JOIN_DONE ((uintptr_t)1)

struct bb_unit {
    /* Fields of the create / run / join / free path come first, so that the
     * fork-join path touches as few cache lines as possible. */
    bb_unit *next;              /* links while in a built-in pool */
    bb_unit *prev;
    bb_pool *pool;              /* associated pool: where it goes when it becomes ready */
    void (*func)(void *);
    void *arg;
    uint32_t flags;             /* bb_unit_flags; fixed once the unit is made */
    uint32_t state;             /* ABT_thread_state; atomic */
    uintptr_t joiner;           /* BB_JOIN_NOBODY, BB_JOIN_DONE or a waiter; atomic */
    bb_xstream *xstream;        /* ES running it, or the last one that did */
    bb_unit *parent;            /* ULT: the context it returns to (a scheduler, or a
                                   joiner that runs it directly, see hotpath.c) */
    void *ctx;                  /* ULT: where its context was last saved; NULL until it
                                   first leaves its stack, and left set while it runs again,
                                   so that a running ULT with ctx set has deviated
                                   (bb_technique.h). A unit whose ctx is NULL starts afresh
                                   at the next switch to it (a scheduler: SCHED_RESTART). A
                                   RETURN call puts the parent's back when the callee
                                   returns (bb_ult_call). */
    void *stack;                /* ULT: lowest usable address of its stack; a lazy one
                                   (bb_technique.h) only from its first run to its end,
                                   written atomically then */
    size_t stacksize;
    /* Colder fields. The small ones share one word, which a new unit gets
     * in one store (bb_unit_small_fresh) and a free reads in one load. */
    union {
        struct {
            uint8_t migratable; /* may be moved between pools (ABT_*_migrate); atomic.
                                   First: on a little-endian CPU the word of a fresh unit
                                   is then 1, which a compare takes as an immediate
                                   (free_unit, hotpath.c) */
            uint8_t resumable;  /* bb_resumable: may ABT_thread_resume take it; atomic */
            union {
                struct {
                    uint8_t switching; /* ULT: its context is not yet saved although
                                          others may find it already (blocked, or
                                          pushed by a direct yield through a user
                                          pool, hotpath.c); atomic */
                    uint8_t requests;  /* bb_unit_requests; atomic */
                };
                uint16_t unsettled;    /* both, for one test (bb_unit_is_settled); it
                                          starts at `switching`, so that its acquire
                                          pairs with the release of `switching` for
                                          ThreadSanitizer too */
            };
            uint8_t in_wait;    /* inside bb_wait: a cancel waits until it returns; owner only */
            uint8_t lent_stack; /* ULT: flags of the stack it got at its first run, which it
                                   gives back when it ends (bb_technique.h, LAZY_STACK); 0
                                   if none. Zero whenever the descriptor holds no unit. */
            uint8_t cold_set;   /* a field from wait_target to map_next, or fiber, may be
                                   nonzero at the unit's end (bb_unit_set_cold) */
            uint8_t user_made;  /* has a user pool's unit: user_unit, unit_pool, map_next
                                   are set, and zero again once it is given back */
        };
        uint64_t small;
    };
    /* From here to map_next: zero in every free descriptor (bb_unit_make_free),
     * so that the create shortcut need not write them. The transient ones
     * (wait_target, blocked_in) are zero again whenever the unit runs, the
     * user pool's ones (user_made) once its unit is given back, listed_in
     * once it leaves a shared pool's list; a write of any other sets
     * cold_set. */
    const void *wait_target;    /* what a blocked ULT waits for: the unit it joins, or its
                                   node in a sync object's queue (also while it polls
                                   there, wait.c); NULL if suspended. A
                                   ready ULT that made a child-first ULT: that child
                                   (switch.c), until it runs again */
    bb_pool *blocked_in;        /* pool whose num_blocked counts it while blocked, or NULL */
    bb_pool *listed_in;         /* the shared built-in pool whose list holds it, or NULL;
                                   written under that pool's lock, atomic (builtin.c).
                                   NULL whenever it is in no shared pool's list */
    struct bb_migrate_cb *migrate_cb; /* called when migrated, with its argument, or NULL
                                         (migrate.c) */
    bb_pool *migrate_to;        /* target of a pending migration, which counts it there
                                   (migrate.c); atomic */
    uint64_t id;                /* assigned lazily by the first query; atomic */
    struct bb_keytab *keys;     /* values of ABT_key_set, or NULL (src/unit/key.c) */
    /* Only for units in user-defined pools (src/pool/user.c). */
    ABT_unit user_unit;         /* what unit_pool's create-unit callback made */
    bb_pool *unit_pool;         /* the user pool that made user_unit, or NULL: none */
    bb_unit *map_next;          /* chain in the ABT_unit -> bb_unit map */
    /* What the tool watching switches knows of it (src/unit/fibers.c): at
     * most one such tool is served (bb_fiber_tools_detect). Zero whenever
     * the descriptor holds no unit. */
    union bb_unit_fiber {
        void *asan_fake_stack;  /* AddressSanitizer: its fake stack, saved while switched out */
        void *tsan;             /* ThreadSanitizer: its fiber, or NULL */
        struct {
            unsigned stack_id;  /* valgrind: its stack as valgrind knows it */
            bool registered;
        } vg;
    } fiber;
};

/* Three cache lines, so that 65,536 live ULTs without a stack (lazy) take
 * 12 MiB. */
_Static_assert(sizeof(struct bb_unit) <= 192, "a unit descriptor grew past 3 cache lines");

/* The cold fields, as in every free descriptor (bb_unit_make_free). This
 * forgets what they hold: keys and a migration callback must be released
 * before (bb_unit_release_memory). */
static inline void bb_unit_clear_cold(bb_unit *u)
{
    u->cold_set = 0;
    u->wait_target = NULL;
    u->blocked_in = NULL;
    u->listed_in = NULL;
    u->migrate_cb = NULL;
    u->migrate_to = NULL;
    u->id = 0;
    u->keys = NULL;
    u->user_unit = ABT_UNIT_NULL;
    u->unit_pool = NULL;
    u->map_next = NULL;
}

/* The small word of a unit the create shortcut makes: migratable, nothing
 * else; `user_made` once its user pool made its unit. A terminated unit
 * that ends with it can go back to a cache as it is, after giving back its
 * user pool's unit (hotpath.c). */
static inline uint64_t bb_unit_small_fresh(bool user_made)
{
    bb_unit u = {.migratable = 1, .user_made = user_made}; /* folds to a constant */
    return u.small;
}

/* What the create shortcut writes in a descriptor from an ES cache, whose
 * cold fields are zero and joiner BB_JOIN_NOBODY already (bb_unit_make_free:
 * a free descriptor always is so). Not the stack fields (the memory layer's). */
static inline void bb_unit_init_cached(bb_unit *u, bb_pool *pool, void (*func)(void *),
                                       void *arg, uint32_t flags)
{
    u->next = NULL;
    u->prev = NULL;
    u->pool = pool;
    u->func = func;
    u->arg = arg;
    u->flags = flags;
    u->state = ABT_THREAD_STATE_READY;
    u->xstream = NULL;
    u->parent = NULL;
    u->ctx = NULL;
    u->small = bb_unit_small_fresh(false);
}

/* Every field of a fresh unit but the stack ones (the memory layer's) and
 * the fiber ones (already zero, see bb_fibers_release): the create
 * shortcut's, then what a free descriptor has already. */
static inline void bb_unit_init(bb_unit *u, bb_pool *pool, void (*func)(void *), void *arg,
                                uint32_t flags)
{
    bb_unit_init_cached(u, pool, func, arg, flags);
    u->joiner = BB_JOIN_NOBODY;
    u->small = 0; /* not migratable, no request, no marker */
    bb_unit_clear_cold(u);
}

/* A cold field other than a transient one is about to be written: the
 * descriptor must be cleared before it holds another unit. */
static inline void bb_unit_set_cold(bb_unit *u)
{
    bb_store_relaxed(&u->cold_set, 1u);
}

/* A descriptor that no longer holds a unit, as every free one is: zero cold
 * fields, no joiner, state BB_UNIT_STATE_FREE (which a stale handle shows). */
static inline void bb_unit_make_free(bb_unit *u)
{
    if (u->cold_set)
        bb_unit_clear_cold(u);
    bb_store_relaxed(&u->joiner, BB_JOIN_NOBODY);
    bb_store_relaxed(&u->state, BB_UNIT_STATE_FREE);
}

static inline bb_unit *bb_unit_of(ABT_thread handle)
{
    return (bb_unit *)(void *)handle;
}

static inline ABT_thread bb_unit_handle(bb_unit *u)
{
    return (ABT_thread)(void *)u;
}

/* The bb_unit_flags that describe where a unit's stack comes from. */
#define BB_UNIT_STACK_FLAGS \
    (BB_UNIT_USER_STACK | BB_UNIT_CACHED_STACK | BB_UNIT_GUARDED_STACK | BB_UNIT_SLAB_STACK)

/* A ULT that blocked on another ES may be found (popped, joined) before that
 * ES has saved its context: wait for the save before switching to it. */
void bb_unit_wait_until_saved_slow(bb_unit *u);

static inline void bb_unit_wait_until_saved(bb_unit *u)
{
    if (__builtin_expect(bb_load_acquire(&u->switching) != 0, 0))
        bb_unit_wait_until_saved_slow(u);
}

/* A move asked for while the unit could not be moved (it was running,
 * blocked, or on its way into a pool) waits to happen where it next
 * becomes ready or is pushed (migrate.c). Rare. */
static inline bool bb_unit_has_move_pending(const bb_unit *u)
{
    return __builtin_expect((bb_load_relaxed(&u->requests) & BB_REQ_MIGRATE) != 0, 0);
}

static inline bool bb_unit_is_ult(const bb_unit *u)
{
    return (u->flags & BB_UNIT_ULT) != 0;
}

/* Whether a cancel or a migration waits to be served; other ESs may ask
 * for one at any time. */
static inline bool bb_unit_has_requests(const bb_unit *u)
{
    return bb_byte_nonzero(&u->requests);
}

/* Neither a request to serve nor a context still being saved (by another
 * ES, see bb_unit_wait_until_saved): a ULT ready to be switched to. One
 * acquire load of both bytes: it pairs with the release that cleared
 * `switching`, after which the saved context and fields may be used. */
static inline bool bb_unit_is_settled(bb_unit *u)
{
    return bb_load_acquire(&u->unsettled) == 0;
}

static inline bool bb_unit_is_terminated(bb_unit *u)
{
    return bb_load_acquire(&u->joiner) == BB_JOIN_DONE;
}

/* Acquire: a unit seen BLOCKED has finished what it did before blocking
 * (e.g. counting itself in its pool), which the observer may now change. */
static inline int bb_unit_state(bb_unit *u)
{
    return (int)bb_load_acquire(&u->state);
}

/* Creation parameters shared by ULTs and tasklets. */
typedef struct {
    bool is_ult;
    bool named;
    bool migratable;
    void *user_stack;   /* ULT: stack supplied by the user, or NULL */
    size_t stacksize;   /* ULT: 0 for the default */
    bool defer_push;    /* leave it out of the pool: the caller runs it directly */
    void (*migrate_cb)(ABT_thread, void *); /* ULT: called when migrated, or NULL */
    void *migrate_cb_arg;
} bb_unit_spec;

/* Life cycle, src/unit/unit.c. */
int bb_unit_create(bb_pool *pool, void (*func)(void *), void *arg, const bb_unit_spec *spec,
                   bb_unit **out);
int bb_unit_revive(bb_pool *pool, void (*func)(void *), void *arg, bb_unit *u, bool push);
int bb_unit_join(bb_unit *u);
/* fn(arg), where exception unwinding ends (src/unit/outermost.c). */
void bb_call_outermost(void (*fn)(void *), void *arg);
int bb_unit_free(bb_unit *u);
void bb_unit_release(bb_unit *u);
void bb_unit_cancel(bb_unit *u);
uint64_t bb_unit_get_id(bb_unit *u);
bb_unit *bb_unit_alloc_primary(void);
int bb_unit_make_sched(size_t stacksize, bool lazy_stack, void (*entry)(void *), bb_unit **out);
void bb_unit_terminate(bb_unit *u);
bool bb_unit_has_ended(bb_unit *u);
void bb_unit_wait_terminated(bb_unit *u);        /* join bypass, else block */
void bb_unit_block_until_terminated(bb_unit *u); /* block only */
void bb_unit_release_memory(bb_unit *u); /* without the FREE tool event */

void bb_unit_wake_joiner(uintptr_t waiter);
void bb_unit_drop_migration(bb_unit *u); /* migrate.c */

/* The argument a unit's function gets when it starts. ABT_thread_set_arg
 * may store a new one (atomically) from any thread while another ES starts
 * the unit, so it is read atomically too: a plain read raced that store
 * (ThreadSanitizer). Relaxed: the same load instruction. */
static inline void *bb_unit_start_arg(const bb_unit *u)
{
    return bb_load_relaxed(&u->arg);
}

/* A unit whose state reads TERMINATED goes to whoever joins it, or, unnamed,
 * back to memory. After the exchange, the unit belongs to its joiner. */
static inline void bb_unit_hand_over_end(bb_unit *u)
{
    if (!(u->flags & BB_UNIT_NAMED)) {
        bb_unit_release(u);
        return;
    }
    uintptr_t waiter = bb_exchange_acq_rel(&u->joiner, BB_JOIN_DONE);
    if (waiter > BB_JOIN_DONE)
        bb_unit_wake_joiner(waiter);
}

/* bb_unit_terminate of a unit that holds no lent stack. Inline: every unit
 * a scheduler's pass runs to its end ends here. The requests are read by a
 * read-modify-write after the state is written, and post_request
 * (migrate.c) writes its request by one before it reads the state: of the
 * two, the later one sees the other's, so a move posted meanwhile sees the
 * unit ended, or is seen here and dropped (any request: one test), and its
 * target stops counting it. */
static inline void bb_unit_end(bb_unit *u)
{
    bb_store_release(&u->state, (uint32_t)ABT_THREAD_STATE_TERMINATED); /* what it did is seen */
    if (__builtin_expect(bb_byte_nonzero_rmw(&u->requests), 0))
        bb_unit_drop_migration(u);
    bb_unit_hand_over_end(u);
}

/* The same for a tasklet that ran: no move is ever pending for one, since
 * only tasklets that wait in a pool can move, and they move at once
 * (migrate.c). */
static inline void bb_unit_end_tasklet(bb_unit *u)
{
    bb_store_release(&u->state, (uint32_t)ABT_THREAD_STATE_TERMINATED); /* what it did is seen */
    bb_unit_hand_over_end(u);
}

/* The shortcuts of the critical path, src/unit/hotpath.c, and the general
 * ULT creation they fall back to (thread.c). */
bool bb_join_bypass(bb_unit *self, bb_unit *u);
int bb_thread_create_general(bb_pool *pool, void (*func)(void *), void *arg,
                             ABT_thread_attr attr, bb_unit **out);
int bb_thread_create_to_general(ABT_pool pool, void (*func)(void *), void *arg,
                                ABT_thread_attr attr, ABT_thread *newthread);

/* Switching, src/unit/switch.c: every ULT context switch goes through here. */
void bb_unit_run(bb_xstream *es, bb_unit *u);
/* bb_unit_run for the user's ABT_self_schedule and ABT_xstream_run_unit,
 * called from anywhere: a tasklet's function runs in an outermost frame
 * (bb_call_outermost). */
void bb_unit_run_for_user(bb_xstream *es, bb_unit *u);
/* The scheduler `s` runs the units of its private FIFO `pool`, oldest first,
 * until the pool is empty or its events are due (each counts as a round of
 * `s`). The same as one pick and bb_xstream_run_unit per unit, in one loop.
 * Returns whether any ran. */
bool bb_unit_run_fifo(bb_sched *s, bb_pool *pool);
/* The same for any other pool, each unit taken by the pool's pop operation
 * (for a user pool: its callback). */
bool bb_unit_run_popped(bb_sched *s, bb_pool *pool);
void bb_ult_yield(bb_unit *self);
int bb_ult_yield_to(bb_unit *self, bb_unit *target);
void bb_ult_yield_to_unpooled(bb_unit *self, bb_unit *target);
void bb_ult_resume_yield_to(bb_unit *self, bb_unit *target); /* `target` taken from suspension */
/* Child-first (ABT_thread_create_to, revive_to): run `child`, which never
 * ran, at once; the caller goes to its pool with `push_ctx`. */
void bb_ult_run_child_first(bb_unit *self, bb_unit *child, ABT_pool_context push_ctx);
void bb_ult_suspend(bb_unit *self);
void bb_ult_park(bb_unit *self);
void bb_ult_suspend_to(bb_unit *self, bb_unit *target);
__attribute__((noreturn)) void bb_ult_exit_to(bb_unit *self, bb_unit *target);
void bb_ult_block_on_join(bb_unit *self, bb_unit *target);
/* Block until bb_unit_make_ready; `lock` (held: it guards the queue where the
 * caller registered as waiting on `wait_on`) is released once the caller's
 * context is saved, so no waker can resume it too early. Then the claimed
 * nodes `wake` (NULL: none) are woken, as bb_wait_then_wake says. */
struct bb_wait_node;
void bb_ult_block_releasing(bb_unit *self, const struct bb_wait_node *wait_on, bb_spinlock *lock,
                            struct bb_wait_node *wake);
__attribute__((noreturn)) void bb_ult_exit(bb_unit *self);
void bb_unit_make_ready(bb_unit *u);
void bb_unit_uncount_blocked(bb_pool *was, bb_pool *now);
int bb_unit_resume(bb_unit *u);
bool bb_unit_claim_suspension(bb_unit *u);

/* Migration, src/unit/migrate.c. */
int bb_unit_migrate(bb_unit *u, bb_pool *to);
bb_pool *bb_unit_apply_migration(bb_unit *u);
/* The migration callback and its argument, set and read as one pair
 * (src/unit/migrate.c). A set (not to NULL) needs memory: ABT_ERR_MEM. */
int bb_unit_set_migrate_cb(bb_unit *u, void (*cb)(ABT_thread, void *), void *arg);
void bb_unit_get_migrate_cb(bb_unit *u, void (**cb)(ABT_thread, void *), void **arg);
void bb_unit_free_migrate_cb(bb_unit *u); /* the unit is being freed */
/* Push `u`, which has a move pending, where that move takes it, and uncount
 * the target once it is there; returns that pool. switch.c. */
bb_pool *bb_unit_push_migrating(bb_unit *u, ABT_pool_context ctx);
/* Push `u`, just moved, into its pool, and drop the to-come count that
 * `counted` holds for it (its target), as the push of a pending move does.
 * switch.c. */
void bb_unit_push_counted(bb_unit *u, bb_pool *counted);
/* `u`, ready with a move pending, was on its way into `p` (a built-in
 * shared pool's push found the request, builtin.c; a wake-up): it goes
 * where the move takes it, which is returned. If `p` counted it
 * (`counted_in_p`: a resumed unit), `p` drops the count before a push
 * elsewhere, after one into `p`. switch.c. */
bb_pool *bb_unit_forward(bb_unit *u, bb_pool *p, ABT_pool_context ctx, bool counted_in_p);
bool bb_unit_is_unnamed(const bb_unit *u);

#endif
