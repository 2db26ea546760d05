/*
 * Pools: containers of ready work units.
 *
 * Every pool is driven through a small table of operations, so built-in and
 * user-defined pools look the same to schedulers. The built-in pools keep
 * their units in an intrusive doubly linked list (bb_unit.next/prev): pushing
 * never allocates. A pool with ABT_POOL_ACCESS_PRIV uses plain loads and
 * stores while it has a home (below; without one it takes the lock too,
 * builtin.c); every other access kind takes a spinlock around the same list
 * code. The choice is made once, at pool creation, by picking the operation
 * table.
 *
 * Sleeping: a scheduler or a caller of ABT_pool_pop_wait that finds a pool
 * empty may register a bb_pool_sleeper and sleep on its bell; the next push
 * rings one registered sleeper (src/pool/sleep.c). Pools whose pushes do this
 * have BB_POOL_WAKES_SLEEPERS; private pools do not, since nobody but their
 * owner may push to them.
 *
 * Private pools: once the main scheduler of an ES holds one, that ES is its
 * `home`, and the API refuses to push to it or pop from it anywhere else
 * (ABT_ERR_INV_POOL_ACCESS). A migration, which the user may aim at any ES,
 * never touches such a pool from elsewhere: it leaves the unit on the pool's
 * `incoming` stack, and the pool's scheduler takes it in at its next event
 * check (bb_pool_take_incoming).
 */
#ifndef BB_POOL_H
#define BB_POOL_H

#include <abt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bb_atomic.h"
#include "bb_bell.h"
#include "bb_unit.h"

typedef ABT_pool_context bb_pool_ctx; /* why a unit is pushed or popped */

typedef struct bb_pool_ops {
    void (*push)(bb_pool *pool, bb_unit *u, bb_pool_ctx ctx);
    bb_unit *(*pop)(bb_pool *pool, bb_pool_ctx ctx);
    bool (*is_empty)(bb_pool *pool);
    /* Optional, announced by the pool's caps: */
    size_t (*size)(bb_pool *pool);
    int (*remove)(bb_pool *pool, bb_unit *u); /* ABT_SUCCESS or ABT_ERR_POOL */
    /* Child-first creation (src/unit/switch.c): take `u` out again if it is
     * still where its push with ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO put it
     * and still waits for `child` (u->wait_target), with no request pending.
     * `u` may be long gone: it is only compared until found in the pool. */
    bool (*take_back)(bb_pool *pool, bb_unit *u, const bb_unit *child);
    bb_unit *(*pop_wait)(bb_pool *pool, double secs, bb_pool_ctx ctx);
    /* As pop_wait, until `abstime_secs` on the ABT_get_wtime clock. */
    bb_unit *(*pop_timedwait)(bb_pool *pool, double abstime_secs, bb_pool_ctx ctx);
    /* Optional: push `u`, a ULT that blocked while in this pool and that it
     * counts (num_blocked), and drop that count, as one step: a waker on
     * another ES then takes a shared pool's lock once, not twice
     * (bb_unit_make_ready). */
    void (*push_resumed)(bb_pool *pool, bb_unit *u, bb_pool_ctx ctx);
    void (*for_each)(bb_pool *pool, void (*fn)(void *arg, bb_unit *u), void *arg);
    /* Optional; without them the API loops over pop and push. */
    size_t (*pop_many)(bb_pool *pool, ABT_thread *out, size_t max, bb_pool_ctx ctx);
    void (*push_many)(bb_pool *pool, bb_unit *const *units, size_t n, bb_pool_ctx ctx);
    void (*destroy)(bb_pool *pool); /* the user's free callback, if any */
} bb_pool_ops;

enum bb_pool_caps {
    BB_POOL_CAN_SIZE = 1u << 0,
    BB_POOL_CAN_REMOVE = 1u << 1,
    BB_POOL_CAN_POP_WAIT = 1u << 2,
    BB_POOL_CAN_PRINT = 1u << 3,
    BB_POOL_WAKES_SLEEPERS = 1u << 4,
    /* A built-in FIFO with ABT_POOL_ACCESS_PRIV: its owner ES may use the
     * list directly (bb_pool_list.h), as the shortcuts of hotpath.c do. */
    BB_POOL_PRIVATE_FIFO = 1u << 5
};

