/* ABT_thread_create_on_xstream and ABT_task_create_on_xstream push into the
 * first pool of the ES's main scheduler while a ULT on that ES replaces
 * its main scheduler over and over. The replaced scheduler retires once
 * nobody pins it and its pools are drained, and its automatic pool goes
 * with it. A create must therefore hold the pin until its push is done:
 * it used to drop it right after reading the pool, and pushed into a pool
 * freed meanwhile (AddressSanitizer: heap-use-after-free in
 * bb_unit_create; in a plain build a unit could be lost). Every unit
 * created must run. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "bb_test.h"

static ABT_xstream es;
static atomic_long created, ran;
static atomic_int stop;

static void count_run(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

static void replace_main_sched(void *arg)
{
    int rounds = *(int *)arg;
    for (int i = 0; i < rounds; i++)
        CHECK_OK(ABT_xstream_set_main_sched_basic(es, ABT_SCHED_DEFAULT, 0, NULL));
    atomic_store(&stop, 1);
}

/* An external thread, creating ULTs and tasklets on `es` with at most 64
 * waiting at a time. */
static void *create_on_es(void *arg)
{
    (void)arg;
    for (long i = 0; !atomic_load(&stop); i++) {
        if (atomic_load(&created) - atomic_load(&ran) > 64) {
            sched_yield();
            continue;
        }
        int err = i % 2 ? ABT_thread_create_on_xstream(es, count_run, NULL,
                                                       ABT_THREAD_ATTR_NULL, NULL)
                        : ABT_task_create_on_xstream(es, count_run, NULL, NULL);
        CHECK_OK(err);
        if (err == ABT_SUCCESS)
            atomic_fetch_add(&created, 1);
    }
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    int rounds = BB_TEST_SIZE(2000, 200);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    pthread_t creator;
    CHECK_EQ(pthread_create(&creator, NULL, create_on_es, NULL), 0);
    ABT_thread replacer;
    CHECK_OK(ABT_thread_create_on_xstream(es, replace_main_sched, &rounds, ABT_THREAD_ATTR_NULL,
                                          &replacer));
    CHECK_OK(ABT_thread_free(&replacer));
    CHECK_EQ(pthread_join(creator, NULL), 0);
    CHECK_OK(ABT_xstream_free(&es)); /* runs what is left */
    CHECK_EQ(atomic_load(&ran), atomic_load(&created));
    printf("%ld units created\n", (long)atomic_load(&created));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
