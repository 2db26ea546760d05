/* User-defined pools and schedulers under a mixed load, twice: once with a
 * new-style pool (pool_user_util.h, MPMC) and a user scheduler that pops
 * threads and runs them with ABT_self_schedule, once with a legacy pool
 * and a scheduler that pops units and runs them with ABT_xstream_run_unit
 * (after ABT_unit_get_thread). ES 1 runs that scheduler over the user pool
 * U then a shared FIFO pool S; ES 2 runs ABT_SCHED_BASIC over S then U.
 *
 * 32 workers (8 under TSan or valgrind) make 300 random calls each (40): lock a mutex and count (yielding
 * inside), yield, migrate themselves into U, S or the primary's pool,
 * create a ULT or a tasklet in one of them and free it, let a child suspend
 * itself and resume it, change their associated pool and yield; the
 * primary ULT migrates them meanwhile. Checked: the counter, that every
 * child and tasklet ran, every return code, both schedulers' calls, and that
 * the pool got back every unit it made and saw no misuse (pool_user_util.h:
 * a unit pushed twice or freed while queued). */
#include "pool_user_util.h"
#include "stress_util.h"
#include <sched.h>

#define NUM_WORKERS_MAX 32
#define NUM_WORKERS BB_TEST_SIZE(NUM_WORKERS_MAX, 8)
#define STEPS BB_TEST_SIZE(300, 40)
#define PRIMARY_MOVES BB_TEST_SIZE(400, 40)

static ABT_pool U, S, P0;
static ABT_mutex mutex;
static long counter;
static atomic_long increments, child_expected, sched_errors;

static void count_sched_error(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&sched_errors, 1);
}

/* ---- the two user schedulers ------------------------------------------------ */

/* Pools in order, the first that gives a unit wins. Returns whether one ran. */
static int run_one_new_style(ABT_pool *pools, int n)
{
    for (int i = 0; i < n; i++) {
        ABT_thread t = ABT_THREAD_NULL;
        count_sched_error(ABT_pool_pop_thread(pools[i], &t));
        if (t != ABT_THREAD_NULL) {
            count_sched_error(ABT_self_schedule(t, pools[i]));
            return 1;
        }
    }
    return 0;
}

static int run_one_legacy(ABT_pool *pools, int n)
{
    for (int i = 0; i < n; i++) {
        ABT_unit unit = ABT_UNIT_NULL;
        count_sched_error(ABT_pool_pop(pools[i], &unit));
        if (unit != ABT_UNIT_NULL) {
            ABT_thread t = ABT_THREAD_NULL;
            count_sched_error(ABT_unit_get_thread(unit, &t));
            if (t == ABT_THREAD_NULL)
                atomic_fetch_add(&sched_errors, 1);
            count_sched_error(ABT_xstream_run_unit(unit, pools[i]));
            return 1;
        }
    }
    return 0;
}

static void sched_loop(ABT_sched sched, int (*run_one)(ABT_pool *, int))
{
    ABT_pool pools[2];
    int n = 0;
    count_sched_error(ABT_sched_get_num_pools(sched, &n));
    if (n != 2) {
        atomic_fetch_add(&sched_errors, 1);
        return;
    }
    count_sched_error(ABT_sched_get_pools(sched, 2, 0, pools));
    for (unsigned round = 1;; round++) {
        int ran = run_one(pools, 2);
        if (!ran || round % 16 == 0) {
            count_sched_error(ABT_xstream_check_events(sched));
            ABT_bool stop = ABT_FALSE;
            count_sched_error(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                return;
            if (!ran)
                sched_yield();
        }
    }
}

static void new_style_run(ABT_sched sched)
{
    sched_loop(sched, run_one_new_style);
}

static void legacy_run(ABT_sched sched)
{
    sched_loop(sched, run_one_legacy);
}

/* ---- the workers ------------------------------------------------------------- */

static ABT_pool random_pool(unsigned long long *rng)
{
    ABT_pool all[3] = {U, S, P0};
    return all[stress_random(rng) % 3];
}

static void tasklet_body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&stress_child_runs, 1);
}

static void yielding_child(void *arg)
{
    (void)arg;
    ABT_thread_yield();
    atomic_fetch_add(&stress_child_runs, 1);
}

static ABT_thread spawn(ABT_pool pool, void (*body)(void *))
{
    ABT_thread child = ABT_THREAD_NULL;
    int ret = ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &child);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_thread_create", ret);
    else
        atomic_fetch_add(&child_expected, 1);
    return child;
}


