/* ABT_thread_create_to switches to the new ULT immediately: the child runs
 * before create_to returns to its caller, the handle is already stored when
 * the child starts, and the caller goes back to its pool, from which the
 * child's end takes it back (test_thread_create_to_child_first has more).
 * Checked from a ULT on a secondary ES and from the primary ULT. */
#include "bb_test.h"

static int seq;
static int child_seq, after_seq, other_seq;
static ABT_thread child_handle;
static int handle_ok;
static ABT_pool pool1;

static void child(void *arg)
{
    (void)arg;
    child_seq = ++seq;
    ABT_thread self;
    ABT_self_get_thread(&self);
    handle_ok = (self == child_handle);
}

static void other(void *arg)
{
    (void)arg;
    other_seq = ++seq;
}

static void parent(void *arg)
{
    (void)arg;
    /* `other` is queued behind us: it must not run before the child. */
    ABT_thread o;
    ABT_thread_create(pool1, other, NULL, ABT_THREAD_ATTR_NULL, &o);
    seq = 0;
    ABT_thread_create_to(pool1, child, NULL, ABT_THREAD_ATTR_NULL, &child_handle);
    after_seq = ++seq;
    ABT_thread_free(&o);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es, es;
    ABT_pool pool0;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    ABT_thread p;
    CHECK_OK(ABT_thread_create(pool1, parent, NULL, ABT_THREAD_ATTR_NULL, &p));
    CHECK_OK(ABT_thread_free(&p));
    CHECK_EQ(child_seq, 1);
    CHECK(handle_ok);
    /* The caller was pushed behind `other`, but the child, ending without
     * having yielded, took it back (child-first): other ran last. */
    CHECK_EQ(after_seq, 2);
    CHECK_EQ(other_seq, 3);
    CHECK_OK(ABT_thread_free(&child_handle));

    /* From the primary ULT, with a named child on the primary pool. */
    seq = 0;
    child_seq = other_seq = after_seq = 0;
    CHECK_OK(ABT_thread_create_to(pool0, child, NULL, ABT_THREAD_ATTR_NULL, &child_handle));
    CHECK_EQ(child_seq, 1);
    CHECK(handle_ok);
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(child_handle, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
    ABT_xstream last;
    CHECK_OK(ABT_thread_get_last_xstream(child_handle, &last));
    CHECK(last == self_es);
    CHECK_OK(ABT_thread_free(&child_handle));

    /* Unnamed create_to also runs at once. */
    seq = 0;
    child_seq = 0;
    child_handle = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_create_to(pool0, child, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_EQ(child_seq, 1);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
