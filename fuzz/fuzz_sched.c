/*
 * A seeded random fuzzer of scheduler/pool topologies (audit round 6c).
 *
 *   fuzz_sched SEED [SEED_END]     runs each seed in turn (one ABT_init/finalize each)
 *   FZ_VERBOSE=1                   prints the topology and what the driver does
 *
 * Per seed: 1-3 secondary ESs and the primary ES, each with a main
 * scheduler that is predefined (BASIC, PRIO, BASIC_WAIT, RANDWS) or
 * user-defined (fz_run below, over ABT_xstream_run_unit / ABT_self_schedule,
 * ABT_xstream_check_events, ABT_sched_has_to_stop), automatic or not, over
 * shared pools of every kind (built-in FIFO, FIFO_WAIT, RANDWS; a new-style
 * ABT_pool_user_def pool with or without its optional callbacks; a legacy
 * struct ABT_pool_def pool). Then 0-6 stacked schedulers (user-defined or
 * predefined, automatic or not), each over own pools and/or shared pools,
 * added with ABT_pool_add_sched into a shared pool or into an own pool of
 * another stacked scheduler (nesting). Work units run a random script:
 * yield, create children (joined or not), migrate, suspend/resume, mutex,
 * cond, barrier groups, queries, and ABT_xstream_set_main_sched on their own
 * running ES (same pools, new scheduler). The driver (the primary ULT) adds
 * work, re-adds stacked schedulers, asks schedulers to exit or finish,
 * replaces and revives terminated ESs.
 *
 * Checks: every unit starts and finishes exactly once; every user-defined
 * scheduler's init and free callbacks run exactly once and its run() never
 * runs twice at once; a main scheduler's has_to_stop turns TRUE only after a
 * request (join, finish, exit, replacement), never on the primary ES before
 * ABT_finalize; a scheduler that stops without an exit request leaves its
 * own pools (pushed only under its lock) empty; sizes are consistent (pool
 * and scheduler get_size / get_total_size, ABT_ERR_POOL without get_size);
 * at the end every pool is empty, everything frees, ABT_finalize returns,
 * user-pool units are all freed. Exit status 0 if all seeds passed (3: a
 * stall, dumped; 4: a seed still running after 90 s).
 *
 * Build (build-asan / build-tsan with their -fsanitize=... flag likewise):
 *   fuzz/build.sh fuzz_sched build /tmp/fuzz_sched
 * Run many seeds over every technique, shortcuts on and off:
 *   fuzz/run_fuzz_sched.sh /tmp/fuzz_sched 1 50 [full sc ...]
 * Environment: FZ_VERBOSE=1 (topology, driver actions), FZ_STALL=secs (no
 * progress for that long fails; default 20), FZ_GDB=1 (then dump every
 * thread and ULT with gdb), FZ_OPMASK / FZ_DRVMASK (bit masks of the unit
 * operations OP_* / driver actions allowed, to narrow a failure down).
 *
 * Not reported, by design: topologies whose starvation is documented (a
 * scheduler that looks at its first pool first never gets past a stacked
 * scheduler there that waits for blocked units; a RANDWS scheduler steals
 * from the tail of a RANDWS pool, where a yielding stacked scheduler just
 * went; a replacement waits until the old scheduler's pools are drained, so
 * its caller is never joined, and the primary ES, where the driver yields
 * all the time, is never replaced). The generator avoids them.
 */
#include "pool_user_util.h"
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>

#define MAXU 9000
#define MAXP 24
#define MAXS 64
#define MAXES 3

/* ---- randomness and failures --------------------------------------------- */

static unsigned long long g_seed;
static int g_verbose;
static double g_stall_secs = 20.0; /* FZ_STALL: a run without progress this long fails */
static unsigned g_opmask = ~0u;  /* FZ_OPMASK: unit operations allowed (bit per OP_*) */
static unsigned g_drvmask = ~0u; /* FZ_DRVMASK: driver actions allowed (bit per case) */
static atomic_int g_fail;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
typedef struct {
    uint64_t s;
} rng_t;
static uint32_t rnd(rng_t *r, uint32_t n)
{
    r->s = mix(r->s);
    return n ? (uint32_t)(r->s % n) : 0;
}

#define FZ_FAIL(...)                                                                   \
    do {                                                                               \
        fprintf(stderr, "FZFAIL seed=%llu line %d: ", g_seed, __LINE__);               \
        fprintf(stderr, __VA_ARGS__);                                                  \
        fputc('\n', stderr);                                                           \
        atomic_fetch_add(&g_fail, 1);                                                  \
    } while (0)
#define FZ_OK(expr)                                                                    \
    do {                                                                               \
        int r_ = (expr);                                                               \
        if (r_ != ABT_SUCCESS)                                                         \
            FZ_FAIL("%s -> %d", #expr, r_);                                            \
    } while (0)
#define VLOG(...)                                                                      \
    do {                                                                               \
        if (g_verbose)                                                                 \
            fprintf(stderr, __VA_ARGS__);                                              \
    } while (0)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- pools ----------------------------------------------------------------- */

enum { PK_FIFO, PK_FIFO_WAIT, PK_RANDWS, PK_USER, PK_USER_MIN, PK_LEGACY, PK_NKINDS,
       PK_PRIMARY, PK_RUNTIME };
static const char *pk_name[] = {"fifo", "fifo_wait", "randws", "user", "user_min",
                                "legacy", "?", "primary", "runtime"};

typedef struct {
    ABT_pool h;
    int kind;
    int owner;  /* stacked scheduler whose own pool it is, or -1 (shared) */
    up_state st;
} fz_pool;

static fz_pool g_pools[MAXP];
static int g_npools;
static int g_shared[MAXP], g_nshared;

static int pool_has_size(int kind)
{
    return kind != PK_USER_MIN;
}

static int new_pool(int kind, int owner)
{
    int i = g_npools++;
    fz_pool *p = &g_pools[i];
    memset(p, 0, sizeof(*p));
    p->kind = kind;
    p->owner = owner;
    up_state_init(&p->st);
    p->st.tag = (char)('a' + i);
    switch (kind) {
    case PK_FIFO:
        FZ_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p->h));
        break;
    case PK_FIFO_WAIT:
        FZ_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p->h));
        break;
    case PK_RANDWS:
        FZ_OK(ABT_pool_create_basic(ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p->h));
        break;
    case PK_USER: {
        ABT_pool_user_def d = up_new_def(1);
        ABT_pool_config cfg = up_config(&p->st, 0);
        FZ_OK(ABT_pool_create(d, cfg, &p->h));
        ABT_pool_config_free(&cfg);
        ABT_pool_user_def_free(&d);
        break;
    }
    case PK_USER_MIN: {
        ABT_pool_user_def d = up_new_def(0);
        FZ_OK(ABT_pool_create(d, ABT_POOL_CONFIG_NULL, &p->h));
        FZ_OK(ABT_pool_set_data(p->h, &p->st));
        ABT_pool_user_def_free(&d);
        break;
    }
    case PK_LEGACY: {
        ABT_pool_def def = up_legacy_def(ABT_POOL_ACCESS_MPMC, 1);
        ABT_pool_config cfg = up_config(&p->st, 0);
        FZ_OK(ABT_pool_create((ABT_pool_user_def)&def, cfg, &p->h));
        ABT_pool_config_free(&cfg);
        break;
    }
    }
    return i;
}

static int pool_index(ABT_pool h)
{
    for (int i = 0; i < g_npools; i++)
        if (g_pools[i].h == h)
            return i;
    return -1;
}

/* ---- schedulers ------------------------------------------------------------ */

enum { ROLE_MAIN, ROLE_PRIMARY, ROLE_STACKED };

