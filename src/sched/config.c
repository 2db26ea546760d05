/*
 * ABT_sched_config: (variable, value) pairs for a scheduler's creation.
 *
 * Variables are ABT_sched_config_var values, told apart by `idx`. The
 * predefined ones have negative indices, the same as in Argobots, since
 * programs pass them by value: -1 ends a list, -2 is the (ignored) access
 * hint, -3 the automatic flag, -4 the basic scheduler's event frequency. A
 * user scheduler numbers its own variables 0, 1, 2, ... and reads them back
 * by position with ABT_sched_config_read.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bb_runtime.h"
#include "bb_sched.h"

ABT_sched_config_var ABT_sched_config_var_end = {.idx = -1, .type = ABT_SCHED_CONFIG_INT};
ABT_sched_config_var ABT_sched_config_access = {.idx = -2, .type = ABT_SCHED_CONFIG_INT};
ABT_sched_config_var ABT_sched_config_automatic = {.idx = -3, .type = ABT_SCHED_CONFIG_INT};
ABT_sched_config_var ABT_sched_basic_freq = {.idx = -4, .type = ABT_SCHED_CONFIG_INT};

typedef union {
    int i;
    double d;
    void *p;
} value;

typedef struct {
    int idx;
    ABT_sched_config_type type;
    value val;
} entry;

struct ABT_sched_config_opaque {
    int n, cap;
    entry *entries;
};

static size_t value_size(ABT_sched_config_type type)
{
    switch (type) {
    case ABT_SCHED_CONFIG_INT:
        return sizeof(int);
    case ABT_SCHED_CONFIG_DOUBLE:
        return sizeof(double);
    case ABT_SCHED_CONFIG_PTR:
        return sizeof(void *);
    }
    return 0;
}

static entry *find(ABT_sched_config c, int idx)
{
    for (int i = 0; i < c->n; i++)
        if (c->entries[i].idx == idx)
            return &c->entries[i];
    return NULL;
}

static int put(ABT_sched_config c, int idx, ABT_sched_config_type type, value val)
{
    entry *e = find(c, idx);
    if (!e) {
        if (c->n == c->cap) {
            int cap = c->cap ? 2 * c->cap : 4;
            entry *grown = realloc(c->entries, (size_t)cap * sizeof(*grown));
            if (!grown)
                return ABT_ERR_MEM;
            c->entries = grown;
            c->cap = cap;
        }
        e = &c->entries[c->n++];
        e->idx = idx;
    }
    e->type = type;
    e->val = val;
    return ABT_SUCCESS;
}

int bb_sched_config_int(ABT_sched_config config, const ABT_sched_config_var *var, int fallback)
{
    if (config == ABT_SCHED_CONFIG_NULL)
        return fallback;
    entry *e = find(config, var->idx);
    return e && e->type == ABT_SCHED_CONFIG_INT ? e->val.i : fallback;
}

static void free_config(ABT_sched_config c)
{
    free(c->entries);
    free(c);
}

int ABT_sched_config_create(ABT_sched_config *config, ...)
{
    if (!config)
        return ABT_ERR_INV_ARG;
    *config = ABT_SCHED_CONFIG_NULL;
    ABT_sched_config c = calloc(1, sizeof(*c));
    if (!c)
        return ABT_ERR_MEM;
    va_list ap;
    va_start(ap, config);
    int err = ABT_SUCCESS;
    for (;;) {
        ABT_sched_config_var var = va_arg(ap, ABT_sched_config_var);
        if (var.idx == ABT_sched_config_var_end.idx)
            break;
        value val = {0};
        switch (var.type) {
        case ABT_SCHED_CONFIG_INT:
            val.i = va_arg(ap, int);
            break;
        case ABT_SCHED_CONFIG_DOUBLE:
            val.d = va_arg(ap, double);
            break;
        case ABT_SCHED_CONFIG_PTR:
            val.p = va_arg(ap, void *);
            break;
        default:
            err = ABT_ERR_INV_ARG; /* cannot even tell how long the value is */
            break;
        }
        if (err == ABT_SUCCESS)
            err = put(c, var.idx, var.type, val);
        if (err != ABT_SUCCESS)
            break;
    }
    va_end(ap);
    if (err != ABT_SUCCESS) {
        free_config(c);
        return err;
    }
    *config = c;
    return ABT_SUCCESS;
}

int ABT_sched_config_read(ABT_sched_config config, int num_vars, ...)
{
    if (config == ABT_SCHED_CONFIG_NULL)
        return ABT_ERR_INV_SCHED_CONFIG;
    va_list ap;
    va_start(ap, num_vars);
    for (int idx = 0; idx < num_vars; idx++) {
        void *out = va_arg(ap, void *);
        entry *e = find(config, idx);
        if (e && out)
            memcpy(out, &e->val, value_size(e->type));
    }
    va_end(ap);
    return ABT_SUCCESS;
}

int ABT_sched_config_free(ABT_sched_config *config)
{
    if (!config || *config == ABT_SCHED_CONFIG_NULL)
        return ABT_ERR_INV_SCHED_CONFIG;
    free_config(*config);
    *config = ABT_SCHED_CONFIG_NULL;
    return ABT_SUCCESS;
}

int ABT_sched_config_set(ABT_sched_config config, int idx, ABT_sched_config_type type,
                         const void *val)
{
    if (config == ABT_SCHED_CONFIG_NULL)
        return ABT_ERR_INV_SCHED_CONFIG;
    if (!val) { /* no value: forget the variable */
        entry *e = find(config, idx);
        if (e)
            *e = config->entries[--config->n];
        return ABT_SUCCESS;
    }
    size_t size = value_size(type);
    if (size == 0)
        return ABT_ERR_INV_ARG;
    value v = {0};
    memcpy(&v, val, size);
    return put(config, idx, type, v);
}

int ABT_sched_config_get(ABT_sched_config config, int idx, ABT_sched_config_type *type,
                         void *val)
{
    if (config == ABT_SCHED_CONFIG_NULL)
        return ABT_ERR_INV_SCHED_CONFIG;
    entry *e = find(config, idx);
    if (!e)
        return ABT_ERR_INV_ARG;
    if (type)
        *type = e->type;
    if (val)
        memcpy(val, &e->val, value_size(e->type));
    return ABT_SUCCESS;
}
