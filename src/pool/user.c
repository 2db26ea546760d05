/*
 * User-defined pools, in both of Argobots' interfaces:
 *
 *  - the 1.1+ one: ABT_pool_user_def_create(create_unit, free_unit, is_empty,
 *    pop, push) plus optional callbacks set one by one; pops return threads;
 *  - the legacy one: a `struct ABT_pool_def` filled in by the user and passed
 *    by address to ABT_pool_create; pops return units.
 *
 * Both become a bb_pool whose operation table calls the user's code. A
 * definition made by ABT_pool_user_def_create starts with a magic number, which
 * is how ABT_pool_create tells it from a legacy definition (whose first member
 * is an ABT_pool_access, a small number).
 *
 * A work unit gets a unit from a user pool when it is associated with that
 * pool (bb_unit_set_pool), keeps it while it goes in and out of the pool, and
 * gives it back when it moves to another pool or is freed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bb_pool.h"
#include "bb_print.h"
#include "bb_runtime.h"
#include "bb_time.h"
#include "unit_map.h"

#define USER_DEF_MAGIC 0x62627564u /* "bbud"; no ABT_pool_access is this large */

struct bb_pool_user {
    uint32_t magic;
    bool legacy;
    /* 1.1+ interface */
    ABT_pool_user_create_unit_fn create_unit;
    ABT_pool_user_free_unit_fn free_unit;
    ABT_pool_user_is_empty_fn is_empty;
    ABT_pool_user_pop_fn pop;
    ABT_pool_user_push_fn push;
    ABT_pool_user_init_fn init;
    ABT_pool_user_free_fn free;
    ABT_pool_user_get_size_fn get_size;
    ABT_pool_user_pop_wait_fn pop_wait;
    ABT_pool_user_pop_many_fn pop_many;
    ABT_pool_user_push_many_fn push_many;
    ABT_pool_user_print_all_fn print_all;
    /* legacy interface */
    ABT_pool_def old;
};

/* ---- units -------------------------------------------------------------- */

static ABT_unit make_user_unit(bb_pool *p, bb_unit *u)
{
    const bb_pool_user *d = p->user;
    if (d->legacy)
        return d->old.u_create_from_thread(bb_unit_handle(u));
    return d->create_unit(bb_pool_handle(p), bb_unit_handle(u));
}

/* Out of line: the legacy callback takes the unit by address. */
static __attribute__((noinline)) void free_legacy_unit(const bb_pool_user *d, ABT_unit unit)
{
    if (d->old.u_free)
        d->old.u_free(&unit);
}

static inline void give_back(bb_pool *p, ABT_unit unit)
{
    const bb_pool_user *d = p->user;
    if (d->legacy)
        free_legacy_unit(d, unit);
    else
        d->free_unit(bb_pool_handle(p), unit);
}

/* An automatic pool lives until its schedulers and every unit holding one
 * of its ABT_units have let go (bb_pool_release): this unit lets go once
 * the pool's callback has returned, and frees the pool if it was last. */
static __attribute__((noinline)) void give_back_to_automatic(bb_pool *p, ABT_unit unit)
{
    give_back(p, unit);
    if (bb_fetch_add_acq_rel(&p->user_refs, -1) == 1)
        bb_pool_destroy(p);
}

/* Called with `stripe`, the lock of `hash` (the hash of `u`'s unit), held:
 * takes the unit out of the map, unlocks, then gives the unit back to its
 * pool, whose free-unit callback (the user's code) runs unlocked. The unit
 * is out of the map before the pool may reuse its value for another work
 * unit. */
static inline __attribute__((always_inline)) void
unmap_and_give_back(bb_spinlock *stripe, uint64_t hash, bb_unit *u)
{
    bool long_chain = bb_unit_map_unlink(hash, u);
    bb_spin_unlock(stripe);
    if (__builtin_expect(long_chain, 0))
        bb_unit_map_grow();
    bb_pool *p = u->unit_pool;
    ABT_unit unit = u->user_unit;
    u->unit_pool = NULL;
    u->user_unit = ABT_UNIT_NULL;
    bb_store_relaxed(&u->user_made, 0u);
    if (__builtin_expect(p->automatic, 0)) {
        give_back_to_automatic(p, unit);
        return;
    }
    /* Counted out only once the callback has returned (release: after all
     * of it): ABT_pool_free, which refuses the pool while a unit holds one
     * of its ABT_units, may succeed from then on, and a program polling it
     * on another thread must not free the pool under this callback (nor
     * under our reads of its definition). */
    give_back(p, unit);
    bb_fetch_add_release(&p->user_refs, -1);
}