typedef struct fz_sched {
    ABT_sched h;
    int idx;
    int user;       /* fz_run */
    int predef;
    int automatic;
    int role;
    int es;         /* ROLE_MAIN: index of its ES */
    int npools;
    int pools[4];   /* g_pools indices */
    int parent;     /* ROLE_STACKED: g_pools index it is added to */
    int freq;
    int mode;
    int added;      /* automatic stacked: added once */
    int freed_by_us;
    atomic_int published; /* h is set: other ESs may look it up */
    atomic_int free_calls, inits, active, runs, stops;
    atomic_int exit_req, finish_req, replace_req;
    pthread_mutex_t push_lock; /* own pools are pushed only under it */
} fz_sched;

static fz_sched g_scheds[MAXS];
static atomic_int g_nscheds;
static atomic_int g_finalizing;
static atomic_int g_quiescent;

static ABT_sched_config_var var_idx = {.idx = 0, .type = ABT_SCHED_CONFIG_INT};
static ABT_sched_config_var var_ptr = {.idx = 1, .type = ABT_SCHED_CONFIG_PTR};

static int fz_init(ABT_sched sched, ABT_sched_config config)
{
    int idx = -1;
    void *ptr = NULL;
    FZ_OK(ABT_sched_config_read(config, 2, &idx, &ptr));
    fz_sched *fs = ptr;
    if (!fs || fs->idx != idx)
        FZ_FAIL("config_read: idx %d ptr %p", idx, ptr);
    else
        atomic_fetch_add(&fs->inits, 1);
    FZ_OK(ABT_sched_set_data(sched, fs));
    return ABT_SUCCESS;
}

static int fz_free(ABT_sched sched)
{
    fz_sched *fs = NULL;
    FZ_OK(ABT_sched_get_data(sched, (void **)&fs));
    if (!fs)
        return ABT_SUCCESS;
    if (atomic_load(&fs->active))
        FZ_FAIL("sched %d freed while its run() is active", fs->idx);
    atomic_fetch_add(&fs->free_calls, 1);
    return ABT_SUCCESS;
}

static ABT_pool fz_get_migr_pool(ABT_sched sched)
{
    fz_sched *fs = NULL;
    ABT_sched_get_data(sched, (void **)&fs);
    return g_pools[fs->pools[fs->npools - 1]].h;
}

/* Size checks on own pools (pushed only under push_lock, held here, and by
 * wake-ups of their blocked units, which only add to the size). */
static void check_sizes(fz_sched *fs, ABT_sched sched, int all_own)
{
    size_t sum = 0, ss = 0, st = 0;
    int nosize = 0;
    for (int i = 0; i < fs->npools; i++) {
        fz_pool *p = &g_pools[fs->pools[i]];
        size_t a = 0, b = 0;
        int e1 = ABT_pool_get_size(p->h, &a), e2 = ABT_pool_get_total_size(p->h, &b);
        if (!pool_has_size(p->kind)) {
            nosize = 1;
            if (e1 != ABT_ERR_POOL || e2 != ABT_ERR_POOL)
                FZ_FAIL("get_size of pool without get_size: %d %d", e1, e2);
            continue;
        }
        if (e1 != ABT_SUCCESS || e2 != ABT_SUCCESS)
            FZ_FAIL("pool get_size %d total %d", e1, e2);
        if (p->owner == fs->idx && a > b)
            FZ_FAIL("own pool %d: size %zu > total %zu", fs->pools[i], a, b);
        sum += a;
    }
    int e3 = ABT_sched_get_size(sched, &ss);
    int e4 = ABT_sched_get_total_size(sched, &st);
    if (nosize) {
        if (e3 != ABT_ERR_POOL || e4 != ABT_ERR_POOL)
            FZ_FAIL("sched %d get_size with a size-less pool: %d %d", fs->idx, e3, e4);
        return;
    }
    if (e3 != ABT_SUCCESS || e4 != ABT_SUCCESS)
        FZ_FAIL("sched get_size %d %d", e3, e4);
    if (all_own && (sum > ss || ss > st))
        FZ_FAIL("sched %d sizes: sum of pools %zu, sched size %zu, total %zu", fs->idx, sum,
                ss, st);
}

/* has_to_stop said TRUE: was it allowed to? Called under push_lock. */
static void verify_stop(fz_sched *fs, ABT_sched sched)
{
    atomic_fetch_add(&fs->stops, 1);
    if (atomic_load(&fs->exit_req))
        return;
    /* The primary's run() returns on a stop request and is called again
     * (the request dropped): allowed after one of the driver's. */
    if (fs->role == ROLE_PRIMARY && !atomic_load(&fs->replace_req) &&
        !atomic_load(&fs->finish_req) && !atomic_load(&g_finalizing))
        FZ_FAIL("primary main sched %d stops before ABT_finalize", fs->idx);
    if (fs->role == ROLE_MAIN && !atomic_load(&fs->finish_req) &&
        !atomic_load(&fs->replace_req))
        FZ_FAIL("main sched %d (ES %d) stops without a request", fs->idx, fs->es);
    for (int i = 0; i < fs->npools; i++) {
        fz_pool *p = &g_pools[fs->pools[i]];
        if ((p->owner != fs->idx && !atomic_load(&g_quiescent)) || !pool_has_size(p->kind))
            continue;
        size_t a = 0, b = 0;
        ABT_pool_get_size(p->h, &a);
        ABT_pool_get_total_size(p->h, &b);
        if (a != 0 || b != 0)
            FZ_FAIL("sched %d stops (no exit) with pool %d (%s%s) size %zu total %zu", fs->idx,
                    fs->pools[i], pk_name[p->kind], p->owner == fs->idx ? ", own" : "", a, b);
    }
    (void)sched;
}

/* Whether `t` is one of the fuzzer's work units, which fz_run may run as a
 * unit of another of its pools (that pool becomes the unit's own). Not the
 * primary ULT, which would go elsewhere, nor a stacked scheduler's ULT: in
 * the first pool of a scheduler that pops its pools in order, a stacked
 * scheduler that waits for blocked units yields back there and is popped
 * again at once, so the later pools, where their waker may be, starve
 * (documented; seed 409 spent seconds so). */
static void fz_unit(void *arg);

static int is_work_unit(ABT_thread t)
{
    void (*func)(void *) = NULL;
    return ABT_thread_get_thread_func(t, &func) == ABT_SUCCESS && func == fz_unit;
}

