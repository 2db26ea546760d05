/* ABT_self_* before ABT_init and after the last ABT_finalize return
 * ABT_ERR_UNINITIALIZED; the 1.x routines that pre-set their output
 * (get_type -> EXT, is_primary/on_primary -> FALSE, get_last_pool_id -> -1,
 * get_arg -> NULL) leave that value behind. */
#include "handover_util.h"

/* Handles that were never valid: the routines must not look at them. */
#define BOGUS_ULT ((ABT_thread)(intptr_t)0x10)
#define BOGUS_POOL ((ABT_pool)(intptr_t)0x10)

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    check_all_self_routines_fail(ABT_ERR_UNINITIALIZED, BOGUS_ULT, BOGUS_POOL);
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_finalize());
    check_all_self_routines_fail(ABT_ERR_UNINITIALIZED, BOGUS_ULT, BOGUS_POOL);
    BB_TEST_END();
}
