/* Schedulers: creation, the stop protocol, and the public ABT_sched_* API.
 * The predefined loops are in basic.c; stacking in stack.c. */
#include <pthread.h>
#include <stdlib.h>

#include "bb_caller.h"
#include "bb_info.h"
#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_xstream.h"

static void release_pools(bb_pool **pools, int n)
{
    for (int i = 0; i < n; i++)
        if (pools[i])
            bb_pool_release(pools[i]);
}

/* Whether the caller of a scheduler's creation gave pool `i` (the others
 * the scheduler made). */
static bool was_given(bb_pool *const *given, int i)
{
    return given && given[i];
}

/* A scheduler made by a call that then fails lets go of the pools the
 * caller gave without freeing them, automatic or not: they stay the
 * caller's, as before the call (Argobots does the same). The pools it made
 * itself go with it. */
static void give_back_given_pools(bb_pool **pools, bb_pool *const *given, int n)
{
    for (int i = 0; i < n; i++) {
        if (was_given(given, i)) {
            bb_pool_unretain_keeping(pools[i]);
            pools[i] = NULL;
        }
    }
}

/* Whether a scheduler may go without losing work is decided under this
 * lock, and one that may counts itself in each of its pools' `leaving`
 * until it has let go of them, under the lock too. Two schedulers that
 * share an automatic pool with work and go at once (two ESs freed by two
 * threads) would otherwise each see the other still holding the pool, and
 * both go, freeing it with the units. */
static pthread_mutex_t leave_lock = PTHREAD_MUTEX_INITIALIZER;

/* That work would be lost: nobody else knows the pool. Under leave_lock. */
static bool frees_pool_with_work(bb_sched *s)
{
    for (int i = 0; i < s->num_pools; i++) {
        bb_pool *p = s->pools[i];
        uint32_t staying = bb_load_acquire(&p->num_scheds) - p->leaving;
        if (p->automatic && staying == 1 && bb_pool_has_work(p))
            return true;
    }
    return false;
}

/* A scheduler that decided to go lets go of its pools (see leave_lock). */
static void leave_pools(bb_sched *s)
{
    for (int i = 0; i < s->num_pools; i++) {
        bb_pool *p = s->pools[i];
        pthread_mutex_lock(&leave_lock);
        p->leaving--;
        bool last = bb_pool_unretain(p);
        pthread_mutex_unlock(&leave_lock);
        if (last)
            bb_pool_destroy(p); /* the user's code, if a user pool: not under the lock */
    }
}

/* The pools a scheduler works on: the caller's, or new ones where it gave
 * none. Each is retained; on failure, nothing is. */
static int gather_pools(const bb_sched_spec *spec, bb_pool ***out)
{
    bb_pool **own = calloc((size_t)spec->num_pools, sizeof(*own));
    if (!own && spec->num_pools > 0)
        return ABT_ERR_MEM;
    for (int made = 0; made < spec->num_pools; made++) {
        if (spec->pools && spec->pools[made]) {
            own[made] = spec->pools[made];
        } else {
            int err = bb_pool_create_builtin(spec->new_pool_kind, spec->new_pool_access, true,
                                             &own[made]);
            if (err != ABT_SUCCESS) {
                give_back_given_pools(own, spec->pools, made);
                release_pools(own, made);
                free(own);
                return err;
            }
        }
        bb_pool_retain(own[made]);
    }
    *out = own;
    return ABT_SUCCESS;
}

static void (*loop_of(int kind))(ABT_sched)
{
    switch (kind) {
    case ABT_SCHED_BASIC_WAIT:
        return bb_sched_basic_wait_run;
    case ABT_SCHED_RANDWS:
        return bb_sched_randws_run;
    default:
        return bb_sched_basic_run; /* DEFAULT, BASIC, PRIO: first pool first */
    }
}

