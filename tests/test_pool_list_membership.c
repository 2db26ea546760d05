/* Whether a unit is in a built-in pool's list, as ABT_pool_remove decides
 * it, after each way a unit joins or leaves a list: a pop from the tail
 * (RANDWS, OWNER_SECONDARY), the yield through a private FIFO (the head
 * leaves as the yielder joins the tail), yield_to (the target leaves as
 * the yielder joins) and a child-first creation (the creator waits in its
 * pool while the child runs). A unit that left is refused (ABT_ERR_POOL) and one
 * that joined is taken out; a wrong answer would unlink a unit that is in
 * no list, or leave one in (bb_pool_list.h, list_holds). */
#include "bb_test.h"

static ABT_pool main_pool, priv_pool;
static ABT_thread driver;
static int checked;

static ABT_unit unit_of(ABT_thread t)
{
    ABT_unit u;
    CHECK_OK(ABT_thread_get_unit(t, &u));
    return u;
}

static ABT_unit self_unit(void)
{
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    return unit_of(self);
}

static void noop(void *arg)
{
    (void)arg;
}

static void tail_pops(void)
{
    ABT_pool r;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &r));
    ABT_thread t[3];
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_create(r, noop, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    ABT_thread popped = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread_ex(r, &popped, ABT_POOL_CONTEXT_OWNER_SECONDARY));
    CHECK(popped != ABT_THREAD_NULL);
    CHECK_ERR(ABT_pool_remove(r, unit_of(popped)), ABT_ERR_POOL);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(r, &size));
    CHECK_EQ(size, 2);
    CHECK_OK(ABT_pool_push_thread(main_pool, popped));
    for (int i = 0; i < 3; i++) /* the two left in r go the same way */
        if (t[i] != popped) {
            CHECK_OK(ABT_pool_remove(r, unit_of(t[i])));
            CHECK_OK(ABT_pool_push_thread(main_pool, t[i]));
        }
    CHECK_OK(ABT_pool_get_size(r, &size));
    CHECK_EQ(size, 0);
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_pool_free(&r));
}

/* A child-first creation from a ULT of a shared pool: the creator waits in
 * its pool while the child runs, and is taken back (or popped) after. */
static void create_to_creator(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_thread_create_to(main_pool, noop, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_ERR(ABT_pool_remove(main_pool, self_unit()), ABT_ERR_POOL);
    checked++;
}

/* Run in the driver's place: by its yield (this one, the head, left the
 * list as the driver joined its tail) or by its yield_to (this one left the
 * middle of the list, the driver joined). */
static void took_drivers_place(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_pool_remove(priv_pool, self_unit()), ABT_ERR_POOL);
    CHECK_OK(ABT_pool_remove(priv_pool, unit_of(driver)));
    CHECK_OK(ABT_pool_push_thread(priv_pool, driver));
    checked++;
}

/* On the ES whose private FIFO is priv_pool, where a yield rotates the list
 * and yield_to trades the target for the yielder. */
static void drive(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_self_get_thread(&driver));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(priv_pool, took_drivers_place, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_yield());
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(checked, 1);

    /* The peer waits in the middle of the list, between two other units. */
    ABT_thread peer;
    CHECK_OK(ABT_thread_create(priv_pool, noop, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_thread_create(priv_pool, took_drivers_place, NULL, ABT_THREAD_ATTR_NULL, &peer));
    CHECK_OK(ABT_thread_create(priv_pool, noop, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_thread_yield_to(peer));
    CHECK_OK(ABT_thread_free(&peer));
    CHECK_EQ(checked, 2);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &main_pool));

    tail_pops();

    ABT_thread c;
    CHECK_OK(ABT_thread_create(main_pool, create_to_creator, NULL, ABT_THREAD_ATTR_NULL, &c));
    CHECK_OK(ABT_thread_free(&c));
    CHECK_EQ(checked, 1);
    checked = 0;

    /* The driver goes into the private pool before its ES holds it. */
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &priv_pool));
    ABT_thread d;
    CHECK_OK(ABT_thread_create(priv_pool, drive, NULL, ABT_THREAD_ATTR_NULL, &d));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &priv_pool, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_free(&d));
    CHECK_EQ(checked, 2);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&priv_pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
