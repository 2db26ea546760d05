/* ABT_SCHED_RANDWS: two ESs, each with a RANDWS scheduler over [own pool,
 * the other's pool]. All the work (units that busy-wait ~200 us each) is
 * pushed into ES A's pool only, before the ESs start; ES B has nothing of its
 * own, so it must steal: both ESs run some units (ABT_self_get_xstream_rank),
 * and every unit runs exactly once. Done with FIFO pools and with RANDWS
 * pools. The units that run on the first ES to start one wait (up to 10 s)
 * until the other ES has run one too, so that a loaded machine, which may
 * leave one ES's thread off the CPU while the other does all the work, does
 * not fail the test; a scheduler that never steals still does. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

#define N 300

static atomic_int ran_count[N];
static atomic_int ran_on_rank[N];
static atomic_int done;
static atomic_int first_rank; /* of the first unit to run; -1 before */
static atomic_int other_ran;  /* a unit ran on another rank */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void work(void *arg)
{
    long i = (long)arg;
    int rank = -1;
    ABT_self_get_xstream_rank(&rank);
    atomic_store(&ran_on_rank[i], rank);
    int first = -1;
    if (!atomic_compare_exchange_strong(&first_rank, &first, rank) && first != rank)
        atomic_store(&other_ran, 1);
    double give_up = now() + 10.0;
    while (atomic_load(&first_rank) == rank && !atomic_load(&other_ran) && now() < give_up)
        ;
    double end = now() + 200e-6;
    while (now() < end)
        ;
    atomic_fetch_add(&ran_count[i], 1);
    atomic_fetch_add(&done, 1);
}

static void one_round(ABT_pool_kind kind)
{
    atomic_store(&done, 0);
    atomic_store(&first_rank, -1);
    atomic_store(&other_ran, 0);
    for (int i = 0; i < N; i++) {
        atomic_store(&ran_count[i], 0);
        atomic_store(&ran_on_rank[i], -1);
    }
    ABT_pool pa, pb;
    CHECK_OK(ABT_pool_create_basic(kind, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pa));
    CHECK_OK(ABT_pool_create_basic(kind, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pb));
    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(pa, work, (void *)i, ABT_THREAD_ATTR_NULL, NULL));

    ABT_pool for_a[2] = {pa, pb}, for_b[2] = {pb, pa};
    ABT_sched sa, sb;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_RANDWS, 2, for_a, ABT_SCHED_CONFIG_NULL, &sa));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_RANDWS, 2, for_b, ABT_SCHED_CONFIG_NULL, &sb));
    ABT_xstream ea, eb;
    CHECK_OK(ABT_xstream_create(sa, &ea));
    CHECK_OK(ABT_xstream_create(sb, &eb));
    int ra = -1, rb = -1;
    CHECK_OK(ABT_xstream_get_rank(ea, &ra));
    CHECK_OK(ABT_xstream_get_rank(eb, &rb));

    /* Leave the CPUs to the two ESs while they work. */
    for (int waited = 0; atomic_load(&done) < N && waited < 25000; waited++)
        usleep(1000);
    CHECK_EQ(atomic_load(&done), N);
    CHECK_OK(ABT_xstream_free(&ea));
    CHECK_OK(ABT_xstream_free(&eb));

    int on_a = 0, on_b = 0;
    for (int i = 0; i < N; i++) {
        if (atomic_load(&ran_count[i]) != 1)
            BB_FAIL_AT("kind %d: unit %d ran %d times", (int)kind, i,
                       atomic_load(&ran_count[i]));
        int r = atomic_load(&ran_on_rank[i]);
        if (r == ra)
            on_a++;
        else if (r == rb)
            on_b++;
        else
            BB_FAIL_AT("kind %d: unit %d ran on rank %d", (int)kind, i, r);
    }
    printf("kind %d: %d units on ES A, %d on ES B\n", (int)kind, on_a, on_b);
    CHECK(on_a > 0);
    CHECK(on_b > 0);
    CHECK_EQ(on_a + on_b, N);
    size_t size = 1;
    CHECK_OK(ABT_pool_get_total_size(pa, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_pool_free(&pa));
    CHECK_OK(ABT_pool_free(&pb));
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    one_round(ABT_POOL_FIFO);
    one_round(ABT_POOL_RANDWS);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