static void fz_run(ABT_sched sched)
{
    fz_sched *fs = NULL;
    FZ_OK(ABT_sched_get_data(sched, (void **)&fs));
    if (!fs)
        return;
    if (atomic_fetch_add(&fs->active, 1) != 0)
        FZ_FAIL("sched %d: run() entered twice at once", fs->idx);
    int run_no = atomic_fetch_add(&fs->runs, 1);
    if (fs->role == ROLE_PRIMARY && !atomic_load(&g_finalizing)) {
        atomic_store(&fs->exit_req, 0); /* dropped by the runtime */
        atomic_store(&fs->finish_req, 0);
    }
    int n = 0;
    FZ_OK(ABT_sched_get_num_pools(sched, &n));
    ABT_pool pools[4];
    if (n != fs->npools)
        FZ_FAIL("sched %d: %d pools, expected %d", fs->idx, n, fs->npools);
    FZ_OK(ABT_sched_get_pools(sched, n, 0, pools));
    int all_own = 1;
    for (int i = 0; i < n; i++) {
        if (pools[i] != g_pools[fs->pools[i]].h)
            FZ_FAIL("sched %d pool %d differs", fs->idx, i);
        if (g_pools[fs->pools[i]].owner != fs->idx)
            all_own = 0;
    }
    rng_t r = {mix(g_seed * 1000003u + (uint64_t)fs->idx * 7919u + (uint64_t)run_no)};
    unsigned idle = 0;
    for (unsigned it = 1;; it++) {
        int ran = 0;
        int start = (fs->mode & 1) ? (int)rnd(&r, (uint32_t)n) : 0;
        for (int k = 0; k < n && !ran; k++) {
            int i = (start + k) % n;
            ABT_pool p = pools[i];
            ABT_thread t = ABT_THREAD_NULL;
            ABT_unit u = ABT_UNIT_NULL;
            switch (rnd(&r, 5)) {
            case 3: /* run it as a unit of another of its pools */
                FZ_OK(ABT_pool_pop_thread(p, &t));
                if (t != ABT_THREAD_NULL) {
                    ABT_pool q = pools[rnd(&r, (uint32_t)n)];
                    if (!is_work_unit(t))
                        q = p; /* see is_work_unit */
                    if (rnd(&r, 2)) {
                        FZ_OK(ABT_thread_get_unit(t, &u));
                        FZ_OK(ABT_xstream_run_unit(u, q));
                    } else {
                        FZ_OK(ABT_self_schedule(t, q));
                    }
                    ran = 1;
                }
                break;
            case 4: { /* two at once */
                ABT_thread ts[2];
                size_t got = 0;
                FZ_OK(ABT_pool_pop_threads(p, ts, 2, &got));
                for (size_t g = 0; g < got; g++)
                    FZ_OK(ABT_self_schedule(ts[g], p));
                ran = got > 0;
                break;
            }
            case 0:
                FZ_OK(ABT_pool_pop_thread(p, &t));
                if (t != ABT_THREAD_NULL) {
                    FZ_OK(ABT_thread_get_unit(t, &u));
                    FZ_OK(ABT_xstream_run_unit(u, p));
                    ran = 1;
                }
                break;
            case 1:
                FZ_OK(ABT_pool_pop_thread(p, &t));
                if (t != ABT_THREAD_NULL) {
                    FZ_OK(ABT_self_schedule(t, rnd(&r, 2) ? p : ABT_POOL_NULL));
                    ran = 1;
                }
                break;
            default:
                FZ_OK(ABT_pool_pop(p, &u));
                if (u != ABT_UNIT_NULL) {
                    FZ_OK(ABT_xstream_run_unit(u, p));
                    ran = 1;
                }
                break;
            }
        }
        if (!ran || it % (unsigned)fs->freq == 0) {
            FZ_OK(ABT_xstream_check_events(sched));
            pthread_mutex_lock(&fs->push_lock);
            if (it % 16 == 0 || !ran)
                check_sizes(fs, sched, all_own);
            ABT_bool stop = ABT_FALSE;
            FZ_OK(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                verify_stop(fs, sched);
            pthread_mutex_unlock(&fs->push_lock);
            if (stop)
                break;
            if (!ran && ++idle > 64)
                sched_yield();
        }
        if (ran)
            idle = 0;
    }
    atomic_fetch_sub(&fs->active, 1);
}

static ABT_sched_def fz_def = {.type = ABT_SCHED_TYPE_ULT, .init = fz_init, .run = fz_run,
                               .free = fz_free, .get_migr_pool = NULL};
static ABT_sched_def fz_def_migr = {.type = ABT_SCHED_TYPE_ULT, .init = fz_init,
                                    .run = fz_run, .free = fz_free,
                                    .get_migr_pool = fz_get_migr_pool};

/* A new scheduler over g_pools[pools[0..n-1]]. */
static fz_sched *new_sched(rng_t *r, int role, int es, int n, const int *pools, int user,
                           int automatic)
{
    int i = atomic_fetch_add(&g_nscheds, 1);
    if (i >= MAXS) {
        atomic_fetch_sub(&g_nscheds, 1);
        return NULL;
    }
    fz_sched *fs = &g_scheds[i];
    memset(fs, 0, sizeof(*fs));
    pthread_mutex_init(&fs->push_lock, NULL);
    fs->idx = i;
    fs->role = role;
    fs->es = es;
    fs->npools = n;
    memcpy(fs->pools, pools, sizeof(int) * (size_t)n);
    fs->user = user;
    fs->automatic = automatic;
    fs->freq = 1 + (int)rnd(r, 8);
    fs->mode = (int)rnd(r, 4);
    fs->parent = -1;
    ABT_pool hs[4];
    for (int k = 0; k < n; k++)
        hs[k] = g_pools[pools[k]].h;
    ABT_sched_config cfg;
    if (user) {
        FZ_OK(ABT_sched_config_create(&cfg, var_idx, i, var_ptr, (void *)fs,
                                      ABT_sched_config_automatic, automatic,
                                      ABT_sched_config_var_end));
        FZ_OK(ABT_sched_create((fs->mode & 2) ? &fz_def_migr : &fz_def, n, hs, cfg, &fs->h));
    } else {
        static const int kinds[] = {ABT_SCHED_BASIC, ABT_SCHED_PRIO, ABT_SCHED_BASIC_WAIT,
                                    ABT_SCHED_RANDWS, ABT_SCHED_DEFAULT};
        fs->predef = kinds[rnd(r, 5)];
        FZ_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, automatic,
                                      ABT_sched_basic_freq, fs->freq, ABT_sched_config_var_end));
        FZ_OK(ABT_sched_create_basic((ABT_sched_predef)fs->predef, n, hs, cfg, &fs->h));
    }
    FZ_OK(ABT_sched_config_free(&cfg));
    atomic_store(&fs->published, 1);
    if (user) {
        void *d = NULL;
        FZ_OK(ABT_sched_get_data(fs->h, &d));
        if (d != fs || atomic_load(&fs->inits) != 1)
            FZ_FAIL("sched %d: data %p inits %d", i, d, atomic_load(&fs->inits));
    }
    return fs;
}

static fz_sched *sched_lookup(ABT_sched h)
{
    int n = atomic_load(&g_nscheds);
    for (int i = n - 1; i >= 0; i--)
        if (atomic_load(&g_scheds[i].published) && g_scheds[i].h == h &&
            !g_scheds[i].freed_by_us)
            return &g_scheds[i];
    return NULL;
}

/* ---- ESs ------------------------------------------------------------------- */

static int g_nes;
static int g_host[MAXES]; /* per ES: the last pool of its main scheduler, for stacked ones */
static ABT_xstream g_es[MAXES + 1]; /* [MAXES]: the primary ES */
static int g_es_npools[MAXES + 1];
static int g_es_pools[MAXES + 1][4];
static atomic_int g_es_stopping[MAXES]; /* the driver asked its main sched to stop */
static atomic_int g_replaces;

/* ---- work units ------------------------------------------------------------ */

enum { UK_ULT, UK_TASK, UK_BARRIER };
typedef struct {
    atomic_int started, finished;
    int kind;
    int named; /* someone joins it */
    ABT_barrier barrier;
} unit_rec;

static unit_rec g_units[MAXU];
static atomic_int g_nunits;
static atomic_int g_ndone;
static int g_budget;

static ABT_mutex g_mutex;
static ABT_cond g_cond;
static long g_counter;

static pthread_mutex_t g_rq_lock = PTHREAD_MUTEX_INITIALIZER;
static ABT_thread g_rq[MAXU];
static int g_rq_n;

static int random_shared(rng_t *r)
{
    return g_shared[rnd(r, (uint32_t)g_nshared)];
}


/* A new unit record, or -1 if the budget is spent. Taken by compare and
 * swap: an add undone after a refusal could hand the same id to two units
 * meanwhile (seed 593: one "started twice", another never). */
static int new_unit_id(int kind, int forced)
{
    int limit = forced ? MAXU : g_budget;
    int id = atomic_load(&g_nunits);
    do {
        if (id >= limit)
            return -1;
    } while (!atomic_compare_exchange_weak(&g_nunits, &id, id + 1));
    g_units[id].kind = kind;
    return id;
}

