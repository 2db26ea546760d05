/*
 * ABT_SET_AFFINITY's list of CPU sets, in Argobots' syntax (blanks between
 * tokens are ignored):
 *
 *   list      = interval ("," interval)*
 *   interval  = ids [":" count [":" stride]]     count sets: ids, ids + stride, ...
 *   ids       = id | "{" idrange ("," idrange)* "}"
 *   idrange   = id [":" count [":" stride]]      count ids: id, id + stride, ...
 *
 * An id is an integer, a count a positive integer, a stride an integer
 * (count and stride default to 1). An id names a position in the process's
 * CPU set, taken modulo its size, so that any id is valid on any machine:
 * "0:4" gives each of the first four ESs one CPU, "{0,1},{2,3}" two ESs two
 * CPUs each, "{0:4}:2:4" two sets of four, the second shifted by four.
 */
#include <ctype.h>
#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "abt.h"
#include "bb_cpu_sets.h"

/* A bound on the ids a list expands to, so that "0:2000000000" is refused
 * instead of taking the memory of the machine. */
#define MAX_EXPANDED_IDS (1 << 20)

typedef struct {
    int *v;
    int n, cap;
} int_vec;

static bool push(int_vec *vec, int x)
{
    if (vec->n == vec->cap) {
        int cap = vec->cap ? vec->cap * 2 : 16;
        int *v = realloc(vec->v, (size_t)cap * sizeof(int));
        if (!v)
            return false;
        vec->v = v;
        vec->cap = cap;
    }
    vec->v[vec->n++] = x;
    return true;
}

typedef struct {
    const char *s;
    const int *usable;
    int num_usable;
    int_vec starts, cpus;   /* the result */
    int_vec ids;            /* positions of the interval being read */
    unsigned char *in_set;  /* per position: already in the set being built */
    long long expanded;     /* ids emitted so far */
    int err;                /* ABT_ERR_INV_ARG or ABT_ERR_MEM once failed */
} parser;

static void skip_blanks(parser *p)
{
    while (isspace((unsigned char)*p->s))
        p->s++;
}

static bool accept(parser *p, char c)
{
    skip_blanks(p);
    if (*p->s != c)
        return false;
    p->s++;
    return true;
}

static bool fail(parser *p, int err)
{
    if (p->err == ABT_SUCCESS)
        p->err = err;
    return false;
}

/* An integer within int's range. */
static bool read_int(parser *p, long long *out)
{
    skip_blanks(p);
    const char *at = p->s;
    bool minus = *at == '-';
    if (*at == '-' || *at == '+')
        at++;
    if (!isdigit((unsigned char)*at))
        return fail(p, ABT_ERR_INV_ARG);
    long long v = 0;
    while (isdigit((unsigned char)*at)) {
        v = v * 10 + (*at++ - '0');
        if (v > INT_MAX)
            return fail(p, ABT_ERR_INV_ARG);
    }
    p->s = at;
    *out = minus ? -v : v;
    return true;
}

/* [":" count [":" stride]], each defaulting to 1. */
static bool read_repeat(parser *p, long long *count, long long *stride)
{
    *count = *stride = 1;
    if (!accept(p, ':'))
        return true;
    if (!read_int(p, count))
        return false;
    if (*count < 1)
        return fail(p, ABT_ERR_INV_ARG);
    return !accept(p, ':') || read_int(p, stride);
}

static bool count_expanded(parser *p, long long n)
{
    p->expanded += n;
    return p->expanded <= MAX_EXPANDED_IDS || fail(p, ABT_ERR_INV_ARG);
}

/* An id as a position in the usable CPUs. */
static int position_of(const parser *p, long long id)
{
    long long m = id % p->num_usable;
    return (int)(m < 0 ? m + p->num_usable : m);
}

static bool push_position(parser *p, long long id)
{
    return push(&p->ids, position_of(p, id)) || fail(p, ABT_ERR_MEM);
}