static __attribute__((noinline)) void drop_contended(bb_spinlock *stripe, uint64_t hash,
                                                     bb_unit *u)
{
    bb_spin_lock(stripe);
    unmap_and_give_back(stripe, hash, u);
}

/* Give the unit of `u`'s user pool back to that pool. */
void bb_unit_drop_user_unit(bb_unit *u)
{
    if (!u->unit_pool)
        return;
    uint64_t hash = bb_unit_map_hash(u->user_unit);
    bb_spinlock *stripe = bb_unit_map_stripe(hash);
    if (__builtin_expect(!bb_unit_map_try_lock(stripe), 0)) {
        drop_contended(stripe, hash, u);
        return;
    }
    unmap_and_give_back(stripe, hash, u);
}

static __attribute__((noinline)) void map_contended(bb_spinlock *stripe, uint64_t hash,
                                                    bb_unit *u)
{
    bb_spin_lock(stripe);
    bb_unit_map_link(hash, u);
    bb_spin_unlock(stripe);
}

/* Put `u`, whose user unit is `unit`, into the map. */
static inline void map(bb_unit *u, ABT_unit unit)
{
    uint64_t hash = bb_unit_map_hash(unit);
    bb_spinlock *stripe = bb_unit_map_stripe(hash);
    if (__builtin_expect(!bb_unit_map_try_lock(stripe), 0)) {
        map_contended(stripe, hash, u);
        return;
    }
    bb_unit_map_link(hash, u);
    bb_spin_unlock(stripe);
}

/* Associate `u` with the user pool `pool`: the pool makes its unit now, so
 * that a later push cannot fail. A unit of another user pool is given back
 * only once the new one exists, so that a failure leaves `u` as it was. */
int bb_unit_attach_user_unit(bb_unit *u, bb_pool *pool)
{
    ABT_unit unit = make_user_unit(pool, u);
    if (unit == ABT_UNIT_NULL)
        return ABT_ERR_OTHER;
    if (u->unit_pool)
        bb_unit_drop_user_unit(u);
    bb_fetch_add_relaxed(&pool->user_refs, 1);
    bb_store_relaxed(&u->user_made, 1u);
    u->user_unit = unit;
    u->unit_pool = pool;
    bb_store_relaxed(&u->pool, pool); /* others peek (migration, queries) */
    map(u, unit);
    return ABT_SUCCESS;
}

/* Associate `u` with `pool`, giving back the unit of its previous user pool
 * and making one for the new one if needed. */
int bb_unit_set_pool(bb_unit *u, bb_pool *pool)
{
    if (pool->user) {
        if (u->unit_pool != pool)
            return bb_unit_attach_user_unit(u, pool);
    } else {
        bb_unit_drop_user_unit(u);
    }
    bb_store_relaxed(&u->pool, pool); /* others peek (migration, queries) */
    return ABT_SUCCESS;
}

static bool has_unit_of(const bb_unit *u, const bb_pool *p)
{
    return u->unit_pool == p;
}

/* Make `p`'s unit for `u`, which is pushed into `p` without having been
 * associated with it first (callers associate where they can still report
 * an error; there is no way back from here). */
static __attribute__((noinline)) ABT_unit make_unit_for_push(bb_pool *p, bb_unit *u)
{
    bb_pool *keep = u->pool;
    if (bb_unit_set_pool(u, p) != ABT_SUCCESS) {
        bb_fprintf(stderr, "bobbin: a user pool's create-unit callback failed during a push\n");
        abort();
    }
    bb_store_relaxed(&u->pool, keep);
    return u->user_unit;
}

static inline ABT_unit unit_for(bb_pool *p, bb_unit *u)
{
    if (__builtin_expect(has_unit_of(u, p), 1))
        return u->user_unit;
    return make_unit_for_push(p, u);
}

/* ---- waking sleepers ------------------------------------------------------ */

/* The user's push of `n` units ran outside our lock: a full barrier orders
 * it before the look at the sleeper list (pairs with bb_pool_add_sleeper),
 * then up to `n` sleepers are woken. A private pool has no sleepers to wake
 * (nobody else may push to it). */
static inline void wake_after_user_push(bb_pool *p, size_t n)
{
    if (!bb_pool_can(p, BB_POOL_WAKES_SLEEPERS))
        return;
    bb_pool_sleep_barrier(p);
    for (size_t i = 0; i < n && bb_load_relaxed(&p->sleepers); i++)
        bb_pool_wake_one(p);
}