static int spawn(int pool, int kind, ABT_thread *named, ABT_barrier b)
{
    int id = new_unit_id(kind, b != ABT_BARRIER_NULL);
    if (id < 0)
        return -1;
    g_units[id].barrier = b;
    g_units[id].named = named != NULL;
    ABT_pool h = g_pools[pool].h;
    int err;
    if (kind == UK_TASK)
        err = ABT_task_create(h, fz_unit, (void *)(intptr_t)id, (ABT_task *)named);
    else
        err = ABT_thread_create(h, fz_unit, (void *)(intptr_t)id, ABT_THREAD_ATTR_NULL, named);
    if (err != ABT_SUCCESS) {
        FZ_FAIL("create into pool %d (%s): %d", pool, pk_name[g_pools[pool].kind], err);
        atomic_fetch_add(&g_units[id].started, 1);
        atomic_fetch_add(&g_units[id].finished, 1);
        atomic_fetch_add(&g_ndone, 1);
    }
    return id;
}

static void resume_some(int max)
{
    for (int k = 0; k < max; k++) {
        pthread_mutex_lock(&g_rq_lock);
        if (g_rq_n == 0) {
            pthread_mutex_unlock(&g_rq_lock);
            return;
        }
        ABT_thread t = g_rq[0];
        memmove(g_rq, g_rq + 1, sizeof(g_rq[0]) * (size_t)(g_rq_n - 1));
        g_rq_n--;
        ABT_thread_state st = ABT_THREAD_STATE_READY;
        int e = ABT_thread_get_state(t, &st);
        if (e == ABT_SUCCESS && st == ABT_THREAD_STATE_BLOCKED) {
            pthread_mutex_unlock(&g_rq_lock);
            FZ_OK(ABT_thread_resume(t));
        } else {
            g_rq[g_rq_n++] = t; /* not there yet */
            pthread_mutex_unlock(&g_rq_lock);
            return;
        }
    }
}

/* ABT_xstream_set_main_sched on the caller's own running ES: the same pools
 * in another order, a new scheduler. */
static void replace_own(rng_t *r)
{
    ABT_xstream self;
    FZ_OK(ABT_self_get_xstream(&self));
    int es = -1;
    for (int i = 0; i <= MAXES; i++)
        if (g_es[i] == self && (i < g_nes || i == MAXES))
            es = i;
    /* Not the primary ES: the driver yields there all the time, so its old
     * scheduler would never run its pools dry (the documented condition). */
    if (es < 0 || es == MAXES || atomic_load(&g_es_stopping[es]))
        return;
    if (atomic_fetch_add(&g_replaces, 1) >= 6)
        return;
    int n = g_es_npools[es], pools[4];
    memcpy(pools, g_es_pools[es], sizeof(pools));
    /* The host pool stays last. */
    for (int i = n - 2; i > 0; i--) {
            int j = (int)rnd(r, (uint32_t)i + 1), t = pools[i];
            pools[i] = pools[j];
            pools[j] = t;
        }
    ABT_sched cur = ABT_SCHED_NULL;
    FZ_OK(ABT_xstream_get_main_sched(self, &cur));
    fz_sched *old = sched_lookup(cur);
    int kind = (int)rnd(r, 3);
    if (kind == 0) {
        VLOG("replace ES %d: set_main_sched_basic\n", es);
        if (old)
            atomic_store(&old->replace_req, 1);
        ABT_pool hs[4];
        for (int k = 0; k < n; k++)
            hs[k] = g_pools[pools[k]].h;
        FZ_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, n, hs));
        return;
    }
    fz_sched *fs = new_sched(r, es == MAXES ? ROLE_PRIMARY : ROLE_MAIN, es, n, pools, kind == 1,
                             (int)rnd(r, 2));
    if (!fs)
        return;
    VLOG("replace ES %d: sched %d (%s, %s)\n", es, fs->idx, fs->user ? "user" : "predef",
         fs->automatic ? "auto" : "manual");
    if (old)
        atomic_store(&old->replace_req, 1);
    FZ_OK(ABT_xstream_set_main_sched(self, fs->h));
}

enum { OP_YIELD, OP_CREATE, OP_MIGRATE, OP_MIGRATE_XS, OP_SUSPEND, OP_RESUME, OP_MUTEX,
       OP_COND, OP_BARRIER, OP_QUERY, OP_REPLACE, OP_NOPS };

static void fz_unit(void *arg)
{
    int id = (int)(intptr_t)arg;
    unit_rec *u = &g_units[id];
    if (atomic_fetch_add(&u->started, 1) != 0)
        FZ_FAIL("unit %d started twice", id);
    rng_t r = {mix(g_seed * 31 + (uint64_t)id)};
    int is_task = u->kind == UK_TASK;
    if (u->kind == UK_BARRIER)
        FZ_OK(ABT_barrier_wait(u->barrier));
    ABT_thread kids[8];
    int kid_ids[8];
    int nk = 0;
    int nops = is_task ? 1 + (int)rnd(&r, 3) : 1 + (int)rnd(&r, 8);
    for (int op = 0; op < nops; op++) {
        int o = (int)rnd(&r, OP_NOPS);
        if (!(g_opmask >> o & 1))
            continue;
        if (is_task && o != OP_CREATE && o != OP_RESUME && o != OP_QUERY)
            continue;
        switch (o) {
        case OP_YIELD:
            if (rnd(&r, 2))
                FZ_OK(ABT_thread_yield());
            else
                FZ_OK(ABT_self_yield());
            break;
        case OP_CREATE: {
            ABT_thread t = ABT_THREAD_NULL;
            int named = !is_task && nk < 8 && rnd(&r, 2); /* a tasklet cannot wait */
            int kind = rnd(&r, 3) ? UK_ULT : UK_TASK;
            int kid = spawn(random_shared(&r), kind, named ? &t : NULL, ABT_BARRIER_NULL);
            if (kid >= 0 && named) {
                kid_ids[nk] = kid;
                kids[nk++] = t;
            }
            break;
        }
        case OP_MIGRATE: {
            ABT_thread self;
            FZ_OK(ABT_self_get_thread(&self));
            int e = ABT_thread_migrate_to_pool(self, g_pools[random_shared(&r)].h);
            if (e != ABT_SUCCESS && e != ABT_ERR_MIGRATION_TARGET)
                FZ_FAIL("migrate_to_pool: %d", e);
            FZ_OK(ABT_thread_yield());
            break;
        }
        case OP_MIGRATE_XS: {
            ABT_thread self;
            FZ_OK(ABT_self_get_thread(&self));
            int es = (int)rnd(&r, (uint32_t)g_nes + 1);
            ABT_xstream x = es == g_nes ? g_es[MAXES] : g_es[es];
            int e = ABT_thread_migrate_to_xstream(self, x);
            if (e != ABT_SUCCESS && e != ABT_ERR_MIGRATION_TARGET && e != ABT_ERR_INV_XSTREAM)
                FZ_FAIL("migrate_to_xstream: %d", e);
            FZ_OK(ABT_thread_yield());
            break;
        }
        case OP_SUSPEND: {
            ABT_thread self;
            FZ_OK(ABT_self_get_thread(&self));
            pthread_mutex_lock(&g_rq_lock);
            g_rq[g_rq_n++] = self;
            pthread_mutex_unlock(&g_rq_lock);
            FZ_OK(ABT_self_suspend());
            break;
        }
        case OP_RESUME:
            resume_some(2);
            break;
        case OP_MUTEX:
            FZ_OK(ABT_mutex_lock(g_mutex));
            g_counter++;
            if (rnd(&r, 2))
                FZ_OK(ABT_thread_yield());
            g_counter--;
            FZ_OK(ABT_mutex_unlock(g_mutex));
            break;
        case OP_COND: {
            FZ_OK(ABT_mutex_lock(g_mutex));
            g_counter += 2;
            FZ_OK(ABT_cond_broadcast(g_cond));
            if (rnd(&r, 2)) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                ts.tv_nsec += 300000;
                if (ts.tv_nsec >= 1000000000) {
                    ts.tv_sec++;
                    ts.tv_nsec -= 1000000000;
                }
                int e = ABT_cond_timedwait(g_cond, g_mutex, &ts);
                if (e != ABT_SUCCESS && e != ABT_ERR_COND_TIMEDOUT)
                    FZ_FAIL("cond_timedwait: %d", e);
            }
            g_counter -= 2;
            FZ_OK(ABT_mutex_unlock(g_mutex));
            break;
        }
        case OP_BARRIER: {
            int k = 2 + (int)rnd(&r, 2);
            if (atomic_load(&g_nunits) >= g_budget)
                break; /* the group goes beyond the budget: no recursion past it */
            ABT_barrier b;
            FZ_OK(ABT_barrier_create((uint32_t)k, &b));
            int made = 0;
            ABT_thread bk[4];
            for (int i = 0; i < k; i++) {
                bk[i] = ABT_THREAD_NULL;
                if (spawn(random_shared(&r), UK_BARRIER, &bk[i], b) >= 0)
                    made++;
            }
            if (made < k)
                FZ_FAIL("internal: partial barrier group (MAXU)");
            for (int i = 0; i < made; i++)
                FZ_OK(ABT_thread_free(&bk[i]));
            FZ_OK(ABT_barrier_free(&b));
            break;
        }
        case OP_QUERY: {
            ABT_pool lp = ABT_POOL_NULL;
            FZ_OK(ABT_self_get_last_pool(&lp));
            int pi = pool_index(lp);
            if (pi < 0)
                FZ_FAIL("unit %d: last pool %p unknown", id, (void *)lp);
            if (!is_task) {
                ABT_xstream x;
                ABT_sched ms;
                FZ_OK(ABT_self_get_xstream(&x));
                FZ_OK(ABT_xstream_get_main_sched(x, &ms));
                int e = ABT_xstream_check_events(ms);
                if (e != ABT_ERR_INV_THREAD)
                    FZ_FAIL("check_events from a plain ULT: %d", e);
                ABT_bool stop;
                FZ_OK(ABT_sched_has_to_stop(ms, &stop));
            }
            break;
        }
        case OP_REPLACE:
            /* Not in a unit somebody joins: the replacement waits until the
             * old scheduler's pools are drained, and a joiner there (in a
             * stacked scheduler's own pool, say) may keep them from it. */
            if (!u->named && rnd(&r, 4) == 0)
                replace_own(&r);
            break;
        }
    }
    for (int i = 0; i < nk; i++) {
        void *karg = NULL;
        int e = ABT_thread_get_arg(kids[i], &karg);
        if (e != ABT_SUCCESS || karg != (void *)(intptr_t)kid_ids[i]) {
            unit_rec *k = &g_units[kid_ids[i]];
            FZ_FAIL("unit %d: named kid %d (kind %d, started %d finished %d) handle %p now "
                    "has arg %p (err %d)", id, kid_ids[i], k->kind, atomic_load(&k->started),
                    atomic_load(&k->finished), (void *)kids[i], karg, e);
            continue;
        }
        FZ_OK(ABT_thread_free(&kids[i]));
    }
    if (atomic_fetch_add(&u->finished, 1) != 0)
        FZ_FAIL("unit %d finished twice", id);
    atomic_fetch_add(&g_ndone, 1);
}