int bb_sched_create(const bb_sched_spec *spec, bb_sched **out)
{
    bb_sched *s = bb_mem_calloc_lines(sizeof(*s)); /* as pools, see bb_pool_alloc */
    if (!s)
        return ABT_ERR_MEM;
    s->bell = bb_bell_take();
    int err = s->bell ? gather_pools(spec, &s->pools) : ABT_ERR_MEM;
    if (err != ABT_SUCCESS) {
        if (s->bell)
            bb_bell_give_back(s->bell);
        free(s);
        return err;
    }
    s->run = spec->kind == BB_SCHED_USER ? NULL : loop_of(spec->kind);
    s->kind = spec->kind;
    s->num_pools = spec->num_pools;
    s->automatic = spec->automatic;
    s->event_freq = spec->event_freq;
    bool in_order = s->run == bb_sched_basic_run || s->run == bb_sched_basic_wait_run;
    if (in_order && s->num_pools > 0) {
        bb_pool *first = s->pools[0];
        if (bb_pool_can(first, BB_POOL_PRIVATE_FIFO))
            s->direct_pool = first;
        else if (first->user)
            s->direct_user_pool = first;
    }
    for (int i = 0; i < s->num_pools; i++)
        if (s->pools[i]->access == ABT_POOL_ACCESS_PRIV)
            s->has_private_pool = true;
    s->used = BB_SCHED_UNUSED;
    s->random = (uintptr_t)s | 1; /* any non-zero seed */
    *out = s;
    return ABT_SUCCESS;
}

static bool predef_is_valid(int predef)
{
    return predef >= ABT_SCHED_DEFAULT && predef <= ABT_SCHED_BASIC_WAIT;
}

/* How many pools a predefined scheduler makes when given none. */
static int default_num_pools(int predef)
{
    return predef == ABT_SCHED_PRIO ? 3 : 1;
}

int bb_sched_create_predef(int predef, int num_pools, bb_pool **pools, ABT_sched_config config,
                           bool automatic_default, bb_sched **out)
{
    if (!predef_is_valid(predef))
        return ABT_ERR_INV_SCHED_PREDEF;
    bb_sched_spec spec = {
        .kind = predef,
        .num_pools = pools ? num_pools : default_num_pools(predef),
        .pools = pools,
        .new_pool_kind = predef == ABT_SCHED_BASIC_WAIT ? ABT_POOL_FIFO_WAIT : ABT_POOL_FIFO,
        .new_pool_access = ABT_POOL_ACCESS_MPMC,
        .automatic = bb_sched_config_int(config, &ABT_sched_config_automatic,
                                         automatic_default) != 0,
        .event_freq = bb_sched_config_int(config, &ABT_sched_basic_freq,
                                          bb_rt.config.sched_event_freq),
    };
    if (spec.event_freq < 1)
        spec.event_freq = 1;
    return bb_sched_create(&spec, out);
}

/* The scheduler of an ES created without one, and of the primary ES. */
int bb_sched_create_default(bb_sched **out)
{
    return bb_sched_create_predef(ABT_SCHED_DEFAULT, 1, NULL, ABT_SCHED_CONFIG_NULL, true, out);
}

static bb_bell no_sched_bell;
bb_sched bb_no_sched = {.bell = &no_sched_bell};

void bb_sched_destroy(bb_sched *s)
{
    if (s->user_free)
        s->user_free(bb_sched_handle(s)); /* its return value changes nothing */
    if (s->leaving)
        leave_pools(s);
    else
        release_pools(s->pools, s->num_pools);
    free(s->pools);
    free(s->sleepers); /* unlinked when its loop stopped */
    bb_bell_give_back(s->bell);
    free(s);
}

void bb_sched_discard(bb_sched *s, bb_pool *const *given)
{
    give_back_given_pools(s->pools, given, s->num_pools);
    bb_sched_destroy(s);
}

/* ABT_finalize: the primary ES's scheduler and all its pools go, automatic
 * or not, unless another scheduler still holds a pool. */
void bb_sched_destroy_with_pools(bb_sched *s)
{
    for (int i = 0; i < s->num_pools; i++)
        s->pools[i]->automatic = true;
    bb_sched_destroy(s);
}

/* A private pool has one home at a time: the ES whose main scheduler holds
 * it. Taking and giving back homes is serialized, so that two ESs made at
 * once with one private pool cannot both take it. Rare: ES creation and
 * scheduler replacement. */
static pthread_mutex_t homes_lock = PTHREAD_MUTEX_INITIALIZER;

static bool is_private(const bb_pool *p)
{
    return p->access == ABT_POOL_ACCESS_PRIV;
}

/* Under homes_lock: no private pool of `s` has a home other than `es`. */
static bool homes_free_for(const bb_sched *s, const bb_xstream *es)
{
    for (int i = 0; i < s->num_pools; i++) {
        const bb_xstream *home = bb_load_relaxed(&s->pools[i]->home);
        if (is_private(s->pools[i]) && home && home != es)
            return false;
    }
    return true;
}

