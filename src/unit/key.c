/*
 * Work-unit-specific data: ABT_key_* and the *_specific calls.
 *
 * A key is a slot number plus a generation. Each unit that sets a value gets
 * a table of (generation, destructor, value) slots, grown on demand; a value
 * counts only while its generation matches its key's, so a freed key's slot
 * can be given to a new key without the new key seeing old values. The
 * registry hands out slots and generations.
 *
 * As in Argobots, destructors run when the unit is freed (not when it
 * terminates), by whoever frees it, on each non-NULL value, even if its key
 * has been freed since: the value's slot remembers the destructor.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bb_caller.h"
#include "bb_key.h"
#include "bb_unit.h"

/* Generations are 64-bit: each create and free of a key in a slot advances
 * it by one, and a slot is reused at once (the free slots form a stack), so
 * a 32-bit one came back to the same value after 2^31 create/free pairs,
 * about two minutes of a loop: a unit's value set under the first key then
 * showed through a brand new key. 2^63 pairs take centuries. */
typedef struct bb_key {
    uint32_t slot;
    uint64_t generation; /* odd while live: a zeroed table entry never matches */
    void (*destructor)(void *);
} bb_key;

static struct {
    pthread_mutex_t lock;
    uint64_t *generations;   /* of the key in each slot: odd while live */
    uint32_t num_slots;
    uint32_t *free_slots;    /* stack of free slot numbers */
    uint32_t num_free;
} registry = {.lock = PTHREAD_MUTEX_INITIALIZER};

static bb_key *key_of(ABT_key handle)
{
    return (bb_key *)(void *)handle;
}

/* ---- the registry ------------------------------------------------------------ */

static bool grow_registry(void)
{
    uint32_t n = registry.num_slots ? 2 * registry.num_slots : 16;
    uint64_t *generations = realloc(registry.generations, n * sizeof(uint64_t));
    if (!generations)
        return false;
    registry.generations = generations;
    uint32_t *free_slots = realloc(registry.free_slots, n * sizeof(uint32_t));
    if (!free_slots)
        return false;
    registry.free_slots = free_slots;
    for (uint32_t i = n; i-- > registry.num_slots;) {
        registry.generations[i] = 0;
        registry.free_slots[registry.num_free++] = i;
    }
    registry.num_slots = n;
    return true;
}

int ABT_key_create(void (*destructor)(void *value), ABT_key *newkey)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!newkey)
        return ABT_ERR_INV_ARG;
    bb_key *k = malloc(sizeof(*k));
    if (!k)
        return ABT_ERR_MEM;
    pthread_mutex_lock(&registry.lock);
    if (registry.num_free == 0 && !grow_registry()) {
        pthread_mutex_unlock(&registry.lock);
        free(k);
        return ABT_ERR_MEM;
    }
    k->slot = registry.free_slots[--registry.num_free];
    k->generation = ++registry.generations[k->slot]; /* even -> odd */
    k->destructor = destructor;
    pthread_mutex_unlock(&registry.lock);
    *newkey = (ABT_key)(void *)k;
    return ABT_SUCCESS;
}

int ABT_key_free(ABT_key *key)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!key)
        return ABT_ERR_INV_ARG;
    bb_key *k = key_of(*key);
    if (!k)
        return ABT_ERR_INV_KEY;
    pthread_mutex_lock(&registry.lock);
    registry.generations[k->slot]++; /* odd -> even: its values no longer count */
    registry.free_slots[registry.num_free++] = k->slot;
    pthread_mutex_unlock(&registry.lock);
    free(k);
    *key = ABT_KEY_NULL;
    return ABT_SUCCESS;
}

/* ---- a unit's table -------------------------------------------------------------- */

/* Setters of one unit's values take one of these, chosen by the unit's
 * address; readers take none (see bb_key.h). */
static bb_spinlock table_locks[64];

static bb_spinlock *table_lock(const bb_unit *u)
{
    return &table_locks[((uintptr_t)u >> 7) % 64];
}

/* A copy of `t` (or a fresh table) with room for `slot`. */
static __attribute__((noinline)) bb_keytab *grow(bb_keytab *t, uint32_t slot)
{
    uint32_t n = t ? t->num_slots : 4;
    while (n <= slot)
        n *= 2;
    bb_keytab *g = calloc(1, sizeof(*g) + n * sizeof(g->slots[0]));
    if (!g)
        return NULL;
    g->num_slots = n;
    if (t) {
        memcpy(g->slots, t->slots, t->num_slots * sizeof(t->slots[0]));
        g->orphans = t->orphans;
        t->orphans = NULL;
    }
    g->retired = t;
    return g;
}

/* The slot holds a value of a freed key: keep it for its destructor. Out of
 * memory, hand it back in *lost, for the caller to destroy at once (outside
 * the lock: the destructor may set keys itself). */
static __attribute__((noinline)) void adopt_orphan(bb_keytab *t, uint32_t slot,
                                                   bb_key_orphan *lost)
{
    if (!t->slots[slot].value || !t->slots[slot].destructor)
        return;
    bb_key_orphan *o = malloc(sizeof(*o));
    if (!o) {
        *lost = (bb_key_orphan){NULL, t->slots[slot].destructor, t->slots[slot].value};
        return;
    }
    *o = (bb_key_orphan){t->orphans, t->slots[slot].destructor, t->slots[slot].value};
    t->orphans = o;
}

/* A slot this key has not set yet in this unit (l held): make room, keep an
 * old key's value for its destructor, claim the slot. A reader must never
 * see the new key's generation with an old value, so the value goes in
 * first and the generation is published after it, and a grown table only
 * once its slot is filled. */