/* ---- the driver ------------------------------------------------------------ */

static void push_own(rng_t *r, fz_sched *fs, int count)
{
    pthread_mutex_lock(&fs->push_lock);
    for (int k = 0; k < count; k++) {
        int own[4], no = 0;
        for (int i = 0; i < fs->npools; i++)
            if (g_pools[fs->pools[i]].owner == fs->idx)
                own[no++] = fs->pools[i];
        if (!no)
            break;
        int kind = rnd(r, 4) ? UK_ULT : UK_TASK;
        spawn(own[rnd(r, (uint32_t)no)], kind, NULL, ABT_BARRIER_NULL);
    }
    pthread_mutex_unlock(&fs->push_lock);
}

static int add_stacked(fz_sched *fs)
{
    fz_sched *parent_owner = g_pools[fs->parent].owner >= 0
                                 ? &g_scheds[g_pools[fs->parent].owner]
                                 : NULL;
    if (parent_owner)
        pthread_mutex_lock(&parent_owner->push_lock);
    int e = ABT_pool_add_sched(g_pools[fs->parent].h, fs->h);
    if (parent_owner)
        pthread_mutex_unlock(&parent_owner->push_lock);
    if (e != ABT_SUCCESS && e != ABT_ERR_INV_SCHED)
        FZ_FAIL("add_sched %d: %d", fs->idx, e);
    return e;
}

static int own_has_work(fz_sched *fs)
{
    for (int i = 0; i < fs->npools; i++) {
        fz_pool *p = &g_pools[fs->pools[i]];
        if (p->owner != fs->idx)
            continue;
        ABT_bool empty = ABT_TRUE;
        ABT_pool_is_empty(p->h, &empty);
        if (!empty)
            return 1;
    }
    return 0;
}

/* Whether a stacked scheduler the quiescence loop has not freed yet is
 * stacked in an own pool of `fs`: then `fs` must not be freed, however
 * empty its pools look. The child may have stopped (ABT_sched_exit) with
 * work left in its own pools a moment ago, `fs` then stopped by itself with
 * its pools drained, and the loop, which re-adds the child, would put it
 * into a pool nobody serves any more (seed 6 of a clang build, before seeds
 * meant the same program under every compiler; about one run in 30). */
static int has_live_child(const fz_sched *fs, int first, int last)
{
    for (int s = first; s < last; s++) {
        const fz_sched *c = &g_scheds[s];
        if (c != fs && !c->automatic && !c->freed_by_us && c->parent >= 0 &&
            g_pools[c->parent].owner == fs->idx)
            return 1;
    }
    return 0;
}

/* After a stall: what each pool holds and each ES runs (and, with FZ_GDB=1,
 * every thread and ULT), then exit status 3. */
static void dump_and_exit(void)
{
    for (int i = 0; i < g_npools; i++) {
        size_t a = 0, b = 0;
        ABT_bool empty = ABT_TRUE;
        ABT_pool_is_empty(g_pools[i].h, &empty);
        int e1 = ABT_pool_get_size(g_pools[i].h, &a);
        int e2 = ABT_pool_get_total_size(g_pools[i].h, &b);
        fprintf(stderr, "  pool %d (%s, owner %d): empty %d size %zu/%d total %zu/%d\n", i,
                pk_name[g_pools[i].kind], g_pools[i].owner, empty, a, e1, b, e2);
    }
    for (int e = 0; e < g_nes; e++) {
        ABT_sched ms;
        ABT_xstream_state st;
        ABT_xstream_get_main_sched(g_es[e], &ms);
        ABT_xstream_get_state(g_es[e], &st);
        fz_sched *fs = sched_lookup(ms);
        fprintf(stderr, "  ES %d: state %d, main sched %d\n", e, (int)st, fs ? fs->idx : -1);
    }
    for (int i = 0; i < atomic_load(&g_nscheds); i++) {
        fz_sched *fs = &g_scheds[i];
        if (!atomic_load(&fs->published))
            continue;
        fprintf(stderr, "  sched %d (%s%s, %s): active %d runs %d stops %d exit %d finish %d "
                        "replace %d freed %d\n",
                i, fs->user ? "user" : "predef", fs->automatic ? " auto" : "",
                fs->role == ROLE_STACKED ? "stacked" : "main", atomic_load(&fs->active),
                atomic_load(&fs->runs), atomic_load(&fs->stops), atomic_load(&fs->exit_req),
                atomic_load(&fs->finish_req), atomic_load(&fs->replace_req),
                atomic_load(&fs->free_calls));
    }
    ABT_info_print_all_xstreams(stderr);
    if (getenv("FZ_GDB")) {
        bb_test_dump_threads();
    }
    fflush(stderr);
    _exit(3);
}