/* Under the pool's lock, which a private pool without a home takes for
 * every change of its list (builtin.c): once its home changes the list
 * without the lock, nobody else is still inside. */
static void set_home(bb_pool *p, bb_xstream *es)
{
    bb_spin_lock(&p->lock);
    bb_store_release(&p->home, es);
    bb_spin_unlock(&p->lock);
}

int bb_sched_attach(bb_sched *s, bb_xstream *es)
{
    pthread_mutex_lock(&homes_lock);
    bool free_for_es = homes_free_for(s, es);
    if (free_for_es) {
        s->xstream = es;
        for (int i = 0; i < s->num_pools; i++)
            if (is_private(s->pools[i]))
                set_home(s->pools[i], es);
    }
    pthread_mutex_unlock(&homes_lock);
    return free_for_es ? ABT_SUCCESS : ABT_ERR_INV_POOL_ACCESS;
}

/* Whether `other`, not `s`, holds `p` on the same ES. */
static bool also_held_by(const bb_sched *other, const bb_sched *s, const bb_pool *p)
{
    return other && other != s && bb_sched_has_pool(other, p);
}

/* A pool that another scheduler of the ES holds (its new main scheduler, or
 * the old one still draining its pools) keeps its home. */
void bb_sched_detach(bb_sched *s)
{
    bb_xstream *es = s->xstream;
    s->xstream = NULL;
    if (!es)
        return;
    pthread_mutex_lock(&homes_lock);
    for (int i = 0; i < s->num_pools; i++) {
        bb_pool *p = s->pools[i];
        bool kept = also_held_by(es->main_sched, s, p) || also_held_by(es->retiring, s, p);
        if (is_private(p) && bb_load_relaxed(&p->home) == es && !kept)
            set_home(p, NULL);
    }
    pthread_mutex_unlock(&homes_lock);
}

void bb_sched_request(bb_sched *s, uint32_t bits)
{
    /* Only a main scheduler sleeps, and only it outlives the request: a
     * stacked one may see the bit, stop and free itself at once. */
    bool may_sleep = __atomic_load_n(&s->used, __ATOMIC_ACQUIRE) != BB_SCHED_IN_POOL;
    /* Sequentially consistent, as the scheduler's reads of the request and
     * of its pools' blocked counts (bb_sched_has_to_stop) and a migrator's
     * count of a move then read of the request (migrate.c,
     * count_move_to_pinned): of a migrator and a scheduler that stops, one
     * must see the other's write, which only a single total order of the
     * three threads' accesses ensures. */
    __atomic_fetch_or(&s->request, bits, __ATOMIC_SEQ_CST);
    if (may_sleep)
        bb_bell_ring(s->bell); /* it may be asleep in an idle loop */
}

/* A unit handed to the loop (bb_sched_take_handed) counts as one in its
 * pool. */
bool bb_sched_pools_are_drained(bb_sched *s)
{
    if (s->handed)
        return false;
    for (int i = 0; i < s->num_pools; i++)
        if (!bb_pool_is_drained(s->pools[i]))
            return false;
    return true;
}

/* EXIT stops at once; FINISH and REPLACE once nothing is left to run
 * (bb_pool_is_drained says which blocked units count). A stacked scheduler
 * also stops by itself when it runs out of work: it is a unit of its
 * parent's pool, and the parent could not finish while it lingered. */
bool bb_sched_has_to_stop(bb_sched *s)
{
    uint32_t req = __atomic_load_n(&s->request, __ATOMIC_SEQ_CST); /* see bb_sched_request */
    if (req & BB_SCHED_REQ_EXIT)
        return true;
    if ((req & (BB_SCHED_REQ_FINISH | BB_SCHED_REQ_REPLACE)) ||
        bb_load_relaxed(&s->used) == BB_SCHED_IN_POOL)
        return bb_sched_pools_are_drained(s);
    return false;
}

/* Units other ESs migrated into the private pools of `s`, which runs on
 * the one ES that may push them (bb_pool_push_migrated). */
static void take_incoming(bb_sched *s)
{
    for (int i = 0; i < s->num_pools; i++)
        if (bb_load_relaxed(&s->pools[i]->incoming))
            bb_pool_take_incoming(s->pools[i]);
}

