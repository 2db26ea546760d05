/* Regression (round 10b, counters): a unit's value under a freed key must
 * never show through a later key, however many keys were created and freed
 * in between. Keys reuse the slot freed last, told apart by a generation
 * counter that each create and each free advance; it was 32 bits wide, so
 * after 2^31 create/free pairs (about two minutes of this loop) a brand new
 * key matched the first one's generation and ABT_key_get returned the stale
 * value (and ABT_key_set would have overwritten it without running its
 * destructor).
 *
 * The loop takes minutes, longer than the suite's timeout: it runs only
 * with BB_TEST_LONG=1 (else the test is skipped, exit 77). */
#include <stdint.h>
#include "bb_test.h"

static int destructed;

static void destructor(void *value)
{
    CHECK(value == (void *)0x1234);
    destructed++;
}

static void *seen = (void *)1;
static int set_err = -1;

static void body(void *arg)
{
    (void)arg;
    ABT_key first;
    CHECK_OK(ABT_key_create(destructor, &first));
    CHECK_OK(ABT_key_set(first, (void *)0x1234));
    CHECK_OK(ABT_key_free(&first));
    /* 2^31 - 1 more pairs in the same slot, then the key that used to wrap
     * around onto the first one's generation. */
    for (uint32_t i = 0; i < (1u << 31) - 1; i++) {
        ABT_key k;
        if (ABT_key_create(NULL, &k) != ABT_SUCCESS || ABT_key_free(&k) != ABT_SUCCESS) {
            BB_FAIL_AT("create/free pair %u failed", i);
            return;
        }
    }
    ABT_key fresh;
    CHECK_OK(ABT_key_create(NULL, &fresh));
    CHECK_OK(ABT_key_get(fresh, &seen));
    set_err = ABT_key_set(fresh, (void *)0x5678); /* the old value must keep its destructor */
    CHECK_OK(ABT_key_free(&fresh));
}

int main(void)
{
    const char *slow = getenv("BB_TEST_LONG");
    if (!slow || strcmp(slow, "1") != 0) {
        printf("skipped: takes minutes; run with BB_TEST_LONG=1\n");
        return 77;
    }
    BB_TEST_BEGIN(1200);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK(seen == NULL);
    CHECK_OK(set_err);
    CHECK_EQ(destructed, 1);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
