/*
 * Migration: moving a work unit to another pool, hence possibly another ES.
 *
 * A unit waiting in a pool is taken out and pushed into the target at once,
 * unless that pool is another ES's private pool, or a user pool, whose
 * remove could be handed a unit its popper frees (bb_pool_removable_here).
 * A target that is another ES's private pool gets the unit through its
 * incoming stack (bb_pool_push_migrated).
 * A ULT that cannot be taken out now gets a request instead, served where
 * it next moves: a running ULT enters the target when it becomes ready
 * again (it yields, or it is woken: switch.c, push_ready), one waiting in
 * such a pool when it is popped (switch.c, serve_requests). So does the
 * caller migrating itself: as in Argobots, the call does not switch, and
 * the move happens at its next yield. In every case the
 * unit's migration callback runs once, when the move happens, before the
 * unit runs in its new place. Until then the target counts the unit as to
 * come, and its scheduler waits for it (see "pending moves" below).
 */
#include <stdlib.h>

#include "bb_caller.h"
#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_unit.h"
#include "bb_xstream.h"

/* The callback and its argument are one pair, which ABT_thread_set_callback
 * may change from another thread while the unit moves: read apart, a move
 * could call the new function with the old argument. The pair lives apart
 * from the descriptor (which has no room for two more words, and most units
 * have no callback), never changes once made, and is replaced whole; one
 * lock for all units keeps a reader from copying a pair that a set frees.
 * Both sides are rare (a set, a completed move of a unit with a callback). */
struct bb_migrate_cb {
    void (*fn)(ABT_thread, void *);
    void *arg;
};

static bb_spinlock migrate_cb_lock;

int bb_unit_set_migrate_cb(bb_unit *u, void (*cb)(ABT_thread, void *), void *arg)
{
    struct bb_migrate_cb *pair = NULL;
    if (cb) {
        pair = malloc(sizeof(*pair));
        if (!pair)
            return ABT_ERR_MEM;
        *pair = (struct bb_migrate_cb){cb, arg};
    }
    bb_spin_lock(&migrate_cb_lock);
    struct bb_migrate_cb *old = bb_load_relaxed(&u->migrate_cb);
    bb_store_relaxed(&u->migrate_cb, pair);
    bb_spin_unlock(&migrate_cb_lock);
    free(old);
    return ABT_SUCCESS;
}

void bb_unit_get_migrate_cb(bb_unit *u, void (**cb)(ABT_thread, void *), void **arg)
{
    *cb = NULL;
    *arg = NULL;
    bb_spin_lock(&migrate_cb_lock);
    const struct bb_migrate_cb *pair = bb_load_relaxed(&u->migrate_cb);
    if (pair) {
        *cb = pair->fn;
        *arg = pair->arg;
    }
    bb_spin_unlock(&migrate_cb_lock);
}

/* Nobody else holds the unit any more. */
void bb_unit_free_migrate_cb(bb_unit *u)
{
    free(u->migrate_cb);
    u->migrate_cb = NULL;
}

static void moved(bb_unit *u)
{
    void (*cb)(ABT_thread, void *);
    void *arg;
    if (!bb_load_relaxed(&u->migrate_cb))
        return; /* no callback: no lock */
    bb_unit_get_migrate_cb(u, &cb, &arg);
    if (cb) /* called outside the lock: it may set callbacks itself */
        cb(bb_unit_handle(u), arg);
}

/* ---- pending moves ---------------------------------------------------------
 *
 * A pending move counts in its target pool as a unit to come (num_blocked,
 * as a blocked unit counts in its own pool): the target's scheduler does not
 * stop before the unit has arrived, so joining or freeing the target ES, or
 * replacing its scheduler, waits for it. `migrate_to` holds the counted
 * target; whoever exchanges it out uncounts it: the move, once the unit is
 * pushed (a scheduler never sees it neither counted nor queued); the unit's
 * end, if it ends first; a later request, whose target replaces it. */

/* The request, and the counted target it names, or NULL if another call
 * took it: the caller uncounts it. */
