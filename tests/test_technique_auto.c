/* ABT_THREAD_TECHNIQUE=auto (bb_technique.h, bb_technique_adapt): each ES
 * starts as sc and follows the share of its ULTs that deviate, as
 * ABT_info_print_xstream shows ("technique   : <name> (chosen by auto)"
 * and "ULTs ended  : N, M of them deviated"):
 *  - on the primary ES (private pool) and on a secondary ES, rounds of
 *    ULTs that all yield once turn the ES to full; rounds of ULTs that never
 *    deviate turn it back to sc; 30% deviating ULTs, between the two
 *    thresholds, leave either choice as it is; rounds of ULTs that never
 *    deviate and are run by their joiner (the join bypass) turn it to ss
 *    (primary ES), unless many units wait in the pool meanwhile (the
 *    joiner frees a batch newest first: each would get its stack when
 *    created); rounds that the scheduler runs turn it back to sc;
 *  - the counts grow by what ran, deviated ULTs included;
 *  - under another technique the line names it, without "auto", and never
 *    changes. */
#include <string.h>
#include "bb_test.h"

#define ROUND 512 /* at least two of auto's windows of 256 ULTs */
/* Rounds enough to move auto's running averages (a sixteenth per window)
 * across a threshold from where the rounds before left them: 16 windows
 * take a share from 0 to 64%, past the 35% of deviations; 24 take the
 * units waiting from some 250 to 53 on average, below the 64 of ss. */
#define SWITCH_ROUNDS 8
#define JOINED_SWITCH_ROUNDS 12

static void body(void *arg)
{
    if (arg)
        ABT_thread_yield();
}

/* The technique line and the counts of `es`, from ABT_info_print_xstream. */
static void look(ABT_xstream es, char *name, size_t cap, int *by_auto,
                 unsigned long long *ended, unsigned long long *deviated)
{
    char buf[4096] = {0};
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
    CHECK(f != NULL);
    CHECK_OK(ABT_info_print_xstream(f, es));
    fclose(f);
    const char *t = strstr(buf, "technique   : ");
    const char *u = strstr(buf, "ULTs ended  : ");
    CHECK(t != NULL && u != NULL);
    if (!t || !u)
        return;
    t += strlen("technique   : ");
    size_t n = strcspn(t, " ;\n");
    snprintf(name, cap, "%.*s", (int)n, t);
    *by_auto = strncmp(t + n, " (chosen by auto)", 17) == 0;
    CHECK_EQ(sscanf(u, "ULTs ended  : %llu, %llu of them deviated", ended, deviated), 2);
}

/* ROUND ULTs into `pool`, `percent` of them yielding once, spread evenly;
 * the scheduler runs them all (the caller yields until they have ended)
 * before the caller frees them. */
static void run_round(ABT_pool pool, int percent)
{
    static ABT_thread ths[ROUND];
    for (int i = 0; i < ROUND; i++) {
        int y = (i + 1) * percent / 100 > i * percent / 100;
        CHECK_OK(ABT_thread_create(pool, body, y ? (void *)1 : NULL, ABT_THREAD_ATTR_NULL,
                                   &ths[i]));
    }
    for (int i = 0; i < ROUND; i++) {
        ABT_thread_state state = ABT_THREAD_STATE_READY;
        while (ABT_thread_get_state(ths[i], &state) == ABT_SUCCESS &&
               state != ABT_THREAD_STATE_TERMINATED)
            ABT_thread_yield();
    }
    for (int i = 0; i < ROUND; i++)
        CHECK_OK(ABT_thread_free(&ths[i]));
}

/* ROUND ULTs that never deviate, each joined (and so run) by the caller at
 * once: the join bypass. */
static void run_joined_round(ABT_pool pool)
{
    for (int i = 0; i < ROUND; i++) {
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_OK(ABT_thread_free(&t));
    }
}

/* BATCH ULTs that never deviate, then freed newest first: each is the
 * newest in the pool when freed, so its joiner runs it, while the older
 * ones wait (512, 256 or none when auto looks: some 250 on average). */
