/* The floating-point control state under every threading technique
 * (ABT_THREAD_TECHNIQUE; docs/ARCHITECTURE.md: "The assembly saves MXCSR
 * and the x87 control word, so each ULT keeps its own rounding mode"):
 *  - a ULT that sets its rounding mode (fesetround: MXCSR and x87) and then
 *    yields, several times, among ULTs with other modes, finds its own mode
 *    after each yield, on ES0 and ES1;
 *  - a ULT that changes the mode, or MXCSR's flush-to-zero bit, and then
 *    ends, without deviating (it returns, or calls ABT_thread_exit) or
 *    after a yield, leaves its parent as it was: the primary ULT that ran
 *    it by a join bypass (in a mode of its own, FE_DOWNWARD), a ULT parent
 *    (in FE_UPWARD) that ran it by a bypass, itself started by the
 *    primary's bypass on ES0 or by the scheduler on ES1; and the
 *    scheduler: the next ULT it starts sees round-to-nearest and no
 *    flush-to-zero.
 * Under roc a ULT that does not deviate returns to its parent instead of
 * switching (bb_ctx_call): these check that the parent's control state is
 * restored on that path too, exactly as after a switch. The mode a new ULT
 * finds at its start is not checked, only that it is the same under every
 * technique. */
#include <fenv.h>
#include <time.h>
#include <xmmintrin.h>
#include "technique_util.h"

#define ROUNDS 10
#define FTZ_BIT (1u << 15)

static unsigned sse_rc(void)
{
    return (_mm_getcsr() >> 13) & 3u;
}

static unsigned x87_rc(void)
{
    unsigned short cw = 0; /* MemorySanitizer does not see an asm "=m" output written */
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    return (cw >> 10) & 3u;
}

/* The rounding-control bits of both units for a fenv mode. */
static unsigned rc_of(int mode)
{
    switch (mode) {
    case FE_TONEAREST: return 0;
    case FE_DOWNWARD: return 1;
    case FE_UPWARD: return 2;
    default: return 3; /* FE_TOWARDZERO */
    }
}

/* Whether the whole control state is `mode`, with flush-to-zero as `ftz`. */
static int in_mode(int mode, int ftz)
{
    return fegetround() == mode && sse_rc() == rc_of(mode) && x87_rc() == rc_of(mode) &&
           ((_mm_getcsr() & FTZ_BIT) != 0) == (ftz != 0);
}

/* 1/3 in double precision and 1/7 in x87 extended precision, rounded. */
__attribute__((noinline)) static double third(void)
{
    volatile double one = 1.0, three = 3.0;
    return one / three;
}

__attribute__((noinline)) static long double seventh(void)
{
    volatile long double one = 1.0L, seven = 7.0L;
    return one / seven;
}

