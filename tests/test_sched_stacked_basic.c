/* ABT_pool_add_sched of a predefined BASIC scheduler into the main pool of a
 * secondary ES: every unit of the stacked scheduler's pool runs on that ES,
 * associated with the stacked pool; once its pool is drained the stacked
 * scheduler stops by itself and, being automatic (the create_basic default),
 * is freed, which releases its pool (ABT_pool_free then succeeds). While it
 * is stacked: a second add_sched, a new ES with it -> ABT_ERR_INV_SCHED,
 * ABT_sched_free -> ABT_ERR_SCHED. With ABT_sched_config_automatic = 0 it
 * survives its stop and can be added again, and ABT_sched_free works once it
 * stopped. Errors: NULL pool -> INV_POOL, NULL sched -> INV_SCHED. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

#define N 30

static atomic_int gate, done;
static ABT_xstream ran_xs[2 * N];
static ABT_pool ran_pool[2 * N];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int wait_done(int value)
{
    double end = now() + 3.0;
    while (atomic_load(&done) < value && now() < end)
        usleep(500);
    return atomic_load(&done) == value;
}

static void work(void *arg)
{
    long i = (long)arg;
    while (!atomic_load(&gate))
        ABT_thread_yield();
    ABT_thread_yield();
    ABT_self_get_xstream(&ran_xs[i]);
    ABT_self_get_last_pool(&ran_pool[i]);
    atomic_fetch_add(&done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool mp;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &mp));

    /* Automatic. */
    ABT_pool q;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q));
    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(q, work, (void *)i, ABT_THREAD_ATTR_NULL, NULL));
    ABT_sched s;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &q, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_ERR(ABT_pool_add_sched(ABT_POOL_NULL, s), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_add_sched(mp, ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    CHECK_OK(ABT_pool_add_sched(mp, s));
    /* The units wait for the gate: the scheduler is still stacked. */
    CHECK_ERR(ABT_pool_add_sched(mp, s), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_pool_add_sched(q, s), ABT_ERR_INV_SCHED);
    ABT_xstream es2 = ABT_XSTREAM_NULL;
    CHECK_ERR(ABT_xstream_create(s, &es2), ABT_ERR_INV_SCHED);
    ABT_sched h = s;
    CHECK_ERR(ABT_sched_free(&h), ABT_ERR_SCHED);
    CHECK(h == s);
    ABT_pool hq = q;
    CHECK_ERR(ABT_pool_free(&hq), ABT_ERR_POOL);
    atomic_store(&gate, 1);
    CHECK(wait_done(N));
    for (int i = 0; i < N; i++) {
        CHECK(ran_xs[i] == es);
        CHECK(ran_pool[i] == q);
    }
    /* It stops by itself and is freed: q is let go. */
    double end = now() + 3.0;
    int ret;
    while ((ret = ABT_pool_free(&hq)) != ABT_SUCCESS && now() < end) {
        if (ret != ABT_ERR_POOL) {
            CHECK_EQ(ret, ABT_ERR_POOL);
            break;
        }
        usleep(500);
    }
    CHECK_EQ(ret, ABT_SUCCESS);
    CHECK(hq == ABT_POOL_NULL);
    size_t size = 1;
    end = now() + 3.0;
    do {
        CHECK_OK(ABT_pool_get_total_size(mp, &size));
    } while (size != 0 && now() < end);
    CHECK_EQ(size, 0);

    /* Not automatic: can be added again after it stopped. */
    atomic_store(&done, 0);
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 0,
                                     ABT_sched_config_var_end));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &q, cfg, &s));
    CHECK_OK(ABT_sched_config_free(&cfg));
    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(q, work, (void *)i, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_pool_add_sched(mp, s));
    CHECK(wait_done(N));
    /* A second batch, then add it again as soon as it has stopped. */
    for (long i = N; i < 2 * N; i++)
        CHECK_OK(ABT_thread_create(q, work, (void *)i, ABT_THREAD_ATTR_NULL, NULL));
    end = now() + 3.0;
    while ((ret = ABT_pool_add_sched(mp, s)) != ABT_SUCCESS && now() < end) {
        if (ret != ABT_ERR_INV_SCHED) {
            CHECK_EQ(ret, ABT_ERR_INV_SCHED);
            break;
        }
        usleep(200);
    }
    CHECK_EQ(ret, ABT_SUCCESS);
    CHECK(wait_done(2 * N));
    for (int i = 0; i < 2 * N; i++) {
        CHECK(ran_xs[i] == es);
        CHECK(ran_pool[i] == q);
    }
    /* Once it has stopped again, the user frees it. */
    h = s;
    end = now() + 3.0;
    while ((ret = ABT_sched_free(&h)) != ABT_SUCCESS && now() < end) {
        if (ret != ABT_ERR_SCHED) {
            CHECK_EQ(ret, ABT_ERR_SCHED);
            break;
        }
        usleep(200);
    }
    CHECK_EQ(ret, ABT_SUCCESS);
    CHECK(h == ABT_SCHED_NULL);
    CHECK_OK(ABT_pool_free(&q));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
