/* ABT_cond_create / ABT_cond_free: a NULL out-pointer is ABT_ERR_INV_ARG;
 * without ABT_init they return ABT_ERR_UNINITIALIZED and create sets *out =
 * ABT_COND_NULL first; freeing ABT_COND_NULL is ABT_ERR_INV_COND; free sets
 * the handle to ABT_COND_NULL; a cond that was waited on (and timed out) and
 * signalled can be freed once nobody waits; signal and broadcast with a NULL
 * cond are ABT_ERR_INV_COND. */
#include "bb_test.h"
#include <time.h>

int main(void)
{
    BB_TEST_BEGIN(10);
    ABT_cond c = (ABT_cond)(void *)0x1;
    CHECK_ERR(ABT_cond_create(&c), ABT_ERR_UNINITIALIZED);
    CHECK(c == ABT_COND_NULL);
    CHECK_ERR(ABT_cond_create(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_cond_free(&c), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_cond_signal(ABT_COND_NULL), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_broadcast(ABT_COND_NULL), ABT_ERR_INV_COND);

    CHECK_OK(ABT_init(0, NULL));
    CHECK_ERR(ABT_cond_create(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_cond_free(NULL), ABT_ERR_INV_ARG);
    c = ABT_COND_NULL;
    CHECK_ERR(ABT_cond_free(&c), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_signal(ABT_COND_NULL), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_broadcast(ABT_COND_NULL), ABT_ERR_INV_COND);

    CHECK_OK(ABT_cond_create(&c));
    CHECK(c != ABT_COND_NULL);
    ABT_cond c2;
    CHECK_OK(ABT_cond_create(&c2));
    CHECK(c2 != c);
    CHECK_OK(ABT_cond_free(&c2));
    CHECK(c2 == ABT_COND_NULL);

    /* Used, then freed. */
    ABT_mutex m;
    CHECK_OK(ABT_mutex_create(&m));
    CHECK_OK(ABT_cond_signal(c));
    CHECK_OK(ABT_cond_broadcast(c));
    struct timespec past;
    clock_gettime(CLOCK_REALTIME, &past);
    past.tv_sec -= 1;
    CHECK_OK(ABT_mutex_lock(m));
    CHECK_ERR(ABT_cond_timedwait(c, m, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK_OK(ABT_mutex_unlock(m));
    CHECK_OK(ABT_cond_free(&c));
    CHECK(c == ABT_COND_NULL);
    CHECK_ERR(ABT_cond_free(&c), ABT_ERR_INV_COND);
    CHECK_OK(ABT_mutex_free(&m));
    CHECK_OK(ABT_finalize());

    c = (ABT_cond)(void *)0x1;
    CHECK_ERR(ABT_cond_create(&c), ABT_ERR_UNINITIALIZED);
    CHECK(c == ABT_COND_NULL);
    BB_TEST_END();
}
