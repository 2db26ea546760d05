/* Rings of ULTs passing control with ABT_thread_yield_to, on three ESs at
 * once: on each ES K ULTs run R rounds, ULT i always yielding directly to ULT
 * (i + STRIDE) % K - not the one the FIFO pool would pick next. The per-ES
 * log must be exactly 0, STRIDE, 2*STRIDE, ... (mod K), so every yield_to
 * resumed precisely its target and nothing else ran in between. */
#include "bb_test.h"

#define NUM_ES 3
#define K 8
#define R 500
#define STRIDE 3 /* coprime with K: one cycle through all members */

struct ring {
    ABT_pool pool;
    ABT_thread ults[K];
    int log[K * R];
    int pos;
    int bad_ret;
};

static struct ring rings[NUM_ES];

struct member {
    struct ring *ring;
    int idx;
};
static struct member members[NUM_ES][K];

static void member_fn(void *arg)
{
    struct member *m = arg;
    struct ring *r = m->ring;
    for (int round = 0; round < R; round++) {
        r->log[r->pos++] = m->idx;
        if (ABT_thread_yield_to(r->ults[(m->idx + STRIDE) % K]) != ABT_SUCCESS)
            r->bad_ret++;
    }
}

/* Runs on the ring's own ES: nothing is popped while it creates the ring. */
static void builder(void *arg)
{
    struct ring *r = arg;
    int ring_idx = (int)(r - rings);
    for (int i = 0; i < K; i++) {
        members[ring_idx][i].ring = r;
        members[ring_idx][i].idx = i;
        ABT_thread_create(r->pool, member_fn, &members[ring_idx][i], ABT_THREAD_ATTR_NULL,
                          &r->ults[i]);
    }
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(30);
    ABT_xstream xs[NUM_ES];
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&xs[0]));
    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &xs[i]));
    ABT_thread builders[NUM_ES];
    for (int i = 0; i < NUM_ES; i++) {
        CHECK_OK(ABT_xstream_get_main_pools(xs[i], 1, &rings[i].pool));
        CHECK_OK(ABT_thread_create(rings[i].pool, builder, &rings[i], ABT_THREAD_ATTR_NULL,
                                   &builders[i]));
    }
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_thread_free(&builders[i]));
    for (int i = 0; i < NUM_ES; i++)
        for (int j = 0; j < K; j++)
            CHECK_OK(ABT_thread_free(&rings[i].ults[j]));

    for (int i = 0; i < NUM_ES; i++) {
        struct ring *r = &rings[i];
        CHECK_EQ(r->pos, K * R);
        CHECK_EQ(r->bad_ret, 0);
        int wrong = 0;
        for (int s = 0; s < K * R; s++)
            if (r->log[s] != (s * STRIDE) % K)
                wrong++;
        CHECK_EQ(wrong, 0);
    }

    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_free(&xs[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
