/* The life of a pool and the public ABT_pool_* API over bb_pool (bb_pool.h). */
#include <pthread.h>
#include <stdlib.h>

#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_xstream.h"

bool bb_pool_access_is_valid(int access)
{
    return access >= ABT_POOL_ACCESS_PRIV && access <= ABT_POOL_ACCESS_MPMC;
}

/* Every pool that exists, for bb_pool_id_if_live. Its own lock, not the
 * runtime's: a pool the user never freed outlives ABT_finalize. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static bb_pool *live_pools;

static void link_live(bb_pool *p)
{
    pthread_mutex_lock(&live_lock);
    p->live_next = live_pools;
    if (live_pools)
        live_pools->live_prev = p;
    live_pools = p;
    pthread_mutex_unlock(&live_lock);
}

static void unlink_live(bb_pool *p)
{
    pthread_mutex_lock(&live_lock);
    if (p->live_prev)
        p->live_prev->live_next = p->live_next;
    else
        live_pools = p->live_next;
    if (p->live_next)
        p->live_next->live_prev = p->live_prev;
    pthread_mutex_unlock(&live_lock);
}

int bb_pool_id_if_live(const bb_pool *pool)
{
    int id = -1;
    pthread_mutex_lock(&live_lock);
    for (const bb_pool *p = live_pools; p; p = p->live_next) {
        if (p == pool) {
            id = (int)p->id;
            break;
        }
    }
    pthread_mutex_unlock(&live_lock);
    return id;
}

bb_pool *bb_pool_alloc(const bb_pool_ops *ops, uint32_t caps, int kind, int access,
                       bool automatic)
{
    bb_pool *p = bb_mem_calloc_lines(sizeof(*p)); /* pools of different ESs: apart */
    if (!p)
        return NULL;
    p->ops = ops;
    p->caps = caps;
    p->kind = kind;
    p->access = access;
    p->automatic = automatic;
    p->id = bb_fetch_add_relaxed(&bb_rt.next_pool_id, 1);
    link_live(p);
    return p;
}

/* A second scheduler makes the pool served by many: its blocked units no
 * longer hold the first one back (bb_pool_is_drained). That one may be
 * asleep waiting for them so that it can finish: wake it to look again.
 * Under the lock, as bb_unit_uncount_blocked: a scheduler that registers
 * to sleep later reads the new count. */
void bb_pool_retain(bb_pool *pool)
{
    uint32_t before = bb_fetch_add_acq_rel(&pool->num_scheds, 1);
    if (before != 1 || !bb_pool_can(pool, BB_POOL_WAKES_SLEEPERS))
        return;
    bb_spin_lock(&pool->lock);
    bb_pool_sleeper *s = bb_pool_take_drain_sleeper_locked(pool);
    bb_spin_unlock(&pool->lock);
    if (s)
        bb_pool_ring_sleeper(s);
}

/* A scheduler lets go of a pool; an automatic pool dies with its last user:
 * its last scheduler, or for a user pool whichever comes later, that or the
 * last work unit holding one of its ABT_units (user.c). Returns whether
 * that was the last user, and the caller must destroy the pool. */
bool bb_pool_unretain(bb_pool *pool)
{
    bool automatic = pool->automatic; /* once the count drops, the user may free it */
    if (bb_fetch_add_acq_rel(&pool->num_scheds, (uint32_t)-1) != 1 || !automatic)
        return false;
    return !pool->user || bb_fetch_add_acq_rel(&pool->user_refs, -1) == 1;
}

void bb_pool_unretain_keeping(bb_pool *pool)
{
    bb_fetch_add_acq_rel(&pool->num_scheds, (uint32_t)-1);
}

void bb_pool_release(bb_pool *pool)
{
    if (bb_pool_unretain(pool))
        bb_pool_destroy(pool);
}

void bb_pool_free_memory(bb_pool *pool)
{
    unlink_live(pool);
    if (pool->user)
        bb_pool_user_free(pool->user);
    free(pool);
}

void bb_pool_destroy(bb_pool *pool)
{
    /* A unit that stopped being blocked here may still be inside
     * bb_unit_uncount_blocked, which holds the lock while it looks. */
    bb_spin_lock(&pool->lock);
    bb_spin_unlock(&pool->lock);
    if (pool->ops->destroy)
        pool->ops->destroy(pool);
    bb_pool_free_memory(pool);
}

/* ---- public API: life ---------------------------------------------------- */

