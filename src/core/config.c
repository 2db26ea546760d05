/*
 * Configuration read from the environment at every full ABT_init. Each
 * setting X is looked up as ABT_X, then as ABT_ENV_X. Numbers that do not
 * parse fall back to the default; all values are clamped to a sane range.
 * README.md, "Environment variables", documents each one.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bb_config.h"
#include "bb_cpu_sets.h"
#include "bb_mem.h"
#include "bb_print.h"
#include "bb_runtime.h"
#include "bb_technique.h"

/* ABT_<name>, else ABT_ENV_<name> (Argobots reads both; ABT_ wins). */
static const char *lookup(const char *name)
{
    char key[64];
    snprintf(key, sizeof(key), "ABT_%s", name);
    const char *value = getenv(key);
    if (value)
        return value;
    snprintf(key, sizeof(key), "ABT_ENV_%s", name);
    return getenv(key);
}

/* "bobbin: ABT_<name>=<value> " and the rest, naming the variable as it was
 * set (ABT_ or ABT_ENV_). */
static __attribute__((format(printf, 3, 4))) void warn(const char *name, const char *value,
                                                       const char *rest, ...)
{
    char key[64];
    snprintf(key, sizeof(key), "ABT_%s", name);
    bb_fprintf(stderr, "bobbin: %s%s=%s ", getenv(key) ? "ABT_" : "ABT_ENV_", name, value);
    va_list ap;
    va_start(ap, rest);
    bb_vfprintf(stderr, rest, ap);
    va_end(ap);
}

/* Whether `s` is a decimal number, blanks around it allowed; its value in
 * *v. */
static bool parse_number(const char *s, unsigned long long *v)
{
    /* strtoull skips leading blanks and then takes a minus sign, wrapping
     * the value around: look for the sign past the blanks, so that " -1" is
     * refused as "-1" is, not clamped to the maximum. */
    const char *first = s;
    while (isspace((unsigned char)*first))
        first++;
    char *end;
    errno = 0;
    *v = strtoull(s, &end, 10);
    /* No digits (strtoull leaves end at s): not a number, also when the
     * value is only blanks, which the skip of trailing blanks below would
     * otherwise move end past, taking " " as 0. */
    bool no_digits = end == s;
    while (*end && isspace((unsigned char)*end))
        end++;
    return !(errno || no_digits || *end || *first == '-');
}

static unsigned long long read_number(const char *name, unsigned long long def,
                                      unsigned long long min, unsigned long long max)
{
    const char *s = lookup(name);
    if (!s)
        return def;
    unsigned long long v;
    if (!parse_number(s, &v)) {
        warn(name, s, "is not a number; using %llu\n", def);
        return def;
    }
    if (v < min || v > max) {
        unsigned long long used = v < min ? min : max;
        warn(name, s, "is out of range; using %llu\n", used);
        return used;
    }
    return v;
}

static const char *const yes_words[] = {"1", "y", "yes", "true", "on", NULL};
static const char *const no_words[] = {"0", "n", "no", "false", "off", NULL};

/* Whether `s`, blanks around it aside, is one of `words` (any case). */
static bool is_one_of(const char *s, const char *const *words)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    for (; *words; words++)
        if (strlen(*words) == len && strncasecmp(s, *words, len) == 0)
            return true;
    return false;
}

static bool is_blank(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return *s == '\0';
}

static bool read_bool(const char *name, bool def)
{
    const char *s = lookup(name);
    if (!s)
        return def;
    return def ? !is_one_of(s, no_words) : is_one_of(s, yes_words);
}

static int read_stack_guard(void)
{
    const char *s = lookup("STACK_OVERFLOW_CHECK");
    if (!s || strcasecmp(s, "mprotect") == 0)
        return BB_STACK_GUARD_BEST;
    if (strcasecmp(s, "mprotect_strict") == 0)
        return BB_STACK_GUARD_STRICT;
    if (strcasecmp(s, "none") != 0) /* as Argobots: anything else means none */
        warn("STACK_OVERFLOW_CHECK", s, "is not none, mprotect or mprotect_strict; using none\n");
    return BB_STACK_GUARD_NONE;
}

