/*
 * A user-defined FIFO pool for the pool and unit tests, written against the
 * public API only, in both of Argobots' interfaces:
 *
 *   up_new_def(full)      a new-style ABT_pool_user_def (full: every optional
 *                         callback set; else only the five mandatory ones)
 *   up_legacy_def(...)    a legacy struct ABT_pool_def
 *   up_new_pool_with(...) a new-style pool whose create-unit and pop
 *                         callbacks the test supplies
 *
 * A pool's state (up_state) is found with ABT_pool_get_data. Its init
 * callback takes the state from the config (key UP_CFG_STATE, a pointer), so
 * that a test can read the counters after the pool is gone; without that key
 * it allocates a state of its own (freed by the free callback). A pool made
 * without init must get its state by ABT_pool_set_data right after creation.
 *
 * Units are heap blocks (16-byte aligned: the two low bits are clear, as
 * Argobots requires). Global counters (up_g) count the unit callbacks of all
 * pools, since the legacy unit callbacks do not get the pool, and misuse by
 * the runtime (up_g.n_misuse: a unit pushed while it is in a pool or freed
 * while it is in one, a pool freed with units in it). A state's optional
 * on_unit hook sees each new-style create_unit ('C') and free_unit ('F').
 *
 * Also here, for tests that run a pool under a workload:
 *   up_primary_main_pool()   the primary ES's first main pool
 *   up_wl_run(...)           a mixed ULT / tasklet workload on up_wl.pool
 */
#ifndef POOL_USER_UTIL_H
#define POOL_USER_UTIL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include "bb_test.h"

#define UP_CFG_STATE 1000 /* config key: up_state * of the pool */

typedef struct up_unit {
    ABT_thread thread;
    ABT_pool pool; /* the pool that made it (new-style); NULL for legacy */
    struct up_unit *next, *prev;
    int in_pool;
} up_unit;

typedef struct up_state {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    up_unit *head, *tail;
    size_t size;
    int owned; /* allocated by init, freed by free */
    char tag;  /* names the pool in up_g.log */
    atomic_int n_init, n_free, n_create, n_free_unit, n_push, n_pop, n_get_size, n_pop_wait,
        n_pop_many, n_push_many, n_print, n_remove, n_timedwait;
    atomic_int n_free_unit_wrong_pool; /* a unit freed by a pool that did not make it */
    atomic_ullong push_ctx_seen;       /* OR of every push context */
    ABT_pool_context last_push_ctx, last_pop_ctx;
    double last_wait_secs, last_abstime;
    ABT_unit last_created, last_freed;
    /* Optional: called by up_create_unit ('C') and up_free_unit ('F'). */
    void (*on_unit)(struct up_state *s, ABT_thread thread, char ev);
} up_state;

/* All pools together. */
static struct {
    atomic_int n_create, n_free_unit, n_init, n_free;
    atomic_int n_misuse; /* pushed or freed while in a pool; pool freed non-empty */
    /* Event log of unit callbacks: 'C' create, 'F' free, followed by a pool tag. */
    char log[256];
    atomic_int nlog;
} up_g;

static inline void up_state_init(up_state *s)
{
    memset(s, 0, sizeof(*s));
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
}

static inline up_state *up_state_of(ABT_pool pool)
{
    void *data = NULL;
    ABT_pool_get_data(pool, &data);
    return (up_state *)data;
}

static inline void up_log(char ev, up_state *s)
{
    int i = atomic_fetch_add(&up_g.nlog, 2);
    if (i + 1 < (int)sizeof(up_g.log) - 1) {
        up_g.log[i] = ev;
        up_g.log[i + 1] = s && s->tag ? s->tag : '?';
    }
}

/* ---- the list, under s->lock ---- */

static inline void up_list_push(up_state *s, up_unit *u)
{
    if (u->in_pool)
        atomic_fetch_add(&up_g.n_misuse, 1); /* pushed twice */
    u->next = NULL;
    u->prev = s->tail;
    if (s->tail)
        s->tail->next = u;
    else
        s->head = u;
    s->tail = u;
    u->in_pool = 1;
    s->size++;
    pthread_cond_signal(&s->cond);
}

