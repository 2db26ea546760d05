/* Regression (audit): queries about a terminated, not yet freed ULT whose
 * ES has been freed since, and its automatic pool with it, must not read
 * either: ABT_info_print_thread names the ES as freed instead of reading
 * its rank, ABT_thread_get_last_pool_id gives -1, and ABT_thread_migrate
 * of a suspended ULT whose last ES is gone picks another ES. Before, each
 * read freed memory (AddressSanitizer: heap-use-after-free). */
#include "bb_test.h"

static void nothing(void *arg)
{
    (void)arg;
}

static void suspends(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_self_suspend());
}

static int print_thread(ABT_thread t, char *out, size_t size)
{
    FILE *fp = fmemopen(out, size, "w");
    CHECK(fp != NULL);
    int err = ABT_info_print_thread(fp, t);
    fclose(fp);
    return err;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));

    /* A ULT that ran and ended on ES e, then e freed with its pool. */
    ABT_xstream e;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &e));
    ABT_thread t;
    CHECK_OK(ABT_thread_create_on_xstream(e, nothing, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    int id = -2;
    CHECK_OK(ABT_thread_get_last_pool_id(t, &id));
    CHECK(id >= 0);
    CHECK_OK(ABT_xstream_free(&e));
    CHECK_OK(ABT_thread_get_last_pool_id(t, &id));
    CHECK_EQ(id, -1);
    char text[4096] = "";
    CHECK_OK(print_thread(t, text, sizeof(text)));
    CHECK(strstr(text, "(freed)") != NULL);
    CHECK_OK(ABT_thread_free(&t));

    /* A ULT suspended in a pool of the user's, its last ES freed since. */
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &e));
    CHECK_OK(ABT_thread_create(pool, suspends, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state state;
    do {
        CHECK_OK(ABT_thread_get_state(t, &state));
    } while (state != ABT_THREAD_STATE_BLOCKED);
    /* e would wait for the blocked ULT of a pool only it serves: a second
     * ES shares the pool, so that e can go. */
    ABT_xstream e2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &e2));
    CHECK_OK(ABT_xstream_free(&e));
    CHECK_OK(print_thread(t, text, sizeof(text)));
    CHECK(strstr(text, "(freed)") != NULL);
    int err = ABT_thread_migrate(t); /* to another ES than the freed one */
    CHECK(err == ABT_SUCCESS || err == ABT_ERR_MIGRATION_NA);
    CHECK_OK(ABT_thread_resume(t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_free(&e2));
    CHECK_OK(ABT_pool_free(&pool));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
