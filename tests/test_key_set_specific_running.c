/* ABT_thread_set_specific may target a unit that is running on another ES
 * at the same time as that unit sets its own keys: no value is lost and
 * nothing breaks while both sides make the unit's key storage grow. Keys
 * are created alternately for the ULT (which sets them with
 * ABT_self_set_specific) and for the primary ULT (which sets them on the ULT
 * with ABT_thread_set_specific); after each round every value reads back,
 * both through the handle and inside the ULT. 200 rounds with fresh keys. */
#include "bb_test.h"
#include <stdatomic.h>

#define NK 32
#define ROUNDS 200

static ABT_key own[NK], other[NK];
static int own_vals[NK], other_vals[NK];
static atomic_int go, others_done, bad_inside;

static void worker(void *arg)
{
    (void)arg;
    atomic_store(&go, 1);
    for (int i = 0; i < NK; i++)
        ABT_self_set_specific(own[i], &own_vals[i]);
    while (!atomic_load(&others_done))
        ABT_thread_yield();
    for (int i = 0; i < NK; i++) {
        void *v = NULL;
        ABT_self_get_specific(own[i], &v);
        if (v != &own_vals[i])
            atomic_fetch_add(&bad_inside, 1);
        ABT_self_get_specific(other[i], &v);
        if (v != &other_vals[i])
            atomic_fetch_add(&bad_inside, 1);
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    int lost = 0;
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < NK; i++) {
            CHECK_OK(ABT_key_create(NULL, &own[i]));
            CHECK_OK(ABT_key_create(NULL, &other[i]));
        }
        atomic_store(&go, 0);
        atomic_store(&others_done, 0);
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool, worker, NULL, ABT_THREAD_ATTR_NULL, &t));
        while (!atomic_load(&go))
            ;
        for (int i = 0; i < NK; i++)
            CHECK_OK(ABT_thread_set_specific(t, other[i], &other_vals[i]));
        atomic_store(&others_done, 1);
        CHECK_OK(ABT_thread_join(t));
        for (int i = 0; i < NK; i++) {
            void *v = NULL;
            CHECK_OK(ABT_thread_get_specific(t, own[i], &v));
            lost += v != &own_vals[i];
            CHECK_OK(ABT_thread_get_specific(t, other[i], &v));
            lost += v != &other_vals[i];
        }
        CHECK_OK(ABT_thread_free(&t));
        for (int i = 0; i < NK; i++) {
            CHECK_OK(ABT_key_free(&own[i]));
            CHECK_OK(ABT_key_free(&other[i]));
        }
    }
    CHECK_EQ(lost, 0);
    CHECK_EQ(atomic_load(&bad_inside), 0);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