#define BATCH 768
static void run_joined_batch(ABT_pool pool)
{
    static ABT_thread ths[BATCH];
    for (int i = 0; i < BATCH; i++)
        CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &ths[i]));
    for (int i = BATCH - 1; i >= 0; i--)
        CHECK_OK(ABT_thread_free(&ths[i]));
}

static void expect(ABT_xstream es, const char *want, int auto_on, const char *when)
{
    char name[32] = "";
    int by_auto = -1;
    unsigned long long ended = 0, deviated = 0;
    look(es, name, sizeof(name), &by_auto, &ended, &deviated);
    if (strcmp(name, want) != 0 || by_auto != auto_on)
        BB_FAIL_AT("%s: technique %s%s, expected %s%s (%llu ULTs ended, %llu deviated)", when,
                   name, by_auto ? " (auto)" : "", want, auto_on ? " (auto)" : "", ended,
                   deviated);
}

/* The sequence of rounds on the ES that serves `pool`; with `ss`, the
 * rounds that turn it to ss and back too (on one ES only: under
 * ThreadSanitizer every ULT is a fiber, and the suite must stay quick). */
static void adapt_on(ABT_xstream es, ABT_pool pool, const char *where, int ss)
{
    char name[32];
    int by_auto;
    unsigned long long e0, d0, e1, d1;
    look(es, name, sizeof(name), &by_auto, &e0, &d0);
    expect(es, "sc", 1, where);
    run_round(pool, 0);
    expect(es, "sc", 1, where);
    for (int r = 0; r < SWITCH_ROUNDS; r++)
        run_round(pool, 100);
    expect(es, "full", 1, where);
    run_round(pool, 30); /* between the thresholds: stays */
    expect(es, "full", 1, where);
    for (int r = 0; r < SWITCH_ROUNDS; r++)
        run_round(pool, 0);
    expect(es, "sc", 1, where);
    run_round(pool, 30);
    expect(es, "sc", 1, where);
    unsigned long long rounds = 2ull * SWITCH_ROUNDS + 3;
    if (ss) {
        for (int r = 0; r < SWITCH_ROUNDS; r++)
            run_joined_batch(pool);
        expect(es, "sc", 1, where); /* run by their joiner, but many waiting */
        for (int r = 0; r < SWITCH_ROUNDS; r++)
            run_joined_round(pool);
        expect(es, "sc", 1, where); /* the average of those waiting still falls */
        for (int r = SWITCH_ROUNDS; r < JOINED_SWITCH_ROUNDS; r++)
            run_joined_round(pool);
        expect(es, "ss", 1, where); /* run by their joiner, few waiting */
        for (int r = 0; r < SWITCH_ROUNDS; r++)
            run_round(pool, 0);
        expect(es, "sc", 1, where); /* run by the scheduler */
        rounds += 2ull * SWITCH_ROUNDS + JOINED_SWITCH_ROUNDS;
    }
    look(es, name, sizeof(name), &by_auto, &e1, &d1);
    CHECK(e1 - e0 >= rounds * ROUND && d1 - d0 >= 8ull * ROUND);
}

static void on_secondary(void *arg)
{
    ABT_pool pool;
    ABT_xstream self;
    CHECK_OK(ABT_self_get_xstream(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    adapt_on(self, pool, arg, 0);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    /* ss needs the join bypass, whatever the environment says */
    unsetenv("ABT_OPT_JOIN_BYPASS");
    unsetenv("ABT_ENV_OPT_JOIN_BYPASS");
    setenv("ABT_THREAD_TECHNIQUE", "auto", 1);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es0, es1;
    ABT_pool priv, pool1;
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    CHECK_OK(ABT_xstream_set_main_sched_basic(es0, ABT_SCHED_BASIC, 1, &priv));
    adapt_on(es0, priv, "primary ES", 1);

    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool1, on_secondary, "secondary ES", ABT_THREAD_ATTR_NULL, &t));
    /* Joined through its ES: ES1 may not wake the primary ULT, which waits
     * in ES0's private pool. */
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());

    setenv("ABT_THREAD_TECHNIQUE", "roc-l", 1);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_get_main_pools(es0, 1, &priv));
    expect(es0, "roc-l", 0, "roc-l");
    for (int r = 0; r < 3; r++)
        run_round(priv, 100);
    expect(es0, "roc-l", 0, "roc-l after deviations");
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