/* idrange: its positions go to p->ids. */
static bool read_id_range(parser *p)
{
    long long id, count, stride;
    if (!read_int(p, &id) || !read_repeat(p, &count, &stride) || !count_expanded(p, count))
        return false;
    for (long long k = 0; k < count; k++)
        if (!push_position(p, id + k * stride))
            return false;
    return true;
}

/* ids: their positions replace p->ids. A bare id takes no repeat of its
 * own: "0:4" repeats the interval (four sets), as "{0}:4" does. */
static bool read_ids(parser *p)
{
    p->ids.n = 0;
    if (!accept(p, '{')) {
        long long id;
        return read_int(p, &id) && count_expanded(p, 1) && push_position(p, id);
    }
    do {
        if (!read_id_range(p))
            return false;
    } while (accept(p, ','));
    return accept(p, '}') || fail(p, ABT_ERR_INV_ARG);
}

/* One set: the positions of p->ids moved on by `shift`, without repeats. */
static bool emit_set(parser *p, long long shift)
{
    for (int i = 0; i < p->ids.n; i++) {
        int pos = position_of(p, p->ids.v[i] + shift);
        if (p->in_set[pos])
            continue;
        p->in_set[pos] = 1;
        if (!push(&p->cpus, p->usable[pos]))
            return fail(p, ABT_ERR_MEM);
    }
    for (int i = 0; i < p->ids.n; i++)
        p->in_set[position_of(p, p->ids.v[i] + shift)] = 0;
    return push(&p->starts, p->cpus.n) || fail(p, ABT_ERR_MEM);
}

static bool read_interval(parser *p)
{
    long long count, stride;
    if (!read_ids(p) || !read_repeat(p, &count, &stride) ||
        !count_expanded(p, count * p->ids.n))
        return false;
    for (long long k = 0; k < count; k++)
        if (!emit_set(p, k * stride))
            return false;
    return true;
}

static bool read_list(parser *p)
{
    do {
        if (!read_interval(p))
            return false;
    } while (accept(p, ','));
    skip_blanks(p);
    return *p->s == '\0' || fail(p, ABT_ERR_INV_ARG);
}

int bb_cpu_sets_parse(const char *text, const int *usable, int num_usable, bb_cpu_sets *out)
{
    if (num_usable <= 0)
        return ABT_ERR_INV_ARG;
    parser p = {.s = text, .usable = usable, .num_usable = num_usable, .err = ABT_SUCCESS};
    p.in_set = calloc((size_t)num_usable, 1);
    if (!p.in_set || !push(&p.starts, 0))
        fail(&p, ABT_ERR_MEM);
    else
        read_list(&p);
    free(p.in_set);
    free(p.ids.v);
    if (p.err != ABT_SUCCESS) {
        free(p.starts.v);
        free(p.cpus.v);
        return p.err;
    }
    out->num_sets = p.starts.n - 1;
    out->starts = p.starts.v;
    out->cpus = p.cpus.v;
    return ABT_SUCCESS;
}

int bb_cpu_sets_one_each(const int *usable, int num_usable, bb_cpu_sets *out)
{
    int *starts = malloc(((size_t)num_usable + 1) * sizeof(int));
    int *cpus = malloc(((size_t)num_usable + 1) * sizeof(int));
    if (!starts || !cpus) {
        free(starts);
        free(cpus);
        return ABT_ERR_MEM;
    }
    for (int i = 0; i <= num_usable; i++)
        starts[i] = i;
    memcpy(cpus, usable, (size_t)num_usable * sizeof(int));
    out->num_sets = num_usable;
    out->starts = starts;
    out->cpus = cpus;
    return ABT_SUCCESS;
}

void bb_cpu_sets_free(bb_cpu_sets *sets)
{
    free(sets->starts);
    free(sets->cpus);
    *sets = (bb_cpu_sets){0};
}
