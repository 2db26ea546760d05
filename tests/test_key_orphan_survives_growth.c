/* A value set under a key that was freed since, whose slot a new key then
 * took on the same unit, is kept for its destructor (REFERENCE, section 17:
 * destructors run "even after ABT_key_free"). It must still run when the
 * unit's table grows afterwards (a value set with a key of a higher slot):
 * the kept value moves into the grown table. Mutation testing (key.c, grow)
 * found nothing checking that move; without it the destructor never runs
 * and the value's record leaks. */
#include "bb_test.h"

enum { MORE_KEYS = 64 };

static int d_old, d_new, d_far;
static int v_old, v_new, v_far;

static void dtor_old(void *v)
{
    if (v == &v_old)
        d_old++;
}

static void dtor_new(void *v)
{
    if (v == &v_new)
        d_new++;
}

static void dtor_far(void *v)
{
    if (v == &v_far)
        d_far++;
}

static void body(void *arg)
{
    (void)arg;
    ABT_key old_key, new_key, more[MORE_KEYS];
    CHECK_OK(ABT_key_create(dtor_old, &old_key));
    CHECK_OK(ABT_key_set(old_key, &v_old));
    CHECK_OK(ABT_key_free(&old_key));
    CHECK_OK(ABT_key_create(dtor_new, &new_key)); /* takes the freed slot */
    CHECK_OK(ABT_key_set(new_key, &v_new));      /* v_old kept for dtor_old */
    for (int i = 0; i < MORE_KEYS; i++)
        CHECK_OK(ABT_key_create(i == MORE_KEYS - 1 ? dtor_far : NULL, &more[i]));
    for (int i = 0; i < MORE_KEYS; i++) /* some slot is beyond the table: it grows */
        CHECK_OK(ABT_key_set(more[i], &v_far));
    void *v = NULL;
    CHECK_OK(ABT_key_get(new_key, &v));
    CHECK(v == &v_new);
    CHECK_OK(ABT_key_get(more[MORE_KEYS - 1], &v));
    CHECK(v == &v_far);
    for (int i = 0; i < MORE_KEYS; i++)
        CHECK_OK(ABT_key_free(&more[i]));
    CHECK_OK(ABT_key_free(&new_key));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    for (int ult = 0; ult < 2; ult++) {
        d_old = d_new = d_far = 0;
        ABT_thread t;
        if (ult)
            CHECK_OK(ABT_thread_create(bb_test_main_pool(), body, NULL, ABT_THREAD_ATTR_NULL, &t));
        else
            CHECK_OK(ABT_task_create(bb_test_main_pool(), body, NULL, &t));
        CHECK_OK(ABT_thread_join(t));
        CHECK_EQ(d_old + d_new + d_far, 0); /* at the free, not at the end */
        CHECK_OK(ABT_thread_free(&t));
        CHECK_EQ(d_old, 1);
        CHECK_EQ(d_new, 1);
        CHECK_EQ(d_far, 1);
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