static inline up_unit *up_list_pop(up_state *s)
{
    up_unit *u = s->head;
    if (!u)
        return NULL;
    s->head = u->next;
    if (s->head)
        s->head->prev = NULL;
    else
        s->tail = NULL;
    u->next = u->prev = NULL;
    u->in_pool = 0;
    s->size--;
    return u;
}

static inline int up_list_remove(up_state *s, up_unit *u)
{
    up_unit *x = s->head;
    while (x && x != u)
        x = x->next;
    if (!x)
        return ABT_ERR_POOL;
    if (u->prev)
        u->prev->next = u->next;
    else
        s->head = u->next;
    if (u->next)
        u->next->prev = u->prev;
    else
        s->tail = u->prev;
    u->next = u->prev = NULL;
    u->in_pool = 0;
    s->size--;
    return ABT_SUCCESS;
}

/* Sleep on s->cond until the list has a unit or the realtime deadline passes. */
/* The newest unit (LIFO order) or NULL; under s->lock. */
static inline up_unit *up_list_pop_tail(up_state *s)
{
    up_unit *u = s->tail;
    if (u)
        up_list_remove(s, u);
    return u;
}

static inline up_unit *up_list_pop_until(up_state *s, double abstime)
{
    struct timespec ts;
    ts.tv_sec = (time_t)abstime;
    ts.tv_nsec = (long)((abstime - (double)ts.tv_sec) * 1e9);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&s->lock);
    while (!s->head) {
        if (pthread_cond_timedwait(&s->cond, &s->lock, &ts) != 0)
            break;
    }
    up_unit *u = up_list_pop(s);
    pthread_mutex_unlock(&s->lock);
    return u;
}

static inline double up_realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- new-style callbacks ---- */

static inline ABT_unit up_create_unit(ABT_pool pool, ABT_thread thread)
{
    up_state *s = up_state_of(pool);
    up_unit *u = calloc(1, sizeof(*u));
    u->thread = thread;
    u->pool = pool;
    atomic_fetch_add(&s->n_create, 1);
    atomic_fetch_add(&up_g.n_create, 1);
    __atomic_store_n(&s->last_created, (ABT_unit)u, __ATOMIC_RELAXED);
    up_log('C', s);
    if (s->on_unit)
        s->on_unit(s, thread, 'C');
    return (ABT_unit)u;
}

static inline void up_free_unit(ABT_pool pool, ABT_unit unit)
{
    up_state *s = up_state_of(pool);
    up_unit *u = (up_unit *)unit;
    if (s->on_unit)
        s->on_unit(s, u->thread, 'F');
    if (u->pool != pool)
        atomic_fetch_add(&s->n_free_unit_wrong_pool, 1);
    if (u->in_pool)
        atomic_fetch_add(&up_g.n_misuse, 1); /* freed while still in the list */
    atomic_fetch_add(&s->n_free_unit, 1);
    atomic_fetch_add(&up_g.n_free_unit, 1);
    __atomic_store_n(&s->last_freed, unit, __ATOMIC_RELAXED); /* units may be freed on two ESs at once */
    up_log('F', s);
    free(u);
}

static inline ABT_bool up_is_empty(ABT_pool pool)
{
    up_state *s = up_state_of(pool);
    pthread_mutex_lock(&s->lock);
    ABT_bool empty = s->head ? ABT_FALSE : ABT_TRUE;
    pthread_mutex_unlock(&s->lock);
    return empty;
}

static inline ABT_thread up_pop(ABT_pool pool, ABT_pool_context ctx)
{
    up_state *s = up_state_of(pool);
    pthread_mutex_lock(&s->lock);
    up_unit *u = up_list_pop(s);
    s->last_pop_ctx = ctx;
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_add(&s->n_pop, 1);
    return u ? u->thread : ABT_THREAD_NULL;
}

static inline void up_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    up_state *s = up_state_of(pool);
    pthread_mutex_lock(&s->lock);
    up_list_push(s, (up_unit *)unit);
    s->last_push_ctx = ctx;
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_or(&s->push_ctx_seen, (unsigned long long)ctx);
    atomic_fetch_add(&s->n_push, 1);
}

