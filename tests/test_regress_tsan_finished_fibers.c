/* A program may create thousands of ULTs, let them all finish, and free
 * them only afterwards (a fork-join whose joins come last). Under
 * ThreadSanitizer each ULT that runs gets a TSan fiber, and TSan counts
 * fibers among its threads, of which it allows 8,128 (GCC 12): holding the
 * fiber of a finished ULT until the ULT was freed killed this program
 * ("ThreadSanitizer: Thread limit (8128 threads) exceeded. Dying.") before
 * the fix. A finished ULT now gives its fiber back when it ends. Under the
 * other builds nothing changes: every ULT runs once and is freed. Revived
 * ULTs run again, each on a new fiber, to check that one that gave its
 * fiber back can get another. Under each parent-first technique (the
 * suite's own setting is back afterwards): under auto, sc and ss the ULTs
 * of this program need no fibers of their own, and it passed before the
 * fix; under full it did not. */
#include <stdlib.h>
#include <string.h>
#include "bb_test.h"

#define NUM_ULTS 9000 /* more than TSan's threads */

static int runs[NUM_ULTS];

static void body(void *arg)
{
    runs[(int *)arg - runs]++;
}

static void fork_then_join(void)
{
    ABT_xstream self;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));

    static ABT_thread ults[NUM_ULTS];
    for (int i = 0; i < NUM_ULTS; i++)
        CHECK_OK(ABT_thread_create(pool, body, &runs[i], ABT_THREAD_ATTR_NULL, &ults[i]));
    /* The first join runs them all, the oldest first, before any is freed. */
    for (int i = 0; i < NUM_ULTS; i++)
        CHECK_OK(ABT_thread_join(ults[i]));
    for (int i = 0; i < 100; i++) /* a few again, on new fibers */
        CHECK_OK(ABT_thread_revive(pool, body, &runs[i], &ults[i]));
    for (int i = 0; i < NUM_ULTS; i++)
        CHECK_OK(ABT_thread_free(&ults[i]));
    for (int i = 0; i < NUM_ULTS; i++)
        CHECK_EQ(runs[i], i < 100 ? 2 : 1);
}

int main(void)
{
    BB_TEST_BEGIN(300);
    static const char *const techniques[] = {"full", "full-l", "roc", "roc-l",
                                             "ss",   "ss-l",   "sc",  "auto"};
    const char *before = getenv("ABT_THREAD_TECHNIQUE");
    char *saved = before ? strdup(before) : NULL;
    for (size_t t = 0; t < sizeof(techniques) / sizeof(techniques[0]); t++) {
        setenv("ABT_THREAD_TECHNIQUE", techniques[t], 1);
        memset(runs, 0, sizeof(runs));
        CHECK_OK(ABT_init(0, NULL));
        fork_then_join();
        CHECK_OK(ABT_finalize());
    }
    if (saved)
        setenv("ABT_THREAD_TECHNIQUE", saved, 1);
    free(saved);
    BB_TEST_END();
}