int ABT_pool_create(ABT_pool_user_def def, ABT_pool_config config, ABT_pool *newpool)
{
    if (!newpool)
        return ABT_ERR_INV_ARG;
    *newpool = ABT_POOL_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (def == ABT_POOL_USER_DEF_NULL)
        return ABT_ERR_INV_POOL_USER_DEF;
    bb_pool *p;
    int err = bb_pool_create_user(def, config, &p);
    if (err == ABT_SUCCESS)
        *newpool = bb_pool_handle(p);
    return err;
}

int ABT_pool_create_basic(ABT_pool_kind kind, ABT_pool_access access, ABT_bool automatic,
                          ABT_pool *newpool)
{
    if (!newpool)
        return ABT_ERR_INV_ARG;
    *newpool = ABT_POOL_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!bb_pool_access_is_valid(access))
        return ABT_ERR_INV_POOL_ACCESS;
    bb_pool *p;
    int err = bb_pool_create_builtin(kind, access, automatic != ABT_FALSE, &p);
    if (err == ABT_SUCCESS)
        *newpool = bb_pool_handle(p);
    return err;
}

bool bb_pool_has_work(bb_pool *p)
{
    return bb_load_acquire(&p->num_blocked) > 0 || !bb_pool_is_empty(p);
}

/* Argobots leaves freeing such a pool undefined: its units would be lost, or
 * a later free of one that holds a user pool's ABT_unit would call the
 * pool's free_unit on freed memory. */
static bool is_needed(bb_pool *p)
{
    return bb_pool_has_work(p) || (p->user && bb_load_acquire(&p->user_refs) > 1);
}

int ABT_pool_free(ABT_pool *pool)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!pool || *pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    bb_pool *p = bb_pool_of(*pool);
    if (bb_load_acquire(&p->num_scheds) != 0) /* acquire: their last look came before */
        return ABT_ERR_POOL; /* still used by a scheduler */
    if (is_needed(p))
        return ABT_ERR_POOL;
    bb_pool_destroy(p);
    *pool = ABT_POOL_NULL;
    return ABT_SUCCESS;
}

/* ---- public API: queries --------------------------------------------------- */

/* Common checks: initialized, a pool, somewhere to write. */
static int check_pool_query(ABT_pool pool, const void *out)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    return out ? ABT_SUCCESS : ABT_ERR_INV_ARG;
}

/* As check_pool_query, for an operation the pool must offer. */
static int check_pool_op(ABT_pool pool, const void *out, uint32_t cap)
{
    int err = check_pool_query(pool, out);
    if (err == ABT_SUCCESS && !bb_pool_can(bb_pool_of(pool), cap))
        err = ABT_ERR_POOL;
    return err;
}

/* As check_pool_query, for a pop, which the caller's ES must be allowed. */
static int check_pool_pop(ABT_pool pool, const void *out)
{
    int err = check_pool_query(pool, out);
    return err == ABT_SUCCESS ? bb_pool_check_access(bb_pool_of(pool)) : err;
}

/* As check_pool_op, for a pop that may wait. */
static int check_pool_pop_wait(ABT_pool pool, const void *out)
{
    int err = check_pool_op(pool, out, BB_POOL_CAN_POP_WAIT);
    return err == ABT_SUCCESS ? bb_pool_check_access(bb_pool_of(pool)) : err;
}

int ABT_pool_get_access(ABT_pool pool, ABT_pool_access *access)
{
    int err = check_pool_query(pool, access);
    if (err == ABT_SUCCESS)
        *access = (ABT_pool_access)bb_pool_of(pool)->access;
    return err;
}

int ABT_pool_is_empty(ABT_pool pool, ABT_bool *is_empty)
{
    int err = check_pool_query(pool, is_empty);
    if (err == ABT_SUCCESS)
        *is_empty = bb_pool_is_empty(bb_pool_of(pool)) ? ABT_TRUE : ABT_FALSE;
    return err;
}

int ABT_pool_get_size(ABT_pool pool, size_t *size)
{
    int err = check_pool_op(pool, size, BB_POOL_CAN_SIZE);
    if (err == ABT_SUCCESS)
        *size = bb_pool_size(bb_pool_of(pool));
    return err;
}

int ABT_pool_get_total_size(ABT_pool pool, size_t *size)
{
    int err = check_pool_op(pool, size, BB_POOL_CAN_SIZE);
    if (err == ABT_SUCCESS) {
        bb_pool *p = bb_pool_of(pool);
        *size = bb_pool_size(p) + (size_t)bb_pool_blocked(p);
    }
    return err;
}

