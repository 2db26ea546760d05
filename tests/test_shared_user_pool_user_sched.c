/* A user-defined pool driving user-defined schedulers under load. A new-style
 * user FIFO pool (ABT_pool_user_def_create: create_unit / free_unit /
 * is_empty / pop / push, plus init / free / get_size; a mutex makes it
 * MPMC-safe) is shared by 2 ESs, each running its own user ABT_sched_def
 * scheduler (ABT_pool_pop_thread + ABT_xstream_run_unit +
 * ABT_xstream_check_events + ABT_sched_has_to_stop). The primary ULT pushes
 * 5000 ULTs (1000 under TSan or valgrind) that yield a few times. All of them run to the end, on the two
 * secondary ESs only; the pool's init and free run once each; every unit the
 * pool created is freed by the end (after the ESs are joined and freed and
 * the pool is freed); both schedulers' run functions return. The pool is
 * pool_user_util.h's: up_g counts its units, inits and frees, and misuse
 * (a unit pushed twice or freed while queued, the pool freed non-empty). */
#include "pool_user_util.h"
#include <sched.h>

#define N_MAX 5000
static int N; /* N_MAX, or fewer where every switch is slow (bb_test.h) */
#define YIELDS 3

/* ---- the scheduler ---------------------------------------------------------- */

static atomic_int run_returns;
static atomic_long sched_errors;

static void sched_run(ABT_sched sched)
{
    ABT_pool pool;
    if (ABT_sched_get_pools(sched, 1, 0, &pool) != ABT_SUCCESS) {
        atomic_fetch_add(&sched_errors, 1);
        return;
    }
    for (unsigned round = 1;; round++) {
        ABT_thread t = ABT_THREAD_NULL;
        if (ABT_pool_pop_thread(pool, &t) != ABT_SUCCESS)
            atomic_fetch_add(&sched_errors, 1);
        if (t != ABT_THREAD_NULL) {
            ABT_unit u = ABT_UNIT_NULL;
            if (ABT_thread_get_unit(t, &u) != ABT_SUCCESS ||
                ABT_xstream_run_unit(u, pool) != ABT_SUCCESS)
                atomic_fetch_add(&sched_errors, 1);
        }
        if (t == ABT_THREAD_NULL || round % 16 == 0) {
            if (ABT_xstream_check_events(sched) != ABT_SUCCESS)
                atomic_fetch_add(&sched_errors, 1);
            ABT_bool stop = ABT_FALSE;
            if (ABT_sched_has_to_stop(sched, &stop) != ABT_SUCCESS)
                atomic_fetch_add(&sched_errors, 1);
            if (stop)
                break;
            if (t == ABT_THREAD_NULL)
                sched_yield();
        }
    }
    atomic_fetch_add(&run_returns, 1);
}

/* ---- the work --------------------------------------------------------------- */

static atomic_int finished[N_MAX];
static atomic_int done, on_primary, wrong_pool;
static ABT_pool upool;

static void worker(void *arg)
{
    long i = (long)arg;
    for (int k = 0; k <= YIELDS; k++) {
        int rank = -1;
        ABT_self_get_xstream_rank(&rank);
        if (rank == 0)
            atomic_fetch_add(&on_primary, 1);
        ABT_pool p = ABT_POOL_NULL;
        ABT_self_get_last_pool(&p);
        if (p != upool)
            atomic_fetch_add(&wrong_pool, 1);
        if (k < YIELDS)
            ABT_thread_yield();
    }
    atomic_fetch_add(&finished[i], 1);
    atomic_fetch_add(&done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    N = BB_TEST_SIZE(N_MAX, 1000);
    CHECK_OK(ABT_init(0, NULL));

    ABT_pool_user_def def = up_new_def(0);
    CHECK_OK(ABT_pool_user_def_set_init(def, up_init));
    CHECK_OK(ABT_pool_user_def_set_free(def, up_free));
    CHECK_OK(ABT_pool_user_def_set_get_size(def, up_get_size));
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &upool));
    CHECK_OK(ABT_pool_user_def_free(&def)); /* the pool keeps its own copy */
    CHECK_EQ(atomic_load(&up_g.n_init), 1);
    ABT_pool_access access;
    CHECK_OK(ABT_pool_get_access(upool, &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPMC);

    ABT_sched_def sdef = {.type = ABT_SCHED_TYPE_ULT, .run = sched_run};
    ABT_sched scheds[2];
    ABT_xstream es[2];
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_sched_create(&sdef, 1, &upool, ABT_SCHED_CONFIG_NULL, &scheds[i]));
        CHECK_OK(ABT_xstream_create(scheds[i], &es[i]));
    }

    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(upool, worker, (void *)i, ABT_THREAD_ATTR_NULL, NULL));

    for (int i = 0; i < 20000 && atomic_load(&done) < N; i++)
        usleep(1000);
    CHECK_EQ(atomic_load(&done), N);

    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_EQ(atomic_load(&run_returns), 2);
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_sched_free(&scheds[i])); /* not automatic: ours */

    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(upool, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_pool_free(&upool));
    CHECK_EQ(atomic_load(&up_g.n_free), 1);

    int not_once = 0;
    for (int i = 0; i < N; i++)
        if (atomic_load(&finished[i]) != 1)
            not_once++;
    CHECK_EQ(not_once, 0);
    CHECK_EQ(atomic_load(&on_primary), 0);
    CHECK_EQ(atomic_load(&wrong_pool), 0);
    CHECK_EQ(atomic_load(&sched_errors), 0);
    CHECK_EQ(atomic_load(&up_g.n_misuse), 0);
    CHECK_EQ(atomic_load(&up_g.n_create), N);
    CHECK_EQ(atomic_load(&up_g.n_create), atomic_load(&up_g.n_free_unit));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
