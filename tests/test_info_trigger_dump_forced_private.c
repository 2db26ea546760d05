/* A stack dump that times out must not walk a private pool whose ES keeps
 * running (found by a stress audit: ThreadSanitizer saw the dump walk the
 * pool's list while its ES popped from it, in every run). ES 1's scheduler
 * checks its events only every 2^30 rounds, so it never stops for a dump,
 * and pops its private pool, where 32 ULTs keep yielding; the primary ULT
 * triggers dumps with a 1 ms timeout. Each dump is forced, its callback
 * says so, and it names the private pool it did not print. */
#include "bb_test.h"
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#define N 32

static atomic_int stop, callbacks, forced;

static void spinner(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop))
        CHECK_OK(ABT_thread_yield());
}

static void on_dump(ABT_bool was_forced, void *arg)
{
    (void)arg;
    atomic_fetch_add(&callbacks, 1);
    atomic_fetch_add(&forced, was_forced == ABT_TRUE);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pool));
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_basic_freq, 1 << 30,
                                     ABT_sched_config_var_end));
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, cfg, &sched));
    CHECK_OK(ABT_sched_config_free(&cfg));
    ABT_thread ts[N];
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(pool, spinner, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create(sched, &es1));

    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    CHECK(out != NULL);
    int triggers = BB_TEST_SIZE(50, 10);
    for (int i = 0; i < triggers; i++) {
        int before = atomic_load(&callbacks);
        CHECK_OK(ABT_info_trigger_print_all_thread_stacks(out, 0.001, on_dump, NULL));
        while (atomic_load(&callbacks) == before)
            CHECK_OK(ABT_thread_yield()); /* the primary ES leads at its next check */
        usleep(1000);
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&ts[i]));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    fclose(out);
    CHECK_EQ(atomic_load(&callbacks), triggers);
    CHECK_EQ(atomic_load(&forced), triggers);
    CHECK(strstr(text, "private, its ES did not stop: not printed") != NULL);
    free(text);
    BB_TEST_END();
}
