/* Schedulers: creation, the stop protocol, and the public ABT_sched_* API
 * of the core runtime. The loops themselves are in basic.c. */
#include <stdlib.h>

#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_xstream.h"

static void release_pools(bb_pool **pools, int n)
{
    for (int i = 0; i < n; i++)
        bb_pool_release(pools[i]);
}

int bb_sched_create_predef(int predef, int num_pools, bb_pool **pools, int access,
                           bool automatic, int event_freq, bb_sched **out)
{
    if (predef != ABT_SCHED_DEFAULT && predef != ABT_SCHED_BASIC)
        return ABT_ERR_INV_SCHED_PREDEF; /* PRIO, RANDWS, BASIC_WAIT: schedulers issue */

    bb_sched *s = calloc(1, sizeof(*s));
    bb_pool **own = calloc((size_t)num_pools, sizeof(*own));
    if (!s || !own) {
        free(s);
        free(own);
        return ABT_ERR_MEM;
    }
    int made = 0, err = ABT_SUCCESS;
    for (; made < num_pools; made++) {
        if (pools && pools[made]) {
            own[made] = pools[made];
        } else {
            err = bb_pool_create_fifo(access, true, &own[made]);
            if (err != ABT_SUCCESS)
                break;
        }
        bb_pool_retain(own[made]);
    }
    if (err != ABT_SUCCESS) {
        release_pools(own, made);
        free(own);
        free(s);
        return err;
    }
    s->run = bb_sched_basic_run;
    s->num_pools = num_pools;
    s->pools = own;
    s->automatic = automatic;
    s->event_freq = event_freq;
    s->used = BB_SCHED_UNUSED;
    *out = s;
    return ABT_SUCCESS;
}

/* The scheduler of an ES created without one, and of the primary ES. */
int bb_sched_create_default(bb_sched **out)
{
    return bb_sched_create_predef(ABT_SCHED_DEFAULT, 1, NULL, ABT_POOL_ACCESS_MPMC, true,
                                  BB_DEFAULT_SCHED_EVENT_FREQ, out);
}

void bb_sched_destroy(bb_sched *s)
{
    release_pools(s->pools, s->num_pools);
    free(s->pools);
    free(s);
}

/* ABT_finalize: the primary ES's scheduler and all its pools go, automatic
 * or not, unless another scheduler still holds a pool. */
void bb_sched_destroy_with_pools(bb_sched *s)
{
    for (int i = 0; i < s->num_pools; i++)
        s->pools[i]->automatic = true;
    bb_sched_destroy(s);
}

void bb_sched_request(bb_sched *s, uint32_t bits)
{
    bb_fetch_or_acq_rel(&s->request, bits);
}

size_t bb_sched_total_size(bb_sched *s)
{
    size_t total = 0;
    for (int i = 0; i < s->num_pools; i++)
        total += bb_pool_total_size(s->pools[i]);
    return total;
}

bool bb_sched_has_to_stop(bb_sched *s)
{
    uint32_t req = bb_load_acquire(&s->request);
    if (req & (BB_SCHED_REQ_EXIT | BB_SCHED_REQ_REPLACE))
        return true;
    return (req & BB_SCHED_REQ_FINISH) && bb_sched_total_size(s) == 0;
}

void bb_sched_check_events(bb_sched *s)
{
    /* Stop requests are read by bb_sched_has_to_stop; nothing else is pending
     * on an ES in the core runtime. Kept as the one place a scheduler loop
     * calls for ES-level housekeeping. */
    (void)s;
}

/* ---- public API ---------------------------------------------------------- */

int ABT_sched_create_basic(ABT_sched_predef predef, int num_pools, ABT_pool *pools,
                           ABT_sched_config config, ABT_sched *newsched)
{
    if (!newsched)
        return ABT_ERR_SCHED;
    *newsched = ABT_SCHED_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (config != ABT_SCHED_CONFIG_NULL)
        return ABT_ERR_INV_SCHED_CONFIG; /* configurations: schedulers issue */
    if (num_pools < 0)
        return ABT_ERR_INV_ARG;
    if (!pools)
        num_pools = 1; /* the scheduler makes its own pool */
    bb_sched *s;
    int err = bb_sched_create_predef(predef, num_pools, (bb_pool **)(void *)pools,
                                     ABT_POOL_ACCESS_MPMC, true,
                                     BB_DEFAULT_SCHED_EVENT_FREQ, &s);
    if (err == ABT_SUCCESS)
        *newsched = bb_sched_handle(s);
    return err;
}

int ABT_sched_free(ABT_sched *sched)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!sched || *sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    bb_sched *s = bb_sched_of(*sched);
    if (s->used != BB_SCHED_UNUSED)
        return ABT_ERR_SCHED;
    bb_sched_destroy(s);
    *sched = ABT_SCHED_NULL;
    return ABT_SUCCESS;
}

int ABT_sched_finish(ABT_sched sched)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    bb_sched_request(bb_sched_of(sched), BB_SCHED_REQ_FINISH);
    return ABT_SUCCESS;
}

int ABT_sched_exit(ABT_sched sched)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    bb_sched_request(bb_sched_of(sched), BB_SCHED_REQ_EXIT);
    return ABT_SUCCESS;
}

int ABT_sched_has_to_stop(ABT_sched sched, ABT_bool *stop)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!stop)
        return ABT_ERR_INV_ARG;
    *stop = ABT_FALSE;
    if (!bb_self_xstream())
        return ABT_ERR_INV_XSTREAM;
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    *stop = bb_sched_has_to_stop(bb_sched_of(sched)) ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

int ABT_sched_get_num_pools(ABT_sched sched, int *num_pools)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    if (!num_pools)
        return ABT_ERR_INV_ARG;
    *num_pools = bb_sched_of(sched)->num_pools;
    return ABT_SUCCESS;
}

int ABT_sched_get_pools(ABT_sched sched, int max_pools, int idx, ABT_pool *pools)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    bb_sched *s = bb_sched_of(sched);
    if (idx < 0 || max_pools < 0 || (max_pools > 0 && !pools))
        return ABT_ERR_INV_ARG;
    if (idx + max_pools > s->num_pools)
        return ABT_ERR_SCHED;
    for (int i = 0; i < max_pools; i++)
        pools[i] = bb_pool_handle(s->pools[idx + i]);
    return ABT_SUCCESS;
}
