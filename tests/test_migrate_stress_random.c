/* Many migrations under load: the primary ES and 2 secondary ESs, 1000 ULTs
 * that each yield in a loop (until the primary says stop), while the primary
 * ULT migrates random ones to random pools among the three ESs' main pools
 * 20000 times (yielding now and then so that ES 0 runs its share). Every
 * migration call returns SUCCESS or MIGRATION_TARGET (already there); every
 * ULT completes exactly once; the callbacks see the right thread and argument
 * and a target among the three pools; there are callbacks, never more than
 * successful calls; the ULTs really moved (each saw more than one ES). */
#include "bb_test.h"
#include <stdatomic.h>

#define N_MAX 1000
static int N; /* N_MAX, or fewer under TSan/valgrind (bb_test.h) */
#define YIELDS 40
#define MIGRATIONS BB_TEST_SIZE(20000, 1000)

static ABT_thread threads[N_MAX];
static ABT_pool pools[3];
static atomic_int finished[N_MAX];
static atomic_int cb_count[N_MAX];
static atomic_int cb_total, cb_bad;
static atomic_int done;

static void cb(ABT_thread thread, void *arg)
{
    long i = (long)arg;
    if (i < 0 || i >= N || thread != threads[i]) {
        atomic_fetch_add(&cb_bad, 1);
        return;
    }
    ABT_pool p = ABT_POOL_NULL;
    ABT_thread_get_last_pool(thread, &p);
    if (p != pools[0] && p != pools[1] && p != pools[2])
        atomic_fetch_add(&cb_bad, 1);
    atomic_fetch_add(&cb_count[i], 1);
    atomic_fetch_add(&cb_total, 1);
}

static atomic_int stop;
static atomic_int ranks_seen[N_MAX];

static void worker(void *arg)
{
    long i = (long)arg;
    for (int k = 0; k < YIELDS || !atomic_load(&stop); k++) {
        int rank = 0;
        ABT_self_get_xstream_rank(&rank);
        atomic_fetch_or(&ranks_seen[i], 1 << rank);
        ABT_thread_yield();
    }
    atomic_fetch_add(&finished[i], 1);
    atomic_fetch_add(&done, 1);
}

static unsigned long long rng = 88172645463325252ull;

static unsigned next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    N = BB_TEST_SIZE(N_MAX, 200);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es[2];
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pools[0]));
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pools[i + 1]));
    }

    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 16384));
    for (long i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_create(pools[i % 3], worker, (void *)i, attr, &threads[i]));
        CHECK_OK(ABT_thread_set_callback(threads[i], cb, (void *)i));
    }
    CHECK_OK(ABT_thread_attr_free(&attr));

    long ok = 0, target = 0, terminated = 0, other = 0;
    for (int k = 0; k < MIGRATIONS; k++) {
        unsigned r = next_random();
        int i = (int)(r % N);
        int ret = ABT_thread_migrate_to_pool(threads[i], pools[(r / N) % 3]);
        if (ret == ABT_SUCCESS)
            ok++;
        else if (ret == ABT_ERR_MIGRATION_TARGET)
            target++;
        else if (ret == ABT_ERR_INV_THREAD)
            terminated++;
        else {
            other++;
            if (other < 5)
                fprintf(stderr, "migrate #%d of ULT %d returned %d\n", k, i, ret);
        }
        if (k % 16 == 0)
            ABT_thread_yield();
    }
    CHECK_EQ(other, 0);
    CHECK_EQ(terminated, 0);
    CHECK_EQ(atomic_load(&done), 0);
    atomic_store(&stop, 1);

    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&threads[i]));
    CHECK_EQ(atomic_load(&done), N);
    int not_once = 0;
    long sum = 0;
    for (int i = 0; i < N; i++) {
        if (atomic_load(&finished[i]) != 1)
            not_once++;
        sum += atomic_load(&cb_count[i]);
    }
    CHECK_EQ(not_once, 0);
    int moved = 0;
    for (int i = 0; i < N; i++) {
        int seen = atomic_load(&ranks_seen[i]);
        if (seen & (seen - 1))
            moved++;
    }
    CHECK(moved > N / 2);
    CHECK_EQ(atomic_load(&cb_bad), 0);
    CHECK_EQ(sum, atomic_load(&cb_total));
    CHECK(atomic_load(&cb_total) > 0);
    CHECK(atomic_load(&cb_total) <= ok);
    printf("migrations: %ld ok, %ld already there; %d callbacks; %d ULTs saw 2+ ESs\n", ok,
           target, atomic_load(&cb_total), moved);

    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
