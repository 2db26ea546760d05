/*
 * Two automatic schedulers share an automatic pool that holds a ULT, and
 * both leave at once: their terminated ESs are freed by two threads. One
 * of them must go back to the user with the pool and the ULT (see
 * ABT_xstream_free), not both be freed with it. The schedulers' free
 * callback waits a little, so that without the fix both are inside their
 * free at once.
 *
 * Regression: each scheduler saw the other still holding the pool, both
 * were freed, and the second let go of the pool freed it with the ULT
 * (AddressSanitizer: heap-use-after-free when a new ES was given the pool).
 */
#include "bb_test.h"
#include "sched_user_util.h"
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static atomic_int in_free, go, ran;
static ABT_sched freed[2];

static void body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* Pops and runs until told to stop; never runs here (the ESs are
 * cancelled before any work arrives), but must exist. */
static int sched_free(ABT_sched sched)
{
    freed[atomic_fetch_add(&in_free, 1)] = sched;
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 200 && atomic_load(&in_free) < 2; i++)
        nanosleep(&ms, NULL);
    return ABT_SUCCESS;
}

static void *free_es(void *arg)
{
    while (!atomic_load(&go))
        ;
    CHECK_OK(ABT_xstream_free((ABT_xstream *)arg));
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = one_pool_sched_run, .free = sched_free};
    ABT_sched_config config;
    CHECK_OK(ABT_sched_config_create(&config, ABT_sched_config_automatic, 1,
                                     ABT_sched_config_var_end));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
    ABT_xstream es[2];
    ABT_sched sched[2];
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_sched_create(&def, 1, &pool, config, &sched[i]));
        CHECK_OK(ABT_xstream_create(sched[i], &es[i]));
        CHECK_OK(ABT_xstream_cancel(es[i]));
        CHECK_OK(ABT_xstream_join(es[i]));
    }
    ABT_thread ult;
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &ult));

    pthread_t threads[2];
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_create(&threads[i], NULL, free_es, &es[i]), 0);
    atomic_store(&go, 1);
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_join(threads[i], NULL), 0);

    CHECK_EQ(atomic_load(&in_free), 1); /* one scheduler went, one stayed */
    ABT_sched kept = freed[0] == sched[0] ? sched[1] : sched[0];
    CHECK_ERR(ABT_sched_free(&kept), ABT_ERR_SCHED); /* the pool still holds the ULT */

    ABT_xstream runner;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL,
                                      &runner));
    CHECK_OK(ABT_thread_free(&ult));
    CHECK_EQ(atomic_load(&ran), 1);
    CHECK_OK(ABT_xstream_free(&runner));
    CHECK_OK(ABT_sched_free(&kept)); /* the pool goes with it */
    CHECK_EQ(atomic_load(&in_free), 2);
    CHECK_OK(ABT_sched_config_free(&config));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
