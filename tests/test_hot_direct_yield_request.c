/* A request to a running ULT (a migration or a cancel asked by another
 * thread) takes effect at its next yield, also when that yield would be a
 * direct one (src/unit/hotpath.c): the ULT never runs on past the yield on
 * its old ES. A ULT of ES 1 spins (no yield) while the primary ULT asks for
 * the request, then yields once:
 *  - alone in its pool, a private FIFO (where the yield would otherwise let
 *    it run on at once) or a user-defined FIFO pool (whose pop gives it
 *    back);
 *  - with a companion ULT in the same private FIFO that keeps yielding (the
 *    yield switches to the companion directly, whose next yield finds the
 *    requester at the head).
 * A migrated ULT continues on ES 2; a cancelled one runs nothing after the
 * yield, and join returns. */
#include "bb_test.h"
#include "pool_user_util.h"
#include <stdatomic.h>

static ABT_xstream es2;
static ABT_pool pool2;
static atomic_int started, release, stop_companion, ran_past;
static int rank_after;

static int rank_now(void)
{
    int rank = -1;
    ABT_self_get_xstream_rank(&rank);
    return rank;
}

static void requester(void *arg)
{
    (void)arg;
    atomic_store(&started, 1);
    while (!atomic_load(&release))
        ; /* no yield: the request waits */
    ABT_thread_yield();
    atomic_store(&ran_past, 1);
    rank_after = rank_now();
}

static void companion(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_companion))
        ABT_thread_yield();
}

enum request { MIGRATE, CANCEL };
enum pool_kind { PRIVATE_FIFO, USER_FIFO };

static void run_case(enum pool_kind kind, int with_companion, enum request req)
{
    ABT_pool pool1;
    up_state st;
    if (kind == PRIVATE_FIFO) {
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &pool1));
    } else {
        up_state_init(&st);
        ABT_pool_config cfg = up_config(&st, -1);
        ABT_pool_user_def def = up_new_def(1);
        CHECK_OK(ABT_pool_create(def, cfg, &pool1));
        CHECK_OK(ABT_pool_user_def_free(&def));
        CHECK_OK(ABT_pool_config_free(&cfg));
    }
    atomic_store(&started, 0);
    atomic_store(&release, 0);
    atomic_store(&stop_companion, 0);
    atomic_store(&ran_past, 0);
    rank_after = -1;

    ABT_thread t, c = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_create(pool1, requester, NULL, ABT_THREAD_ATTR_NULL, &t));
    if (with_companion)
        CHECK_OK(ABT_thread_create(pool1, companion, NULL, ABT_THREAD_ATTR_NULL, &c));
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool1, ABT_SCHED_CONFIG_NULL, &es1));
    while (!atomic_load(&started))
        usleep(100);
    if (req == MIGRATE)
        CHECK_OK(ABT_thread_migrate_to_pool(t, pool2));
    else
        CHECK_OK(ABT_thread_cancel(t));
    atomic_store(&release, 1);
    CHECK_OK(ABT_thread_free(&t));
    if (req == MIGRATE) {
        CHECK_EQ(atomic_load(&ran_past), 1);
        CHECK_EQ(rank_after, 2);
    } else {
        CHECK_EQ(atomic_load(&ran_past), 0);
    }
    atomic_store(&stop_companion, 1);
    if (with_companion)
        CHECK_OK(ABT_thread_free(&c));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&pool1));
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es1_placeholder;
    /* Rank 1 is the ES that each case creates and frees; ES 2 stays. */
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 1, &es1_placeholder));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool2));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool2, ABT_SCHED_CONFIG_NULL, &es2));
    CHECK_OK(ABT_xstream_free(&es1_placeholder));
    int rank2 = -1;
    CHECK_OK(ABT_xstream_get_rank(es2, &rank2));
    CHECK_EQ(rank2, 2);
    for (int r = MIGRATE; r <= CANCEL; r++) {
        run_case(PRIVATE_FIFO, 0, (enum request)r);
        run_case(PRIVATE_FIFO, 1, (enum request)r);
        run_case(USER_FIFO, 0, (enum request)r);
    }
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