/* Housekeeping a scheduler loop does every `event_freq` iterations. A
 * stacked scheduler lets its parent run: its own ULT goes back to the pool
 * it came from, behind whatever else waits there. It needs no copy of its
 * ES's stop requests: it stops by itself once its pools are drained
 * (bb_sched_has_to_stop), which is all a finish (a join) would ask. An exit
 * of the ES (ABT_xstream_cancel, ABT_xstream_exit) must not reach it: the
 * parent sees it as soon as it runs again, here, and stops with the stacked
 * scheduler's ULT left in its pool, its units in theirs, as a cancel
 * promises. Passed on, it would end the stacked scheduler with work left,
 * and an automatic one would free its automatic pools with units still in
 * them (or counted there as blocked or as migration targets). */
void bb_sched_check_events(bb_sched *s)
{
    if (__builtin_expect(bb_info_dump_requested(), 0))
        bb_info_dump_rendezvous(s); /* ABT_info_trigger_print_all_thread_stacks */
    bb_xstream *es = bb_self_xstream();
    if (bb_load_relaxed(&es->remote_ready))
        bb_xstream_take_remote_ready(es);
    if (s->has_private_pool)
        take_incoming(s);
    if (bb_load_relaxed(&s->used) == BB_SCHED_IN_POOL && s->unit)
        bb_ult_yield(s->unit);
}

bb_pool *bb_sched_migration_pool(bb_sched *s)
{
    if (s->get_migr_pool) {
        ABT_pool pool = s->get_migr_pool(bb_sched_handle(s));
        return pool != ABT_POOL_NULL ? bb_pool_of(pool) : NULL;
    }
    return bb_sched_first_pool(s);
}

/* ---- public API ------------------------------------------------------------ */

static int check_sched(ABT_sched sched)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    return sched == ABT_SCHED_NULL ? ABT_ERR_INV_SCHED : ABT_SUCCESS;
}

static int check_sched_query(ABT_sched sched, const void *out)
{
    int err = check_sched(sched);
    if (err == ABT_SUCCESS && !out)
        err = ABT_ERR_INV_ARG;
    return err;
}

/* ---- public API: creation -------------------------------------------------- */

int ABT_sched_create(ABT_sched_def *def, int num_pools, ABT_pool *pools,
                     ABT_sched_config config, ABT_sched *newsched)
{
    if (!newsched)
        return ABT_ERR_SCHED;
    *newsched = ABT_SCHED_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!def || !def->run)
        return ABT_ERR_INV_ARG;
    if (num_pools < 0)
        return ABT_ERR_INV_ARG;
    bb_sched_spec spec = {
        .kind = BB_SCHED_USER,
        .num_pools = num_pools,
        .pools = (bb_pool **)(void *)pools,
        .new_pool_kind = ABT_POOL_FIFO,
        .new_pool_access = ABT_POOL_ACCESS_MPSC,
        .automatic = bb_sched_config_int(config, &ABT_sched_config_automatic, 0) != 0,
        .event_freq = bb_rt.config.sched_event_freq,
    };
    bb_sched *s;
    int err = bb_sched_create(&spec, &s);
    if (err != ABT_SUCCESS)
        return err;
    s->run = def->run;
    s->get_migr_pool = def->get_migr_pool;
    if (def->init) {
        err = def->init(bb_sched_handle(s), config);
        if (err != ABT_SUCCESS) {
            bb_sched_discard(s, spec.pools); /* free is not called: init did not succeed */
            return err;
        }
    }
    s->user_free = def->free;
    *newsched = bb_sched_handle(s);
    return ABT_SUCCESS;
}

int ABT_sched_create_basic(ABT_sched_predef predef, int num_pools, ABT_pool *pools,
                           ABT_sched_config config, ABT_sched *newsched)
{
    if (!newsched)
        return ABT_ERR_SCHED;
    *newsched = ABT_SCHED_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (num_pools < 0)
        return ABT_ERR_INV_ARG;
    bb_sched *s;
    int err = bb_sched_create_predef(predef, num_pools, (bb_pool **)(void *)pools, config, true,
                                     &s);
    if (err == ABT_SUCCESS)
        *newsched = bb_sched_handle(s);
    return err;
}

bool bb_sched_destroy_unless_needed(bb_sched *s)
{
    pthread_mutex_lock(&leave_lock);
    bool needed = frees_pool_with_work(s);
    if (!needed) {
        for (int i = 0; i < s->num_pools; i++)
            s->pools[i]->leaving++;
        s->leaving = true;
    }
    pthread_mutex_unlock(&leave_lock);
    if (!needed)
        bb_sched_destroy(s);
    return !needed;
}

