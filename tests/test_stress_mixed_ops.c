/* Everything at once, the way an application mixes it: 3 ESs (the primary
 * with its default scheduler; one BASIC_WAIT over two shared FIFO_WAIT pools
 * S1, S2; one RANDWS over S2, S1), and worker ULTs that each make a long
 * random sequence of calls:
 *
 *   lock a mutex and count; yield; create a ULT or a tasklet into a random
 *   pool and free it; migrate themselves; set a key, yield, read it back;
 *   wait on an eventual a child sets; wait on a condition a child signals;
 *   let a child suspend itself and resume it; read or write under an rwlock;
 *   revive a joined child elsewhere; yield_to a ready child.
 *
 * Meanwhile the primary ULT migrates random workers between the pools,
 * whatever they are doing (blocked on a mutex, an eventual, a condition
 * variable, suspended...). At the end: the counter is exact, every child and
 * tasklet ran exactly once per creation or revival, the key destructor ran
 * once per unit that ended with a value, readers never saw a half-written
 * pair, and every call returned a code its documentation allows. A lost
 * wake-up or unit hangs (watchdog); a race shows under the sanitizers. */
#include "stress_util.h"

#define NUM_WORKERS_MAX 48
static int num_workers;
static int steps; /* per worker */

/* The primary's pool, S1, S2. Each pool is the first pool of an ES: a
 * worker that yields while it waits for a child in another pool (as in
 * op_suspend_resume) would otherwise starve that pool if it is everybody's
 * second (the predefined schedulers take their pools in order). */
#define NUM_POOLS 3
static ABT_pool pools[NUM_POOLS];

static ABT_mutex mutex;
static long counter;
static atomic_long increments;

static ABT_key key;
static atomic_long destructor_calls, key_values_left;
static atomic_int key_mismatch;

static ABT_rwlock rwlock;
static long pair_a, pair_b;
static atomic_int torn_reads;

static atomic_long child_expected;
static atomic_long task_runs, task_expected;

static void key_destructor(void *value)
{
    (void)value;
    atomic_fetch_add(&destructor_calls, 1);
    atomic_fetch_sub(&key_values_left, 1);
}

/* Every unit that sets the key leaves it set: the destructor must run once
 * for it when it ends. */
static void set_key_once(void *value)
{
    void *old = NULL;
    int ret = ABT_key_get(key, &old);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_key_get", ret);
    if (!old)
        atomic_fetch_add(&key_values_left, 1);
    ret = ABT_key_set(key, value);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_key_set", ret);
}

static ABT_pool random_pool(unsigned long long *rng)
{
    return pools[stress_random(rng) % NUM_POOLS];
}

/* ---- children --------------------------------------------------------------- */

static void plain_child(void *arg)
{
    (void)arg;
    set_key_once((void *)2);
    ABT_thread_yield();
    atomic_fetch_add(&stress_child_runs, 1);
}

static void tasklet_body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&task_runs, 1);
}

static void eventual_child(void *arg)
{
    ABT_thread_yield();
    int ret = ABT_eventual_set(*(ABT_eventual *)arg, NULL, 0);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_eventual_set", ret);
    atomic_fetch_add(&stress_child_runs, 1);
}

typedef struct {
    ABT_mutex mutex;
    ABT_cond cond;
    int flag;
} signal_box;

static void cond_child(void *arg)
{
    signal_box *box = arg;
    ABT_thread_yield();
    ABT_mutex_lock(box->mutex);
    box->flag = 1;
    int ret = ABT_cond_signal(box->cond);
    ABT_mutex_unlock(box->mutex);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_cond_signal", ret);
    atomic_fetch_add(&stress_child_runs, 1);
}

/* ---- the worker's operations --------------------------------------------- */

static void op_count(void)
{
    ABT_mutex_lock(mutex);
    long c = counter;
    if (c % 3 == 0)
        ABT_thread_yield(); /* hold the lock across a switch now and then */
    counter = c + 1;
    ABT_mutex_unlock(mutex);
    atomic_fetch_add(&increments, 1);
}

static void spawn(ABT_pool pool, void (*body)(void *), void *arg, ABT_thread *out)
{
    int ret = ABT_thread_create(pool, body, arg, ABT_THREAD_ATTR_NULL, out);
    if (ret != ABT_SUCCESS) {
        stress_bad_code("ABT_thread_create", ret);
        *out = ABT_THREAD_NULL;
        return;
    }
    atomic_fetch_add(&child_expected, 1);
}

static void finish(ABT_thread *child)
{
    if (*child != ABT_THREAD_NULL)
        stress_free(child);
}