static inline int up_init(ABT_pool pool, ABT_pool_config config)
{
    up_state *s = NULL;
    if (config == ABT_POOL_CONFIG_NULL ||
        ABT_pool_config_get(config, UP_CFG_STATE, NULL, &s) != ABT_SUCCESS || !s) {
        s = malloc(sizeof(*s));
        up_state_init(s);
        s->owned = 1;
    }
    atomic_fetch_add(&s->n_init, 1);
    atomic_fetch_add(&up_g.n_init, 1);
    ABT_pool_set_data(pool, s);
    return ABT_SUCCESS;
}

static inline void up_free(ABT_pool pool)
{
    up_state *s = up_state_of(pool);
    if (s->head || s->size)
        atomic_fetch_add(&up_g.n_misuse, 1); /* freed with units in it */
    atomic_fetch_add(&s->n_free, 1);
    atomic_fetch_add(&up_g.n_free, 1);
    if (s->owned)
        free(s);
}

static inline size_t up_get_size(ABT_pool pool)
{
    up_state *s = up_state_of(pool);
    atomic_fetch_add(&s->n_get_size, 1);
    pthread_mutex_lock(&s->lock);
    size_t n = s->size;
    pthread_mutex_unlock(&s->lock);
    return n;
}

static inline ABT_thread up_pop_wait(ABT_pool pool, double secs, ABT_pool_context ctx)
{
    up_state *s = up_state_of(pool);
    atomic_fetch_add(&s->n_pop_wait, 1);
    s->last_wait_secs = secs;
    s->last_pop_ctx = ctx;
    up_unit *u = up_list_pop_until(s, up_realtime() + secs);
    return u ? u->thread : ABT_THREAD_NULL;
}

static inline void up_pop_many(ABT_pool pool, ABT_thread *threads, size_t len, size_t *num,
                               ABT_pool_context ctx)
{
    up_state *s = up_state_of(pool);
    atomic_fetch_add(&s->n_pop_many, 1);
    size_t n = 0;
    pthread_mutex_lock(&s->lock);
    s->last_pop_ctx = ctx;
    up_unit *u;
    while (n < len && (u = up_list_pop(s)) != NULL)
        threads[n++] = u->thread;
    pthread_mutex_unlock(&s->lock);
    *num = n;
}

static inline void up_push_many(ABT_pool pool, const ABT_unit *units, size_t num,
                                ABT_pool_context ctx)
{
    up_state *s = up_state_of(pool);
    atomic_fetch_add(&s->n_push_many, 1);
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < num; i++)
        up_list_push(s, (up_unit *)units[i]);
    s->last_push_ctx = ctx;
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_or(&s->push_ctx_seen, (unsigned long long)ctx);
}

static inline void up_print_all(ABT_pool pool, void *arg, void (*fn)(void *, ABT_thread))
{
    up_state *s = up_state_of(pool);
    atomic_fetch_add(&s->n_print, 1);
    pthread_mutex_lock(&s->lock);
    for (up_unit *u = s->head; u; u = u->next)
        fn(arg, u->thread);
    pthread_mutex_unlock(&s->lock);
}

/* A new-style definition; the caller frees it with ABT_pool_user_def_free. */
static inline ABT_pool_user_def up_new_def(int full)
{
    ABT_pool_user_def def = ABT_POOL_USER_DEF_NULL;
    CHECK_OK(ABT_pool_user_def_create(up_create_unit, up_free_unit, up_is_empty, up_pop,
                                      up_push, &def));
    if (full) {
        CHECK_OK(ABT_pool_user_def_set_init(def, up_init));
        CHECK_OK(ABT_pool_user_def_set_free(def, up_free));
        CHECK_OK(ABT_pool_user_def_set_get_size(def, up_get_size));
        CHECK_OK(ABT_pool_user_def_set_pop_wait(def, up_pop_wait));
        CHECK_OK(ABT_pool_user_def_set_pop_many(def, up_pop_many));
        CHECK_OK(ABT_pool_user_def_set_push_many(def, up_push_many));
        CHECK_OK(ABT_pool_user_def_set_print_all(def, up_print_all));
    }
    return def;
}

/* A new-style pool with this file's callbacks, init, free and get_size,
 * but `create_unit` and `pop` of the caller's (NULL: this file's), so that
 * every pop goes through `pop`; its state comes with `cfg` (up_config). */