static const int modes[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
static double ref[4];
static long double ref_x87[4];

static int mode_index(int mode)
{
    for (int i = 0; i < 4; i++)
        if (modes[i] == mode)
            return i;
    return 0;
}

static int computes_in(int mode)
{
    int i = mode_index(mode);
    return third() == ref[i] && seventh() == ref_x87[i];
}

static ABT_xstream xs[2];
static ABT_pool pools[2];

/* ---- each ULT keeps its mode across yields ---- */

static int yield_bad;

static void yielder(void *arg)
{
    int mode = modes[(intptr_t)arg];
    fesetround(mode);
    for (int i = 0; i < ROUNDS; i++) {
        UCHECK_OK(ABT_thread_yield());
        if (!in_mode(mode, 0) || !computes_in(mode))
            __atomic_fetch_add(&yield_bad, 1, __ATOMIC_RELAXED);
    }
    fesetround(FE_TONEAREST);
}

static void check_yielders(void)
{
    ABT_thread t[16];
    yield_bad = 0;
    for (int i = 0; i < 16; i++)
        CHECK_OK(ABT_thread_create(pools[(i / 4) % 2], yielder, (void *)(intptr_t)(i % 4),
                                   ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < 16; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    if (yield_bad)
        BB_FAIL_AT("[%s] %d times a yielding ULT came back in another mode", tq_name, yield_bad);
    CHECK(in_mode(FE_TONEAREST, 0));
}

/* ---- a ULT that changes the state and ends without deviating ---- */

enum how { RETURNS, EXITS, YIELDS };

struct changer {
    int mode, ftz;
    enum how how;
    int ran;
    int start_mode; /* what it found at its start */
};

static void changer_body(void *arg)
{
    struct changer *c = arg;
    c->start_mode = fegetround();
    fesetround(c->mode);
    if (c->ftz)
        _mm_setcsr(_mm_getcsr() | FTZ_BIT);
    if (c->how == YIELDS)
        UCHECK_OK(ABT_thread_yield());
    c->ran = in_mode(c->mode, c->ftz) && computes_in(c->mode);
    if (c->how == EXITS)
        ABT_thread_exit();
}

static int last_start_mode;

static int run_changer(ABT_pool pool, int mode, int ftz, enum how how)
{
    struct changer c = {mode, ftz, how, 0, -1};
    ABT_thread t;
    UCHECK_OK(ABT_thread_create(pool, changer_body, &c, ABT_THREAD_ATTR_NULL, &t));
    UCHECK_OK(ABT_thread_join(t)); /* the newest unit of our pool: a bypass */
    UCHECK_OK(ABT_thread_free(&t));
    last_start_mode = c.start_mode;
    return c.ran;
}

/* The parent is a ULT on `pool`'s ES in FE_UPWARD: its mode survives each
 * child that changes it and returns. */
struct parent_arg {
    ABT_pool pool;
    int ok, children_ok;
};

static void parent_body(void *arg)
{
    struct parent_arg *a = arg;
    fesetround(FE_UPWARD);
    int ok = 1, children = 1;
    for (int i = 0; i < 6; i++) {
        children &= run_changer(a->pool, modes[i % 4], i & 1, (enum how)(i / 2));
        ok &= in_mode(FE_UPWARD, 0) && computes_in(FE_UPWARD);
    }
    fesetround(FE_TONEAREST);
    a->ok = ok;
    a->children_ok = children;
}

/* Seen by the first code of a ULT the scheduler starts after a changer. */
struct observer {
    int ok, ran;
};

static void observer_body(void *arg)
{
    struct observer *o = arg;
    o->ok = in_mode(FE_TONEAREST, 0) && computes_in(FE_TONEAREST);
    o->ran = 1;
}

/* The mode a changer started in, per technique: whatever it is, it must
 * not depend on the technique. */
static int start_modes[TQ_NUM][6];

static void check_changers(int t)
{
    /* The primary ULT, in its own mode, bypasses changers on ES0: they
     * return, exit, or yield (and end the general way). */
    fesetround(FE_DOWNWARD);
    for (int i = 0; i < 6; i++) {
        int ok = run_changer(pools[0], modes[i % 4], i & 1, (enum how)(i / 2));
        start_modes[t][i] = last_start_mode;
        if (!ok)
            BB_FAIL_AT("[%s] changer %d did not get its own mode", tq_name, i);
        if (!in_mode(FE_DOWNWARD, 0) || !computes_in(FE_DOWNWARD))
            BB_FAIL_AT("[%s] the primary ULT lost FE_DOWNWARD to changer %d (mode %d, MXCSR "
                       "%#x)", tq_name, i, fegetround(), _mm_getcsr());
        fesetround(FE_DOWNWARD);
        _mm_setcsr(_mm_getcsr() & ~FTZ_BIT);
    }
    fesetround(FE_TONEAREST);

    /* A ULT parent bypasses changers: on ES0 the parent is itself run by
     * the primary's bypass, on ES1 by the scheduler. A ULT queued after the
     * parent then starts in round-to-nearest. */
    for (int e = 0; e < 2; e++) {
        struct parent_arg a = {pools[e], 0, 0};
        struct observer after = {0, 0};
        ABT_thread p, o;
        CHECK_OK(ABT_thread_create(pools[e], parent_body, &a, ABT_THREAD_ATTR_NULL, &p));
        CHECK_OK(ABT_thread_create(pools[e], observer_body, &after, ABT_THREAD_ATTR_NULL, &o));
        CHECK_OK(ABT_thread_free(&p));
        CHECK_OK(ABT_thread_free(&o));
        if (!a.ok)
            BB_FAIL_AT("[%s] a parent ULT on ES%d lost FE_UPWARD to its children", tq_name, e);
        if (!a.children_ok)
            BB_FAIL_AT("[%s] a child on ES%d did not get its own mode", tq_name, e);
        if (!after.ran || !after.ok)
            BB_FAIL_AT("[%s] ES%d: a ULT started after the parent is not in round-to-nearest",
                       tq_name, e);
    }

    /* The scheduler runs a changer, then an observer: the observer starts
     * from the scheduler's own state. On ES1 (the primary blocks in join). */
    for (int i = 1; i < 4; i++) {
        struct changer c = {modes[i], i & 1, i < 3 ? RETURNS : EXITS, 0, -1};
        struct observer o = {0, 0};
        ABT_thread tc, to;
        CHECK_OK(ABT_thread_create(pools[1], changer_body, &c, ABT_THREAD_ATTR_NULL, &tc));
        CHECK_OK(ABT_thread_create(pools[1], observer_body, &o, ABT_THREAD_ATTR_NULL, &to));
        CHECK_OK(ABT_thread_free(&tc));
        CHECK_OK(ABT_thread_free(&to));
        if (!c.ran || !o.ran)
            BB_FAIL_AT("[%s] changer/observer %d did not run right", tq_name, i);
        if (!o.ok)
            BB_FAIL_AT("[%s] ES1: a ULT started after a changer (mode %d, ftz %d) is not in "
                       "round-to-nearest without flush-to-zero", tq_name, modes[i], i & 1);
    }
    CHECK(in_mode(FE_TONEAREST, 0));
    tq_collect_ult_failures();
}

int main(void)
{
    BB_TEST_BEGIN(30);
    for (int i = 0; i < 4; i++) {
        fesetround(modes[i]);
        ref[i] = third();
        ref_x87[i] = seventh();
    }
    fesetround(FE_TONEAREST);
    if (ref[1] == ref[0] && ref_x87[1] == ref_x87[0]) {
        /* valgrind, for one, computes in round-to-nearest whatever the mode */
        printf("SKIP: rounding modes have no effect here (an emulator?)\n");
        return 77;
    }
    for (int t = 0; t < TQ_NUM; t++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        tq_init(t);
        CHECK_OK(ABT_xstream_self(&xs[0]));
        CHECK_OK(ABT_xstream_get_main_pools(xs[0], 1, &pools[0]));
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &xs[1]));
        CHECK_OK(ABT_xstream_get_main_pools(xs[1], 1, &pools[1]));
        check_yielders();
        check_changers(t);
        for (int i = 0; i < 6; i++)
            if (start_modes[t][i] != start_modes[0][i])
                BB_FAIL_AT("[%s] changer %d started in mode %d, under full in %d", tq_name, i,
                           start_modes[t][i], start_modes[0][i]);
        CHECK_OK(ABT_xstream_free(&xs[1]));
        CHECK_OK(ABT_finalize());
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("%-7s in %.1f ms\n", tq_name,
               (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    }
    BB_TEST_END();
}
