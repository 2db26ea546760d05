/* Lazy stacks (ABT_THREAD_TECHNIQUE full-l and roc-l; src/include/
 * bb_technique.h): a ULT with the default stack size gets its stack at its
 * first run and gives it back as it ends. Under each technique, with `lazy`
 * the technique's answer to ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC:
 *  - a default ULT that has not run reports ABT_thread_get_stack NULL (lazy)
 *    or an address (eager), and size 16384 (get_stacksize too); running, it
 *    sees a 16384-byte stack holding its locals; joined, NULL again (lazy)
 *    or the same address (eager); on ES0 (the primary's bypass), on ES1 (a
 *    ULT first parked in a pool nobody serves, then migrated there), and
 *    with ABT_THREAD_STACKSIZE=65536 (the default size is the lazy size);
 *  - N ULTs (1000; 200 under ThreadSanitizer or valgrind) created, then
 *    joined one after another (by the primary on ES0, by a driver ULT on
 *    ES1, and while ES1's scheduler runs them) use at most 4 distinct stacks
 *    when lazy, N when eager;
 *  - ULTs alive together (all blocked on an eventual, on both ESs) have
 *    pairwise disjoint stacks, which they keep while blocked;
 *  - a ULT with an explicit non-default stack size, or the user's stack (of
 *    the default size, too), has its stack from creation and keeps it after
 *    it ends;
 *  - ABT_thread_revive of an ended ULT, and ABT_thread_revive_to from a ULT,
 *    run it again on a stack (lazy: none between runs);
 *  - a ULT cancelled before it ran never gets a stack and frees fine;
 *  - a ULT made by a thread that is not an ES runs, joins and frees fine. */
#include <pthread.h>
#include <time.h>
#include "technique_util.h"

#define DEFAULT_SIZE 16384

struct probe {
    void *addr;
    size_t size;
    uintptr_t local;
    int runs;
};

static void probe_body(void *arg)
{
    struct probe *p = arg;
    volatile int local = 1;
    p->addr = tq_self_stack(&p->size);
    p->local = (uintptr_t)&local;
    p->runs++;
}

static int probe_inside(const struct probe *p)
{
    uintptr_t lo = (uintptr_t)p->addr;
    return p->addr != NULL && p->local >= lo && p->local < lo + p->size;
}

static int lazy; /* -1: auto, whose ES may have turned to full (eager) meanwhile */

/* Whether what a ULT shows fits the technique: `if_lazy` under a lazy one,
 * `if_eager` under an eager one, either under auto. */
#define LAZY_FITS(if_lazy, if_eager) \
    (lazy < 0 ? ((if_lazy) || (if_eager)) : lazy ? (if_lazy) : (if_eager))
static ABT_xstream xs[2];
static ABT_pool pools[2], parked; /* parked: served by no scheduler */

/* What ABT_thread_get_stack and get_stacksize say from outside. */
static void *stack_of(ABT_thread t, size_t *size)
{
    void *addr = (void *)1;
    size_t sz = 0, sz2 = 1;
    CHECK_OK(ABT_thread_get_stack(t, &addr, &sz));
    CHECK_OK(ABT_thread_get_stacksize(t, &sz2));
    CHECK_EQ(sz, sz2);
    if (size)
        *size = sz;
    return addr;
}

#define TCHECK(cond)                                                                       \
    do {                                                                                   \
        if (!(cond))                                                                       \
            BB_FAIL_AT("[%s] %s: CHECK(%s) is false", tq_name, what, #cond);               \
    } while (0)

/* A default ULT in `pool` (not run yet) through its life. `run` makes it run
 * and returns once it has finished. */
static void check_default_ult(const char *what, ABT_pool pool, void (*run)(ABT_thread),
                              size_t default_size)
{
    struct probe p = {0};
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, probe_body, &p, ABT_THREAD_ATTR_NULL, &t));
    size_t size = 0;
    void *before = stack_of(t, &size);
    TCHECK(LAZY_FITS(before == NULL, before != NULL));
    TCHECK(size == default_size);
    run(t);
    TCHECK(p.runs == 1);
    TCHECK(p.size == default_size);
    TCHECK(probe_inside(&p));
    TCHECK(lazy != 0 || p.addr == before);
    void *after = stack_of(t, &size);
    TCHECK(LAZY_FITS(after == NULL, after == p.addr));
    TCHECK(size == default_size);
    CHECK_OK(ABT_thread_free(&t));
}

