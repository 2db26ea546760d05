/* The stack of a ULT is 16-byte aligned at every call, as the x86-64 System V
 * ABI requires: checked on first entry, after yields, after a migration to
 * another ES, in ULTs started by create_to / revive / self_schedule, and in
 * tasklets, by (a) the frame address of a non-inlined function and (b) the
 * address of a 16-byte-aligned local, both passed through a function the
 * compiler cannot see through, and by (c) aligned SSE loads/stores
 * (movapd), which fault on a misaligned address. */
#include <emmintrin.h>
#include "bb_test.h"

static int misaligned;
static int sse_bad;
static int checks;

__attribute__((noinline)) static void observe(uintptr_t a, uintptr_t frame)
{
    __atomic_fetch_add(&checks, 1, __ATOMIC_RELAXED);
    if ((a & 15) != 0 || (frame & 15) != 0)
        __atomic_fetch_add(&misaligned, 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static double sse_work(double x)
{
    __attribute__((aligned(16))) double v[2] = {x, x * 2.0};
    __attribute__((aligned(16))) double w[2];
    __m128d a = _mm_load_pd(v); /* movapd: faults if v is misaligned */
    __m128d b = _mm_add_pd(a, a);
    _mm_store_pd(w, b);
    observe((uintptr_t)v, (uintptr_t)__builtin_frame_address(0));
    return w[0] + w[1];
}

static void probe(void)
{
    double r = sse_work(1.5);
    if (r != 9.0)
        __atomic_fetch_add(&sse_bad, 1, __ATOMIC_RELAXED);
}

static ABT_pool pools[2];

static void body(void *arg)
{
    int migrate = (int)(intptr_t)arg;
    probe();
    for (int i = 0; i < 3; i++) {
        ABT_thread_yield();
        probe();
    }
    if (migrate) {
        ABT_self_set_associated_pool(pools[1]);
        ABT_thread_yield();
        probe();
    }
}

static void task_body(void *arg)
{
    (void)arg;
    probe();
}

static void spawner(void *arg)
{
    (void)arg;
    probe();
    ABT_thread child;
    ABT_thread_create_to(pools[0], body, NULL, ABT_THREAD_ATTR_NULL, &child);
    probe();
    ABT_thread_join(child);
    ABT_thread_revive(pools[0], body, (void *)(intptr_t)1, &child);
    ABT_thread_join(child);
    ABT_thread_free(&child);

    ABT_pool side;
    ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &side);
    ABT_thread c2;
    ABT_thread_create(side, body, NULL, ABT_THREAD_ATTR_NULL, &c2);
    ABT_unit u;
    ABT_pool_pop(side, &u);
    ABT_self_schedule(c2, pools[0]);
    probe();
    ABT_thread_join(c2);
    ABT_thread_free(&c2);
    ABT_pool_free(&side);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es1, es2;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es2));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pools[0]));
    CHECK_OK(ABT_xstream_get_main_pools(es2, 1, &pools[1]));

    probe(); /* sanity on the primary ULT */
    ABT_thread t[6];
    for (int i = 0; i < 4; i++)
        CHECK_OK(ABT_thread_create(pools[i & 1], body, (void *)(intptr_t)(i < 2),
                                   ABT_THREAD_ATTR_NULL, &t[i]));
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 40000)); /* not a multiple of 16 */
    CHECK_OK(ABT_thread_create(pools[0], body, NULL, attr, &t[4]));
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_thread_create(pools[0], spawner, NULL, ABT_THREAD_ATTR_NULL, &t[5]));
    ABT_task tk[2];
    CHECK_OK(ABT_task_create(pools[0], task_body, NULL, &tk[0]));
    CHECK_OK(ABT_task_create(pools[1], task_body, NULL, &tk[1]));
    for (int i = 0; i < 6; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_task_free(&tk[0]));
    CHECK_OK(ABT_task_free(&tk[1]));

    CHECK(checks > 40);
    CHECK_EQ(misaligned, 0);
    CHECK_EQ(sse_bad, 0);

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
