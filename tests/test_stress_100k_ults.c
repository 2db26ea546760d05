/* 100,000 ULTs with 16 KiB stacks alive at the same time on one ES: all are
 * created before any is joined, every one of them starts and waits (yielding)
 * until all have started, so all stacks are in use at once. This has to work
 * under the default vm.max_map_count (65530). */
#include "bb_test.h"

#define N_MAX 100000
static long N; /* N_MAX, or fewer under TSan/valgrind (bb_test.h) */

static int started, finished;
static unsigned char touched[N_MAX];

static void body(void *arg)
{
    long i = (long)arg;
    volatile char local[2048]; /* touch some of our own stack */
    local[0] = (char)i;
    local[sizeof(local) - 1] = (char)i;
    started++;
    while (started < N)
        ABT_thread_yield();
    touched[i] = (unsigned char)(local[0] == (char)i && local[sizeof(local) - 1] == (char)i);
    finished++;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    N = BB_TEST_SIZE(N_MAX, 6000);
    unsetenv("ABT_THREAD_STACKSIZE");
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pool));
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 16384));

    ABT_thread *t = malloc(sizeof(ABT_thread) * N);
    CHECK(t != NULL);
    if (!t)
        BB_TEST_END();
    int created = 0;
    for (long i = 0; i < N; i++) {
        int ret = ABT_thread_create(pool, body, (void *)i, attr, &t[i]);
        if (ret != ABT_SUCCESS) {
            CHECK_OK(ret);
            break;
        }
        created++;
    }
    CHECK_EQ(created, N);
    size_t ss = 0;
    CHECK_OK(ABT_thread_get_stacksize(t[0], &ss));
    CHECK_EQ(ss, 16384);
    CHECK_OK(ABT_thread_get_stacksize(t[N - 1], &ss));
    CHECK_EQ(ss, 16384);
    CHECK_EQ(started, 0);

    for (int i = 0; i < created; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(started, N);
    CHECK_EQ(finished, N);
    int good = 0;
    for (int i = 0; i < N; i++)
        good += touched[i];
    CHECK_EQ(good, N);
    free(t);
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