static void run_by_join(ABT_thread t)
{
    CHECK_OK(ABT_thread_join(t));
}

static void run_by_migration(ABT_thread t)
{
    CHECK_OK(ABT_thread_migrate_to_pool(t, pools[1]));
    CHECK_OK(ABT_thread_join(t));
}

/* ---- reuse ---- */

static int count_distinct(void *const *addrs, int n)
{
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = addrs[j] == addrs[i];
        distinct += !seen;
    }
    return distinct;
}

struct many {
    int n;
    ABT_pool pool;
    struct probe *probes;
    ABT_thread *threads;
};

/* Create n, then join (and free) them in order. */
static void create_then_join(struct many *m)
{
    for (int i = 0; i < m->n; i++)
        UCHECK_OK(ABT_thread_create(m->pool, probe_body, &m->probes[i], ABT_THREAD_ATTR_NULL,
                                    &m->threads[i]));
    for (int i = 0; i < m->n; i++)
        UCHECK_OK(ABT_thread_free(&m->threads[i]));
}

static void create_then_join_ult(void *arg)
{
    create_then_join(arg);
}

static void check_reuse(const char *what, int by_driver, ABT_pool pool, int n)
{
    struct many m = {n, pool, calloc((size_t)n, sizeof(struct probe)),
                     calloc((size_t)n, sizeof(ABT_thread))};
    void **addrs = calloc((size_t)n, sizeof(void *));
    if (by_driver) {
        ABT_thread d;
        CHECK_OK(ABT_thread_create(pool, create_then_join_ult, &m, ABT_THREAD_ATTR_NULL, &d));
        CHECK_OK(ABT_thread_free(&d));
    } else {
        create_then_join(&m);
    }
    tq_collect_ult_failures();
    int bad = 0;
    for (int i = 0; i < n; i++) {
        bad += m.probes[i].runs != 1 || !probe_inside(&m.probes[i]);
        addrs[i] = m.probes[i].addr;
    }
    TCHECK(bad == 0);
    int distinct = count_distinct(addrs, n);
    if (!LAZY_FITS(distinct <= 4, distinct == n))
        BB_FAIL_AT("[%s] %s: %d ULTs ran on %d distinct stacks (expected %s)", tq_name, what, n,
                   distinct, lazy > 0 ? "at most 4" : lazy == 0 ? "all distinct" : "either");
    free(addrs);
    free(m.probes);
    free(m.threads);
}

/* ---- alive together ---- */

#define TOGETHER 64

struct waiter {
    struct probe p;
    ABT_eventual ev;
    int *arrived;
};

static void wait_body(void *arg)
{
    struct waiter *w = arg;
    volatile int local = 2;
    w->p.addr = tq_self_stack(&w->p.size);
    w->p.local = (uintptr_t)&local;
    __atomic_fetch_add(w->arrived, 1, __ATOMIC_ACQ_REL);
    UCHECK_OK(ABT_eventual_wait(w->ev, NULL));
    UCHECK(tq_self_stack(NULL) == w->p.addr);
    UCHECK(local == 2);
    w->p.runs++;
}

static void check_alive_together(void)
{
    const char *what = "ULTs blocked together";
    struct waiter w[TOGETHER];
    ABT_thread t[TOGETHER];
    ABT_eventual ev;
    int arrived = 0;
    CHECK_OK(ABT_eventual_create(0, &ev));
    for (int i = 0; i < TOGETHER; i++) {
        memset(&w[i], 0, sizeof(w[i]));
        w[i].ev = ev;
        w[i].arrived = &arrived;
        CHECK_OK(ABT_thread_create(pools[i % 2], wait_body, &w[i], ABT_THREAD_ATTR_NULL, &t[i]));
    }
    while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < TOGETHER)
        ABT_thread_yield();
    /* All blocked: each keeps the stack it runs on, and no two overlap. */
    int kept = 0, overlaps = 0;
    for (int i = 0; i < TOGETHER; i++) {
        size_t size;
        kept += stack_of(t[i], &size) == w[i].p.addr && probe_inside(&w[i].p);
        uintptr_t lo = (uintptr_t)w[i].p.addr;
        for (int j = 0; j < i; j++) {
            uintptr_t lo2 = (uintptr_t)w[j].p.addr;
            overlaps += lo < lo2 + w[j].p.size && lo2 < lo + w[i].p.size;
        }
    }
    TCHECK(kept == TOGETHER);
    TCHECK(overlaps == 0);
    CHECK_OK(ABT_eventual_set(ev, NULL, 0));
    int ran = 0, returned = 0;
    for (int i = 0; i < TOGETHER; i++) {
        CHECK_OK(ABT_thread_join(t[i]));
        ran += w[i].p.runs == 1;
        returned += LAZY_FITS(stack_of(t[i], NULL) == NULL, stack_of(t[i], NULL) == w[i].p.addr);
        CHECK_OK(ABT_thread_free(&t[i]));
    }
    TCHECK(ran == TOGETHER);
    TCHECK(returned == TOGETHER);
    CHECK_OK(ABT_eventual_free(&ev));
    tq_collect_ult_failures();
}

