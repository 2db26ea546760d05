/* ULTs moved into another ES's private FIFO pool while that ES is busy wait
 * on the pool's incoming stack (only the pool's ES changes its list); the ES
 * takes them in at its next event check. They must then run in the order in
 * which they were moved, as if each had been pushed at once (a FIFO pool).
 *
 * ES 1 has a private FIFO pool and runs a ULT that spins, without yielding,
 * until told to end. Meanwhile the primary ULT moves five ULTs, one by one,
 * from a pool no scheduler serves into ES 1's pool. Then it ends the spinner:
 * the five must run as 0 1 2 3 4. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int spinning, stop_spin;
static char order[8];
static atomic_int n_ran;

static void spinner(void *arg)
{
    (void)arg;
    atomic_store(&spinning, 1);
    while (!atomic_load(&stop_spin))
        ; /* no yield: ES 1's scheduler does not look at its events meanwhile */
}

static void note(void *arg)
{
    int i = atomic_fetch_add(&n_ran, 1);
    order[i] = (char)('0' + (int)(intptr_t)arg);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    for (int round = 0; round < 3; round++) {
        ABT_pool priv, parking;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &parking));
        ABT_xstream es;
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &priv, ABT_SCHED_CONFIG_NULL, &es));
        atomic_store(&spinning, 0);
        atomic_store(&stop_spin, 0);
        atomic_store(&n_ran, 0);
        memset(order, 0, sizeof(order));
        ABT_thread spin, t[5];
        /* The spinner goes in through the same stack, alone. */
        CHECK_OK(ABT_thread_create(parking, spinner, NULL, ABT_THREAD_ATTR_NULL, &spin));
        CHECK_OK(ABT_thread_migrate_to_pool(spin, priv));
        while (!atomic_load(&spinning))
            usleep(100);
        for (int i = 0; i < 5; i++)
            CHECK_OK(ABT_thread_create(parking, note, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &t[i]));
        for (int i = 0; i < 5; i++)
            CHECK_OK(ABT_thread_migrate_to_pool(t[i], priv));
        atomic_store(&stop_spin, 1);
        for (int i = 0; i < 5; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_OK(ABT_thread_free(&spin));
        if (strcmp(order, "01234") != 0)
            fprintf(stderr, "round %d: moved as 01234, ran as %s\n", round, order);
        CHECK(strcmp(order, "01234") == 0);
        CHECK_OK(ABT_xstream_free(&es));
        CHECK_OK(ABT_pool_free(&parking));
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
