/* 10,000 unnamed ULTs (newthread == NULL) spread over three ESs all run and
 * are freed by the runtime on their own; each one sees itself as unnamed.
 * Unnamed ULTs that yield once are reclaimed too. */
#include "bb_test.h"

#define NUM_ES 3
#define NUM_ULTS 10000

static int done;
static int named_seen;

static void body(void *arg)
{
    ABT_bool unnamed = ABT_FALSE;
    if (ABT_self_is_unnamed(&unnamed) != ABT_SUCCESS || unnamed != ABT_TRUE)
        __atomic_fetch_add(&named_seen, 1, __ATOMIC_RELAXED);
    if ((intptr_t)arg & 1)
        ABT_thread_yield();
    __atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(30);
    ABT_xstream xs[NUM_ES];
    ABT_pool pools[NUM_ES];
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&xs[0]));
    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &xs[i]));
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));

    int failures = 0;
    for (int i = 0; i < NUM_ULTS; i++)
        if (ABT_thread_create(pools[i % NUM_ES], body, (void *)(intptr_t)i,
                              ABT_THREAD_ATTR_NULL, NULL) != ABT_SUCCESS)
            failures++;
    CHECK_EQ(failures, 0);
    /* Let the primary ES run its share while waiting. */
    while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < NUM_ULTS)
        ABT_thread_yield();
    CHECK_EQ(done, NUM_ULTS);
    CHECK_EQ(named_seen, 0);

    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_free(&xs[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