/* Kind of a user-defined pool, next to ABT_pool_kind's values. */
#define BB_POOL_KIND_USER (-1)

/* One party asleep until a pool gets a unit; lives on the sleeper's stack
 * or in its scheduler, linked in the pool's list while registered. */
typedef struct bb_pool_sleeper {
    struct bb_pool_sleeper *next;
    struct bb_pool_sleeper *prev;
    bb_bell *bell;
    bool linked;               /* under the pool's lock */
    bool sched;                /* a scheduler's: it may wait for the pool's blocked
                                  units to come back before it stops */
    uint32_t ringing;          /* pushers that unlinked it and are ringing its bell; atomic */
} bb_pool_sleeper;

typedef struct bb_pool_user bb_pool_user; /* callbacks of a user pool, user.c */

struct bb_pool {
    /* One cache line: what a push, a pop and a wake-up touch. */
    const bb_pool_ops *ops;
    /* built-in list state */
    bb_unit *head;
    bb_unit *tail;
    size_t size;               /* atomic for readers on other ESs */
    bb_spinlock lock;          /* the list of shared pools and of private ones without a
                                  home (builtin.c), and `sleepers` */
    uint32_t caps;             /* bb_pool_caps */
    bb_pool_sleeper *sleepers; /* written under lock; atomic for a racy look */
    long num_blocked;          /* ULTs to come into this pool: its blocked ones, and those
                                  with a move to it pending (migrate.c); atomic */
    int access;                /* ABT_pool_access */
    uint32_t sleep_sync;       /* only for bb_pool_sleep_barrier */
    /* bookkeeping */
    int kind;                  /* ABT_pool_kind or BB_POOL_KIND_USER */
    bool automatic;            /* freed with the last scheduler that uses it */
    uint32_t num_scheds;       /* schedulers holding this pool; atomic */
    uint32_t leaving;          /* of those, how many are being freed, having found that
                                  they need not keep it (src/sched/sched.c, leave_lock) */
    bb_xstream *home;          /* private pools: the ES whose main scheduler holds it, or
                                  NULL (bb_sched_attach); atomic; changed under `lock`.
                                  Mostly compared; bb_pool_check_access (pool.c) and
                                  the dump's walkable (dump.c) read that ES's fields
                                  through it under `lock`, as the ES may be freed */
    bb_unit *incoming;         /* private pools: migrated units left by other ESs, for its
                                  scheduler to push (a stack through bb_unit.next); atomic */
    uint64_t id;
    void *data;                /* ABT_pool_set_data */
    bb_pool_user *user;        /* user-defined pools only */
    long user_refs;            /* user pools: 1, plus one for each work unit that holds
                                  one of its ABT_units (user.c); atomic */
    bb_pool *live_prev, *live_next; /* the list of pools that exist (pool.c) */
};

_Static_assert(offsetof(struct bb_pool, sleep_sync) < 64, "a pool's hot fields span two lines");

static inline bb_pool *bb_pool_of(ABT_pool handle)
{
    return (bb_pool *)(void *)handle;
}

static inline ABT_pool bb_pool_handle(bb_pool *p)
{
    return (ABT_pool)(void *)p;
}

/* A full barrier between a sleeper linking itself and looking at the pool,
 * and between a user pool's push and its look at the sleepers: whichever
 * comes second sees the other. It is a read-modify-write of one word
 * rather than a fence, so that ThreadSanitizer sees the pairing. */
static inline void bb_pool_sleep_barrier(bb_pool *pool)
{
    __atomic_fetch_add(&pool->sleep_sync, 0u, __ATOMIC_SEQ_CST);
}

static inline bool bb_pool_can(const bb_pool *pool, uint32_t cap)
{
    return (pool->caps & cap) != 0;
}