static void op_child(unsigned long long *rng)
{
    ABT_thread child;
    spawn(random_pool(rng), plain_child, NULL, &child);
    if (stress_random(rng) % 2)
        ABT_thread_yield();
    finish(&child);
}

static void op_tasklet(unsigned long long *rng)
{
    ABT_task task;
    int ret = ABT_task_create(random_pool(rng), tasklet_body, NULL, &task);
    if (ret != ABT_SUCCESS) {
        stress_bad_code("ABT_task_create", ret);
        return;
    }
    atomic_fetch_add(&task_expected, 1);
    ret = ABT_task_free(&task);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_task_free", ret);
}

static void op_migrate_self(unsigned long long *rng)
{
    ABT_thread self;
    ABT_self_get_thread(&self);
    int ret = ABT_thread_migrate_to_pool(self, random_pool(rng));
    if (ret != ABT_SUCCESS && ret != ABT_ERR_MIGRATION_TARGET)
        stress_bad_code("ABT_thread_migrate_to_pool (self)", ret);
}

static void op_key(long me, int step)
{
    void *mine = (void *)(intptr_t)((me << 20) | (step + 1));
    set_key_once(mine);
    ABT_thread_yield();
    void *seen = NULL;
    ABT_key_get(key, &seen);
    if (seen != mine)
        atomic_fetch_add(&key_mismatch, 1);
}

static void op_eventual(unsigned long long *rng)
{
    ABT_eventual ev;
    int ret = ABT_eventual_create(0, &ev);
    if (ret != ABT_SUCCESS) {
        stress_bad_code("ABT_eventual_create", ret);
        return;
    }
    ABT_thread child;
    spawn(random_pool(rng), eventual_child, &ev, &child);
    ret = ABT_eventual_wait(ev, NULL);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_eventual_wait", ret);
    finish(&child);
    ABT_eventual_free(&ev);
}

static void op_cond(unsigned long long *rng)
{
    signal_box box = {.flag = 0};
    if (ABT_mutex_create(&box.mutex) != ABT_SUCCESS || ABT_cond_create(&box.cond) != ABT_SUCCESS) {
        stress_bad_code("ABT_mutex_create/ABT_cond_create", -1);
        return;
    }
    ABT_thread child;
    spawn(random_pool(rng), cond_child, &box, &child);
    ABT_mutex_lock(box.mutex);
    while (!box.flag) {
        int ret = ABT_cond_wait(box.cond, box.mutex);
        if (ret != ABT_SUCCESS) {
            stress_bad_code("ABT_cond_wait", ret);
            break;
        }
    }
    ABT_mutex_unlock(box.mutex);
    finish(&child);
    ABT_cond_free(&box.cond);
    ABT_mutex_free(&box.mutex);
}

static void op_suspend_resume(unsigned long long *rng)
{
    ABT_thread child;
    spawn(random_pool(rng), stress_suspending_child, NULL, &child);
    if (child == ABT_THREAD_NULL)
        return;
    stress_resume_when_suspended(child);
    finish(&child);
}

static void op_rwlock(unsigned long long *rng)
{
    if (stress_random(rng) % 4 == 0) {
        ABT_rwlock_wrlock(rwlock);
        pair_a++;
        ABT_thread_yield(); /* readers must wait across the switch */
        pair_b++;
        ABT_rwlock_unlock(rwlock);
    } else {
        ABT_rwlock_rdlock(rwlock);
        long a = pair_a;
        ABT_thread_yield();
        if (pair_b != a)
            atomic_fetch_add(&torn_reads, 1);
        ABT_rwlock_unlock(rwlock);
    }
}

static void op_revive(unsigned long long *rng)
{
    ABT_thread child;
    spawn(random_pool(rng), plain_child, NULL, &child);
    if (child == ABT_THREAD_NULL)
        return;
    int ret = ABT_thread_join(child);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_thread_join", ret);
    ret = ABT_thread_revive(random_pool(rng), plain_child, NULL, &child);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_thread_revive", ret);
    else
        atomic_fetch_add(&child_expected, 1);
    finish(&child);
}

/* The child is ready in the caller's pool unless an ES took it first: then
 * yield_to is a plain yield. Either way it succeeds. */
static void op_yield_to(void)
{
    ABT_pool mine;
    ABT_self_get_last_pool(&mine);
    ABT_thread child;
    spawn(mine, plain_child, NULL, &child);
    if (child == ABT_THREAD_NULL)
        return;
    int ret = ABT_thread_yield_to(child);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_thread_yield_to", ret);
    finish(&child);
}