/* ---- the 1.1+ interface ---------------------------------------------------- */

/* New-style pools are all shared (caps_of): every push may have a sleeper
 * to wake. */
static void modern_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    p->user->push(bb_pool_handle(p), unit_for(p, u), ctx);
    wake_after_user_push(p, 1);
}

static bb_unit *modern_pop(bb_pool *p, bb_pool_ctx ctx)
{
    return bb_unit_of(p->user->pop(bb_pool_handle(p), ctx));
}

static bool modern_is_empty(bb_pool *p)
{
    return p->user->is_empty(bb_pool_handle(p)) != ABT_FALSE;
}

static size_t modern_size(bb_pool *p)
{
    return p->user->get_size(bb_pool_handle(p));
}

static bb_unit *modern_pop_wait(bb_pool *p, double secs, bb_pool_ctx ctx)
{
    return bb_unit_of(p->user->pop_wait(bb_pool_handle(p), secs, ctx));
}

/* The user's pop_wait takes a timeout: a change of the clock during the
 * wait cannot move it. */
static bb_unit *modern_pop_timedwait(bb_pool *p, double abstime_secs, bb_pool_ctx ctx)
{
    return modern_pop_wait(p, abstime_secs - bb_wtime(), ctx);
}

struct visit {
    void (*fn)(void *, bb_unit *);
    void *arg;
};

static void visit_thread(void *arg, ABT_thread thread)
{
    struct visit *v = arg;
    v->fn(v->arg, bb_unit_of(thread));
}

static void modern_for_each(bb_pool *p, void (*fn)(void *, bb_unit *), void *arg)
{
    struct visit v = {fn, arg};
    p->user->print_all(bb_pool_handle(p), &v, visit_thread);
}

bool bb_pool_user_print_threads(bb_pool *p, void *arg, void (*fn)(void *, ABT_thread))
{
    if (!p->user || p->user->legacy)
        return false;
    p->user->print_all(bb_pool_handle(p), arg, fn);
    return true;
}

static void modern_destroy(bb_pool *p)
{
    if (p->user->free)
        p->user->free(bb_pool_handle(p));
}

static size_t modern_pop_many(bb_pool *p, ABT_thread *out, size_t max, bb_pool_ctx ctx)
{
    size_t got = 0;
    if (p->user->pop_many)
        p->user->pop_many(bb_pool_handle(p), out, max, &got, ctx);
    else
        while (got < max && (out[got] = p->user->pop(bb_pool_handle(p), ctx)) != ABT_THREAD_NULL)
            got++;
    return got;
}

static void modern_push_many(bb_pool *p, bb_unit *const *units, size_t n, bb_pool_ctx ctx)
{
    if (!p->user->push_many || n == 0) {
        for (size_t i = 0; i < n; i++)
            p->user->push(bb_pool_handle(p), unit_for(p, units[i]), ctx);
    } else {
        ABT_unit batch[64];
        for (size_t done = 0; done < n;) {
            size_t k = n - done < 64 ? n - done : 64;
            for (size_t i = 0; i < k; i++)
                batch[i] = unit_for(p, units[done + i]);
            p->user->push_many(bb_pool_handle(p), batch, k, ctx);
            done += k;
        }
    }
    wake_after_user_push(p, n);
}

static const bb_pool_ops modern_ops = {.push = modern_push,
                                    .pop = modern_pop,
                                    .is_empty = modern_is_empty,
                                    .size = modern_size,
                                    .remove = NULL,
                                    .pop_wait = modern_pop_wait,
                                    .pop_timedwait = modern_pop_timedwait,
                                    .for_each = modern_for_each,
                                    .pop_many = modern_pop_many,
                                    .push_many = modern_push_many,
                                    .destroy = modern_destroy};

/* ---- the legacy interface ------------------------------------------------ */

/* Through the unit map, never through the definition's u_get_thread:
 * Argobots 1.2 documents it (with u_get_type, u_get_task and
 * u_create_from_task) as unused, and programs leave it unset, even
 * uninitialized. */
static bb_unit *thread_of_legacy_unit(ABT_unit unit)
{
    return unit == ABT_UNIT_NULL ? NULL : bb_unit_from_handle(unit);
}

static void legacy_pool_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    (void)ctx;
    ABT_unit unit = unit_for(p, u);
    if (!bb_pool_can(p, BB_POOL_WAKES_SLEEPERS)) {
        /* A private pool has no sleepers to wake: the push ends in a tail
         * call to the user, which a yield through the pool pays for. */
        p->user->old.p_push(bb_pool_handle(p), unit);
        return;
    }
    p->user->old.p_push(bb_pool_handle(p), unit);
    wake_after_user_push(p, 1);
}

