/*
 * ABT_pool_config: a small list of (key, type, value) entries handed to a
 * user pool's init callback. ABT_pool_config_automatic (key -2, int, as in Argobots) is the
 * one key the runtime itself reads.
 */
#include <stdlib.h>
#include <string.h>

#include "bb_pool.h"
#include "bb_runtime.h"

const ABT_pool_config_var ABT_pool_config_automatic = {.key = -2, .type = ABT_POOL_CONFIG_INT};

typedef struct {
    int key;
    ABT_pool_config_type type;
    union {
        int i;
        double d;
        void *p;
    } val;
} entry;

struct ABT_pool_config_opaque {
    int n, cap;
    entry *entries;
};

static size_t value_size(ABT_pool_config_type type)
{
    switch (type) {
    case ABT_POOL_CONFIG_INT:
        return sizeof(int);
    case ABT_POOL_CONFIG_DOUBLE:
        return sizeof(double);
    case ABT_POOL_CONFIG_PTR:
        return sizeof(void *);
    }
    return 0;
}

static entry *find(struct ABT_pool_config_opaque *c, int key)
{
    for (int i = 0; i < c->n; i++)
        if (c->entries[i].key == key)
            return &c->entries[i];
    return NULL;
}

bool bb_pool_config_automatic(ABT_pool_config config, bool fallback)
{
    if (config == ABT_POOL_CONFIG_NULL)
        return fallback;
    entry *e = find(config, ABT_pool_config_automatic.key);
    return e && e->type == ABT_POOL_CONFIG_INT ? e->val.i != 0 : fallback;
}

int ABT_pool_config_create(ABT_pool_config *config)
{
    if (!config)
        return ABT_ERR_INV_ARG;
    *config = ABT_POOL_CONFIG_NULL;
    struct ABT_pool_config_opaque *c = calloc(1, sizeof(*c));
    if (!c)
        return ABT_ERR_MEM;
    *config = c;
    return ABT_SUCCESS;
}

int ABT_pool_config_free(ABT_pool_config *config)
{
    if (!config || *config == ABT_POOL_CONFIG_NULL)
        return ABT_ERR_INV_POOL_CONFIG;
    free((*config)->entries);
    free(*config);
    *config = ABT_POOL_CONFIG_NULL;
    return ABT_SUCCESS;
}

static void remove_entry(struct ABT_pool_config_opaque *c, entry *e)
{
    *e = c->entries[--c->n];
}

int ABT_pool_config_set(ABT_pool_config config, int key, ABT_pool_config_type type,
                        const void *val)
{
    if (config == ABT_POOL_CONFIG_NULL)
        return ABT_ERR_INV_POOL_CONFIG;
    size_t size = value_size(type);
    if (size == 0)
        return ABT_ERR_INV_ARG;
    entry *e = find(config, key);
    if (!val) { /* no value: forget the key */
        if (e)
            remove_entry(config, e);
        return ABT_SUCCESS;
    }
    if (!e) {
        struct ABT_pool_config_opaque *c = config;
        if (c->n == c->cap) {
            int cap = c->cap ? 2 * c->cap : 4;
            entry *grown = realloc(c->entries, (size_t)cap * sizeof(*grown));
            if (!grown)
                return ABT_ERR_MEM;
            c->entries = grown;
            c->cap = cap;
        }
        e = &c->entries[c->n++];
        e->key = key;
    }
    e->type = type;
    memcpy(&e->val, val, size);
    return ABT_SUCCESS;
}

int ABT_pool_config_get(ABT_pool_config config, int key, ABT_pool_config_type *type, void *val)
{
    if (config == ABT_POOL_CONFIG_NULL)
        return ABT_ERR_INV_POOL_CONFIG;
    entry *e = find(config, key);
    if (!e)
        return ABT_ERR_INV_ARG;
    if (type)
        *type = e->type;
    if (val)
        memcpy(val, &e->val, value_size(e->type));
    return ABT_SUCCESS;
}