static int read_large_pages(void)
{
    static const struct {
        const char *name;
        int mode;
    } modes[] = {{"malloc", BB_LP_NONE},
                 {"mmap_rp", BB_LP_REGULAR},
                 {"thp", BB_LP_THP},
                 {"mmap_hp_rp", BB_LP_HUGETLB_OR_REGULAR},
                 {"mmap_hp_thp", BB_LP_HUGETLB_OR_THP}};
    const char *s = lookup("MEM_LP_ALLOC");
    for (size_t i = 0; s && i < sizeof(modes) / sizeof(modes[0]); i++)
        if (strcasecmp(s, modes[i].name) == 0)
            return modes[i].mode;
    if (s)
        warn("MEM_LP_ALLOC", s, "is not malloc, mmap_rp, thp, mmap_hp_rp or mmap_hp_thp; using "
                                "mmap_rp\n");
    return BB_LP_REGULAR;
}

static int read_technique(void)
{
    const char *s = lookup("THREAD_TECHNIQUE");
    int t = s ? bb_technique_of_name(s) : -1;
    if (s && t < 0)
        warn("THREAD_TECHNIQUE", s, "is not a technique; using %s\n",
             bb_technique_name(BB_TECH_DEFAULT));
    return t < 0 ? BB_TECH_DEFAULT : t;
}

static size_t round_up(size_t v, size_t to)
{
    return (v + to - 1) / to * to;
}

/* The CPUs this process may run on. A kernel configured for more CPUs than
 * a cpu_set_t holds (1024) refuses one that small (EINVAL): the set grows
 * until the kernel takes it, and binding.c makes its sets that size too.
 * A set the kernel will not give leaves none (bindings then fail with
 * ABT_ERR_CPUID); no memory for it fails ABT_init. */
static int read_cpus(bb_config_t *c)
{
    c->num_cpus = 0;
    c->cpus = NULL;
    c->cpu_set_bits = CPU_SETSIZE;
    cpu_set_t *set;
    for (;;) {
        set = CPU_ALLOC(c->cpu_set_bits);
        if (!set)
            return ABT_ERR_MEM;
        if (sched_getaffinity(0, CPU_ALLOC_SIZE(c->cpu_set_bits), set) == 0)
            break;
        CPU_FREE(set);
        if (errno != EINVAL || c->cpu_set_bits >= (1 << 22))
            return ABT_SUCCESS;
        c->cpu_set_bits *= 2;
    }
    size_t size = CPU_ALLOC_SIZE(c->cpu_set_bits);
    c->cpus = malloc((size_t)CPU_COUNT_S(size, set) * sizeof(int));
    for (int cpu = 0; c->cpus && cpu < c->cpu_set_bits; cpu++)
        if (CPU_ISSET_S(cpu, size, set))
            c->cpus[c->num_cpus++] = cpu;
    CPU_FREE(set);
    return c->cpus ? ABT_SUCCESS : ABT_ERR_MEM;
}

/* ABT_SET_AFFINITY (after read_cpus): unset, empty or a no-word: ESs are
 * not bound; a yes-word: the ES of rank r gets the CPU at position r of the
 * process's set (mod its size); otherwise a list of CPU sets
 * (src/xstream/cpu_sets.c). As in Argobots, a value that is none of these
 * binds as a yes-word does, here with a warning. "1" is the yes-word, not
 * the list of position 1 ("{1}"). */
static int read_affinity(bb_config_t *c)
{
    c->set_affinity = false;
    c->rank_cpus = (bb_cpu_sets){0};
    const char *s = lookup("SET_AFFINITY");
    if (!s || is_blank(s) || is_one_of(s, no_words) || c->num_cpus == 0)
        return ABT_SUCCESS;
    int err = ABT_ERR_INV_ARG;
    if (!is_one_of(s, yes_words)) {
        err = bb_cpu_sets_parse(s, c->cpus, c->num_cpus, &c->rank_cpus);
        if (err == ABT_ERR_INV_ARG)
            warn("SET_AFFINITY", s, "is not a list of CPU sets; binding each ES to one CPU "
                                    "by rank\n");
    }
    if (err == ABT_ERR_INV_ARG)
        err = bb_cpu_sets_one_each(c->cpus, c->num_cpus, &c->rank_cpus);
    c->set_affinity = err == ABT_SUCCESS;
    return err;
}

/* ABT_SCHED_SLEEP_NSEC. Argobots reads it only in builds configured with
 * --enable-sched-sleep, where an idle predefined scheduler sleeps that long
 * at each check; here setting it is what turns the sleep on (basic.c,
 * back_off). Unset, 0 or no number (with a warning), the sleep stays off,
 * and the query answers Argobots' default. At most just under a second, as
 * Argobots puts the value in tv_nsec alone: new work waits for the sleep's
 * end (UINT64_MAX slept for centuries, and a primary ULT that waited for
 * work on another ES never resumed). */
