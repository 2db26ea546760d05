/* Scheduler ULTs cannot be migrated. Inside the run function of a user
 * scheduler, ABT_self_get_thread gives the ULT running that scheduler:
 *  - an ES's main scheduler: ABT_thread_is_migratable says FALSE, every
 *    migration call returns ABT_ERR_INV_THREAD, also after
 *    ABT_thread_set_migratable(TRUE) (accepted and ignored, as for the
 *    primary ULT);
 *  - a stacked scheduler (ABT_pool_add_sched): migration returns
 *    ABT_ERR_INV_THREAD too.
 * The ESs keep working afterwards. */
#include "bb_test.h"
#include <sched.h>
#include <stdatomic.h>

static ABT_pool other_pool;
static ABT_xstream other_es;
static ABT_sched other_sched;

struct probe {
    atomic_int done;
    int get_ret, migratable, set_ret;
    int r[4], r_after[4];
    ABT_thread self;
};

static struct probe main_probe, stacked_probe;

static void probe_self(struct probe *p, int try_set)
{
    p->get_ret = ABT_self_get_thread(&p->self);
    ABT_bool m = ABT_TRUE;
    ABT_thread_is_migratable(p->self, &m);
    p->migratable = m;
    p->r[0] = ABT_thread_migrate_to_pool(p->self, other_pool);
    p->r[1] = ABT_thread_migrate_to_sched(p->self, other_sched);
    p->r[2] = ABT_thread_migrate_to_xstream(p->self, other_es);
    p->r[3] = ABT_thread_migrate(p->self);
    if (try_set) {
        p->set_ret = ABT_thread_set_migratable(p->self, ABT_TRUE);
        p->r_after[0] = ABT_thread_migrate_to_pool(p->self, other_pool);
        p->r_after[1] = ABT_thread_migrate_to_sched(p->self, other_sched);
        p->r_after[2] = ABT_thread_migrate_to_xstream(p->self, other_es);
        p->r_after[3] = ABT_thread_migrate(p->self);
    }
    atomic_store(&p->done, 1);
}

static void run_loop(ABT_sched sched, struct probe *p, int try_set)
{
    if (p && !atomic_load(&p->done))
        probe_self(p, try_set);
    int n = 0;
    ABT_sched_get_num_pools(sched, &n);
    ABT_pool pools[2];
    ABT_sched_get_pools(sched, n, 0, pools);
    for (unsigned round = 1;; round++) {
        ABT_thread t = ABT_THREAD_NULL;
        ABT_pool from = ABT_POOL_NULL;
        for (int i = 0; i < n && t == ABT_THREAD_NULL; i++) {
            ABT_pool_pop_thread(pools[i], &t);
            from = pools[i];
        }
        if (t != ABT_THREAD_NULL) {
            ABT_unit u;
            ABT_thread_get_unit(t, &u);
            ABT_xstream_run_unit(u, from);
        }
        if (t == ABT_THREAD_NULL || round % 8 == 0) {
            ABT_xstream_check_events(sched);
            ABT_bool stop = ABT_FALSE;
            ABT_sched_has_to_stop(sched, &stop);
            if (stop)
                break;
            if (t == ABT_THREAD_NULL)
                sched_yield();
        }
    }
}

static void main_run(ABT_sched sched)
{
    run_loop(sched, &main_probe, 1);
}

static void stacked_run(ABT_sched sched)
{
    run_loop(sched, &stacked_probe, 0);
}

static atomic_int runs;
static int body_rank = -1;

static void body(void *arg)
{
    (void)arg;
    ABT_self_get_xstream_rank(&body_rank);
    atomic_fetch_add(&runs, 1);
}

static void check_probe(struct probe *p, int with_set)
{
    CHECK_EQ(p->get_ret, ABT_SUCCESS);
    CHECK(p->self != ABT_THREAD_NULL);
    CHECK_EQ(p->migratable, ABT_FALSE);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(p->r[i], ABT_ERR_INV_THREAD);
        if (with_set)
            CHECK_EQ(p->r_after[i], ABT_ERR_INV_THREAD);
    }
    if (with_set)
        CHECK_EQ(p->set_ret, ABT_SUCCESS);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &other_es));
    CHECK_OK(ABT_xstream_get_main_pools(other_es, 1, &other_pool));
    CHECK_OK(ABT_xstream_get_main_sched(other_es, &other_sched));

    /* A user main scheduler on ES 2. */
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = main_run};
    ABT_pool p;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
    ABT_sched s;
    CHECK_OK(ABT_sched_create(&def, 1, &p, ABT_SCHED_CONFIG_NULL, &s));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(s, &es));
    while (!atomic_load(&main_probe.done))
        usleep(100);
    check_probe(&main_probe, 1);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(p, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(body_rank, 2);

    /* A stacked user scheduler in that ES's pool. */
    ABT_sched_def sdef = {.type = ABT_SCHED_TYPE_ULT, .run = stacked_run};
    ABT_pool sp;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &sp));
    CHECK_OK(ABT_thread_create(sp, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_sched ss;
    CHECK_OK(ABT_sched_create(&sdef, 1, &sp, ABT_SCHED_CONFIG_NULL, &ss));
    CHECK_OK(ABT_pool_add_sched(p, ss));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(body_rank, 2);
    while (!atomic_load(&stacked_probe.done))
        usleep(100);
    check_probe(&stacked_probe, 0);
    CHECK_EQ(atomic_load(&runs), 2);

    CHECK_OK(ABT_xstream_free(&es));
    /* The stacked one stopped once its pool was drained; both are ours. */
    CHECK_OK(ABT_sched_free(&ss));
    CHECK_OK(ABT_sched_free(&s));
    CHECK_OK(ABT_pool_free(&sp));
    CHECK_OK(ABT_pool_free(&p));
    CHECK_OK(ABT_xstream_free(&other_es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