static bb_pool *take_request(bb_unit *u)
{
    __atomic_fetch_and(&u->requests, (uint8_t)~BB_REQ_MIGRATE, __ATOMIC_ACQ_REL);
    return bb_exchange_acq_rel(&u->migrate_to, NULL);
}

/* Runs where the unit becomes ready. Returns the counted target, which the
 * caller uncounts once it has pushed the unit (bb_unit_uncount_blocked), or
 * NULL. */
bb_pool *bb_unit_apply_migration(bb_unit *u)
{
    bb_pool *to = take_request(u);
    if (to && to != u->pool && bb_unit_set_pool(u, to) == ABT_SUCCESS)
        moved(u);
    return to;
}

/* The unit ends with a move pending (bb_unit_end), or its poster saw it end. */
void bb_unit_drop_migration(bb_unit *u)
{
    bb_pool *to = take_request(u);
    if (to)
        bb_unit_uncount_blocked(to, NULL);
}

/* The target is counted before anybody can see it. The request is a
 * read-modify-write of the requests before the look at the state, and
 * bb_unit_end reads the requests by one after it writes the state: of the
 * two, the later one sees the other's, so a unit that ends meanwhile is seen
 * ended here, or sees the request there; both may drop it, the exchange
 * uncounts it once. */
static void post_request(bb_unit *u, bb_pool *to)
{
    bb_unit_set_cold(u);
    bb_pool_add_blocked(to, 1);
    bb_pool *replaced = bb_exchange_acq_rel(&u->migrate_to, to);
    if (replaced)
        bb_unit_uncount_blocked(replaced, to);
    bb_fetch_or_acq_rel(&u->requests, (uint32_t)BB_REQ_MIGRATE);
    if (bb_load_relaxed(&u->state) == ABT_THREAD_STATE_TERMINATED)
        bb_unit_drop_migration(u);
}

/* Takes `u` out of its pool if it is listed there (a built-in pool's remove
 * decides that under the pool's lock). */
static bool take_out_if_listed(bb_unit *u)
{
    bb_pool *from = bb_load_relaxed(&u->pool);
    return from && bb_pool_removable_here(from) && from->ops->remove(from, u) == ABT_SUCCESS;
}

static bool take_out_of_pool(bb_unit *u)
{
    return bb_unit_state(u) == ABT_THREAD_STATE_READY && take_out_if_listed(u);
}

/* Whether a request posted earlier still waits for `u` (another thread
 * asked for a move while `u` could not be moved). A move made now must
 * replace it, as a later request would: otherwise it is served after the
 * move, and the older target wins. */
static bool has_pending_request(bb_unit *u)
{
    return (bb_load_acquire(&u->requests) & BB_REQ_MIGRATE) != 0;
}

/* The caller moves itself: as in Argobots, the call does not switch. The
 * move is a request, served where it next becomes ready (its next yield,
 * or its wake-up if it blocks first; bb_unit_push_migrating), as one that
 * another unit posts for it; one pending already is replaced. */
static int migrate_self(bb_unit *u, bb_pool *to)
{
    if (!bb_unit_is_ult(u))
        return ABT_ERR_MIGRATION_NA; /* a running tasklet cannot leave its ES */
    post_request(u, to);
    return ABT_SUCCESS;
}

/* `u`, taken out of its pool, goes into `to` at once. The target counts it
 * as to come from before the callback, which may look at the pool
 * (ABT_pool_free refuses it meanwhile), until the unit is in. If the pool
 * cannot take it (a user pool's unit could not be made), it goes back. */
static int move_taken_out(bb_unit *u, bb_pool *to)
{
    bb_pool_add_blocked(to, 1);
    int err = bb_unit_set_pool(u, to);
    if (err == ABT_SUCCESS)
        moved(u);
    bb_unit_push_counted(u, to);
    return err;
}