/* A seed that runs for 90 s, without a stall the driver could see (it may
 * be the one stuck): with FZ_GDB=1, every thread and ULT; exit status 4. */
static void on_alarm(int sig)
{
    static const char msg[] = "FZFAIL: seed still running after 90 s\n";
    (void)sig;
    if (write(2, msg, sizeof(msg) - 1) < 0) {
        /* nothing more to do */
    }
    if (getenv("FZ_GDB"))
        bb_test_dump_threads();
    _exit(4);
}

/* Terminated ESs (their main scheduler was asked to finish or exit):
 * revive each, maybe with a new main scheduler. Returns how many ESs are
 * still on their way to stopping. */
static int revive_terminated(rng_t *r)
{
    int stopping = 0;
    for (int e = 0; e < g_nes; e++) {
        ABT_xstream_state st;
        FZ_OK(ABT_xstream_get_state(g_es[e], &st));
        if (st != ABT_XSTREAM_STATE_TERMINATED) {
            stopping += atomic_load(&g_es_stopping[e]);
            continue;
        }
        if (!atomic_load(&g_es_stopping[e]))
            FZ_FAIL("ES %d terminated by itself", e);
        ABT_sched ms;
        FZ_OK(ABT_xstream_get_main_sched(g_es[e], &ms));
        fz_sched *old = sched_lookup(ms);
        if (rnd(r, 2)) {
            int automatic = (int)rnd(r, 2), user = (int)rnd(r, 2);
            fz_sched *fs = new_sched(r, ROLE_MAIN, e, g_es_npools[e], g_es_pools[e], user, automatic);
            if (fs) {
                VLOG("driver: ES %d terminated, new sched %d, revive\n", e, fs->idx);
                FZ_OK(ABT_xstream_set_main_sched(g_es[e], fs->h));
            }
        } else if (old) {
            VLOG("driver: ES %d terminated, revive with sched %d\n", e, old->idx);
            atomic_store(&old->exit_req, 0);
            atomic_store(&old->finish_req, 0);
        }
        atomic_store(&g_es_stopping[e], 0);
        FZ_OK(ABT_xstream_revive(g_es[e]));
    }
    return stopping;
}