/* ---- stacks of their own ---- */

/* A ULT made with `attr` has a stack at `expect` (any non-NULL if NULL)
 * from creation to free, and runs on it. */
static void check_own_stack(const char *what, ABT_thread_attr attr, void *expect,
                            size_t expect_size, ABT_pool pool)
{
    struct probe p = {0};
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, probe_body, &p, attr, &t));
    size_t size = 0;
    void *before = stack_of(t, &size);
    TCHECK(before != NULL);
    TCHECK(expect == NULL || before == expect);
    TCHECK(size == expect_size);
    CHECK_OK(ABT_thread_join(t));
    TCHECK(p.runs == 1);
    TCHECK(p.addr == before);
    TCHECK(p.size == expect_size);
    TCHECK(probe_inside(&p));
    TCHECK(stack_of(t, &size) == before);
    TCHECK(size == expect_size);
    /* and again after a revive */
    CHECK_OK(ABT_thread_revive(pool, probe_body, &p, &t));
    TCHECK(stack_of(t, NULL) == before);
    CHECK_OK(ABT_thread_join(t));
    TCHECK(p.runs == 2);
    TCHECK(p.addr == before);
    CHECK_OK(ABT_thread_free(&t));
}

static void check_stacks_of_their_own(void)
{
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 2 * DEFAULT_SIZE));
    check_own_stack("explicit stack size 32768 on ES0", attr, NULL, 2 * DEFAULT_SIZE, pools[0]);
    check_own_stack("explicit stack size 32768 on ES1", attr, NULL, 2 * DEFAULT_SIZE, pools[1]);
    CHECK_OK(ABT_thread_attr_free(&attr));

    static const size_t sizes[] = {DEFAULT_SIZE, 4 * DEFAULT_SIZE};
    for (int i = 0; i < 2; i++) {
        void *buf = NULL;
        CHECK_EQ(posix_memalign(&buf, 64, sizes[i]), 0);
        CHECK_OK(ABT_thread_attr_create(&attr));
        CHECK_OK(ABT_thread_attr_set_stack(attr, buf, sizes[i]));
        check_own_stack(i ? "user stack of 65536" : "user stack of the default size", attr, buf,
                        sizes[i], pools[i]);
        CHECK_OK(ABT_thread_attr_free(&attr));
        free(buf);
    }
}

/* ---- revive ---- */

struct revive_to_arg {
    ABT_thread t;
    struct probe *p;
};

static void revive_to_body(void *arg)
{
    struct revive_to_arg *a = arg;
    UCHECK_OK(ABT_thread_revive_to(pools[0], probe_body, a->p, &a->t));
    UCHECK(a->p->runs == 3); /* it ran in our place, to its end */
}

