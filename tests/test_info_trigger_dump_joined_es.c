/* A stack dump does not wait for an ES that has ended: one ES is joined but
 * not freed (it stays in the table, but never reaches an event check
 * again), another runs. The dump, asked with a 5 s timeout, must complete
 * without it (forced = ABT_FALSE). Before, the leader counted the ended
 * ES among those to wait for, and every such dump ran into its timeout (or,
 * with a negative one, waited for ever). */
#include "bb_test.h"

static int dumps; /* atomic */
static ABT_bool last_forced;

static void dumped(ABT_bool forced, void *arg)
{
    (void)arg;
    __atomic_store_n(&last_forced, forced, __ATOMIC_RELAXED);
    __atomic_fetch_add(&dumps, 1, __ATOMIC_RELEASE);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    FILE *out = tmpfile();
    CHECK(out != NULL);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream ended, running;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &ended));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &running));
    CHECK_OK(ABT_xstream_join(ended));

    CHECK_OK(ABT_info_trigger_print_all_thread_stacks(out, 5.0, dumped, NULL));
    while (__atomic_load_n(&dumps, __ATOMIC_ACQUIRE) == 0)
        CHECK_OK(ABT_thread_yield()); /* the primary ES takes part */
    CHECK_EQ(__atomic_load_n(&last_forced, __ATOMIC_RELAXED), ABT_FALSE); /* no timeout */

    CHECK_OK(ABT_xstream_free(&ended));
    CHECK_OK(ABT_xstream_free(&running));
    CHECK_OK(ABT_finalize());
    fclose(out);
    BB_TEST_END();
}