int ABT_pool_get_id(ABT_pool pool, int *id)
{
    int err = check_pool_query(pool, id);
    if (err == ABT_SUCCESS)
        *id = (int)bb_pool_of(pool)->id;
    return err;
}

int ABT_pool_set_data(ABT_pool pool, void *data)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    bb_pool_of(pool)->data = data;
    return ABT_SUCCESS;
}

/* User pools call this in each callback: the checks are ordered for them. */
int ABT_pool_get_data(ABT_pool pool, void **data)
{
    if (__builtin_expect(pool != ABT_POOL_NULL && data && bb_is_up(), 1)) {
        *data = bb_pool_of(pool)->data;
        return ABT_SUCCESS;
    }
    return check_pool_query(pool, data);
}

/* ---- public API: popping --------------------------------------------------- */

static ABT_thread thread_handle_or_null(bb_unit *u)
{
    return u ? bb_unit_handle(u) : ABT_THREAD_NULL;
}

int ABT_pool_pop_thread_ex(ABT_pool pool, ABT_thread *thread, ABT_pool_context ctx)
{
    int err = check_pool_pop(pool, thread);
    if (err == ABT_SUCCESS) {
        bb_pool *p = bb_pool_of(pool);
        *thread = thread_handle_or_null(p->ops->pop(p, ctx));
    }
    return err;
}