static void check_revive(void)
{
    const char *what = "revive";
    struct probe p = {0};
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pools[0], probe_body, &p, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    TCHECK(p.runs == 1 && probe_inside(&p));
    for (int round = 0; round < 2; round++) {
        /* ES0 (the primary's bypass), then ES1 (its scheduler: revived
         * into the parked pool first, so that nothing runs it while we
         * look at its stack) */
        memset(&p, 0, sizeof(p));
        p.runs = round + 1;
        TCHECK(LAZY_FITS(stack_of(t, NULL) == NULL, stack_of(t, NULL) != NULL));
        CHECK_OK(ABT_thread_revive(round ? parked : pools[0], probe_body, &p, &t));
        TCHECK(LAZY_FITS(stack_of(t, NULL) == NULL, stack_of(t, NULL) != NULL));
        if (round)
            CHECK_OK(ABT_thread_migrate_to_pool(t, pools[1]));
        CHECK_OK(ABT_thread_join(t));
        TCHECK(p.runs == round + 2);
        TCHECK(probe_inside(&p));
        TCHECK(p.size == DEFAULT_SIZE);
    }
    /* ABT_thread_revive_to from a ULT on ES0: it runs at once in its place */
    struct revive_to_arg a = {t, &p};
    p.runs = 2;
    ABT_thread r;
    CHECK_OK(ABT_thread_create(pools[0], revive_to_body, &a, ABT_THREAD_ATTR_NULL, &r));
    CHECK_OK(ABT_thread_free(&r));
    tq_collect_ult_failures();
    CHECK_OK(ABT_thread_join(a.t));
    TCHECK(p.runs == 3 && probe_inside(&p));
    TCHECK(LAZY_FITS(stack_of(a.t, NULL) == NULL, stack_of(a.t, NULL) != NULL));
    CHECK_OK(ABT_thread_free(&a.t));
}

/* ---- cancelled before it ran ---- */

static void check_cancel_unstarted(void)
{
    const char *what = "cancel before the first run";
    struct probe p = {0};
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pools[0], probe_body, &p, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_cancel(t));
    CHECK_OK(ABT_thread_join(t));
    TCHECK(p.runs == 0);
    TCHECK(LAZY_FITS(stack_of(t, NULL) == NULL, stack_of(t, NULL) != NULL));
    CHECK_OK(ABT_thread_free(&t));
}

/* ---- made by a thread that is not an ES ---- */

static void *external_thread(void *arg)
{
    struct probe *p = arg;
    ABT_thread t;
    UCHECK_OK(ABT_thread_create(pools[1], probe_body, p, ABT_THREAD_ATTR_NULL, &t));
    UCHECK_OK(ABT_thread_join(t));
    UCHECK_OK(ABT_thread_free(&t));
    return NULL;
}

static void check_external_creator(void)
{
    const char *what = "made by an external thread";
    struct probe p = {0};
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, external_thread, &p), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    tq_collect_ult_failures();
    TCHECK(p.runs == 1 && probe_inside(&p) && p.size == DEFAULT_SIZE);
}

static void setup(int t)
{
    tq_init(t);
    lazy = strcmp(tq_name, "auto") == 0 ? -1 : tq_techniques[t].lazy;
    CHECK_OK(ABT_xstream_self(&xs[0]));
    CHECK_OK(ABT_xstream_get_main_pools(xs[0], 1, &pools[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &xs[1]));
    CHECK_OK(ABT_xstream_get_main_pools(xs[1], 1, &pools[1]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &parked));
}

static void teardown(void)
{
    CHECK_OK(ABT_xstream_free(&xs[1]));
    CHECK_OK(ABT_pool_free(&parked));
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(60);
    int n = BB_TEST_SIZE(1000, 200);
    unsetenv("ABT_THREAD_STACKSIZE");
    unsetenv("ABT_ENV_THREAD_STACKSIZE");
    for (int t = 0; t < TQ_NUM; t++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        setup(t);
        check_default_ult("default ULT on ES0", pools[0], run_by_join, DEFAULT_SIZE);
        check_default_ult("default ULT parked, then on ES1", parked, run_by_migration,
                          DEFAULT_SIZE);
        check_reuse("created then joined by the primary on ES0", 0, pools[0], n);
        check_reuse("created then joined by a ULT on ES1", 1, pools[1], n);
        check_reuse("run by ES1 while the primary creates and joins", 0, pools[1], n);
        check_alive_together();
        check_stacks_of_their_own();
        check_revive();
        check_cancel_unstarted();
        check_external_creator();
        teardown();

        /* Another default size: it is what a lazy ULT gets. */
        setenv("ABT_THREAD_STACKSIZE", "65536", 1);
        setup(t);
        check_default_ult("default ULT, ABT_THREAD_STACKSIZE=65536", pools[0], run_by_join,
                          65536);
        check_reuse("ABT_THREAD_STACKSIZE=65536", 0, pools[0], 50);
        teardown();
        unsetenv("ABT_THREAD_STACKSIZE");
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("%-7s (lazy %d) in %.1f ms\n", tq_name, lazy,
               (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    }
    BB_TEST_END();
}