static inline ABT_pool up_new_pool_with(ABT_pool_user_create_unit_fn create_unit,
                                        ABT_pool_user_pop_fn pop, ABT_pool_config cfg)
{
    ABT_pool pool = ABT_POOL_NULL;
    ABT_pool_user_def d = ABT_POOL_USER_DEF_NULL;
    CHECK_OK(ABT_pool_user_def_create(create_unit ? create_unit : up_create_unit, up_free_unit,
                                      up_is_empty, pop ? pop : up_pop, up_push, &d));
    CHECK_OK(ABT_pool_user_def_set_init(d, up_init));
    CHECK_OK(ABT_pool_user_def_set_free(d, up_free));
    CHECK_OK(ABT_pool_user_def_set_get_size(d, up_get_size));
    CHECK_OK(ABT_pool_create(d, cfg, &pool));
    CHECK_OK(ABT_pool_user_def_free(&d));
    return pool;
}

/* A config that hands `s` to up_init (and, if automatic >= 0, sets
 * ABT_pool_config_automatic); the caller frees it. */
static inline ABT_pool_config up_config(up_state *s, int automatic)
{
    ABT_pool_config cfg = ABT_POOL_CONFIG_NULL;
    CHECK_OK(ABT_pool_config_create(&cfg));
    CHECK_OK(ABT_pool_config_set(cfg, UP_CFG_STATE, ABT_POOL_CONFIG_PTR, &s));
    if (automatic >= 0)
        CHECK_OK(ABT_pool_config_set(cfg, ABT_pool_config_automatic.key,
                                     ABT_pool_config_automatic.type, &automatic));
    return cfg;
}

/* ---- legacy callbacks (struct ABT_pool_def) ---- */

static inline ABT_unit up_l_create_from_thread(ABT_thread thread)
{
    up_unit *u = calloc(1, sizeof(*u));
    u->thread = thread;
    atomic_fetch_add(&up_g.n_create, 1);
    return (ABT_unit)u;
}

static inline void up_l_free(ABT_unit *unit)
{
    if (((up_unit *)*unit)->in_pool)
        atomic_fetch_add(&up_g.n_misuse, 1); /* freed while still in the list */
    atomic_fetch_add(&up_g.n_free_unit, 1);
    free((up_unit *)*unit);
    *unit = ABT_UNIT_NULL;
}

static inline ABT_thread up_l_get_thread(ABT_unit unit)
{
    return ((up_unit *)unit)->thread;
}

static inline ABT_bool up_l_is_in_pool(ABT_unit unit)
{
    return ((up_unit *)unit)->in_pool ? ABT_TRUE : ABT_FALSE;
}

static inline size_t up_l_get_size(ABT_pool pool)
{
    return up_get_size(pool);
}

static inline void up_l_push(ABT_pool pool, ABT_unit unit)
{
    up_state *s = up_state_of(pool);
    pthread_mutex_lock(&s->lock);
    up_list_push(s, (up_unit *)unit);
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_add(&s->n_push, 1);
}

static inline ABT_unit up_l_pop(ABT_pool pool)
{
    up_state *s = up_state_of(pool);
    pthread_mutex_lock(&s->lock);
    up_unit *u = up_list_pop(s);
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_add(&s->n_pop, 1);
    return u ? (ABT_unit)u : ABT_UNIT_NULL;
}

static inline ABT_unit up_l_pop_timedwait(ABT_pool pool, double abstime)
{
    up_state *s = up_state_of(pool);
    atomic_fetch_add(&s->n_timedwait, 1);
    s->last_abstime = abstime;
    up_unit *u = up_list_pop_until(s, abstime);
    return u ? (ABT_unit)u : ABT_UNIT_NULL;
}

static inline int up_l_remove(ABT_pool pool, ABT_unit unit)
{
    up_state *s = up_state_of(pool);
    atomic_fetch_add(&s->n_remove, 1);
    pthread_mutex_lock(&s->lock);
    int err = up_list_remove(s, (up_unit *)unit);
    pthread_mutex_unlock(&s->lock);
    return err;
}

static inline int up_l_free_pool(ABT_pool pool)
{
    up_free(pool);
    return ABT_SUCCESS;
}

static inline int up_l_print_all(ABT_pool pool, void *arg, void (*fn)(void *, ABT_unit))
{
    up_state *s = up_state_of(pool);
    atomic_fetch_add(&s->n_print, 1);
    pthread_mutex_lock(&s->lock);
    for (up_unit *u = s->head; u; u = u->next)
        fn(arg, (ABT_unit)u);
    pthread_mutex_unlock(&s->lock);
    return ABT_SUCCESS;
}