static void read_sched_sleep(bb_config_t *c)
{
    const char *s = lookup("SCHED_SLEEP_NSEC");
    unsigned long long v;
    c->sched_sleep_nsec = BB_DEFAULT_SCHED_SLEEP_NSEC;
    c->idle_sleeps = false;
    if (!s)
        return;
    if (!parse_number(s, &v)) {
        warn("SCHED_SLEEP_NSEC", s, "is not a number; no sleep\n");
        return;
    }
    c->sched_sleep_nsec = read_number("SCHED_SLEEP_NSEC", 0, 0, BB_MAX_SCHED_SLEEP_NSEC);
    c->idle_sleeps = c->sched_sleep_nsec > 0;
}

int bb_config_read_env(bb_config_t *c)
{
    const unsigned long long max_stack = 1ull << 36;
    c->thread_stacksize = round_up(
        read_number("THREAD_STACKSIZE", BB_DEFAULT_THREAD_STACKSIZE, BB_MIN_STACKSIZE, max_stack),
        BB_CACHE_LINE);
    c->sched_stacksize = round_up(
        read_number("SCHED_STACKSIZE", BB_DEFAULT_SCHED_STACKSIZE, BB_MIN_STACKSIZE, max_stack),
        BB_CACHE_LINE);
    /* As in Argobots: how many units a predefined scheduler runs between
     * event checks unless ABT_sched_basic_freq says otherwise. */
    c->sched_event_freq =
        (int)read_number("SCHED_EVENT_FREQ", BB_DEFAULT_SCHED_EVENT_FREQ, 1, INT_MAX);
    read_sched_sleep(c);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    c->max_xstreams =
        (int)read_number("MAX_NUM_XSTREAMS", online > 0 ? (unsigned long long)online : 1, 1,
                         1 << 20);
    unsigned long long stacks_in_64mib = (64ull << 20) / c->thread_stacksize;
    unsigned long long default_stacks = stacks_in_64mib < BB_DEFAULT_MEM_MAX_NUM_STACKS
                                            ? stacks_in_64mib
                                            : BB_DEFAULT_MEM_MAX_NUM_STACKS;
    c->mem_max_stacks = (uint32_t)read_number("MEM_MAX_NUM_STACKS",
                                              default_stacks < 2 ? 2 : default_stacks, 2,
                                              1u << 24);
    c->mem_max_descs = (uint32_t)read_number("MEM_MAX_NUM_DESCS", BB_DEFAULT_MEM_MAX_NUM_DESCS,
                                             2, 1u << 24);
    c->print_config = read_bool("PRINT_CONFIG", false);
    c->stack_guard = read_stack_guard();
    c->large_pages = read_large_pages();
    c->print_raw_stack = read_bool("PRINT_RAW_STACK", true);
    c->shortcuts = (read_bool("OPT_FAST_CREATE_FREE", true) ? BB_SHORTCUT_CREATE_FREE : 0) |
                   (read_bool("OPT_JOIN_BYPASS", true) ? BB_SHORTCUT_BYPASS : 0) |
                   (read_bool("OPT_DIRECT_YIELD", true) ? BB_SHORTCUT_YIELD : 0) |
                   BB_SHORTCUT_RETURN;
    c->technique = read_technique();
    int err = read_cpus(c);
    if (err == ABT_SUCCESS)
        err = read_affinity(c);
    return err;
}

void bb_config_free(bb_config_t *c)
{
    bb_cpu_sets_free(&c->rank_cpus);
    c->set_affinity = false;
    free(c->cpus);
    c->cpus = NULL;
    c->num_cpus = 0;
}

/* "no", or the CPU sets that ranks go to (the first few). */
static void print_affinity(const bb_config_t *c, FILE *out)
{
    const bb_cpu_sets *sets = &c->rank_cpus;
    if (!c->set_affinity) {
        bb_fprintf(out, "  ABT_SET_AFFINITY        : no\n");
        return;
    }
    bb_fprintf(out, "  ABT_SET_AFFINITY        : yes, rank r to set r mod %d:", sets->num_sets);
    enum { SETS_SHOWN = 8 };
    for (int i = 0; i < sets->num_sets && i < SETS_SHOWN; i++) {
        bb_fprintf(out, "%s{", i ? "," : " ");
        for (int j = sets->starts[i]; j < sets->starts[i + 1]; j++)
            bb_fprintf(out, "%s%d", j > sets->starts[i] ? "," : "", sets->cpus[j]);
        bb_fprintf(out, "}");
    }
    bb_fprintf(out, "%s\n", sets->num_sets > SETS_SHOWN ? ",..." : "");
}

