/* SC (ABT_THREAD_TECHNIQUE=sc; src/unit/switch.c, begin_lending): while
 * the primary ES's scheduler runs a pass over its pools, it lends its stack
 * to every lazy ULT that has not run yet, and takes it back when the ULT
 * returns. Mixed into such a pass, in this order, each round:
 *   L1  lazy, returns at once;
 *   E1  with a stack of its own (twice the default size), yields once: the
 *       scheduler, which did not save its context, restarts on its own stack;
 *   L2  lazy, yields once: it keeps the lent stack, and the scheduler
 *       restarts on another one;
 *   K   a tasklet;
 *   L3  lazy, returns at once;
 *   E2  with a stack of its own, returns at once.
 * Checked: each unit ran once and its locals were on the stack
 * ABT_thread_get_stack reports (a canary survives the yields); after many
 * rounds, the lazy ULTs that returned at once saw few distinct stacks (a
 * stack the scheduler lost track of around E1 or L2 would make a new one
 * each round). All of it for the three ways a pass runs units: the first
 * pool a private FIFO (one loop, inline), an MPMC FIFO (one loop, by the
 * pool's pop), and the second pool of two (one pick at a time). Without
 * the RETURN shortcut (a sanitizer watching switches) nothing is lent, and
 * it all holds too. */
#include "technique_util.h"

#define SC_INDEX 6
#define ROUNDS 200
#define MAX_DISTINCT 8

enum { L1, E1, L2, K, L3, E2, NUM_UNITS };

struct unit_probe {
    int runs;
    int inside;  /* a local was on the reported stack (ULTs) */
    void *stack; /* what ABT_thread_get_stack reported (ULTs) */
};

static struct unit_probe probes[NUM_UNITS];
static void *seen[2 * ROUNDS]; /* the stacks L1 and L3 saw */
static int num_seen;

static void note_stack(struct unit_probe *p, volatile int *local)
{
    size_t size = 0;
    p->stack = tq_self_stack(&size);
    uintptr_t lo = (uintptr_t)p->stack, at = (uintptr_t)local;
    p->inside = p->stack != NULL && at >= lo && at < lo + size;
}

static void plain_body(void *arg)
{
    struct unit_probe *p = arg;
    volatile int local = 7;
    note_stack(p, &local);
    p->runs++;
}

static void yield_body(void *arg)
{
    struct unit_probe *p = arg;
    volatile int canary = 0x5c10;
    UCHECK_OK(ABT_thread_yield());
    note_stack(p, &canary);
    UCHECK(canary == 0x5c10);
    p->runs++;
}

static void tasklet_body(void *arg)
{
    ((struct unit_probe *)arg)->runs++;
}

static void create_round(ABT_pool pool, ABT_thread_attr own_stack, ABT_thread *units)
{
    void (*bodies[NUM_UNITS])(void *) = {plain_body, yield_body, yield_body,
                                         tasklet_body, plain_body, plain_body};
    for (int i = 0; i < NUM_UNITS; i++) {
        probes[i] = (struct unit_probe){0};
        if (i == K) {
            CHECK_OK(ABT_task_create(pool, bodies[i], &probes[i], &units[i]));
            continue;
        }
        ABT_thread_attr attr = (i == E1 || i == E2) ? own_stack : ABT_THREAD_ATTR_NULL;
        CHECK_OK(ABT_thread_create(pool, bodies[i], &probes[i], attr, &units[i]));
    }
}

static void note_seen(void *stack)
{
    for (int i = 0; i < num_seen; i++)
        if (seen[i] == stack)
            return;
    seen[num_seen++] = stack;
}

/* The scheduler runs a round while the primary ULT waits: it yields until
 * the round is over (`by_join` 0), or joins each unit in turn, which blocks
 * it while others wait with the unit (1: when the primary's pool comes
 * first, a yield would only run the primary again). */
static void run_rounds(const char *what, ABT_pool pool, ABT_thread_attr own_stack, int by_join)
{
    num_seen = 0;
    for (int r = 0; r < ROUNDS; r++) {
        ABT_thread units[NUM_UNITS];
        create_round(pool, own_stack, units);
        while (!by_join && (probes[E1].runs == 0 || probes[L2].runs == 0 || probes[E2].runs == 0))
            CHECK_OK(ABT_thread_yield());
        for (int i = 0; i < NUM_UNITS; i++) {
            if (by_join)
                CHECK_OK(i == K ? ABT_task_join(units[i]) : ABT_thread_join(units[i]));
            if (i == K)
                CHECK_OK(ABT_task_free(&units[i]));
            else
                CHECK_OK(ABT_thread_free(&units[i]));
            if (probes[i].runs != 1)
                BB_FAIL_AT("%s, round %d: unit %d ran %d times", what, r, i, probes[i].runs);
            if (i != K && !probes[i].inside)
                BB_FAIL_AT("%s, round %d: unit %d's locals were not on its stack", what, r, i);
        }
        note_seen(probes[L1].stack);
        note_seen(probes[L3].stack);
    }
    if (num_seen > MAX_DISTINCT)
        BB_FAIL_AT("%s: lazy ULTs ran on %d distinct stacks in %d rounds", what, num_seen,
                   ROUNDS);
}

static void with_main_pools(const char *what, int num_pools, ABT_pool_access access,
                            ABT_thread_attr own_stack)
{
    ABT_xstream es;
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_self(&es));
    for (int i = 0; i < num_pools; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, access, ABT_TRUE, &pools[i]));
    CHECK_OK(ABT_xstream_set_main_sched_basic(es, ABT_SCHED_BASIC, num_pools, pools));
    /* the units go to the last pool; the primary ULT is in the first */
    run_rounds(what, pools[num_pools - 1], own_stack, num_pools > 1);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    tq_init(SC_INDEX);
    size_t default_size = 0;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE, &default_size));
    ABT_thread_attr own_stack;
    CHECK_OK(ABT_thread_attr_create(&own_stack));
    CHECK_OK(ABT_thread_attr_set_stacksize(own_stack, 2 * default_size));

    with_main_pools("a private FIFO", 1, ABT_POOL_ACCESS_PRIV, own_stack);
    with_main_pools("an MPMC FIFO", 1, ABT_POOL_ACCESS_MPMC, own_stack);
    with_main_pools("the second of two pools", 2, ABT_POOL_ACCESS_MPMC, own_stack);

    CHECK_OK(ABT_thread_attr_free(&own_stack));
    tq_collect_ult_failures();
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
