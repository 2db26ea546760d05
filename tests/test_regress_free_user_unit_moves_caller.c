/* A user pool's free_unit callback may wait (docs/REFERENCE.md,
 * "Callbacks"), and the ULT that frees a unit may come back from it on
 * another ES. The free shortcut read its ES before the callback and then
 * put the freed descriptor into that ES's cache, which the caller no longer
 * runs on: with that ES busy, two threads changed one unlocked cache, and a
 * later create handed out a descriptor still in use (ABT_thread_join of a
 * fresh handle returned ABT_ERR_INV_THREAD).
 *
 * Here the callback moves the freeing ULT W from ES 0 to ES 1. The freed
 * descriptor must land in ES 1's cache: with the shortcuts on, the next
 * create that W makes on ES 1 gets it back (the caches are last in, first
 * out). Then a stress: three ESs over one user pool whose free_unit yields,
 * ULTs creating, joining and freeing, each create checked by a join. */
#include "bb_test.h"
#include "pool_user_util.h"

static up_state ustate;
static ABT_pool U;
static ABT_xstream es1;
static ABT_thread watched;
static atomic_int move_on_free, yield_on_free;

static void on_unit(up_state *s, ABT_thread thread, char ev)
{
    (void)s;
    if (ev != 'F')
        return;
    if (thread == watched && atomic_exchange(&move_on_free, 0)) {
        ABT_thread self;
        CHECK_OK(ABT_self_get_thread(&self));
        CHECK_OK(ABT_thread_migrate_to_xstream(self, es1));
        CHECK_OK(ABT_thread_yield());
    }
    ABT_unit_type type;
    ABT_bool primary = ABT_TRUE;
    if (atomic_load(&yield_on_free) && ABT_self_get_type(&type) == ABT_SUCCESS &&
        type == ABT_UNIT_TYPE_THREAD && ABT_self_is_primary(&primary) == ABT_SUCCESS &&
        !primary)
        CHECK_OK(ABT_thread_yield());
}

static void empty(void *arg)
{
    (void)arg;
}

static int rank_after_free = -1, reused = -1;

static void mover(void *arg)
{
    (void)arg;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(U, empty, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    watched = t;
    atomic_store(&move_on_free, 1);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_self_get_xstream_rank(&rank_after_free));
    ABT_thread t2;
    CHECK_OK(ABT_thread_create(U, empty, NULL, ABT_THREAD_ATTR_NULL, &t2));
    reused = t2 == watched;
    CHECK_OK(ABT_thread_free(&t2));
}

enum { WORKERS = 4, ROUNDS = 200, BATCH = 8 };

static void worker(void *arg)
{
    (void)arg;
    ABT_thread ts[BATCH];
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < BATCH; i++)
            CHECK_OK(ABT_thread_create(U, empty, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
        for (int i = 0; i < BATCH; i++) {
            CHECK_OK(ABT_thread_join(ts[i]));
            CHECK_OK(ABT_thread_free(&ts[i]));
        }
    }
}

static int shortcuts_on(void)
{
    const char *v = getenv("ABT_OPT_FAST_CREATE_FREE");
    return !(v && strcmp(v, "0") == 0) && !BB_TEST_UNDER_ASAN && !BB_TEST_UNDER_TSAN &&
           !RUNNING_ON_VALGRIND;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    up_state_init(&ustate);
    ustate.on_unit = on_unit;
    ABT_pool_config cfg = up_config(&ustate, 0);
    U = up_new_pool_with(NULL, NULL, cfg);
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &U, ABT_SCHED_CONFIG_NULL, &es1));

    ABT_thread w;
    CHECK_OK(ABT_thread_create(bb_test_main_pool(), mover, NULL, ABT_THREAD_ATTR_NULL, &w));
    CHECK_OK(ABT_thread_free(&w));
    CHECK_EQ(rank_after_free, 1);
    if (shortcuts_on())
        CHECK_EQ(reused, 1);

    ABT_xstream more[2];
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &U, ABT_SCHED_CONFIG_NULL, &more[i]));
    atomic_store(&yield_on_free, 1);
    ABT_thread ws[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        CHECK_OK(ABT_thread_create(U, worker, NULL, ABT_THREAD_ATTR_NULL, &ws[i]));
    for (int i = 0; i < WORKERS; i++)
        CHECK_OK(ABT_thread_free(&ws[i]));
    atomic_store(&yield_on_free, 0);

    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&more[i]));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&U));
    CHECK_EQ(atomic_load(&up_g.n_misuse), 0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