static int claim_slot(bb_unit *u, bb_key *k, void *value,
                                                bb_key_orphan *lost)
{
    bb_keytab *t = u->keys, *grown = NULL;
    if (!t || k->slot >= t->num_slots) {
        t = grown = grow(t, k->slot);
        if (!grown)
            return ABT_ERR_MEM;
    }
    if (t->slots[k->slot].generation != k->generation)
        adopt_orphan(t, k->slot, lost);
    t->slots[k->slot].destructor = k->destructor;
    bb_store_relaxed(&t->slots[k->slot].value, value);
    bb_store_release(&t->slots[k->slot].generation, k->generation);
    if (grown) {
        bb_unit_set_cold(u);
        bb_store_release(&u->keys, grown);
    }
    return ABT_SUCCESS;
}

/* claim_slot, then release `lock` (held). */
static __attribute__((noinline)) int claim_slot_and_unlock(bb_unit *u, bb_key *k, void *value,
                                                           bb_spinlock *lock)
{
    bb_key_orphan lost = {0};
    int err = claim_slot(u, k, value, &lost);
    bb_spin_unlock(lock);
    if (lost.value)
        lost.destructor(lost.value); /* no memory to keep it until the unit is freed */
    return err;
}

static int set_value(bb_unit *u, bb_key *k, void *value)
{
    bb_spinlock *lock = table_lock(u);
    bb_spin_lock(lock);
    bb_keytab *t = u->keys;
    if (!t || k->slot >= t->num_slots || t->slots[k->slot].generation != k->generation)
        return claim_slot_and_unlock(u, k, value, lock);
    /* set before: just the value, published (release) for readers on other
     * threads, as the first set publishes it with the generation */
    bb_store_release(&t->slots[k->slot].value, value);
    bb_spin_unlock(lock);
    return ABT_SUCCESS;
}

static void *get_value(const bb_unit *u, const bb_key *k)
{
    uint32_t slot = k->slot;
    uint64_t generation = k->generation;
    const bb_keytab *t = bb_load_acquire(&u->keys);
    if (!t || slot >= t->num_slots)
        return NULL;
    const __typeof__(t->slots[0]) *s = &t->slots[slot];
    return bb_load_acquire(&s->generation) == generation ? bb_load_acquire(&s->value) : NULL;
}

/* One pass over a table taken off its unit: the destructors, then the
 * memory. `run` false: only the memory. */
static void destroy_table(bb_keytab *t, bool run)
{
    for (uint32_t i = 0; run && i < t->num_slots; i++) {
        if (t->slots[i].value && t->slots[i].destructor)
            bb_call_outermost(t->slots[i].destructor, t->slots[i].value);
    }
    while (t->orphans) {
        bb_key_orphan *o = t->orphans;
        t->orphans = o->next;
        if (run)
            bb_call_outermost(o->destructor, o->value);
        free(o);
    }
    while (t) {
        bb_keytab *older = t->retired;
        free(t);
        t = older;
    }
}

/* Passes over values set on the unit by its own destructors, as POSIX's
 * PTHREAD_DESTRUCTOR_ITERATIONS: a destructor may set a value on the unit
 * being freed (ABT_thread_set_specific with its handle), which goes into a
 * new table; that one's destructors run too. Values still set after the
 * last pass are dropped without their destructors, as POSIX allows. */
#define KEY_DESTRUCTOR_PASSES 4

/* The unit is being freed: run the destructors of its values, those of freed
 * keys included, and drop its tables. */
void bb_unit_free_keys(bb_unit *u)
{
    for (int pass = 0; u->keys; pass++) {
        bb_keytab *t = u->keys;
        u->keys = NULL;
        destroy_table(t, pass < KEY_DESTRUCTOR_PASSES);
    }
}

/* ABT_finalize, for a unit the program never freed: its tables go without
 * running the destructors, as nothing frees the unit (bb_mem_fini). */
void bb_unit_drop_keys(bb_unit *u)
{
    bb_keytab *t = u->keys;
    if (t) {
        u->keys = NULL;
        destroy_table(t, false);
    }
}

/* ---- the public calls ------------------------------------------------------------- */

int ABT_key_set(ABT_key key, void *value)
{
    bb_key *k = key_of(key);
    if (!k)
        return ABT_ERR_INV_KEY; /* before the other checks, as in Argobots */
    bb_unit *self;
    int err = bb_caller_unit(&self);
    return err == ABT_SUCCESS ? set_value(self, k, value) : err;
}

int ABT_key_get(ABT_key key, void **value)
{
    bb_key *k = key_of(key);
    if (!k)
        return ABT_ERR_INV_KEY;
    if (!value)
        return ABT_ERR_INV_ARG;
    bb_xstream *es = bb_self_xstream(); /* only set while the runtime is up */
    if (!es)
        return bb_is_up() ? ABT_ERR_INV_XSTREAM : ABT_ERR_UNINITIALIZED;
    *value = get_value(es->current, k);
    return ABT_SUCCESS;
}

int ABT_self_set_specific(ABT_key key, void *value)
{
    return ABT_key_set(key, value);
}

int ABT_self_get_specific(ABT_key key, void **value)
{
    return ABT_key_get(key, value);
}

int ABT_thread_set_specific(ABT_thread thread, ABT_key key, void *value)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_key *k = key_of(key);
    if (!k)
        return ABT_ERR_INV_KEY;
    return set_value(bb_unit_of(thread), k, value);
}

int ABT_thread_get_specific(ABT_thread thread, ABT_key key, void **value)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_key *k = key_of(key);
    if (!k)
        return ABT_ERR_INV_KEY;
    if (!value)
        return ABT_ERR_INV_ARG;
    *value = get_value(bb_unit_of(thread), k);
    return ABT_SUCCESS;
}