static void worker(void *arg)
{
    unsigned long long rng = 0x9e3779b97f4a7c15ull * (unsigned long long)((long)arg + 1);
    for (int step = 0; step < STEPS; step++) {
        int ret = ABT_SUCCESS;
        ABT_thread child;
        switch (stress_random(&rng) % 7) {
        case 0:
            ABT_mutex_lock(mutex);
            counter++;
            ABT_thread_yield();
            ABT_mutex_unlock(mutex);
            atomic_fetch_add(&increments, 1);
            break;
        case 1:
            ABT_thread_yield();
            break;
        case 2: {
            ABT_thread self;
            ABT_self_get_thread(&self);
            ret = ABT_thread_migrate_to_pool(self, random_pool(&rng));
            if (ret != ABT_SUCCESS && ret != ABT_ERR_MIGRATION_TARGET)
                stress_bad_code("ABT_thread_migrate_to_pool (self)", ret);
            break;
        }
        case 3:
            child = spawn(random_pool(&rng), yielding_child);
            if (child != ABT_THREAD_NULL)
                stress_free(&child);
            break;
        case 4:
            child = spawn(random_pool(&rng), stress_suspending_child);
            if (child != ABT_THREAD_NULL) {
                stress_resume_when_suspended(child);
                stress_free(&child);
            }
            break;
        case 5:
            ret = ABT_self_set_associated_pool(random_pool(&rng));
            if (ret != ABT_SUCCESS)
                stress_bad_code("ABT_self_set_associated_pool", ret);
            ABT_thread_yield(); /* moves there */
            break;
        default:
            ret = ABT_task_create(random_pool(&rng), tasklet_body, NULL, NULL);
            if (ret != ABT_SUCCESS)
                stress_bad_code("ABT_task_create", ret);
            else
                atomic_fetch_add(&child_expected, 1);
            break;
        }
    }
}

/* ---- one round per pool interface -------------------------------------------- */

static void run_round(int legacy)
{
    counter = 0;
    atomic_store(&increments, 0);
    atomic_store(&stress_child_runs, 0);
    atomic_store(&child_expected, 0);
    memset(&up_g, 0, sizeof(up_g));

    if (legacy) {
        ABT_pool_def def = up_legacy_def(ABT_POOL_ACCESS_MPMC, 1);
        CHECK_OK(ABT_pool_create(&def, ABT_POOL_CONFIG_NULL, &U));
    } else {
        ABT_pool_user_def def = up_new_def(1);
        CHECK_OK(ABT_pool_user_def_set_init(def, up_init));
        CHECK_OK(ABT_pool_user_def_set_free(def, up_free));
        CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &U));
        CHECK_OK(ABT_pool_user_def_free(&def));
    }
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &S));

    ABT_sched_def sdef = {.type = ABT_SCHED_TYPE_ULT, .run = legacy ? legacy_run : new_style_run};
    ABT_pool user_first[2] = {U, S}, shared_first[2] = {S, U};
    ABT_sched user_sched;
    CHECK_OK(ABT_sched_create(&sdef, 2, user_first, ABT_SCHED_CONFIG_NULL, &user_sched));
    ABT_xstream es[2];
    CHECK_OK(ABT_xstream_create(user_sched, &es[0]));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, shared_first, ABT_SCHED_CONFIG_NULL,
                                      &es[1]));

    ABT_thread workers[NUM_WORKERS_MAX];
    for (long i = 0; i < NUM_WORKERS; i++)
        CHECK_OK(ABT_thread_create(i % 2 ? U : S, worker, (void *)i, ABT_THREAD_ATTR_NULL,
                                   &workers[i]));
    for (int k = 0; k < PRIMARY_MOVES; k++) {
        int ret = ABT_thread_migrate_to_pool(workers[k % NUM_WORKERS], k % 3 ? U : S);
        if (ret != ABT_SUCCESS && ret != ABT_ERR_MIGRATION_TARGET && ret != ABT_ERR_INV_THREAD)
            stress_bad_code("ABT_thread_migrate_to_pool (primary)", ret);
        ABT_thread_yield();
    }
    for (int i = 0; i < NUM_WORKERS; i++)
        CHECK_OK(ABT_thread_free(&workers[i]));
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_xstream_join(es[i]));
        CHECK_OK(ABT_xstream_free(&es[i]));
    }
    CHECK_OK(ABT_sched_free(&user_sched));
    CHECK_OK(ABT_pool_free(&U));
    CHECK_OK(ABT_pool_free(&S));

    CHECK_EQ(counter, atomic_load(&increments));
    CHECK_EQ(atomic_load(&stress_child_runs), atomic_load(&child_expected));
    CHECK(atomic_load(&stress_child_runs) > 0);
    CHECK_EQ(atomic_load(&up_g.n_misuse), 0);
    CHECK(atomic_load(&up_g.n_create) > 0);
    CHECK_EQ(atomic_load(&up_g.n_create), atomic_load(&up_g.n_free_unit));
    printf("%s pool: %ld increments, %ld children and tasklets, %ld units made\n",
           legacy ? "legacy" : "new-style", atomic_load(&increments), atomic_load(&stress_child_runs),
           (long)atomic_load(&up_g.n_create));
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &P0));
    CHECK_OK(ABT_mutex_create(&mutex));
    run_round(0);
    run_round(1);
    CHECK_EQ(atomic_load(&stress_bad_codes), 0);
    CHECK_EQ(atomic_load(&sched_errors), 0);
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