static bb_unit *legacy_pool_pop(bb_pool *p, bb_pool_ctx ctx)
{
    (void)ctx;
    return thread_of_legacy_unit(p->user->old.p_pop(bb_pool_handle(p)));
}

static size_t legacy_pool_size(bb_pool *p)
{
    return p->user->old.p_get_size(bb_pool_handle(p));
}

static bool legacy_pool_is_empty(bb_pool *p)
{
    return legacy_pool_size(p) == 0;
}

static int legacy_pool_remove(bb_pool *p, bb_unit *u)
{
    if (u->unit_pool != p)
        return ABT_ERR_POOL;
    return p->user->old.p_remove(bb_pool_handle(p), u->user_unit);
}

static bb_unit *legacy_pool_pop_timedwait(bb_pool *p, double abstime_secs, bb_pool_ctx ctx)
{
    (void)ctx;
    return thread_of_legacy_unit(p->user->old.p_pop_timedwait(bb_pool_handle(p), abstime_secs));
}

static bb_unit *legacy_pool_pop_wait(bb_pool *p, double secs, bb_pool_ctx ctx)
{
    return legacy_pool_pop_timedwait(p, bb_wtime() + secs, ctx); /* the callback takes a deadline */
}

static void visit_unit(void *arg, ABT_unit unit)
{
    struct visit *v = arg;
    bb_unit *u = thread_of_legacy_unit(unit);
    if (u)
        v->fn(v->arg, u);
}

static void legacy_pool_for_each(bb_pool *p, void (*fn)(void *, bb_unit *), void *arg)
{
    struct visit v = {fn, arg};
    p->user->old.p_print_all(bb_pool_handle(p), &v, visit_unit);
}

bool bb_pool_user_print_units(bb_pool *p, void *arg, void (*fn)(void *, ABT_unit))
{
    if (!p->user || !p->user->legacy)
        return false;
    p->user->old.p_print_all(bb_pool_handle(p), arg, fn);
    return true;
}

static void legacy_pool_destroy(bb_pool *p)
{
    if (p->user->old.p_free)
        p->user->old.p_free(bb_pool_handle(p));
}

static const bb_pool_ops legacy_pool_ops = {.push = legacy_pool_push,
                                    .pop = legacy_pool_pop,
                                    .is_empty = legacy_pool_is_empty,
                                    .size = legacy_pool_size,
                                    .remove = legacy_pool_remove,
                                    .pop_wait = legacy_pool_pop_wait,
                                    .pop_timedwait = legacy_pool_pop_timedwait,
                                    .for_each = legacy_pool_for_each,
                                    .destroy = legacy_pool_destroy};

/* ---- creation --------------------------------------------------------------- */

static uint32_t caps_of(const bb_pool_user *d)
{
    uint32_t caps = 0;
    if (d->legacy) {
        if (d->old.access != ABT_POOL_ACCESS_PRIV)
            caps |= BB_POOL_WAKES_SLEEPERS;
        caps |= BB_POOL_CAN_SIZE;
        caps |= d->old.p_remove ? BB_POOL_CAN_REMOVE : 0;
        caps |= d->old.p_pop_timedwait ? BB_POOL_CAN_POP_WAIT : 0;
        caps |= d->old.p_print_all ? BB_POOL_CAN_PRINT : 0;
    } else {
        caps |= BB_POOL_WAKES_SLEEPERS; /* new-style pools are MPMC */
        caps |= d->get_size ? BB_POOL_CAN_SIZE : 0;
        caps |= d->pop_wait ? BB_POOL_CAN_POP_WAIT : 0;
        caps |= d->print_all ? BB_POOL_CAN_PRINT : 0;
    }
    return caps;
}

static bool legacy_def_is_complete(const ABT_pool_def *d)
{
    return d->u_create_from_thread && d->u_free && d->p_get_size && d->p_push && d->p_pop;
}

/* Read the user's definition into a copy the pool keeps. */
static int read_def(ABT_pool_user_def def, bb_pool_user *copy)
{
    const bb_pool_user *mine = (const bb_pool_user *)(const void *)def;
    if (mine->magic == USER_DEF_MAGIC) {
        *copy = *mine;
        return ABT_SUCCESS;
    }
    const ABT_pool_def *old = (const ABT_pool_def *)def;
    if (!bb_pool_access_is_valid(old->access))
        return ABT_ERR_INV_POOL_ACCESS;
    if (!legacy_def_is_complete(old))
        return ABT_ERR_INV_POOL_USER_DEF;
    *copy = (bb_pool_user){.magic = USER_DEF_MAGIC, .legacy = true, .old = *old};
    return ABT_SUCCESS;
}

