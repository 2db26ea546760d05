/* Allocation failure inside ABT_init (issue #5): for every k, failing the k-th
 * allocation / mapping / thread creation of ABT_init makes it return
 * ABT_ERR_MEM or ABT_ERR_SYS, leaves the runtime uninitialized, leaks nothing,
 * and a normal ABT_init / work / ABT_finalize cycle works afterwards. */
#include "fault_inject.h"

static int create_init(void **out)
{
    (void)out;
    return ABT_init(0, NULL);
}

static void destroy_init(void **out)
{
    (void)out;
    CHECK_OK(ABT_finalize());
}

static void check_uninit(void)
{
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
}

static void use_init(void)
{
    CHECK_OK(ABT_init(0, NULL));
    fi_workload();
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    fi_begin();
    fi_case c = {.name = "ABT_init", .out_rule = FI_OUT_NONE, .own_init = 1,
                 .create = create_init, .destroy = destroy_init,
                 .check_failed = check_uninit, .use = use_init};
    fi_sweep(&c);

    /* ABT_finalize is not a create path, but it should not need memory. */
    CHECK_OK(ABT_init(0, NULL));
    fi_workload();
    fi_arm(1000000, 0);
    CHECK_OK(ABT_finalize());
    fi_disarm();
    printf("ABT_finalize made %ld allocation call(s)\n", fi_calls());
    CHECK_EQ(fi_live_mappings(), 0);
    BB_TEST_END();
}