void bb_sched_free_or_give_back(bb_sched *s)
{
    if (s->automatic && bb_sched_destroy_unless_needed(s))
        return;
    s->automatic = false;
    bb_sched_unclaim(s); /* last: the user may free it from now on */
}

int ABT_sched_free(ABT_sched *sched)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!sched || *sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    bb_sched *s = bb_sched_of(*sched);
    if (bb_sched_is_used(s) || !bb_sched_destroy_unless_needed(s))
        return ABT_ERR_SCHED;
    *sched = ABT_SCHED_NULL;
    return ABT_SUCCESS;
}

/* ---- public API: control ---------------------------------------------------- */

/* The primary ES stops only in ABT_finalize (which asks through
 * bb_xstream_request_stop): a request to its main scheduler is ignored
 * here, instead of lingering in it (a FINISH never completes there, the
 * primary ULT being always counted) and refusing every migration to the
 * primary ES. A scheduler it is replacing (retiring) still takes them. The
 * primary ES lives as long as the runtime; `s`'s own ES may be going away
 * meanwhile, so it is not read. */
static bool is_primary_main(const bb_sched *s)
{
    return s == bb_load_relaxed(&bb_rt.primary_xstream->main_sched);
}

static int request(ABT_sched sched, uint32_t bits)
{
    int err = check_sched(sched);
    if (err == ABT_SUCCESS && !is_primary_main(bb_sched_of(sched)))
        bb_sched_request(bb_sched_of(sched), bits);
    return err;
}

int ABT_sched_finish(ABT_sched sched)
{
    return request(sched, BB_SCHED_REQ_FINISH);
}

int ABT_sched_exit(ABT_sched sched)
{
    return request(sched, BB_SCHED_REQ_EXIT);
}

int ABT_sched_has_to_stop(ABT_sched sched, ABT_bool *stop)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!stop)
        return ABT_ERR_INV_ARG;
    *stop = ABT_FALSE;
    if (!bb_self_xstream())
        return ABT_ERR_INV_XSTREAM;
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    *stop = bb_sched_has_to_stop(bb_sched_of(sched)) ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

/* ---- public API: queries ---------------------------------------------------- */

int ABT_sched_set_data(ABT_sched sched, void *data)
{
    int err = check_sched(sched);
    if (err == ABT_SUCCESS)
        bb_sched_of(sched)->data = data;
    return err;
}

int ABT_sched_get_data(ABT_sched sched, void **data)
{
    int err = check_sched_query(sched, data);
    if (err == ABT_SUCCESS)
        *data = bb_sched_of(sched)->data;
    return err;
}

int ABT_sched_get_num_pools(ABT_sched sched, int *num_pools)
{
    int err = check_sched_query(sched, num_pools);
    if (err == ABT_SUCCESS)
        *num_pools = bb_sched_of(sched)->num_pools;
    return err;
}

int ABT_sched_get_pools(ABT_sched sched, int max_pools, int idx, ABT_pool *pools)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    bb_sched *s = bb_sched_of(sched);
    if (idx < 0 || max_pools < 0 || (max_pools > 0 && !pools))
        return ABT_ERR_INV_ARG;
    if (max_pools > s->num_pools - idx) /* idx + max_pools, without overflow */
        return ABT_ERR_SCHED;
    for (int i = 0; i < max_pools; i++)
        pools[i] = bb_pool_handle(s->pools[idx + i]);
    return ABT_SUCCESS;
}

/* Sum of the pools' sizes, with or without their blocked units. */
static int sum_sizes(ABT_sched sched, size_t *size, bool with_blocked)
{
    int err = check_sched_query(sched, size);
    if (err != ABT_SUCCESS)
        return err;
    *size = 0;
    bb_sched *s = bb_sched_of(sched);
    size_t total = 0;
    for (int i = 0; i < s->num_pools; i++) {
        bb_pool *p = s->pools[i];
        if (!bb_pool_can(p, BB_POOL_CAN_SIZE))
            return ABT_ERR_POOL;
        total += bb_pool_size(p) + (with_blocked ? (size_t)bb_pool_blocked(p) : 0);
    }
    *size = total;
    return ABT_SUCCESS;
}

int ABT_sched_get_size(ABT_sched sched, size_t *size)
{
    return sum_sizes(sched, size, false);
}

int ABT_sched_get_total_size(ABT_sched sched, size_t *size)
{
    return sum_sizes(sched, size, true);
}