int bb_pool_create_user(ABT_pool_user_def def, ABT_pool_config config, bb_pool **out)
{
    bb_pool_user *d = malloc(sizeof(*d));
    if (!d)
        return ABT_ERR_MEM;
    int err = read_def(def, d);
    if (err != ABT_SUCCESS) {
        free(d);
        return err;
    }
    int access = d->legacy ? d->old.access : ABT_POOL_ACCESS_MPMC;
    const bb_pool_ops *ops = d->legacy ? &legacy_pool_ops : &modern_ops;
    bb_pool *p = bb_pool_alloc(ops, caps_of(d), BB_POOL_KIND_USER, access,
                               bb_pool_config_automatic(config, false));
    if (!p) {
        free(d);
        return ABT_ERR_MEM;
    }
    p->user = d;
    /* The pool's own: an automatic pool drops it with its last scheduler
     * (bb_pool_unretain); ABT_pool_free only checks that no work unit holds
     * another. */
    p->user_refs = 1;
    ABT_pool_init_fn init = d->legacy ? d->old.p_init : d->init;
    err = init ? init(bb_pool_handle(p), config) : ABT_SUCCESS;
    if (err != ABT_SUCCESS) {
        bb_pool_free_memory(p); /* init failed: the user's free must not run */
        return err;
    }
    *out = p;
    return ABT_SUCCESS;
}

void bb_pool_user_free(bb_pool_user *d)
{
    free(d);
}

/* ---- public API: definitions ------------------------------------------------ */

static bb_pool_user *user_def_of(ABT_pool_user_def def)
{
    return (bb_pool_user *)(void *)def;
}

int ABT_pool_user_def_create(ABT_pool_user_create_unit_fn p_create_unit,
                             ABT_pool_user_free_unit_fn p_free_unit,
                             ABT_pool_user_is_empty_fn p_is_empty, ABT_pool_user_pop_fn p_pop,
                             ABT_pool_user_push_fn p_push, ABT_pool_user_def *newdef)
{
    if (!newdef)
        return ABT_ERR_INV_ARG;
    *newdef = ABT_POOL_USER_DEF_NULL;
    if (!p_create_unit || !p_free_unit || !p_is_empty || !p_pop || !p_push)
        return ABT_ERR_INV_ARG;
    bb_pool_user *d = calloc(1, sizeof(*d));
    if (!d)
        return ABT_ERR_MEM;
    d->magic = USER_DEF_MAGIC;
    d->create_unit = p_create_unit;
    d->free_unit = p_free_unit;
    d->is_empty = p_is_empty;
    d->pop = p_pop;
    d->push = p_push;
    *newdef = (ABT_pool_user_def)(void *)d;
    return ABT_SUCCESS;
}

int ABT_pool_user_def_free(ABT_pool_user_def *def)
{
    if (!def || *def == ABT_POOL_USER_DEF_NULL)
        return ABT_ERR_INV_POOL_USER_DEF;
    free(user_def_of(*def));
    *def = ABT_POOL_USER_DEF_NULL;
    return ABT_SUCCESS;
}

#define USER_DEF_SETTER(name, type, field)                                                 \
    int ABT_pool_user_def_set_##name(ABT_pool_user_def def, type fn)                       \
    {                                                                                      \
        if (def == ABT_POOL_USER_DEF_NULL)                                                 \
            return ABT_ERR_INV_POOL_USER_DEF;                                              \
        user_def_of(def)->field = fn;                                                      \
        return ABT_SUCCESS;                                                                \
    }

USER_DEF_SETTER(init, ABT_pool_user_init_fn, init)
USER_DEF_SETTER(free, ABT_pool_user_free_fn, free)
USER_DEF_SETTER(get_size, ABT_pool_user_get_size_fn, get_size)
USER_DEF_SETTER(pop_wait, ABT_pool_user_pop_wait_fn, pop_wait)
USER_DEF_SETTER(pop_many, ABT_pool_user_pop_many_fn, pop_many)
USER_DEF_SETTER(push_many, ABT_pool_user_push_many_fn, push_many)
USER_DEF_SETTER(print_all, ABT_pool_user_print_all_fn, print_all)