int bb_unit_migrate(bb_unit *u, bb_pool *to)
{
    bb_unit *self = bb_self_unit();
    if (u == self)
        return migrate_self(u, to);
    if (take_out_of_pool(u)) {
        if (has_pending_request(u)) {
            /* Posted while `u` could not be moved, and not served yet: this
             * move replaces it, as a later request would, and is served at
             * once. */
            post_request(u, to);
            bb_unit_push_migrating(u, ABT_POOL_CONTEXT_OP_THREAD_MIGRATE);
            return ABT_SUCCESS;
        }
        return move_taken_out(u, to);
    }
    if (!bb_unit_is_ult(u))
        return ABT_ERR_MIGRATION_NA; /* running: it will finish where it is (never a
                                        request: bb_unit_end_tasklet relies on it) */
    post_request(u, to);
    /* `u` may have been on its way into a pool, ready but not pushed yet. A
     * built-in shared pool's push looks for a request under the pool's
     * lock (builtin.c), so either it finds this one, or this second try
     * finds `u` in the pool; otherwise the move would wait until a scheduler
     * pops `u`, and for ever in a pool that none serves. The lock alone
     * decides, so the try does not first look at the state: the waker
     * stores READY before it takes the lock, and a look here, after the
     * request, may still miss that store (the pattern of store buffering,
     * which weakly ordered machines allow) while the push misses the
     * request. */
    if (take_out_if_listed(u))
        bb_unit_push_migrating(u, ABT_POOL_CONTEXT_OP_THREAD_MIGRATE);
    return ABT_SUCCESS;
}

/* ---- public API ------------------------------------------------------------ */

/* Checks common to every migration call: the unit may move at all. */
static int check_migratable(ABT_thread thread, bb_unit **out)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_unit *u = bb_unit_of(thread);
    if (bb_unit_state(u) == ABT_THREAD_STATE_TERMINATED || bb_unit_is_terminated(u))
        return ABT_ERR_INV_THREAD; /* ended, or ending (bb_unit_end) */
    if (!bb_load_relaxed(&u->migratable))
        return ABT_ERR_INV_THREAD; /* as Argobots: primary, schedulers, opted out */
    *out = u;
    return ABT_SUCCESS;
}

static bool xstream_is_running(bb_xstream *es)
{
    return es->is_primary || bb_load_acquire(&es->state) == ABT_XSTREAM_STATE_RUNNING;
}

int ABT_thread_migrate_to_pool(ABT_thread thread, ABT_pool pool)
{
    bb_unit *u;
    int err = check_migratable(thread, &u);
    if (err != ABT_SUCCESS)
        return err;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (bb_pool_of(pool) == bb_load_relaxed(&u->pool))
        return ABT_ERR_MIGRATION_TARGET; /* already there */
    return bb_unit_migrate(u, bb_pool_of(pool));
}

/* The scheduler's migration pool, or NULL if the unit is in one of its pools
 * already (or it names none). */
static bb_pool *migration_target(bb_unit *u, bb_sched *s)
{
    bb_pool *to = bb_sched_migration_pool(s);
    return to && !bb_sched_has_pool(s, bb_load_relaxed(&u->pool)) ? to : NULL;
}

static int migrate_to_sched(bb_unit *u, bb_sched *s)
{
    bb_pool *to = migration_target(u, s);
    return to ? bb_unit_migrate(u, to) : ABT_ERR_MIGRATION_TARGET;
}

int ABT_thread_migrate_to_sched(ABT_thread thread, ABT_sched sched)
{
    bb_unit *u;
    int err = check_migratable(thread, &u);
    if (err != ABT_SUCCESS)
        return err;
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    return migrate_to_sched(u, bb_sched_of(sched));
}

/* Whether the scheduler was asked to stop (a join, a free, a cancel or an
 * exit of its ES). */
static bool sched_is_stopping(bb_sched *s)
{
    return (__atomic_load_n(&s->request, __ATOMIC_SEQ_CST) &
            (BB_SCHED_REQ_FINISH | BB_SCHED_REQ_EXIT)) != 0;
}

/* Count a move of `u` to the main scheduler of `es` in that scheduler's
 * migration pool, as a unit to come; on success `*to` is that pool, which
 * the caller uncounts once the move is made (move_counted).
 *
 * The ES may replace its main scheduler meanwhile: that one is pinned while
 * its migration pool is chosen, not during the move, which may switch. The
 * ES may also be stopping: joined or freed by another thread (for
 * ABT_thread_migrate, which chose it, without its caller's knowledge). Its
 * scheduler may then find its pools drained and stop, and a free destroy
 * its automatic pool, with the unit on its way in: lost in freed memory.
 * So the move is counted before the pin is let go, and only then is the
 * stop request read: a scheduler that looks at its pools after the count
 * waits for the unit; one that looked before was asked to stop before,
 * which the read sees, and the move is refused. */
