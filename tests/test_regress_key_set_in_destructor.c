/* A key destructor that sets a value on the unit being freed
 * (src/unit/key.c, bb_unit_free_keys).
 *
 * The destructors ran over the unit's table after taking it off the unit;
 * a value set meanwhile on that unit (ABT_thread_set_specific with its
 * handle) went into a fresh table that nobody looked at again: its
 * destructor never ran and the table leaked (LeakSanitizer), once per
 * freed unit. As POSIX does for thread-specific data, such values now get
 * further passes, up to 4; a destructor that sets a value every time is
 * called 4 times and the rest dropped, without leaking or looping.
 *  1. a ULT's destructor of key A sets key B on the ULT: B's destructor
 *     runs once, with that value, for each of 20 ULTs;
 *  2. a destructor of key C that always sets C again: 4 calls, then the
 *     free returns. */
#include "bb_test.h"

static ABT_key key_a, key_b, key_c;
static ABT_thread being_freed;
static int n_a, n_b, n_c, bad_b;

static void destroy_b(void *value)
{
    n_b++;
    if (value != (void *)&key_b)
        bad_b++;
}

static void destroy_a(void *value)
{
    (void)value;
    n_a++;
    CHECK_OK(ABT_thread_set_specific(being_freed, key_b, &key_b));
}

static void destroy_c(void *value)
{
    (void)value;
    n_c++;
    CHECK_OK(ABT_thread_set_specific(being_freed, key_c, &key_c));
}

static void set_a(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_key_set(key_a, &key_a));
}

static void set_c(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_key_set(key_c, &key_c));
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(destroy_a, &key_a));
    CHECK_OK(ABT_key_create(destroy_b, &key_b));
    CHECK_OK(ABT_key_create(destroy_c, &key_c));
    ABT_xstream self;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));

    for (int i = 0; i < 20; i++) {
        CHECK_OK(ABT_thread_create(pool, set_a, NULL, ABT_THREAD_ATTR_NULL, &being_freed));
        CHECK_OK(ABT_thread_join(being_freed));
        ABT_thread t = being_freed;
        CHECK_OK(ABT_thread_free(&t));
    }
    CHECK_EQ(n_a, 20);
    CHECK_EQ(n_b, 20);
    CHECK_EQ(bad_b, 0);

    CHECK_OK(ABT_thread_create(pool, set_c, NULL, ABT_THREAD_ATTR_NULL, &being_freed));
    CHECK_OK(ABT_thread_join(being_freed));
    ABT_thread t = being_freed;
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(n_c, 4);

    CHECK_OK(ABT_key_free(&key_a));
    CHECK_OK(ABT_key_free(&key_b));
    CHECK_OK(ABT_key_free(&key_c));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
