/* ABT_thread_migrate (deprecated: "migrate to some other ES"):
 *  - with only the primary ES: ABT_ERR_MIGRATION_NA for a ULT waiting in the
 *    primary's pool (nothing moves); a ULT waiting in a pool nobody serves
 *    has somewhere to go, the primary ES, and runs there;
 *  - with 2 secondary ESs: a ULT looping on yields is migrated ten times in a
 *    row; each time it ends up running on an ES other than the one it was on
 *    (bobbin implements the documented intent, not the inverted 1.2 test);
 *  - once both secondary ESs are joined (terminated, not freed), a ULT in the
 *    primary's pool has no other running ES again: ABT_ERR_MIGRATION_NA. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int hop_rank = -1, hop_iters, hop_stop;

static void hopper(void *arg)
{
    (void)arg;
    while (!atomic_load(&hop_stop)) {
        int rank = -1;
        ABT_self_get_xstream_rank(&rank);
        atomic_store(&hop_rank, rank);
        atomic_fetch_add(&hop_iters, 1);
        ABT_thread_yield();
    }
}

static atomic_int plain_runs;

static void plain(void *arg)
{
    (void)arg;
    atomic_fetch_add(&plain_runs, 1);
}

/* Wait (yielding, so that ES 0 can run it too) until the hopper has run a few
 * rounds on an ES other than `old`. */
static int wait_moved_from(int old)
{
    for (int i = 0; i < 5000; i++) {
        int r = atomic_load(&hop_rank);
        if (r != old) {
            int it = atomic_load(&hop_iters);
            while (atomic_load(&hop_iters) < it + 2)
                ABT_thread_yield();
            return atomic_load(&hop_rank);
        }
        ABT_thread_yield();
        usleep(1000);
    }
    return old;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool, idle;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));

    /* Only the primary ES. */
    ABT_thread p, q;
    CHECK_OK(ABT_thread_create(main_pool, plain, NULL, ABT_THREAD_ATTR_NULL, &p));
    CHECK_OK(ABT_thread_create(idle, plain, NULL, ABT_THREAD_ATTR_NULL, &q));
    CHECK_ERR(ABT_thread_migrate(p), ABT_ERR_MIGRATION_NA);
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(p, &last));
    CHECK(last == main_pool);
    CHECK_OK(ABT_thread_migrate(q));
    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(idle, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_thread_get_last_pool(q, &last));
    CHECK(last == main_pool);
    CHECK_OK(ABT_thread_free(&p));
    CHECK_OK(ABT_thread_free(&q));
    CHECK_EQ(atomic_load(&plain_runs), 2);

    /* Two secondary ESs. */
    ABT_xstream es[2];
    ABT_pool pools[3] = {main_pool};
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pools[i + 1]));
    }
    ABT_thread h;
    CHECK_OK(ABT_thread_create(main_pool, hopper, NULL, ABT_THREAD_ATTR_NULL, &h));
    while (atomic_load(&hop_iters) < 2)
        ABT_thread_yield();
    int where = atomic_load(&hop_rank);
    CHECK_EQ(where, 0);
    int visited[3] = {1, 0, 0};
    for (int i = 0; i < 10; i++) {
        CHECK_OK(ABT_thread_migrate(h));
        int now = wait_moved_from(where);
        CHECK_NE(now, where);
        CHECK(now >= 0 && now <= 2);
        if (now >= 0 && now <= 2) {
            visited[now] = 1;
            CHECK_OK(ABT_thread_get_last_pool(h, &last));
            CHECK(last == pools[now]);
        }
        where = now;
    }
    CHECK(visited[1] || visited[2]);
    atomic_store(&hop_stop, 1);
    CHECK_OK(ABT_thread_free(&h));

    /* ESs joined: nowhere else to go. */
    CHECK_OK(ABT_xstream_join(es[0]));
    CHECK_OK(ABT_xstream_join(es[1]));
    CHECK_OK(ABT_thread_create(main_pool, plain, NULL, ABT_THREAD_ATTR_NULL, &p));
    CHECK_ERR(ABT_thread_migrate(p), ABT_ERR_MIGRATION_NA);
    CHECK_OK(ABT_thread_get_last_pool(p, &last));
    CHECK(last == main_pool);
    CHECK_OK(ABT_xstream_free(&es[0]));
    CHECK_OK(ABT_xstream_free(&es[1]));
    CHECK_OK(ABT_thread_free(&p));
    CHECK_EQ(atomic_load(&plain_runs), 3);
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