/* A complete legacy definition (every member the runtime may use). */
static inline ABT_pool_def up_legacy_def(ABT_pool_access access, int with_get_thread)
{
    ABT_pool_def def;
    memset(&def, 0, sizeof(def));
    def.access = access;
    def.u_get_thread = with_get_thread ? up_l_get_thread : NULL;
    def.u_is_in_pool = up_l_is_in_pool;
    def.u_create_from_thread = up_l_create_from_thread;
    def.u_free = up_l_free;
    def.p_init = up_init;
    def.p_get_size = up_l_get_size;
    def.p_push = up_l_push;
    def.p_pop = up_l_pop;
    def.p_pop_timedwait = up_l_pop_timedwait;
    def.p_remove = up_l_remove;
    def.p_free = up_l_free_pool;
    def.p_print_all = up_l_print_all;
    return def;
}

/* ---- for tests that run a pool under a workload ---- */

/* The first main pool of the primary ES (the calling ULT's). */
static inline ABT_pool up_primary_main_pool(void)
{
    ABT_xstream primary;
    ABT_pool main_pool = ABT_POOL_NULL;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    return main_pool;
}

/* The workload's pool, a check every unit makes of itself (set by the test;
 * may be NULL), and the count of units that ran to the end. */
static struct {
    ABT_pool pool;
    void (*check)(void);
    atomic_int done;
} up_wl;

static inline void up_wl_check(void)
{
    if (up_wl.check)
        up_wl.check();
}

/* A ULT or tasklet: checks itself, counts itself done. */
static inline void up_wl_leaf(void *arg)
{
    (void)arg;
    up_wl_check();
    atomic_fetch_add(&up_wl.done, 1);
}

/* A ULT: checks itself, yields three times, creates (long)arg leaf ULTs in
 * up_wl.pool, checks itself again, counts itself done. */
static inline void up_wl_yielder(void *arg)
{
    long spawn = (long)arg;
    up_wl_check();
    for (int i = 0; i < 3; i++)
        ABT_thread_yield();
    for (long i = 0; i < spawn; i++)
        ABT_thread_create(up_wl.pool, up_wl_leaf, NULL, ABT_THREAD_ATTR_NULL, NULL);
    up_wl_check();
    atomic_fetch_add(&up_wl.done, 1);
}

/* One round: a secondary ES with scheduler `predef` whose only pool is
 * up_wl.pool; in that pool, named_ult named yielders (each creating
 * `children` leaves), named_task named tasklets, unnamed_ult unnamed
 * yielders (no children) and unnamed_task unnamed tasklets; the named ones
 * are freed, then the ES is joined (which drains the pool: the unnamed units
 * finish too) and freed. Units that run: named_ult * (1 + children) +
 * named_task + unnamed_ult + unnamed_task. */
static inline void up_wl_run(ABT_sched_predef predef, int named_ult, int named_task,
                             int unnamed_ult, int unnamed_task, long children)
{
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(predef, 1, &up_wl.pool, ABT_SCHED_CONFIG_NULL, &es));
    ABT_thread *named = calloc((size_t)(named_ult + named_task), sizeof(*named));
    for (int i = 0; i < named_ult; i++)
        CHECK_OK(ABT_thread_create(up_wl.pool, up_wl_yielder, (void *)children,
                                   ABT_THREAD_ATTR_NULL, &named[i]));
    for (int i = 0; i < named_task; i++)
        CHECK_OK(ABT_task_create(up_wl.pool, up_wl_leaf, NULL, &named[named_ult + i]));
    for (int i = 0; i < unnamed_ult; i++)
        CHECK_OK(ABT_thread_create(up_wl.pool, up_wl_yielder, (void *)0, ABT_THREAD_ATTR_NULL,
                                   NULL));
    for (int i = 0; i < unnamed_task; i++)
        CHECK_OK(ABT_task_create(up_wl.pool, up_wl_leaf, NULL, NULL));
    for (int i = 0; i < named_ult; i++)
        CHECK_OK(ABT_thread_free(&named[i]));
    for (int i = 0; i < named_task; i++)
        CHECK_OK(ABT_task_free(&named[named_ult + i]));
    free(named);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
}

#endif
