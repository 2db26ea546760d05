/* The table of execution streams, indexed by rank, under bb_rt.lock. */
#include <stdlib.h>
#include <string.h>

#include "bb_runtime.h"

static int lowest_free_rank(void)
{
    int r = 0;
    while (r < bb_rt.xstreams_cap && bb_rt.xstreams[r])
        r++;
    return r;
}

/* The table is indexed by rank, and the whole of it is walked at times:
 * a rank beyond this is refused rather than grown to. */
#define BB_XSTREAM_MAX_RANK ((1 << 20) - 1)

static int grow_to(int rank)
{
    if (rank < bb_rt.xstreams_cap)
        return ABT_SUCCESS;
    if (rank > BB_XSTREAM_MAX_RANK)
        return ABT_ERR_INV_XSTREAM_RANK;
    /* First sized for ABT_MAX_NUM_XSTREAMS; doubled whenever a rank needs it. */
    int cap = bb_rt.xstreams_cap ? bb_rt.xstreams_cap : bb_rt.config.max_xstreams;
    while (cap <= rank)
        cap *= 2; /* no overflow: rank < 2^20 */
    bb_xstream **table = realloc(bb_rt.xstreams, (size_t)cap * sizeof(*table));
    if (!table)
        return ABT_ERR_MEM;
    memset(table + bb_rt.xstreams_cap, 0, (size_t)(cap - bb_rt.xstreams_cap) * sizeof(*table));
    bb_rt.xstreams = table;
    bb_rt.xstreams_cap = cap;
    return ABT_SUCCESS;
}

/* A rank beyond ABT_MAX_NUM_XSTREAMS raises it, as in Argobots, so that
 * ABT_info_query_config reports the real limit. Under bb_rt.lock. */
static void take_rank(bb_xstream *es, int rank)
{
    bb_rt.xstreams[rank] = es;
    bb_store_relaxed(&es->rank, rank);
    if (rank >= bb_rt.config.max_xstreams)
        bb_store_relaxed(&bb_rt.config.max_xstreams, rank + 1);
}

/* rank < 0: pick the lowest free one. */
int bb_xstream_table_add(bb_xstream *es, int rank)
{
    pthread_mutex_lock(&bb_rt.lock);
    if (rank < 0)
        rank = lowest_free_rank();
    int err = grow_to(rank);
    if (err == ABT_SUCCESS && bb_rt.xstreams[rank])
        err = ABT_ERR_INV_XSTREAM_RANK;
    if (err == ABT_SUCCESS) {
        take_rank(es, rank);
        bb_fetch_add_relaxed(&bb_rt.num_xstreams, 1);
    }
    pthread_mutex_unlock(&bb_rt.lock);
    return err;
}

/* The rank of `es` if it is still in the table, else -1: an ES a unit last
 * ran on may have been freed since, so `es` is compared, never read. Under
 * bb_rt.lock. */
int bb_xstream_table_rank_of_locked(const bb_xstream *es)
{
    for (int r = 0; es && r < bb_rt.xstreams_cap; r++)
        if (bb_rt.xstreams[r] == es)
            return r;
    return -1;
}

void bb_xstream_table_remove(bb_xstream *es)
{
    pthread_mutex_lock(&bb_rt.lock);
    int rank = es->rank;
    if (rank >= 0 && rank < bb_rt.xstreams_cap && bb_rt.xstreams[rank] == es) {
        bb_rt.xstreams[rank] = NULL;
        bb_fetch_add_relaxed(&bb_rt.num_xstreams, -1);
    }
    pthread_mutex_unlock(&bb_rt.lock);
}

int bb_xstream_table_set_rank(bb_xstream *es, int rank)
{
    pthread_mutex_lock(&bb_rt.lock);
    int err = grow_to(rank);
    if (err == ABT_SUCCESS && bb_rt.xstreams[rank] && bb_rt.xstreams[rank] != es)
        err = ABT_ERR_INV_XSTREAM_RANK;
    if (err == ABT_SUCCESS) {
        bb_rt.xstreams[es->rank] = NULL;
        take_rank(es, rank);
    }
    pthread_mutex_unlock(&bb_rt.lock);
    return err;
}
