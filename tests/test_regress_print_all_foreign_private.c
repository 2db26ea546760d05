/* ABT_pool_print_all and ABT_pool_print_all_threads walk a pool's list. A
 * private pool's list takes no lock (REFERENCE section 7): only its home ES
 * changes it. Called from another ES (here the primary) while the home runs
 * ULTs that keep yielding, the walks followed units out of the list: they
 * listed units that were running, listed more units than the pool ever
 * held, and could walk for ever. ABT_info_print_thread_stacks_in_pool
 * already refused such a walk; the print_all calls now do too, with
 * ABT_ERR_INV_POOL_ACCESS, as a push or a pop there is refused. Allowed
 * wherever a pop is: on the home itself, while the home is joined (nothing
 * pops the pool: the stack dump, which refused that case, now allows it
 * too), and on a private pool no scheduler holds. */
#include "bb_test.h"
#include <stdatomic.h>

enum { N = 4 };
static ABT_pool priv, shared;
static atomic_int stop;

static void yielder(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop))
        ABT_thread_yield();
}

struct walk {
    int listed, not_ready;
};

static void count_thread(void *arg, ABT_thread t)
{
    struct walk *w = arg;
    ABT_thread_state st;
    w->listed++;
    if (ABT_thread_get_state(t, &st) != ABT_SUCCESS || st != ABT_THREAD_STATE_READY)
        w->not_ready++;
}

static void count_unit(void *arg, ABT_unit u)
{
    ABT_thread t;
    CHECK_OK(ABT_unit_get_thread(u, &t));
    count_thread(arg, t);
}

/* Runs on the home ES, which may walk its own pool: it lists the other
 * yielders that wait there, each READY. */
static void walk_on_home(void *arg)
{
    (void)arg;
    struct walk w = {0, 0};
    CHECK_OK(ABT_pool_print_all_threads(priv, &w, count_thread));
    CHECK(w.listed <= N);
    CHECK_EQ(w.not_ready, 0);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &priv));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &shared));
    ABT_thread ults[N];
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(priv, yielder, NULL, ABT_THREAD_ATTR_NULL, &ults[i]));

    /* No scheduler holds it yet: anyone may walk it, and all N wait. */
    struct walk w = {0, 0};
    CHECK_OK(ABT_pool_print_all_threads(priv, &w, count_thread));
    CHECK_EQ(w.listed, N);
    CHECK_EQ(w.not_ready, 0);

    /* `shared` first: yielders in a first pool would starve the pools
     * behind it (a scheduler tries its pools in order). */
    ABT_pool pools[2] = {shared, priv};
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &es));

    /* From another ES, while the home churns: refused, every time. */
    FILE *devnull = fopen("/dev/null", "w");
    CHECK(devnull != NULL);
    int rounds = BB_TEST_SIZE(20000, 2000), refused = 0;
    for (int i = 0; i < rounds; i++) {
        struct walk wt = {0, 0}, wu = {0, 0};
        int rt = ABT_pool_print_all_threads(priv, &wt, count_thread);
        int ru = ABT_pool_print_all(priv, &wu, count_unit);
        refused += rt == ABT_ERR_INV_POOL_ACCESS && ru == ABT_ERR_INV_POOL_ACCESS;
        if (wt.listed > N || wu.listed > N || wt.not_ready || wu.not_ready) {
            BB_FAIL_AT("walk %d listed %d and %d units (%d and %d not READY)", i, wt.listed,
                       wu.listed, wt.not_ready, wu.not_ready);
            break;
        }
    }
    CHECK_EQ(refused, rounds);
    CHECK_ERR(ABT_info_print_thread_stacks_in_pool(devnull, priv), ABT_ERR_INV_POOL_ACCESS);

    /* On the home itself: allowed. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(shared, walk_on_home, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));

    /* Joined: nothing pops the pool, so anyone may walk it, as anyone may
     * push and pop. The yielders wait there (stop is not set yet: the join
     * returns once the scheduler has stopped at an event check). */
    CHECK_OK(ABT_xstream_cancel(es));
    CHECK_OK(ABT_xstream_join(es));
    struct walk wj = {0, 0};
    CHECK_OK(ABT_pool_print_all_threads(priv, &wj, count_thread));
    CHECK(wj.listed <= N);
    CHECK_EQ(wj.not_ready, 0);
    CHECK_OK(ABT_info_print_thread_stacks_in_pool(devnull, priv));

    /* Let the yielders finish on the revived ES. */
    atomic_store(&stop, 1);
    CHECK_OK(ABT_xstream_revive(es));
    CHECK_OK(ABT_thread_free_many(N, ults));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&priv));
    CHECK_OK(ABT_pool_free(&shared));
    fclose(devnull);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
