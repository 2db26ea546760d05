/* A private pool that only a stacked scheduler holds has no home, and
 * nobody but the ES that runs that scheduler may change it (REFERENCE.md,
 * section 7; pool.c, bb_pool_touchable_here): a ULT moved into it from
 * another thread waits on the pool's incoming stack until the scheduler
 * takes it in. So a legacy user pool of access ABT_POOL_ACCESS_PRIV, whose
 * code takes no lock, sees its p_push and p_pop called from that one OS
 * thread only.
 *
 * S (BASIC over L, a legacy PRIV pool with unlocked callbacks that record
 * their thread) is stacked into ES 1's pool. A ULT that S runs keeps it busy
 * (yielding) until the primary ULT has moved three ULTs from a pool nobody
 * serves into L. All must run, and every p_push / p_pop must have come from
 * ES 1's thread. */
#include "pool_user_util.h"

static pthread_t es1_thread;
static atomic_int es1_known, wrong_thread, moved;
static up_unit *lhead, *ltail;
static size_t lsize;

static void check_thread(const char *what)
{
    if (atomic_load(&es1_known) && !pthread_equal(pthread_self(), es1_thread)) {
        fprintf(stderr, "%s from another thread\n", what);
        atomic_fetch_add(&wrong_thread, 1);
    }
}

static size_t l_get_size(ABT_pool pool)
{
    (void)pool;
    return lsize;
}

static void l_push(ABT_pool pool, ABT_unit unit)
{
    (void)pool;
    check_thread("p_push");
    up_unit *u = (up_unit *)unit;
    u->next = NULL;
    u->prev = ltail;
    if (ltail)
        ltail->next = u;
    else
        lhead = u;
    ltail = u;
    u->in_pool = 1;
    lsize++;
}

static ABT_unit l_pop(ABT_pool pool)
{
    (void)pool;
    up_unit *u = lhead;
    if (!u)
        return ABT_UNIT_NULL;
    check_thread("p_pop");
    lhead = u->next;
    if (lhead)
        lhead->prev = NULL;
    else
        ltail = NULL;
    u->in_pool = 0;
    lsize--;
    return (ABT_unit)u;
}

static atomic_int ran;
static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

static void busy(void *arg)
{
    (void)arg;
    es1_thread = pthread_self();
    atomic_store(&es1_known, 1);
    while (atomic_load(&moved) < 3)
        ABT_thread_yield();
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool_def def;
    memset(&def, 0, sizeof(def));
    def.access = ABT_POOL_ACCESS_PRIV;
    def.u_create_from_thread = up_l_create_from_thread;
    def.u_free = up_l_free;
    def.p_get_size = l_get_size;
    def.p_push = l_push;
    def.p_pop = l_pop;
    ABT_pool l;
    CHECK_OK(ABT_pool_create((ABT_pool_user_def)&def, ABT_POOL_CONFIG_NULL, &l));
    ABT_pool p, parking;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &parking));
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 0, ABT_sched_config_var_end));
    ABT_sched s;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &l, cfg, &s));
    CHECK_OK(ABT_sched_config_free(&cfg));
    ABT_thread b;
    CHECK_OK(ABT_thread_create(parking, busy, NULL, ABT_THREAD_ATTR_NULL, &b));
    ABT_thread got;
    CHECK_OK(ABT_pool_pop_thread(parking, &got));
    CHECK_OK(ABT_pool_push_thread(l, b)); /* before anyone holds L */
    CHECK_OK(ABT_pool_add_sched(p, s));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es));
    while (!atomic_load(&es1_known))
        usleep(100);
    ABT_thread t[3];
    for (int i = 0; i < 3; i++) {
        CHECK_OK(ABT_thread_create(parking, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        int err = ABT_thread_migrate_to_pool(t[i], l);
        CHECK_OK(err);
        atomic_fetch_add(&moved, 1);
    }
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_EQ(atomic_load(&ran), 3);
    CHECK_EQ(atomic_load(&wrong_thread), 0);
    CHECK_OK(ABT_xstream_free(&es));
    int err;
    while ((err = ABT_sched_free(&s)) == ABT_ERR_SCHED)
        usleep(1000);
    CHECK_OK(err);
    CHECK_OK(ABT_pool_free(&l));
    CHECK_OK(ABT_pool_free(&p));
    CHECK_OK(ABT_pool_free(&parking));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
