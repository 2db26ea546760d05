/* ABT_initialized reports the runtime state as a status code, before, during
 * and after ABT_init / ABT_finalize; ABT_finalize before init is an error. */
#include "bb_test.h"

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_finalize(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_initialized());
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_finalize(), ABT_ERR_UNINITIALIZED);

    /* argc/argv are ignored. */
    char arg0[] = "prog", arg1[] = "--whatever";
    char *argv[] = {arg0, arg1, NULL};
    CHECK_OK(ABT_init(2, argv));
    CHECK_OK(ABT_initialized());
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    BB_TEST_END();
}
