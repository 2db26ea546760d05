/* ABT_pool_free of a (non-automatic) user pool must not succeed while the
 * pool's free_unit callback for one of its units is still running on
 * another ES (src/pool/user.c, unmap_and_give_back).
 *
 * ABT_pool_free refuses a user pool while a work unit still holds one of
 * its ABT_units (docs/REFERENCE.md, section 7), so a program may poll it
 * until it succeeds. The unit's reference used to be counted out before
 * the free_unit callback ran: a poll in that window freed the pool (its
 * `free` callback, its state, the runtime's own bb_pool) under the running
 * callback, which the runtime itself still read the definition from.
 *
 * A ULT waits in user pool P, which no scheduler serves. A ULT on a
 * secondary ES pops it and pushes it into that ES's pool, which gives the
 * unit back to P: P's free_unit sleeps 100 ms. Meanwhile the primary ULT
 * polls ABT_pool_free(P). P's `free` callback must find no free_unit
 * running, and each pool callback must find the pool's state alive. */
#include <unistd.h>

#include "bb_test.h"
#include <stdatomic.h>

typedef struct {
    atomic_int alive;
    ABT_unit parked; /* the one unit; the pool holds at most one */
} pstate;

static pstate st;
static atomic_int in_free_unit, freed_under_callback, dead_state_seen, ran;

static pstate *state_of(ABT_pool pool)
{
    void *d = NULL;
    CHECK_OK(ABT_pool_get_data(pool, &d));
    return d;
}

static ABT_unit cb_create_unit(ABT_pool pool, ABT_thread thread)
{
    (void)pool;
    return (ABT_unit)thread; /* the thread handle itself: two low bits clear */
}

static void cb_free_unit(ABT_pool pool, ABT_unit unit)
{
    (void)unit;
    pstate *s = state_of(pool);
    atomic_store(&in_free_unit, 1);
    usleep(100 * 1000); /* the poll of ABT_pool_free must not get through now */
    if (!atomic_load(&s->alive))
        atomic_fetch_add(&dead_state_seen, 1);
    atomic_store(&in_free_unit, 0);
}

static ABT_bool cb_is_empty(ABT_pool pool)
{
    return __atomic_load_n(&state_of(pool)->parked, __ATOMIC_ACQUIRE) ? ABT_FALSE : ABT_TRUE;
}

static ABT_thread cb_pop(ABT_pool pool, ABT_pool_context ctx)
{
    (void)ctx;
    ABT_unit u = __atomic_exchange_n(&state_of(pool)->parked, ABT_UNIT_NULL, __ATOMIC_ACQ_REL);
    return (ABT_thread)u;
}

static void cb_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    (void)ctx;
    __atomic_store_n(&state_of(pool)->parked, unit, __ATOMIC_RELEASE);
}

static void cb_free(ABT_pool pool)
{
    pstate *s = state_of(pool);
    if (atomic_load(&in_free_unit))
        atomic_fetch_add(&freed_under_callback, 1);
    atomic_store(&s->alive, 0);
}

static ABT_pool P, Q;

static void body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* On the secondary ES: take the waiting ULT out of P and into Q. */
static void mover(void *arg)
{
    (void)arg;
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(P, &t));
    CHECK(t != ABT_THREAD_NULL);
    if (t != ABT_THREAD_NULL)
        CHECK_OK(ABT_pool_push_thread(Q, t)); /* P's free_unit runs here */
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    atomic_store(&st.alive, 1);
    ABT_pool_user_def def;
    CHECK_OK(ABT_pool_user_def_create(cb_create_unit, cb_free_unit, cb_is_empty, cb_pop, cb_push,
                                      &def));
    CHECK_OK(ABT_pool_user_def_set_free(def, cb_free));
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &P));
    CHECK_OK(ABT_pool_user_def_free(&def));
    CHECK_OK(ABT_pool_set_data(P, &st));

    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &Q));

    ABT_thread t, m;
    CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ERR(ABT_pool_free(&P), ABT_ERR_POOL); /* t holds one of P's units */
    ABT_pool keep = P;
    CHECK_OK(ABT_thread_create(Q, mover, NULL, ABT_THREAD_ATTR_NULL, &m));

    /* Poll until P may go, as the documented refusal allows. */
    int polls = 0;
    while (ABT_pool_free(&P) != ABT_SUCCESS) {
        usleep(200);
        polls++;
    }
    CHECK(P == ABT_POOL_NULL);
    (void)keep;
    CHECK_EQ(atomic_load(&freed_under_callback), 0);

    CHECK_OK(ABT_thread_free(&m));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&ran), 1);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(atomic_load(&dead_state_seen), 0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
