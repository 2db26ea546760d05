/* Each ULT has its own floating-point control state: a ULT that sets
 * FE_UPWARD keeps it across yields (and the arithmetic rounds up), while
 * another ULT interleaved on the same ES keeps FE_TONEAREST, and the primary
 * ULT is unaffected. Checked through fegetround, the SSE MXCSR rounding bits
 * and the x87 control word, on the primary ES and on a secondary ES. */
#include <fenv.h>
#include <xmmintrin.h>
#include "bb_test.h"

#define ROUNDS 20

static int bad_up, bad_near;

static unsigned sse_rc(void)
{
    return (_mm_getcsr() >> 13) & 3u; /* 0 nearest, 2 up */
}

static unsigned x87_rc(void)
{
    unsigned short cw = 0; /* MemorySanitizer does not see an asm "=m" output written */
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    return (cw >> 10) & 3u;
}

/* 1/3 in double precision and 1/7 in x87 extended precision both round
 * down under FE_TONEAREST, so FE_UPWARD gives a larger value. noinline keeps
 * the compiler (which assumes the default rounding mode) from moving or
 * folding the divisions. */
__attribute__((noinline)) static double third(void)
{
    volatile double one = 1.0, three = 3.0;
    return one / three;
}

__attribute__((noinline)) static long double third_x87(void)
{
    volatile long double one = 1.0L, seven = 7.0L;
    return one / seven;
}

static double ref_near, ref_up;
static long double ref_near_x87, ref_up_x87;

static void up_ult(void *arg)
{
    (void)arg;
    fesetround(FE_UPWARD);
    for (int i = 0; i < ROUNDS; i++) {
        ABT_thread_yield();
        if (fegetround() != FE_UPWARD || sse_rc() != 2u || x87_rc() != 2u ||
            third() != ref_up || third_x87() != ref_up_x87)
            __atomic_fetch_add(&bad_up, 1, __ATOMIC_RELAXED);
    }
    fesetround(FE_TONEAREST);
}

static void near_ult(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        ABT_thread_yield();
        if (fegetround() != FE_TONEAREST || sse_rc() != 0u || x87_rc() != 0u ||
            third() != ref_near || third_x87() != ref_near_x87)
            __atomic_fetch_add(&bad_near, 1, __ATOMIC_RELAXED);
    }
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ref_near = third();
    ref_near_x87 = third_x87();
    fesetround(FE_UPWARD);
    ref_up = third();
    ref_up_x87 = third_x87();
    fesetround(FE_TONEAREST);
    if (ref_up == ref_near && ref_up_x87 == ref_near_x87) {
        /* valgrind, for one, computes in round-to-nearest whatever the mode */
        printf("SKIP: rounding modes have no effect here (an emulator?)\n");
        return 77;
    }
    CHECK(ref_up > ref_near);
    CHECK(ref_up_x87 > ref_near_x87);

    ABT_xstream self_es, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    ABT_thread t[6];
    CHECK_OK(ABT_thread_create(pool0, up_ult, NULL, ABT_THREAD_ATTR_NULL, &t[0]));
    CHECK_OK(ABT_thread_create(pool0, near_ult, NULL, ABT_THREAD_ATTR_NULL, &t[1]));
    CHECK_OK(ABT_thread_create(pool1, near_ult, NULL, ABT_THREAD_ATTR_NULL, &t[2]));
    CHECK_OK(ABT_thread_create(pool1, up_ult, NULL, ABT_THREAD_ATTR_NULL, &t[3]));
    CHECK_OK(ABT_thread_create(pool1, near_ult, NULL, ABT_THREAD_ATTR_NULL, &t[4]));
    CHECK_OK(ABT_thread_create(pool1, up_ult, NULL, ABT_THREAD_ATTR_NULL, &t[5]));
    /* Yield alongside them on the primary ES, checking our own mode. */
    int bad_main = 0;
    for (int i = 0; i < ROUNDS + 2; i++) {
        ABT_thread_yield();
        if (fegetround() != FE_TONEAREST || sse_rc() != 0u || x87_rc() != 0u ||
            third() != ref_near)
            bad_main++;
    }
    for (int i = 0; i < 6; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(bad_main, 0);
    CHECK_EQ(bad_up, 0);
    CHECK_EQ(bad_near, 0);
    CHECK_EQ(fegetround(), FE_TONEAREST);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