static void worker(void *arg)
{
    long me = (long)arg;
    unsigned long long rng = 0x9e3779b97f4a7c15ull * (unsigned long long)(me + 1);
    for (int step = 0; step < steps; step++) {
        switch (stress_random(&rng) % 12) {
        case 0: case 1: op_count(); break;
        case 2: ABT_thread_yield(); break;
        case 3: op_child(&rng); break;
        case 4: op_tasklet(&rng); break;
        case 5: op_migrate_self(&rng); break;
        case 6: op_key(me, step); break;
        case 7: op_eventual(&rng); break;
        case 8: op_cond(&rng); break;
        case 9: op_suspend_resume(&rng); break;
        case 10: op_rwlock(&rng); op_revive(&rng); break;
        default: op_yield_to(); break;
        }
    }
}

/* ---- main -------------------------------------------------------------------- */

static void create_es(ABT_sched_predef kind, ABT_pool first, ABT_pool second, ABT_xstream *es)
{
    ABT_pool its[2] = {first, second};
    CHECK_OK(ABT_xstream_create_basic(kind, 2, its, ABT_SCHED_CONFIG_NULL, es));
}

int main(void)
{
    BB_TEST_BEGIN(100);
    num_workers = BB_TEST_SIZE(NUM_WORKERS_MAX, 12);
    steps = BB_TEST_SIZE(400, 60);
    CHECK_OK(ABT_init(0, NULL));

    ABT_xstream primary, es[2];
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pools[0]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[1]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[2]));
    create_es(ABT_SCHED_BASIC_WAIT, pools[1], pools[2], &es[0]);
    create_es(ABT_SCHED_RANDWS, pools[2], pools[1], &es[1]);

    CHECK_OK(ABT_mutex_create(&mutex));
    CHECK_OK(ABT_rwlock_create(&rwlock));
    CHECK_OK(ABT_key_create(key_destructor, &key));

    ABT_thread workers[NUM_WORKERS_MAX];
    for (long i = 0; i < num_workers; i++)
        CHECK_OK(ABT_thread_create(pools[i % NUM_POOLS], worker, (void *)i, ABT_THREAD_ATTR_NULL,
                                   &workers[i]));

    /* Move workers around until they are all done (or enough moves were
     * tried: under valgrind, whose threads take turns, this loop would
     * otherwise take most of the time). */
    unsigned long long rng = 12345;
    long moves = 0;
    for (int tries = 0; tries < BB_TEST_SIZE(200000, 5000); tries++) {
        int running = 0;
        for (int i = 0; i < num_workers; i++) {
            ABT_thread_state state;
            CHECK_OK(ABT_thread_get_state(workers[i], &state));
            running += state != ABT_THREAD_STATE_TERMINATED;
        }
        if (!running)
            break;
        unsigned r = stress_random(&rng);
        int ret = ABT_thread_migrate_to_pool(workers[r % num_workers], random_pool(&rng));
        if (ret == ABT_SUCCESS)
            moves++;
        else if (ret != ABT_ERR_MIGRATION_TARGET && ret != ABT_ERR_INV_THREAD)
            stress_bad_code("ABT_thread_migrate_to_pool (primary)", ret);
        ABT_thread_yield();
    }
    for (int i = 0; i < num_workers; i++)
        CHECK_OK(ABT_thread_free(&workers[i]));

    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_xstream_join(es[i]));
        CHECK_OK(ABT_xstream_free(&es[i]));
    }

    CHECK_EQ(atomic_load(&stress_bad_codes), 0);
    CHECK_EQ(counter, atomic_load(&increments));
    CHECK_EQ(atomic_load(&stress_child_runs), atomic_load(&child_expected));
    CHECK_EQ(atomic_load(&task_runs), atomic_load(&task_expected));
    CHECK_EQ(atomic_load(&key_values_left), 0);
    CHECK_EQ(atomic_load(&key_mismatch), 0);
    CHECK_EQ(atomic_load(&torn_reads), 0);
    CHECK_EQ(pair_a, pair_b);
    CHECK(atomic_load(&increments) > 0);
    CHECK(atomic_load(&destructor_calls) > 0);
    printf("%ld increments, %ld children, %ld tasklets, %ld key destructors, %ld moves\n",
           atomic_load(&increments), atomic_load(&stress_child_runs), atomic_load(&task_runs),
           atomic_load(&destructor_calls), moves);

    CHECK_OK(ABT_key_free(&key));
    CHECK_OK(ABT_rwlock_free(&rwlock));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