static int run_seed(unsigned long long seed)
{
    g_seed = seed;
    rng_t r = {mix(seed)};
    atomic_store(&g_fail, 0);
    memset(g_units, 0, sizeof(g_units));
    atomic_store(&g_nunits, 0);
    atomic_store(&g_ndone, 0);
    atomic_store(&g_nscheds, 0);
    atomic_store(&g_finalizing, 0);
    atomic_store(&g_quiescent, 0);
    atomic_store(&g_replaces, 0);
    g_npools = g_nshared = 0;
    g_rq_n = 0;
    g_counter = 0;
    memset(&up_g, 0, sizeof(up_g));
    g_budget = 300 + (int)rnd(&r, 1200);

    FZ_OK(ABT_init(0, NULL));
    FZ_OK(ABT_mutex_create(&g_mutex));
    FZ_OK(ABT_cond_create(&g_cond));

    /* Pools: the primary's, then shared ones. */
    ABT_xstream primary;
    FZ_OK(ABT_xstream_self(&primary));
    g_es[MAXES] = primary;
    int pp = g_npools++;
    memset(&g_pools[pp], 0, sizeof(g_pools[pp]));
    g_pools[pp].kind = PK_PRIMARY;
    g_pools[pp].owner = -1;
    FZ_OK(ABT_xstream_get_main_pools(primary, 1, &g_pools[pp].h));
    g_shared[g_nshared++] = pp;
    g_nes = 1 + (int)rnd(&r, MAXES);
    int nsh = 1 + (int)rnd(&r, g_nes == 1 ? 3 : 4); /* each ES takes up to 3 */
    for (int i = 0; i < nsh; i++)
        g_shared[g_nshared++] = new_pool((int)rnd(&r, PK_NKINDS), -1);

    /* Secondary ESs: every shared pool (but the primary's) served by one. */
    for (int e = 0; e < g_nes; e++) {
        g_es_npools[e] = 0;
        atomic_store(&g_es_stopping[e], 0);
    }
    for (int i = 1; i < g_nshared; i++) {
        int e = (i - 1) % g_nes;
        if (g_es_npools[e] < 3)
            g_es_pools[e][g_es_npools[e]++] = g_shared[i];
    }
    int nsh_before_hosts = g_nshared;
    for (int e = 0; e < g_nes; e++) {
        while (g_es_npools[e] < 3 && (g_es_npools[e] == 0 || rnd(&r, 3) == 0)) {
            int p = g_shared[1 + rnd(&r, (uint32_t)g_nshared - 1)];
            int dup = 0;
            for (int k = 0; k < g_es_npools[e]; k++)
                dup |= g_es_pools[e][k] == p;
            if (dup)
                break;
            g_es_pools[e][g_es_npools[e]++] = p;
        }
        /* Last, the pool its stacked schedulers go to: a scheduler that
         * looks at its first pool first would never get past a stacked
         * scheduler there that waits for blocked units (documented, as for
         * joiners, REFERENCE ABT_thread_join). */
        /* Not a RANDWS pool: a RANDWS scheduler steals from its tail, where
         * a yielding stacked scheduler just went (as in Argobots). */
        int hk = (int)rnd(&r, PK_NKINDS - 1);
        g_host[e] = new_pool(hk >= PK_RANDWS ? hk + 1 : hk, -1);
        g_es_pools[e][g_es_npools[e]++] = g_host[e];
        int automatic = (int)rnd(&r, 2), user = (int)rnd(&r, 2);
        fz_sched *fs = new_sched(&r, ROLE_MAIN, e, g_es_npools[e], g_es_pools[e], user, automatic);
        VLOG("ES %d: sched %d %s %s pools", e, fs->idx, fs->user ? "user" : "predef",
             fs->automatic ? "auto" : "manual");
        for (int k = 0; k < fs->npools; k++)
            VLOG(" %d(%s)", fs->pools[k], pk_name[g_pools[fs->pools[k]].kind]);
        VLOG("\n");
        FZ_OK(ABT_xstream_create(fs->h, &g_es[e]));
    }
    for (int e = 0; e < g_nes; e++)
        g_shared[g_nshared++] = g_host[e];
    /* The primary: its pool, maybe shared ones too, under a new scheduler. */
    g_es_npools[MAXES] = 1;
    g_es_pools[MAXES][0] = pp;
    if (rnd(&r, 2)) {
        while (g_es_npools[MAXES] < 3 && rnd(&r, 2)) {
            int p = g_shared[1 + rnd(&r, (uint32_t)nsh_before_hosts - 1)];
            int dup = 0;
            for (int k = 0; k < g_es_npools[MAXES]; k++)
                dup |= g_es_pools[MAXES][k] == p;
            if (dup)
                break;
            g_es_pools[MAXES][g_es_npools[MAXES]++] = p;
        }
        int automatic = (int)rnd(&r, 2), user = (int)rnd(&r, 2);
        fz_sched *fs = new_sched(&r, ROLE_PRIMARY, MAXES, g_es_npools[MAXES], g_es_pools[MAXES],
                                 user, automatic);
        VLOG("primary: sched %d %s %s, %d pools\n", fs->idx, fs->user ? "user" : "predef",
             fs->automatic ? "auto" : "manual", fs->npools);
        FZ_OK(ABT_xstream_set_main_sched(primary, fs->h));
    }

    /* Stacked schedulers. */
    int first_stacked = atomic_load(&g_nscheds);
    int nst = (int)rnd(&r, 7);
    for (int s = 0; s < nst; s++) {
        int idx = atomic_load(&g_nscheds);
        int n = 1 + (int)rnd(&r, 3), pools[4], nown = 0;
        for (int k = 0; k < n; k++) {
            if (rnd(&r, 3) == 0 && k > 0) {
                pools[k] = g_shared[1 + rnd(&r, (uint32_t)g_nshared - 1)];
                for (int j = 0; j < k; j++)
                    if (pools[j] == pools[k])
                        pools[k] = -1;
                if (pools[k] >= 0)
                    continue;
            }
            pools[k] = new_pool((int)rnd(&r, PK_NKINDS), idx);
            nown++;
        }
        /* Own pools first. A shared pool holds other stacked schedulers,
         * which go back to it at each of their event checks: before an own
         * pool, in a scheduler that tries its pools in order, it would always
         * have something, and the own pool behind it would starve (seed
         * 745: its units held a mutex that units of the stacked schedulers
         * in the shared pool waited for, so those never ended). */
        int ordered[4], no = 0;
        for (int k = 0; k < n; k++)
            if (g_pools[pools[k]].owner == idx)
                ordered[no++] = pools[k];
        for (int k = 0; k < n; k++)
            if (g_pools[pools[k]].owner != idx)
                ordered[no++] = pools[k];
        memcpy(pools, ordered, sizeof(int) * (size_t)n);
        int automatic = (int)rnd(&r, 3) == 0;
        fz_sched *fs = new_sched(&r, ROLE_STACKED, -1, n, pools, (int)rnd(&r, 2), automatic);
        /* Its parent: an ES's host pool, or the last pool of a non-automatic
         * stacked scheduler made before, if that is an own pool of it. */
        fs->parent = g_host[rnd(&r, (uint32_t)g_nes)];
        if (s > 0 && rnd(&r, 2)) {
            fz_sched *ps = &g_scheds[first_stacked + (int)rnd(&r, (uint32_t)s)];
            int last = ps->pools[ps->npools - 1];
            if (!ps->automatic && g_pools[last].owner == ps->idx &&
                g_pools[last].kind != PK_RANDWS)
                fs->parent = last;
        }
        VLOG("stacked sched %d %s %s, pools", fs->idx, fs->user ? "user" : "predef",
             automatic ? "auto" : "manual");
        for (int k = 0; k < n; k++)
            VLOG(" %d(%s%s)", pools[k], pk_name[g_pools[pools[k]].kind],
                 g_pools[pools[k]].owner == fs->idx ? ",own" : "");
        VLOG(", in pool %d\n", fs->parent);
    }
    int last_stacked = atomic_load(&g_nscheds);

    /* Initial work, then the stacked schedulers. */
    int init_work = 10 + (int)rnd(&r, 40);
    for (int k = 0; k < init_work; k++) {
        int kind = rnd(&r, 4) ? UK_ULT : UK_TASK;
        spawn(random_shared(&r), kind, NULL, ABT_BARRIER_NULL);
    }
    for (int s = first_stacked; s < last_stacked; s++) {
        fz_sched *fs = &g_scheds[s];
        /* An automatic one left out now gets its work when the driver adds
         * it (case 2), which it may never do once the budget runs low: work
         * pushed before would then wait for ever (seed 554). */
        if (fs->automatic && rnd(&r, 2))
            continue;
        push_own(&r, fs, (int)rnd(&r, 10));
        fs->added = add_stacked(fs) == ABT_SUCCESS;
        if (fs->automatic && !fs->added)
            FZ_FAIL("first add of automatic sched %d failed", s);
    }

    /* Drive. */
    double start = now(), last_progress = start;
    int last_done = -1;
    int es_exits = 0;
    for (long step = 0;; step++) {
        int done = atomic_load(&g_ndone), made = atomic_load(&g_nunits);
        int spare = g_budget - made;
        if (done == made && (spare < 20 || step > 400))
            break;
        if (done != last_done) {
            last_done = done;
            last_progress = now();
        } else if (now() - last_progress > g_stall_secs) {
            FZ_FAIL("no progress for %g s: %d of %d units done", g_stall_secs, done, made);
            dump_and_exit();
        }
        resume_some(4);
        unsigned action = rnd(&r, 12);
        if (!(g_drvmask >> action & 1))
            action = 11;
        switch (action) {
        case 0:
        case 1:
            if (spare > 40) {
                int kind = rnd(&r, 4) ? UK_ULT : UK_TASK;
                spawn(random_shared(&r), kind, NULL, ABT_BARRIER_NULL);
            }
            break;
        case 2:
            if (last_stacked > first_stacked && spare > 40) {
                fz_sched *fs =
                    &g_scheds[first_stacked + rnd(&r, (uint32_t)(last_stacked - first_stacked))];
                if (!fs->automatic || !fs->added) {
                    push_own(&r, fs, 1 + (int)rnd(&r, 5));
                    if (fs->automatic) {
                        fs->added = 1;
                        if (add_stacked(fs) != ABT_SUCCESS)
                            FZ_FAIL("add of automatic sched %d failed", fs->idx);
                    }
                }
            }
            break;
        case 3:
        case 4:
            for (int s = first_stacked; s < last_stacked; s++) {
                fz_sched *fs = &g_scheds[s];
                /* Not at random once work stops coming: a stacked scheduler
                 * in a pool keeps a replaced main scheduler from draining. */
                if (!fs->automatic && (own_has_work(fs) || (spare > 40 && rnd(&r, 4) == 0)))
                    add_stacked(fs);
            }
            break;
        case 5:
            if (last_stacked > first_stacked) {
                fz_sched *fs =
                    &g_scheds[first_stacked + rnd(&r, (uint32_t)(last_stacked - first_stacked))];
                if (!fs->automatic) {
                    if (rnd(&r, 2)) {
                        atomic_store(&fs->exit_req, 1);
                        FZ_OK(ABT_sched_exit(fs->h));
                    } else {
                        atomic_store(&fs->finish_req, 1);
                        FZ_OK(ABT_sched_finish(fs->h));
                    }
                }
            }
            break;
        case 6:
            /* The main scheduler of a secondary ES stops: the ES ends, and is
             * revived below. */
            if (es_exits < 3 && rnd(&r, 3) == 0) {
                int e = (int)rnd(&r, (uint32_t)g_nes);
                ABT_sched ms;
                FZ_OK(ABT_xstream_get_main_sched(g_es[e], &ms));
                fz_sched *fs = sched_lookup(ms);
                if (fs && !fs->automatic && !atomic_load(&g_es_stopping[e])) {
                    es_exits++;
                    atomic_store(&g_es_stopping[e], 1);
                    int ex = (int)rnd(&r, 2);
                    VLOG("driver: %s main sched %d of ES %d\n", ex ? "exit" : "finish",
                         fs->idx, e);
                    if (ex) {
                        atomic_store(&fs->exit_req, 1);
                        FZ_OK(ABT_sched_exit(ms));
                    } else {
                        atomic_store(&fs->finish_req, 1);
                        FZ_OK(ABT_sched_finish(ms));
                    }
                }
            }
            break;
        case 7: {
            /* Ignored on the primary ES. */
            ABT_sched ms;
            FZ_OK(ABT_xstream_get_main_sched(primary, &ms));
            if (rnd(&r, 8) == 0) {
                fz_sched *fs = sched_lookup(ms);
                int ex = (int)rnd(&r, 2);
                if (fs)
                    atomic_store(ex ? &fs->exit_req : &fs->finish_req, 1);
                FZ_OK(ex ? ABT_sched_exit(ms) : ABT_sched_finish(ms));
            }
            break;
        }
        default:
            break;
        }
        revive_terminated(&r);
        FZ_OK(ABT_thread_yield());
    }
    VLOG("driver: %d units done\n", atomic_load(&g_ndone));
    /* An ES asked to stop at the end must run again, for the stacked
     * schedulers in its pools to end (seed 596). */
    for (double until = now() + 10.0; revive_terminated(&r) > 0 && now() < until;)
        FZ_OK(ABT_thread_yield());

    /* Quiescence: stacked schedulers end (a child may wait in an own pool of
     * a parent, which is then added again), children before their parents:
     * a parent is freed only after its children (has_live_child). */
    double end = now() + 10.0;
    for (int s = first_stacked; s < last_stacked; s++) {
        fz_sched *fs = &g_scheds[s];
        if (fs->automatic && !fs->added) {
            FZ_OK(ABT_sched_free(&fs->h));
            fs->freed_by_us = 1;
        }
    }
    for (;;) {
        int left = 0;
        for (int s = first_stacked; s < last_stacked; s++) {
            fz_sched *fs = &g_scheds[s];
            if (!fs->automatic && !fs->freed_by_us && own_has_work(fs))
                add_stacked(fs);
        }
        for (int s = last_stacked - 1; s >= first_stacked; s--) {
            fz_sched *fs = &g_scheds[s];
            if (fs->automatic || fs->freed_by_us)
                continue;
            left++;
            if (own_has_work(fs) || has_live_child(fs, first_stacked, last_stacked))
                continue;
            int e = ABT_sched_free(&fs->h);
            if (e == ABT_SUCCESS)
                fs->freed_by_us = 1, left--;
            else if (e != ABT_ERR_SCHED)
                FZ_FAIL("free of stacked sched %d: %d", s, e);
        }
        if (!left)
            break;
        if (now() > end) {
            FZ_FAIL("stacked schedulers do not end (%d left)", left);
            dump_and_exit();
        }
        ABT_thread_yield();
    }
    /* Automatic stacked ones end by themselves. */
    end = now() + 10.0;
    for (int s = first_stacked; s < last_stacked; s++) {
        fz_sched *fs = &g_scheds[s];
        if (fs->automatic && fs->added && fs->user)
            while (atomic_load(&fs->free_calls) == 0 && now() < end)
                ABT_thread_yield();
    }
    atomic_store(&g_quiescent, 1);
    for (int k = 0; k < 200; k++)
        ABT_thread_yield(); /* predefined automatic ones */
    for (int i = 0; i < g_npools; i++) {
        fz_pool *p = &g_pools[i];
        if (!pool_has_size(p->kind))
            continue;
        size_t a = 1, b = 1;
        end = now() + 5.0;
        do {
            FZ_OK(ABT_pool_get_size(p->h, &a));
            FZ_OK(ABT_pool_get_total_size(p->h, &b));
            if (a == 0 && b == 0)
                break;
            ABT_thread_yield();
        } while (now() < end);
        if (a != 0 || b != 0)
            FZ_FAIL("pool %d (%s) at the end: size %zu total %zu", i, pk_name[p->kind], a, b);
    }

    /* Teardown. */
    for (int e = 0; e < g_nes; e++) {
        ABT_sched ms;
        FZ_OK(ABT_xstream_get_main_sched(g_es[e], &ms));
        fz_sched *fs = sched_lookup(ms);
        if (fs)
            atomic_store(&fs->finish_req, 1);
        FZ_OK(ABT_xstream_free(&g_es[e]));
    }
    int n = atomic_load(&g_nscheds);
    ABT_sched pms = ABT_SCHED_NULL;
    FZ_OK(ABT_xstream_get_main_sched(primary, &pms));
    for (int s = 0; s < n; s++) {
        fz_sched *fs = &g_scheds[s];
        if (fs->automatic || fs->freed_by_us || fs->h == pms)
            continue;
        int e = ABT_sched_free(&fs->h);
        if (e != ABT_SUCCESS)
            FZ_FAIL("free of sched %d (role %d): %d", s, fs->role, e);
        fs->freed_by_us = 1;
    }
    int npms = 0, pms_pools[4];
    {
        fz_sched *fs = sched_lookup(pms);
        if (fs) {
            npms = fs->npools;
            memcpy(pms_pools, fs->pools, sizeof(pms_pools));
        } else {
            npms = g_es_npools[MAXES];
            memcpy(pms_pools, g_es_pools[MAXES], sizeof(pms_pools));
        }
    }
    for (int i = 0; i < g_npools; i++) {
        int held = i == pp;
        for (int k = 0; k < npms; k++)
            held |= pms_pools[k] == i;
        if (held)
            continue;
        int e = ABT_pool_free(&g_pools[i].h);
        if (e != ABT_SUCCESS)
            FZ_FAIL("free of pool %d (%s): %d", i, pk_name[g_pools[i].kind], e);
    }
    FZ_OK(ABT_mutex_free(&g_mutex));
    FZ_OK(ABT_cond_free(&g_cond));
    atomic_store(&g_finalizing, 1);
    fz_sched *pfs = sched_lookup(pms);
    if (pfs)
        atomic_store(&pfs->finish_req, 1);
    FZ_OK(ABT_finalize());

    /* After: callbacks and counts. */
    for (int s = 0; s < n; s++) {
        fz_sched *fs = &g_scheds[s];
        if (!fs->user)
            continue;
        if (atomic_load(&fs->free_calls) != 1 || atomic_load(&fs->inits) != 1)
            FZ_FAIL("sched %d (role %d, %s): init %d, free %d times", s, fs->role,
                    fs->automatic ? "auto" : "manual", atomic_load(&fs->inits),
                    atomic_load(&fs->free_calls));
        if (atomic_load(&fs->active))
            FZ_FAIL("sched %d still active", s);
    }
    int made = atomic_load(&g_nunits);
    for (int i = 0; i < made; i++)
        if (atomic_load(&g_units[i].started) != 1 || atomic_load(&g_units[i].finished) != 1)
            FZ_FAIL("unit %d (kind %d): started %d finished %d", i, g_units[i].kind,
                    atomic_load(&g_units[i].started), atomic_load(&g_units[i].finished));
    if (atomic_load(&up_g.n_misuse))
        FZ_FAIL("user pool misuse %d", atomic_load(&up_g.n_misuse));
    if (atomic_load(&up_g.n_create) != atomic_load(&up_g.n_free_unit))
        FZ_FAIL("user pool units: %d made, %d freed", atomic_load(&up_g.n_create),
                atomic_load(&up_g.n_free_unit));
    for (int i = 0; i < g_npools; i++)
        if (g_pools[i].kind == PK_USER || g_pools[i].kind == PK_LEGACY)
            if (atomic_load(&g_pools[i].st.n_free) != 1)
                FZ_FAIL("user pool %d freed %d times", i, atomic_load(&g_pools[i].st.n_free));
    VLOG("seed %llu: %d units, %d scheds, %d pools, %d ESs: %s\n", seed, made, n, g_npools,
         g_nes, atomic_load(&g_fail) ? "FAIL" : "ok");
    return atomic_load(&g_fail);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SEED [SEED_END]\n", argv[0]);
        return 2;
    }
    unsigned long long a = strtoull(argv[1], NULL, 0);
    unsigned long long b = argc > 2 ? strtoull(argv[2], NULL, 0) : a;
    g_verbose = getenv("FZ_VERBOSE") != NULL;
    if (getenv("FZ_STALL"))
        g_stall_secs = atof(getenv("FZ_STALL"));
    if (getenv("FZ_OPMASK"))
        g_opmask = (unsigned)strtoul(getenv("FZ_OPMASK"), NULL, 0);
    if (getenv("FZ_DRVMASK"))
        g_drvmask = (unsigned)strtoul(getenv("FZ_DRVMASK"), NULL, 0);
    snprintf(bb_test_pid, sizeof(bb_test_pid), "%ld", (long)getpid());
    signal(SIGALRM, on_alarm);
    int failed = 0;
    for (unsigned long long s = a; s <= b; s++) {
        alarm(90);
        if (run_seed(s)) {
            fprintf(stderr, "seed %llu FAILED\n", s);
            failed++;
        }
    }
    alarm(0);
    return failed ? 1 : 0;
}
