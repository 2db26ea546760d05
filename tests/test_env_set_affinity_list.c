/* ABT_SET_AFFINITY as a list of CPU sets, in Argobots' syntax: the ES of
 * rank r is bound to set r mod (number of sets); ids are positions in the
 * process's CPU set, modulo its size (so every list below is valid on any
 * machine); a set repeats no CPU; a value that is not a list binds one CPU
 * per ES by rank, as a yes-word does. Checked through get_affinity, the
 * primary thread's own mask and ABT_info_print_config. */
#define _GNU_SOURCE
#include "bb_test.h"
#include "cpu_util.h"
#include <sched.h>
#include <limits.h>
#include <string.h>

static int cpus[CPU_SETSIZE], ncpus;

/* Up to 4 positions per set, E ending a set early. */
#define E INT_MIN
typedef struct {
    int pos[4];
} set_t;

/* The CPUs of positions `s`, in order, without repeats. */
static int expand(const set_t *s, int *out)
{
    int n = 0;
    for (int i = 0; i < 4 && s->pos[i] != E; i++) {
        int p = ((s->pos[i] % ncpus) + ncpus) % ncpus, cpu = cpus[p], seen = 0;
        for (int j = 0; j < n; j++)
            seen |= out[j] == cpu;
        if (!seen)
            out[n++] = cpu;
    }
    return n;
}

static void check_es(ABT_xstream es, const set_t *want)
{
    int expect[4], n = expand(want, expect);
    int got[CPU_SETSIZE], num = -1;
    CHECK_OK(ABT_xstream_get_affinity(es, CPU_SETSIZE, got, &num));
    CHECK_EQ(num, n);
    for (int i = 0; i < n && i < num; i++)
        CHECK_EQ(got[i], expect[i]);
    int cpu = -1;
    CHECK_OK(ABT_xstream_get_cpubind(es, &cpu));
    CHECK_EQ(cpu, expect[0]);
}

/* With ABT_SET_AFFINITY=`list`, ranks 0 .. 4 get sets[r mod nsets]. */
static void check_list(const char *list, const set_t *sets, int nsets)
{
    setenv("ABT_SET_AFFINITY", list, 1);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[5];
    CHECK_OK(ABT_xstream_self(&es[0]));
    for (int r = 1; r < 5; r++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[r]));
    for (int r = 0; r < 5; r++)
        check_es(es[r], &sets[r % nsets]);

    /* The primary thread itself is bound to set 0. */
    int expect[4], n = expand(&sets[0], expect);
    cpu_set_t mine;
    CPU_ZERO(&mine);
    CHECK_EQ(sched_getaffinity(0, sizeof(mine), &mine), 0);
    CHECK_EQ(CPU_COUNT(&mine), n);
    for (int i = 0; i < n; i++)
        CHECK(CPU_ISSET(expect[i], &mine));

    for (int r = 1; r < 5; r++)
        CHECK_OK(ABT_xstream_free(&es[r]));
    CHECK_OK(ABT_finalize());
}

static const set_t one_each[] = {{{0, E}}, {{1, E}}, {{2, E}}, {{3, E}}, {{4, E}}};

static void check_print_config(void)
{
    setenv("ABT_SET_AFFINITY", "{0,1},2", 1);
    CHECK_OK(ABT_init(0, NULL));
    FILE *f = tmpfile();
    CHECK(f != NULL);
    CHECK_OK(ABT_info_print_config(f));
    rewind(f);
    char line[256];
    int found = 0;
    while (fgets(line, sizeof(line), f))
        found |= strstr(line, "ABT_SET_AFFINITY") && strstr(line, "set r mod 2: {");
    fclose(f);
    CHECK(found);
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(30);
    cpu_set_t orig;
    ncpus = read_process_cpus(&orig, cpus);
    unsetenv("ABT_ENV_SET_AFFINITY");

    /* Plain ids, ids with a count, with a count and a stride. */
    check_list("1,0", (set_t[]){{{1, E}}, {{0, E}}}, 2);
    check_list("0:3:2", (set_t[]){{{0, E}}, {{2, E}}, {{4, E}}}, 3);
    check_list("{0}:5", one_each, 5);
    /* Sets of several CPUs, a range inside braces, a repeated set. */
    check_list("{0,1},{1}", (set_t[]){{{0, 1, E}}, {{1, E}}}, 2);
    check_list("{0:2}:2:2", (set_t[]){{{0, 1, E}}, {{2, 3, E}}}, 2);
    check_list("{0:3:2},{1}", (set_t[]){{{0, 2, 4, E}}, {{1, E}}}, 2);
    /* Negative ids and strides wrap; blanks between tokens; repeats go. */
    check_list(" { -1 , 0 } : 2 : -1 ", (set_t[]){{{-1, 0, E}}, {{-2, -1, E}}}, 2);
    check_list("{3,3,3}", (set_t[]){{{3, E}}}, 1);
    /* Not lists: one CPU per ES by rank (with a warning on stderr). */
    const char *bad[] = {"{0,1", "0:0", "abc", "0:1:", "0,,1", "{}", "0:2000000000",
                         "99999999999", "{0}:1:1:1"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        check_list(bad[i], one_each, 5);
    /* "1" is the yes-word, not the set of position 1. */
    check_list("1", one_each, 5);
    check_list("{1}", (set_t[]){{{1, E}}}, 1);

    check_print_config();
    cpu_set_t now;
    CPU_ZERO(&now);
    sched_getaffinity(0, sizeof(now), &now);
    CHECK(CPU_EQUAL(&now, &orig));
    BB_TEST_END();
}
