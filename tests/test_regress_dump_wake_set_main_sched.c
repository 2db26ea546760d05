/* The leader of ABT_info_trigger_print_all_thread_stacks rings every other
 * ES's main scheduler (so that a sleeping one comes to its event check).
 * It read each ES's main scheduler under the table lock only, while a ULT
 * on that ES may be replacing it (ABT_xstream_set_main_sched writes it
 * under the ES's scheduler lock, and the replaced one is freed once it has
 * drained its pools): a data race, and a read of a freed scheduler if the
 * leader is slow. Here one ES keeps replacing its own main scheduler while
 * the primary ULT keeps asking for dumps. ThreadSanitizer reported the race
 * (exit code 66 under the TSan build); every build checks that each dump
 * completes and each replacement succeeds. */
#include <stdatomic.h>
#include "bb_test.h"

#define REPLACEMENTS 200

static ABT_pool pool;
static atomic_int replaced, dumps_done;

static void replacer(void *arg)
{
    (void)arg;
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    for (int i = 0; i < REPLACEMENTS; i++) {
        ABT_sched_predef kind = i % 2 ? ABT_SCHED_BASIC_WAIT : ABT_SCHED_BASIC;
        CHECK_OK(ABT_xstream_set_main_sched_basic(self, kind, 1, &pool));
        atomic_fetch_add(&replaced, 1);
    }
}

static void dumped(ABT_bool forced, void *arg)
{
    (void)forced;
    (void)arg;
    atomic_fetch_add(&dumps_done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(100);
    CHECK_OK(ABT_init(0, NULL));
    FILE *devnull = fopen("/dev/null", "w");
    CHECK(devnull != NULL);
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(sched, &es));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, replacer, NULL, ABT_THREAD_ATTR_NULL, &t));
    int asked = 0;
    while (atomic_load(&replaced) < REPLACEMENTS) {
        int before = atomic_load(&dumps_done);
        CHECK_OK(ABT_info_trigger_print_all_thread_stacks(devnull, 0.5, dumped, NULL));
        asked++;
        /* A request made while the last dump is still ending is dropped:
         * ask again after a while. Our scheduler's event check may lead. */
        double t0 = ABT_get_wtime();
        while (atomic_load(&dumps_done) == before && ABT_get_wtime() - t0 < 1.0)
            CHECK_OK(ABT_thread_yield());
    }
    CHECK(asked > 0);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&pool));
    fclose(devnull);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
