/* What ABT_thread_yield and ABT_thread_yield_to return to a ULT that is
 * resumed after a direct switch (src/unit/hotpath.c). Such a yield ends by
 * a tail call of the context swap, so the value the ULT gets back is the one
 * the switch that resumes it leaves: it must be ABT_SUCCESS whichever way
 * the ULT comes back (another ULT's direct yield or yield_to, the scheduler,
 * a ULT that ends). Three ULTs of a private FIFO pool yield to each other in
 * every way, K times each, on the default and a small event frequency (so
 * that some yields go through the scheduler). Every result is checked. */
#include "bb_test.h"

#define N 3
#define K 200

static ABT_thread ults[N];
static int bad_yield, bad_yield_to, calls, looping;

static void yield_checked(int id, int k)
{
    int err = ABT_thread_yield();
    if (err != ABT_SUCCESS && bad_yield++ == 0)
        fprintf(stderr, "ULT %d: ABT_thread_yield returned %d at round %d\n", id, err, k);
}

static void ult(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int k = 0; k < K; k++) {
        calls++;
        yield_checked(id, k);
        if (k % 3 == id)
            continue;
        int err = ABT_thread_yield_to(ults[(id + 1 + k % 2) % N]);
        if (err != ABT_SUCCESS && bad_yield_to++ == 0)
            fprintf(stderr, "ULT %d: ABT_thread_yield_to returned %d at round %d\n", id, err,
                    k);
    }
    looping--; /* the others may still yield to this one: it stays until they are done */
    while (looping > 0)
        yield_checked(id, K);
}

static void run(ABT_sched_config config)
{
    ABT_pool pool;
    ABT_sched sched;
    ABT_xstream es;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pool));
    bad_yield = bad_yield_to = calls = 0;
    looping = N;
    for (int i = 0; i < N; i++) /* all handles known before any runs */
        CHECK_OK(ABT_thread_create(pool, ult, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL,
                                   &ults[i]));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, config, &sched));
    CHECK_OK(ABT_xstream_create(sched, &es));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&ults[i]));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(calls, N * K);
    CHECK_EQ(bad_yield, 0);
    CHECK_EQ(bad_yield_to, 0);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    run(ABT_SCHED_CONFIG_NULL);
    ABT_sched_config config;
    CHECK_OK(ABT_sched_config_create(&config, ABT_sched_basic_freq, 2, ABT_sched_config_var_end));
    run(config);
    CHECK_OK(ABT_sched_config_free(&config));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
