/* The primary ULT's key values are destroyed inside ABT_finalize (which
 * frees the primary ULT), exactly once each, even for a key freed before
 * ABT_finalize; not for a NULL value or a key without a destructor. Nothing
 * runs before ABT_finalize. A second
 * ABT_init gives a new primary ULT that starts with NULL values. */
#include "bb_test.h"
#include <stdatomic.h>

static int a, b, c, d;
static atomic_int calls_a, calls_b, calls_c, calls_d, stray;
static ABT_key k1, k2, k3, k4, k5;

static void dtor(void *value)
{
    if (value == &a)
        atomic_fetch_add(&calls_a, 1);
    else if (value == &b)
        atomic_fetch_add(&calls_b, 1);
    else if (value == &c)
        atomic_fetch_add(&calls_c, 1);
    else if (value == &d)
        atomic_fetch_add(&calls_d, 1);
    else
        atomic_fetch_add(&stray, 1);
}

static int total(void)
{
    return atomic_load(&calls_a) + atomic_load(&calls_b) + atomic_load(&calls_c) +
           atomic_load(&calls_d) + atomic_load(&stray);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(dtor, &k1));
    CHECK_OK(ABT_key_create(dtor, &k2));
    CHECK_OK(ABT_key_create(NULL, &k3));
    CHECK_OK(ABT_key_create(dtor, &k4));
    CHECK_OK(ABT_key_create(dtor, &k5));
    CHECK_OK(ABT_self_set_specific(k1, &a));
    CHECK_OK(ABT_key_set(k2, &b));
    CHECK_OK(ABT_self_set_specific(k3, &c)); /* no destructor */
    CHECK_OK(ABT_self_set_specific(k4, &d));
    CHECK_OK(ABT_self_set_specific(k4, NULL)); /* NULL value */
    CHECK_OK(ABT_self_set_specific(k5, &a));
    CHECK_OK(ABT_self_set_specific(k5, &b)); /* overwritten: destroy &b, not &a */
    CHECK_OK(ABT_key_free(&k2));             /* its value is still destroyed */

    usleep(20000);
    CHECK_EQ(total(), 0);
    CHECK_OK(ABT_key_free(&k1));
    CHECK_OK(ABT_key_free(&k3));
    CHECK_OK(ABT_key_free(&k4));
    CHECK_OK(ABT_key_free(&k5));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&calls_a), 1);
    CHECK_EQ(atomic_load(&calls_b), 2);
    CHECK_EQ(atomic_load(&calls_c), 0);
    CHECK_EQ(atomic_load(&calls_d), 0);
    CHECK_EQ(atomic_load(&stray), 0);

    /* A new session: a new primary ULT with no values. */
    CHECK_OK(ABT_init(0, NULL));
    ABT_key k;
    CHECK_OK(ABT_key_create(dtor, &k));
    void *v = &a;
    CHECK_OK(ABT_self_get_specific(k, &v));
    CHECK(v == NULL);
    CHECK_OK(ABT_key_free(&k));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(total(), 3);
    BB_TEST_END();
}