static int count_move_to_pinned(bb_unit *u, bb_sched *s, bb_pool **to)
{
    *to = s ? migration_target(u, s) : NULL;
    int err = *to ? ABT_SUCCESS : ABT_ERR_MIGRATION_TARGET;
    if (*to) {
        __atomic_fetch_add(&(*to)->num_blocked, 1, __ATOMIC_SEQ_CST);
        if (sched_is_stopping(s)) {
            bb_unit_uncount_blocked(*to, NULL);
            err = ABT_ERR_INV_XSTREAM; /* it would stop without running it */
        }
    }
    return err;
}

static int count_move_to_xstream(bb_unit *u, bb_xstream *es, bb_pool **to)
{
    if (!xstream_is_running(es))
        return ABT_ERR_INV_XSTREAM; /* nothing would ever run it there */
    bb_sched *s = bb_xstream_pin_main_sched(es);
    int err = count_move_to_pinned(u, s, to);
    if (s)
        bb_sched_unpin(s);
    return err;
}

/* Make a counted move and drop the count: bb_unit_migrate counts a move it
 * leaves pending (a request) by itself. */
static int move_counted(bb_unit *u, bb_pool *to)
{
    int err = bb_unit_migrate(u, to);
    bb_unit_uncount_blocked(to, NULL);
    return err;
}

static int migrate_to_xstream(bb_unit *u, bb_xstream *es)
{
    bb_pool *to;
    int err = count_move_to_xstream(u, es, &to);
    return err == ABT_SUCCESS ? move_counted(u, to) : err;
}

int ABT_thread_migrate_to_xstream(ABT_thread thread, ABT_xstream xstream)
{
    bb_unit *u;
    int err = check_migratable(thread, &u);
    if (err != ABT_SUCCESS)
        return err;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    return migrate_to_xstream(u, bb_xstream_of(xstream));
}

/* A move of `u` counted in the migration pool of some running ES other
 * than the unit's (count_move_to_xstream), the next one by rank after it,
 * so that repeated calls spread units around; NULL if there is none. An ES
 * is found under the table's lock, and its main scheduler pinned there: no
 * ES is freed while its scheduler is pinned (destroy_xstream waits), and
 * the count then keeps it running. The lock is let go while the move is
 * counted: the scheduler's get_migr_pool is the user's code, which may
 * call functions that take it (ABT_info_print_thread, ABT_xstream_create). */
static bb_pool *count_move_elsewhere(bb_unit *u)
{
    bb_pool *to = NULL;
    pthread_mutex_lock(&bb_rt.lock);
    bb_xstream *last = bb_load_relaxed(&u->xstream); /* may have been freed since */
    int start = bb_xstream_table_rank_of_locked(last);
    if (start < 0)
        start = 0;
    for (int i = 1; i <= bb_rt.xstreams_cap && !to; i++) {
        bb_xstream *es = bb_rt.xstreams[(start + i) % bb_rt.xstreams_cap];
        if (!es || es == last || !xstream_is_running(es))
            continue;
        bb_sched *s = bb_xstream_pin_main_sched(es);
        if (!s)
            continue;
        pthread_mutex_unlock(&bb_rt.lock);
        if (count_move_to_pinned(u, s, &to) != ABT_SUCCESS)
            to = NULL;
        bb_sched_unpin(s);
        pthread_mutex_lock(&bb_rt.lock);
    }
    pthread_mutex_unlock(&bb_rt.lock);
    return to;
}

int ABT_thread_migrate(ABT_thread thread)
{
    bb_unit *u;
    int err = check_migratable(thread, &u);
    if (err != ABT_SUCCESS)
        return err;
    bb_pool *to = count_move_elsewhere(u);
    return to ? move_counted(u, to) : ABT_ERR_MIGRATION_NA; /* no other ES to go to */
}
