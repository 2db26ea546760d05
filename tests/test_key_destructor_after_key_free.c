/* ABT_key_free frees only the key: values already set in units stay, and
 * their destructor still runs, once, when each unit is freed (a joined ULT
 * on another ES, a tasklet, a ULT still running when the key is freed, and
 * an unnamed ULT). Freeing the key calls no destructor itself. */
#include "bb_test.h"
#include <stdatomic.h>

#define NV 4
static int vals[NV];
static atomic_int calls[NV], stray, release, set_done;
static ABT_key key;

static void dtor(void *value)
{
    int *p = value;
    if (p >= vals && p < vals + NV)
        atomic_fetch_add(&calls[p - vals], 1);
    else
        atomic_fetch_add(&stray, 1);
}

static void setter(void *arg)
{
    ABT_self_set_specific(key, arg);
    atomic_fetch_add(&set_done, 1);
}

static void setter_wait(void *arg)
{
    ABT_self_set_specific(key, arg);
    atomic_fetch_add(&set_done, 1);
    while (!atomic_load(&release))
        ABT_thread_yield();
}

static int total(void)
{
    int n = atomic_load(&stray);
    for (int i = 0; i < NV; i++)
        n += atomic_load(&calls[i]);
    return n;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(dtor, &key));
    ABT_xstream es1;
    ABT_pool pool1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));

    ABT_thread t, running;
    ABT_task k;
    CHECK_OK(ABT_thread_create(pool1, setter, &vals[0], ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_task_create(pool1, setter, &vals[1], &k));
    CHECK_OK(ABT_thread_create(pool1, setter_wait, &vals[2], ABT_THREAD_ATTR_NULL, &running));
    CHECK_OK(ABT_thread_create(pool1, setter_wait, &vals[3], ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_thread_join(t));
    CHECK_OK(ABT_task_join(k));
    while (atomic_load(&set_done) < 4)
        usleep(100);

    CHECK_OK(ABT_key_free(&key));
    CHECK(key == ABT_KEY_NULL);
    CHECK_EQ(total(), 0);

    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&calls[0]), 1);
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(atomic_load(&calls[1]), 1);
    atomic_store(&release, 1);
    CHECK_OK(ABT_thread_free(&running));
    CHECK_EQ(atomic_load(&calls[2]), 1);
    /* The unnamed one is freed by ES 1 when it ends; joining ES 1 waits. */
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_EQ(atomic_load(&calls[3]), 1);
    CHECK_OK(ABT_finalize());
    for (int i = 0; i < NV; i++)
        CHECK_EQ(atomic_load(&calls[i]), 1);
    CHECK_EQ(atomic_load(&stray), 0);
    BB_TEST_END();
}
