/* Regression (round 10b, extreme values): ABT_SCHED_EVENT_FREQ (or
 * ABT_ENV_SCHED_EVENT_FREQ), Argobots' environment variable for how many
 * units a predefined scheduler runs between event checks, sets that default:
 * for the primary ES's scheduler, for ESs made without a scheduler and for
 * ABT_sched_create_basic without ABT_sched_basic_freq in its configuration
 * (which still wins); ABT_info_query_config reports it. Values below 1 are
 * clamped to 1, above INT_MAX to INT_MAX, garbage falls back to 50. It used
 * to be ignored, and the query always answered 50. */
#include <limits.h>
#include <stdint.h>
#include "bb_test.h"

static uint64_t query_freq(void)
{
    uint64_t v = 0;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_SCHED_EVENT_FREQ, &v));
    return v;
}

/* The event frequency ABT_info_print_sched shows for `sched`, or -1. */
static long printed_freq(ABT_sched sched)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    CHECK(fp != NULL);
    if (!fp)
        return -1;
    CHECK_OK(ABT_info_print_sched(fp, sched));
    fclose(fp);
    long freq = -1;
    const char *at = text ? strstr(text, "event freq") : NULL;
    if (at && (at = strchr(at, ':')) != NULL)
        freq = strtol(at + 1, NULL, 10);
    free(text);
    return freq;
}

static long primary_sched_freq(void)
{
    ABT_xstream self;
    ABT_sched sched;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_sched(self, &sched));
    return printed_freq(sched);
}

/* ABT_init with the variables as given (NULL: unset), then every check. */
static void check(const char *abt, const char *abt_env, long expected)
{
    if (abt)
        setenv("ABT_SCHED_EVENT_FREQ", abt, 1);
    else
        unsetenv("ABT_SCHED_EVENT_FREQ");
    if (abt_env)
        setenv("ABT_ENV_SCHED_EVENT_FREQ", abt_env, 1);
    else
        unsetenv("ABT_ENV_SCHED_EVENT_FREQ");
    CHECK_OK(ABT_init(0, NULL));
    uint64_t queried = query_freq();
    long primary = primary_sched_freq();

    ABT_xstream es;
    ABT_sched sched;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_sched(es, &sched));
    long secondary = printed_freq(sched);
    CHECK_OK(ABT_xstream_free(&es));

    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &sched));
    long basic = printed_freq(sched);
    CHECK_OK(ABT_sched_free(&sched));

    ABT_sched_config config;
    CHECK_OK(ABT_sched_config_create(&config, ABT_sched_basic_freq, 3, ABT_sched_config_var_end));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_RANDWS, 0, NULL, config, &sched));
    long configured = printed_freq(sched);
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_OK(ABT_sched_config_free(&config));
    CHECK_OK(ABT_finalize());

    if ((long)queried != expected || primary != expected || secondary != expected ||
        basic != expected || configured != 3)
        BB_FAIL_AT("ABT_=%s ABT_ENV_=%s: queried %llu, primary %ld, secondary %ld, basic %ld, "
                   "configured %ld (want %ld, and 3 configured)",
                   abt ? abt : "(unset)", abt_env ? abt_env : "(unset)",
                   (unsigned long long)queried, primary, secondary, basic, configured, expected);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    check(NULL, NULL, 50);
    check("7", NULL, 7);
    check(NULL, "9", 9);
    check("11", "9", 11); /* ABT_ wins */
    check("1", NULL, 1);
    check("0", NULL, 1);
    check("99999999999", NULL, INT_MAX);
    check("-4", NULL, 50);
    check("often", NULL, 50);
    unsetenv("ABT_SCHED_EVENT_FREQ");
    unsetenv("ABT_ENV_SCHED_EVENT_FREQ");
    BB_TEST_END();
}
