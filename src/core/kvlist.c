/* Typed key/value lists (bb_kvlist.h). */
#include <abt.h>
#include <stdlib.h>
#include <string.h>

#include "bb_kvlist.h"

size_t bb_kv_value_size(int type)
{
    switch (type) {
    case BB_KV_INT:
        return sizeof(int);
    case BB_KV_DOUBLE:
        return sizeof(double);
    case BB_KV_PTR:
        return sizeof(void *);
    }
    return 0;
}

bb_kv_entry *bb_kv_find(bb_kvlist *list, int key)
{
    for (int i = 0; i < list->n; i++)
        if (list->entries[i].key == key)
            return &list->entries[i];
    return NULL;
}

/* Add or overwrite; `type` must be known (bb_kv_value_size > 0). */
int bb_kv_put(bb_kvlist *list, int key, int type, const void *val)
{
    bb_kv_entry *e = bb_kv_find(list, key);
    if (!e) {
        if (list->n == list->cap) {
            int cap = list->cap ? 2 * list->cap : 4;
            bb_kv_entry *grown = realloc(list->entries, (size_t)cap * sizeof(*grown));
            if (!grown)
                return ABT_ERR_MEM;
            list->entries = grown;
            list->cap = cap;
        }
        e = &list->entries[list->n++];
        e->key = key;
    }
    e->type = type;
    e->val = (bb_kv_value){0};
    memcpy(&e->val, val, bb_kv_value_size(type));
    return ABT_SUCCESS;
}

void bb_kv_remove(bb_kvlist *list, int key)
{
    bb_kv_entry *e = bb_kv_find(list, key);
    if (e)
        *e = list->entries[--list->n];
}

int bb_kv_get(bb_kvlist *list, int key, int *type, void *val)
{
    bb_kv_entry *e = bb_kv_find(list, key);
    if (!e)
        return ABT_ERR_INV_ARG;
    if (type)
        *type = e->type;
    if (val)
        memcpy(val, &e->val, bb_kv_value_size(e->type));
    return ABT_SUCCESS;
}

/* The int stored under `key`, or `fallback` if there is none. */
int bb_kv_int(bb_kvlist *list, int key, int fallback)
{
    bb_kv_entry *e = bb_kv_find(list, key);
    return e && e->type == BB_KV_INT ? e->val.i : fallback;
}

void bb_kv_clear(bb_kvlist *list)
{
    free(list->entries);
    *list = (bb_kvlist){0};
}
