/* A ULT that ends by ABT_thread_exit, ABT_self_exit or ABT_self_exit_to
 * counts among the ULTs its ES ended, and among those that deviated: it
 * leaves by a switch, never by a return, which is what auto weighs
 * (bb_technique_adapt). Those exits used to go uncounted, so an ES whose
 * ULTs exit early looked to auto as if they did not deviate.
 * ABT_info_print_xstream shows the counts ("ULTs ended  : N, M of them
 * deviated"). */
#include <string.h>
#include "bb_test.h"

#define N 100

static ABT_thread targets[N];
static ABT_pool side; /* where the targets of exit_to wait: no scheduler pops it */

static void exit_thread(void *arg)
{
    (void)arg;
    ABT_thread_exit();
}

static void exit_self(void *arg)
{
    (void)arg;
    ABT_self_exit();
}

static void plain(void *arg)
{
    (void)arg;
}

/* Ends by handing its ES to a ULT that has not started, which it takes out
 * of its pool first, as the call requires. */
static void exit_to(void *arg)
{
    (void)arg;
    ABT_thread target = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(side, &target));
    CHECK(target != ABT_THREAD_NULL);
    CHECK_OK(ABT_self_exit_to(target));
}

static void counts(ABT_xstream es, unsigned long long *ended, unsigned long long *deviated)
{
    char buf[4096] = {0};
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
    CHECK(f != NULL);
    CHECK_OK(ABT_info_print_xstream(f, es));
    fclose(f);
    const char *u = strstr(buf, "ULTs ended  : ");
    CHECK(u != NULL);
    *ended = *deviated = 0;
    if (u)
        CHECK_EQ(sscanf(u, "ULTs ended  : %llu, %llu of them deviated", ended, deviated), 2);
}

/* Runs `n` ULTs of `fn` (argument: their index) in `pool` to their end. */
static void run(ABT_pool pool, void (*fn)(void *), int n, ABT_thread *out)
{
    for (long i = 0; i < n; i++)
        CHECK_OK(ABT_thread_create(pool, fn, (void *)i, ABT_THREAD_ATTR_NULL, &out[i]));
}

static void free_all(ABT_thread *ths, int n)
{
    for (int i = 0; i < n; i++)
        CHECK_OK(ABT_thread_free(&ths[i]));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    static ABT_thread ths[N];
    unsigned long long ended0, deviated0, ended, deviated;

    void (*exits[])(void *) = {exit_thread, exit_self};
    for (int k = 0; k < 2; k++) {
        counts(self, &ended0, &deviated0);
        run(pool, exits[k], N, ths);
        free_all(ths, N); /* the joins run them */
        counts(self, &ended, &deviated);
        CHECK_EQ(ended - ended0, (unsigned long long)N);
        CHECK_EQ(deviated - deviated0, (unsigned long long)N);
    }

    /* N exit_to ULTs, each handing over to a plain ULT that then returns:
     * 2N ended, N deviated. */
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &side));
    counts(self, &ended0, &deviated0);
    run(side, plain, N, targets);
    run(pool, exit_to, N, ths);
    free_all(ths, N);
    free_all(targets, N);
    counts(self, &ended, &deviated);
    CHECK_EQ(ended - ended0, 2ull * N);
    CHECK_EQ(deviated - deviated0, (unsigned long long)N);
    CHECK_OK(ABT_pool_free(&side));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