static inline void bb_pool_push(bb_pool *pool, bb_unit *u, bb_pool_ctx ctx)
{
    pool->ops->push(pool, u, ctx);
}

/* A scheduler's ordinary pop. */
static inline bb_unit *bb_pool_pop(bb_pool *pool)
{
    return pool->ops->pop(pool, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

/* Units still on the incoming stack count: the pool's scheduler must not
 * stop or sleep before it has taken them in. */
static inline bool bb_pool_is_empty(bb_pool *pool)
{
    return pool->ops->is_empty(pool) && !bb_load_relaxed(&pool->incoming);
}

static inline size_t bb_pool_size(bb_pool *pool)
{
    return pool->ops->size(pool);
}

static inline long bb_pool_blocked(bb_pool *pool)
{
    long blocked = bb_load_relaxed(&pool->num_blocked);
    return blocked > 0 ? blocked : 0;
}

static inline void bb_pool_add_blocked(bb_pool *pool, long delta)
{
    bb_fetch_add_relaxed(&pool->num_blocked, delta);
}

/* Whether `es` (NULL: a thread that is no ES) may surely push to or pop
 * from `pool`: any pool but a private one with another home. Only private
 * pools ever have a home. The shortcuts test this inline; the rest is left
 * to bb_pool_check_access. */
static inline bool bb_pool_surely_open_to(const bb_pool *pool, const bb_xstream *es)
{
    const bb_xstream *home = bb_load_relaxed(&pool->home);
    return !home || home == es;
}

/* ABT_SUCCESS, or ABT_ERR_INV_POOL_ACCESS if `pool` is a private pool and
 * the caller is not on its home, while that home runs (joined, it pops
 * nothing). A private pool with no home is open to all. pool.c. */
int bb_pool_check_access(bb_pool *pool);

/* Whether the calling thread may change `pool`'s list itself, for a move the
 * library makes on its own (a migration, a yield_to): a private pool only on
 * its home, or while no scheduler holds it. pool.c. */
bool bb_pool_touchable_here(const bb_pool *pool);

/* Whether the calling thread may walk `pool`'s units (the print_all calls,
 * stack dumps): a user pool's through its own code, always; a built-in
 * one's list wherever the API lets it pop from the pool
 * (bb_pool_check_access), so not on another ES's private pool while that
 * home runs. pool.c. */
bool bb_pool_walkable_here(bb_pool *pool);
bool bb_pool_removable_here(const bb_pool *pool); /* and it can remove units: a built-in pool */

/* A migrated unit goes into `pool`: pushed at once where the caller may
 * touch the pool, or else left on its incoming stack. pool.c. */
void bb_pool_push_migrated(bb_pool *pool, bb_unit *u);

/* On the pool's home (its scheduler's event check): push what waits on the
 * incoming stack, oldest first. pool.c. */
void bb_pool_take_incoming(bb_pool *pool);

/* Whether more than one scheduler may pop `pool`, so that a unit in it
 * need not wait for any one of them. */
static inline bool bb_pool_is_served_by_many(const bb_pool *pool)
{
    return pool->access != ABT_POOL_ACCESS_PRIV && bb_load_relaxed(&pool->num_scheds) > 1;
}

/* Nothing ready, and nothing blocked that this pool's scheduler must wait
 * for. As in Argobots, blocked units count only where they can come back to
 * no one else: a private pool, or a pool only one scheduler serves. */
static inline bool bb_pool_is_drained(bb_pool *pool)
{
    /* The blocked count first: a waker pushes a unit, then uncounts it
     * (bb_unit_make_ready), so a count read as zero means that every such
     * push came before, and the emptiness test sees its unit. In the other
     * order a unit pushed in between is missed by both: the scheduler
     * stopped with it in its pool. */
    long blocked = __atomic_load_n(&pool->num_blocked, __ATOMIC_SEQ_CST); /* bb_sched_request */
    if (!bb_pool_is_empty(pool))
        return false;
    if (blocked <= 0)
        return true;
    return bb_pool_is_served_by_many(pool);
}

/* A ULT blocks: its associated pool counts it until it is ready again (the
 * count stays with that pool even if the ULT is re-associated meanwhile). */
static inline void bb_unit_count_blocked(bb_unit *u)
{
    u->blocked_in = u->pool;
    bb_pool_add_blocked(u->pool, 1);
}

/* Built-in pools, builtin.c. */
int bb_pool_create_builtin(int kind, int access, bool automatic, bb_pool **out);
bool bb_pool_access_is_valid(int access);

/* Life, pool.c. */
bb_pool *bb_pool_alloc(const bb_pool_ops *ops, uint32_t caps, int kind, int access,
                       bool automatic);
void bb_pool_retain(bb_pool *pool);
void bb_pool_release(bb_pool *pool);
bool bb_pool_unretain(bb_pool *pool); /* bb_pool_release, but the caller destroys it if true */
/* A scheduler that never ran lets go of a pool its creator gave it, which
 * stays alive, automatic or not (bb_sched_discard). */
void bb_pool_unretain_keeping(bb_pool *pool);
/* Whether work is still in `pool` or bound for it: ready units, blocked
 * ULTs that come back to it, pending moves to it. pool.c. */
bool bb_pool_has_work(bb_pool *pool);
void bb_pool_destroy(bb_pool *pool);
void bb_pool_free_memory(bb_pool *pool);
/* The ID of `pool` if it still exists, else -1: a unit's last pool may have
 * been freed since (an automatic pool dies with its ES), so `pool` is looked
 * for, never read, unless it is found. pool.c. */
int bb_pool_id_if_live(const bb_pool *pool);

/* Sleeping, sleep.c. */
void bb_pool_add_sleeper(bb_pool *pool, bb_pool_sleeper *s, bb_bell *bell);
void bb_pool_remove_sleeper(bb_pool *pool, bb_pool_sleeper *s);
bb_pool_sleeper *bb_pool_take_sleeper_locked(bb_pool *pool);
bb_pool_sleeper *bb_pool_take_drain_sleeper_locked(bb_pool *pool);
void bb_pool_ring_sleeper(bb_pool_sleeper *s);
void bb_pool_wake_one(bb_pool *pool);
bb_unit *bb_pool_pop_wait_generic(bb_pool *pool, double secs, bb_pool_ctx ctx);
bb_unit *bb_pool_pop_timedwait_generic(bb_pool *pool, double abstime_secs, bb_pool_ctx ctx);

/* ABT_unit handles, unit_map.c: a built-in pool's unit is the bb_unit's
 * address with the low bit set; a user pool's unit is whatever its
 * create-unit callback returned, found again through a hash map. */
#define BB_UNIT_BUILTIN_BIT ((uintptr_t)1)
ABT_unit bb_unit_to_handle(bb_unit *u);
bb_unit *bb_unit_from_handle(ABT_unit unit);
bb_unit *bb_unit_map_find(ABT_unit unit);
void bb_unit_map_clear(void); /* at finalization */

/* User-defined pools, user.c. */
int bb_unit_set_pool(bb_unit *u, bb_pool *pool);
int bb_unit_attach_user_unit(bb_unit *u, bb_pool *pool);
void bb_unit_drop_user_unit(bb_unit *u);
int bb_pool_create_user(ABT_pool_user_def def, ABT_pool_config config, bb_pool **out);
void bb_pool_user_free(bb_pool_user *def);
/* The user pool's own print_all, given the caller's `arg` and `fn` as they
 * are, when the function's kind is the pool's (threads for the 1.1+
 * interface, units for the legacy one). Returns false for any other pool. */
bool bb_pool_user_print_threads(bb_pool *p, void *arg, void (*fn)(void *, ABT_thread));
bool bb_pool_user_print_units(bb_pool *p, void *arg, void (*fn)(void *, ABT_unit));

/* Pool configurations, config.c. */
bool bb_pool_config_automatic(ABT_pool_config config, bool fallback);

#endif