void bb_config_print(const bb_config_t *c, FILE *out)
{
    bb_fprintf(out, "bobbin configuration:\n");
    bb_fprintf(out, "  version                 : %s\n", ABT_VERSION);
    bb_fprintf(out, "  context switch          : %s, %s CPU code\n", BB_CONTEXT_NAME, BB_ARCH_NAME);
    bb_fprintf(out, "  ABT_THREAD_STACKSIZE    : %zu\n", c->thread_stacksize);
    bb_fprintf(out, "  ABT_SCHED_STACKSIZE     : %zu\n", c->sched_stacksize);
    bb_fprintf(out, "  ABT_SCHED_EVENT_FREQ    : %d\n", c->sched_event_freq);
    if (c->idle_sleeps)
        bb_fprintf(out,
                   "  ABT_SCHED_SLEEP_NSEC    : %" PRIu64 " (idle BASIC, PRIO, RANDWS sleep)\n",
                   c->sched_sleep_nsec);
    else
        bb_fprintf(out, "  ABT_SCHED_SLEEP_NSEC    : off (idle BASIC, PRIO, RANDWS yield)\n");
    bb_fprintf(out, "  ABT_MAX_NUM_XSTREAMS    : %d\n", c->max_xstreams);
    print_affinity(c, out);
    bb_fprintf(out, "  ABT_MEM_MAX_NUM_STACKS  : %u\n", c->mem_max_stacks);
    bb_fprintf(out, "  ABT_MEM_MAX_NUM_DESCS   : %u\n", c->mem_max_descs);
    bb_fprintf(out, "  usable CPUs             : %d\n", c->num_cpus);
    static const char *const guards[] = {
        [BB_STACK_GUARD_NONE] = "none",
        [BB_STACK_GUARD_BEST] = "mprotect (while the kernel's mapping limit allows)",
        [BB_STACK_GUARD_STRICT] = "mprotect_strict (every stack, or creation fails)"};
    bb_fprintf(out, "  ABT_STACK_OVERFLOW_CHECK: %s\n", guards[c->stack_guard]);
    static const char *const large[] = {
        [BB_LP_NONE] = "malloc (no 2 MiB regions: small descriptor chunks, one mapping per stack)",
        [BB_LP_REGULAR] = "mmap_rp (2 MiB regions of regular pages)",
        [BB_LP_THP] = "thp (2 MiB regions of transparent huge pages)",
        [BB_LP_HUGETLB_OR_REGULAR] = "mmap_hp_rp (reserved huge pages, else regular pages)",
        [BB_LP_HUGETLB_OR_THP] = "mmap_hp_thp (reserved huge pages, else transparent ones)"};
    static const char *const region_use[] = {
        [BB_STACK_GUARD_NONE] = "descriptors and stacks",
        [BB_STACK_GUARD_BEST] = "descriptors, and stacks past the guard-page budget",
        [BB_STACK_GUARD_STRICT] = "descriptors"};
    bb_fprintf(out, "  ABT_MEM_LP_ALLOC        : %s", large[c->large_pages]);
    if (c->large_pages != BB_LP_NONE) /* what the choice at run time gave so far */
        bb_fprintf(out, ", for %s; regions mapped: %u hugetlb, %u thp, %u regular",
                   region_use[c->stack_guard], bb_large_regions(BB_PAGES_HUGETLB),
                   bb_large_regions(BB_PAGES_THP), bb_large_regions(BB_PAGES_REGULAR));
    bb_fprintf(out, "\n");
    bb_fprintf(out, "  waiting without an ES   : sleeps in the kernel (passive)\n");
    bb_fprintf(out, "  idle scheduler          : polls %d us, then yields or sleeps "
                 "(BASIC_WAIT: at once, while polling is in vain)\n",
               BB_IDLE_SPIN_NS / 1000);
    bb_fprintf(out, "  ABT_OPT_FAST_CREATE_FREE: %s\n",
               c->shortcuts & BB_SHORTCUT_CREATE_FREE ? "yes" : "no");
    bb_fprintf(out, "  ABT_OPT_JOIN_BYPASS     : %s\n",
               c->shortcuts & BB_SHORTCUT_BYPASS ? "yes" : "no");
    bb_fprintf(out, "  ABT_OPT_DIRECT_YIELD    : %s\n",
               c->shortcuts & BB_SHORTCUT_YIELD ? "yes" : "no");
    bb_fprintf(out, "  ABT_THREAD_TECHNIQUE    : ");
    bb_technique_print(c->technique, out);
    bb_fprintf(out, "\n");
    bb_fprintf(out, "  cancel, migration       : yes, yes\n");
    bb_fprintf(out, "  stack unwinding, tools  : no, yes\n");
}