int ABT_pool_pop_thread(ABT_pool pool, ABT_thread *thread)
{
    return ABT_pool_pop_thread_ex(pool, thread, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

int ABT_pool_pop_threads_ex(ABT_pool pool, ABT_thread *threads, size_t len, size_t *num,
                            ABT_pool_context ctx)
{
    int err = check_pool_pop(pool, num);
    if (err != ABT_SUCCESS)
        return err;
    if (len > 0 && !threads)
        return ABT_ERR_INV_ARG;
    bb_pool *p = bb_pool_of(pool);
    size_t n = 0;
    if (p->ops->pop_many) {
        n = p->ops->pop_many(p, threads, len, ctx);
    } else {
        bb_unit *u;
        while (n < len && (u = p->ops->pop(p, ctx)) != NULL)
            threads[n++] = bb_unit_handle(u);
    }
    *num = n;
    return ABT_SUCCESS;
}

int ABT_pool_pop_threads(ABT_pool pool, ABT_thread *threads, size_t len, size_t *num)
{
    return ABT_pool_pop_threads_ex(pool, threads, len, num, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

int ABT_pool_pop_wait_thread_ex(ABT_pool pool, ABT_thread *thread, double time_secs,
                                ABT_pool_context ctx)
{
    int err = check_pool_pop_wait(pool, thread);
    if (err == ABT_SUCCESS) {
        bb_pool *p = bb_pool_of(pool);
        *thread = thread_handle_or_null(p->ops->pop_wait(p, time_secs, ctx));
    }
    return err;
}

int ABT_pool_pop_wait_thread(ABT_pool pool, ABT_thread *thread, double time_secs)
{
    return ABT_pool_pop_wait_thread_ex(pool, thread, time_secs,
                                       ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

/* ---- public API: pushing --------------------------------------------------- */

/* Associate `u` with `p` (a user pool makes its unit here, where a failure
 * can still be reported) and push it. */
static int associate_and_push(bb_pool *p, bb_unit *u, ABT_pool_context ctx)
{
    int err = bb_pool_check_access(p);
    if (err == ABT_SUCCESS)
        err = bb_unit_set_pool(u, p);
    if (err == ABT_SUCCESS)
        bb_pool_push(p, u, ctx);
    return err;
}

int ABT_pool_push_thread_ex(ABT_pool pool, ABT_thread thread, ABT_pool_context ctx)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (thread == ABT_THREAD_NULL)
        return ABT_SUCCESS; /* documented: nothing to push */
    return associate_and_push(bb_pool_of(pool), bb_unit_of(thread), ctx);
}

int ABT_pool_push_thread(ABT_pool pool, ABT_thread thread)
{
    return ABT_pool_push_thread_ex(pool, thread, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

static void push_batch(bb_pool *p, bb_unit *const *units, size_t n, ABT_pool_context ctx)
{
    if (p->ops->push_many)
        p->ops->push_many(p, units, n, ctx);
    else
        for (size_t i = 0; i < n; i++)
            bb_pool_push(p, units[i], ctx);
}

int ABT_pool_push_threads_ex(ABT_pool pool, const ABT_thread *threads, size_t num,
                             ABT_pool_context ctx)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (num > 0 && !threads)
        return ABT_ERR_INV_ARG;
    bb_pool *p = bb_pool_of(pool);
    int access = bb_pool_check_access(p);
    if (access != ABT_SUCCESS)
        return access;
    bb_unit *batch[64];
    size_t n = 0;
    for (size_t i = 0; i < num; i++) {
        if (threads[i] == ABT_THREAD_NULL)
            continue; /* documented: NULL entries are skipped */
        int err = bb_unit_set_pool(bb_unit_of(threads[i]), p);
        if (err != ABT_SUCCESS) {
            push_batch(p, batch, n, ctx); /* those already moved here go in */
            return err;
        }
        batch[n++] = bb_unit_of(threads[i]);
        if (n == 64 || i + 1 == num) {
            push_batch(p, batch, n, ctx);
            n = 0;
        }
    }
    if (n)
        push_batch(p, batch, n, ctx);
    return ABT_SUCCESS;
}

int ABT_pool_push_threads(ABT_pool pool, const ABT_thread *threads, size_t num)
{
    return ABT_pool_push_threads_ex(pool, threads, num, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

/* ---- public API: printing -------------------------------------------------- */

struct print_threads {
    void (*fn)(void *, ABT_thread);
    void *arg;
};

static void print_as_thread(void *arg, bb_unit *u)
{
    struct print_threads *pt = arg;
    pt->fn(pt->arg, bb_unit_handle(u));
}

/* As check_pool_op, for a walk of the pool's units. A private pool's list
 * takes no lock: another ES walking it while its home pushes and pops
 * follows units that have left it, listing running units and some twice,
 * and may never reach the end. Refused as a push or a pop there is. */
static int check_pool_walk(ABT_pool pool, const void *print_fn)
{
    int err = check_pool_op(pool, print_fn, BB_POOL_CAN_PRINT);
    if (err == ABT_SUCCESS && !bb_pool_walkable_here(bb_pool_of(pool)))
        err = ABT_ERR_INV_POOL_ACCESS;
    return err;
}

int ABT_pool_print_all_threads(ABT_pool pool, void *arg, void (*print_fn)(void *, ABT_thread))
{
    int err = check_pool_walk(pool, print_fn);
    if (err == ABT_SUCCESS) {
        struct print_threads pt = {print_fn, arg};
        bb_pool *p = bb_pool_of(pool);
        if (!bb_pool_user_print_threads(p, arg, print_fn))
            p->ops->for_each(p, print_as_thread, &pt);
    }
    return err;
}

struct print_units {
    void (*fn)(void *, ABT_unit);
    void *arg;
};

static void print_as_unit(void *arg, bb_unit *u)
{
    struct print_units *pu = arg;
    pu->fn(pu->arg, bb_unit_to_handle(u));
}

int ABT_pool_print_all(ABT_pool pool, void *arg, void (*print_fn)(void *, ABT_unit))
{
    int err = check_pool_walk(pool, print_fn);
    if (err == ABT_SUCCESS) {
        struct print_units pu = {print_fn, arg};
        bb_pool *p = bb_pool_of(pool);
        if (!bb_pool_user_print_units(p, arg, print_fn))
            p->ops->for_each(p, print_as_unit, &pu);
    }
    return err;
}

/* ---- public API: the legacy unit-based calls ------------------------------ */

static ABT_unit unit_handle_or_null(bb_unit *u)
{
    return u ? bb_unit_to_handle(u) : ABT_UNIT_NULL;
}

int ABT_pool_pop(ABT_pool pool, ABT_unit *unit)
{
    int err = check_pool_pop(pool, unit);
    if (err == ABT_SUCCESS)
        *unit = unit_handle_or_null(bb_pool_pop(bb_pool_of(pool)));
    return err;
}

int ABT_pool_pop_wait(ABT_pool pool, ABT_unit *unit, double time_secs)
{
    int err = check_pool_pop_wait(pool, unit);
    if (err == ABT_SUCCESS) {
        bb_pool *p = bb_pool_of(pool);
        *unit = unit_handle_or_null(p->ops->pop_wait(p, time_secs, ABT_POOL_CONTEXT_OP_POOL_OTHER));
    }
    return err;
}

/* Deprecated: the deadline is absolute, on the ABT_get_wtime clock. */
int ABT_pool_pop_timedwait(ABT_pool pool, ABT_unit *unit, double abstime_secs)
{
    int err = check_pool_pop_wait(pool, unit);
    if (err == ABT_SUCCESS) {
        bb_pool *p = bb_pool_of(pool);
        *unit = unit_handle_or_null(
            p->ops->pop_timedwait(p, abstime_secs, ABT_POOL_CONTEXT_OP_POOL_OTHER));
    }
    return err;
}

int ABT_pool_push(ABT_pool pool, ABT_unit unit)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    bb_unit *u = bb_unit_from_handle(unit);
    if (!u)
        return ABT_ERR_INV_UNIT;
    return associate_and_push(bb_pool_of(pool), u, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

int ABT_pool_remove(ABT_pool pool, ABT_unit unit)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    bb_pool *p = bb_pool_of(pool);
    if (!bb_pool_can(p, BB_POOL_CAN_REMOVE))
        return ABT_ERR_POOL;
    int err = bb_pool_check_access(p);
    if (err != ABT_SUCCESS)
        return err;
    bb_unit *u = bb_unit_from_handle(unit);
    if (!u)
        return ABT_ERR_INV_UNIT;
    return p->ops->remove(p, u);
}

/* ---- private pools and other ESs ------------------------------------------ */

/* Whether a thread not on its home ES may use private pool `pool`: it has
 * no home any more, or its home has been joined and pops nothing. The home
 * may be freed meanwhile (ABT_xstream_free on a third thread), so it is
 * read under the pool's lock: an ES gives up its pools' homes under that
 * lock (set_home, sched.c) before it is freed. */
static bool others_may_use(bb_pool *pool)
{
    bb_spin_lock(&pool->lock);
    const bb_xstream *home = bb_load_relaxed(&pool->home);
    bool ok = !home || (!home->is_primary &&
                        bb_load_acquire(&home->state) == ABT_XSTREAM_STATE_TERMINATED);
    bb_spin_unlock(&pool->lock);
    return ok;
}

int bb_pool_check_access(bb_pool *pool)
{
    bb_xstream *home = bb_load_relaxed(&pool->home); /* once: it may change */
    if (!home || home == bb_self_xstream())
        return ABT_SUCCESS;
    return others_may_use(pool) ? ABT_SUCCESS : ABT_ERR_INV_POOL_ACCESS;
}

/* A shared pool takes its lock, so anyone may change it. A private pool's
 * list takes none while it has a home: only its home may change it. One
 * that no scheduler holds takes its lock instead (builtin.c), and anyone
 * may. A private pool that only stacked schedulers hold has no home either:
 * nobody knows which ES pops it, so nobody else touches it. */
bool bb_pool_touchable_here(const bb_pool *pool)
{
    if (pool->access != ABT_POOL_ACCESS_PRIV)
        return true;
    bb_xstream *home = bb_load_relaxed(&pool->home);
    if (home)
        return home == bb_self_xstream();
    return bb_load_acquire(&pool->num_scheds) == 0;
}

bool bb_pool_walkable_here(bb_pool *pool)
{
    return pool->user || bb_pool_check_access(pool) == ABT_SUCCESS;
}

/* Never a user pool: its remove takes the unit the pool made for the work
 * unit, which whoever pops the work unit meanwhile may give back (when it
 * ends, or moves it), and the pool's code cannot tell such a freed unit
 * from its own. A built-in pool's remove looks for the work unit in its
 * list under its lock. So a unit leaves a user pool only through its pop,
 * as in Argobots. */
bool bb_pool_removable_here(const bb_pool *pool)
{
    return !pool->user && bb_pool_can(pool, BB_POOL_CAN_REMOVE) && bb_pool_touchable_here(pool);
}

void bb_pool_push_migrated(bb_pool *pool, bb_unit *u)
{
    if (bb_pool_touchable_here(pool)) {
        bb_pool_push(pool, u, ABT_POOL_CONTEXT_OP_THREAD_MIGRATE);
        return;
    }
    bb_unit *head = bb_load_relaxed(&pool->incoming);
    do
        u->next = head;
    while (!bb_cas_acq_rel(&pool->incoming, &head, u));
}

void bb_pool_take_incoming(bb_pool *pool)
{
    bb_unit *newest_first = bb_exchange_acq_rel(&pool->incoming, (bb_unit *)NULL);
    bb_unit *oldest_first = NULL;
    while (newest_first) {
        bb_unit *u = newest_first;
        newest_first = u->next;
        u->next = oldest_first;
        oldest_first = u;
    }
    while (oldest_first) {
        bb_unit *u = oldest_first;
        oldest_first = u->next;
        u->next = NULL;
        bb_pool_push(pool, u, ABT_POOL_CONTEXT_OP_THREAD_MIGRATE);
    }
}
