/* Allocation / thread-creation failure inside ABT_xstream_create,
 * ABT_xstream_create_basic and ABT_xstream_create_with_rank (issue #5): for
 * every k the call returns ABT_ERR_MEM or ABT_ERR_SYS with *newxstream =
 * ABT_XSTREAM_NULL, leaks nothing, and ESs can be created and used after. */
#include "fault_inject.h"

static void destroy_es(void **out)
{
    ABT_xstream es = (ABT_xstream)*out;
    CHECK(es != ABT_XSTREAM_NULL);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
}

static void use_es(void)
{
    fi_workload();
}

/* After a failed create the rank space must be as before: rank 5 is free. */
static int create_plain(void **out)
{
    return ABT_xstream_create(ABT_SCHED_NULL, (ABT_xstream *)out);
}

static int create_basic(void **out)
{
    return ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 0, NULL, ABT_SCHED_CONFIG_NULL,
                                    (ABT_xstream *)out);
}

static int create_basic_prio(void **out)
{
    return ABT_xstream_create_basic(ABT_SCHED_PRIO, 0, NULL, ABT_SCHED_CONFIG_NULL,
                                    (ABT_xstream *)out);
}

static int create_rank(void **out)
{
    return ABT_xstream_create_with_rank(ABT_SCHED_NULL, 5, (ABT_xstream *)out);
}

static void check_rank_free(void)
{
    /* the failed create must not have kept rank 5 */
    ABT_xstream es = ABT_XSTREAM_NULL;
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 5, &es));
    int rank = -1;
    CHECK_OK(ABT_xstream_get_rank(es, &rank));
    CHECK_EQ(rank, 5);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
}

static void check_num_xstreams(void)
{
    int n = -1;
    CHECK_OK(ABT_xstream_get_num(&n));
    CHECK_EQ(n, 1);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    fi_begin();
    fi_case cases[] = {
        {.name = "ABT_xstream_create", .out_rule = FI_OUT_NULL, .create = create_plain,
         .destroy = destroy_es, .check_failed = check_num_xstreams, .use = use_es},
        {.name = "ABT_xstream_create_basic(DEFAULT)", .out_rule = FI_OUT_NULL,
         .create = create_basic, .destroy = destroy_es, .check_failed = check_num_xstreams,
         .use = use_es},
        {.name = "ABT_xstream_create_basic(PRIO)", .out_rule = FI_OUT_NULL,
         .create = create_basic_prio, .destroy = destroy_es,
         .check_failed = check_num_xstreams, .use = use_es},
        {.name = "ABT_xstream_create_with_rank", .out_rule = FI_OUT_NULL,
         .create = create_rank, .destroy = destroy_es, .check_failed = check_rank_free,
         .use = use_es},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        fi_sweep(&cases[i]);
    BB_TEST_END();
}
