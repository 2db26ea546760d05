/*
 * ABT_get_wtime and ABT_timer_*: wall-clock seconds as doubles.
 *
 * A timer holds the times of its last start and stop; reading it gives their
 * difference. Timers are plain memory: any thread may use one, and they work
 * without ABT_init, as in Argobots.
 */
#include <stdlib.h>

#include "bb_time.h"
#include <abt.h>

typedef struct {
    double start;
    double stop;
} bb_timer;

static bb_timer *timer_of(ABT_timer handle)
{
    return (bb_timer *)(void *)handle;
}

double ABT_get_wtime(void)
{
    return bb_wtime();
}

int ABT_timer_create(ABT_timer *newtimer)
{
    if (!newtimer)
        return ABT_ERR_INV_ARG;
    *newtimer = ABT_TIMER_NULL;
    bb_timer *t = calloc(1, sizeof(*t)); /* zero stamps: a fresh timer reads 0 */
    if (!t)
        return ABT_ERR_MEM;
    *newtimer = (ABT_timer)(void *)t;
    return ABT_SUCCESS;
}

int ABT_timer_dup(ABT_timer timer, ABT_timer *newtimer)
{
    if (!newtimer)
        return ABT_ERR_INV_ARG;
    *newtimer = ABT_TIMER_NULL;
    bb_timer *t = timer_of(timer);
    if (!t)
        return ABT_ERR_INV_TIMER;
    int err = ABT_timer_create(newtimer);
    if (err == ABT_SUCCESS)
        *timer_of(*newtimer) = *t;
    return err;
}

int ABT_timer_free(ABT_timer *timer)
{
    if (!timer)
        return ABT_ERR_INV_ARG;
    if (!timer_of(*timer))
        return ABT_ERR_INV_TIMER;
    free(timer_of(*timer));
    *timer = ABT_TIMER_NULL;
    return ABT_SUCCESS;
}

int ABT_timer_start(ABT_timer timer)
{
    bb_timer *t = timer_of(timer);
    if (!t)
        return ABT_ERR_INV_TIMER;
    t->start = bb_wtime();
    return ABT_SUCCESS;
}

int ABT_timer_stop(ABT_timer timer)
{
    bb_timer *t = timer_of(timer);
    if (!t)
        return ABT_ERR_INV_TIMER;
    t->stop = bb_wtime();
    return ABT_SUCCESS;
}

int ABT_timer_read(ABT_timer timer, double *secs)
{
    bb_timer *t = timer_of(timer);
    if (!t)
        return ABT_ERR_INV_TIMER;
    if (!secs)
        return ABT_ERR_INV_ARG;
    *secs = t->stop - t->start;
    return ABT_SUCCESS;
}

int ABT_timer_stop_and_read(ABT_timer timer, double *secs)
{
    int err = ABT_timer_stop(timer);
    if (err == ABT_SUCCESS)
        err = ABT_timer_read(timer, secs);
    return err;
}

int ABT_timer_stop_and_add(ABT_timer timer, double *secs)
{
    if (!secs)
        return ABT_ERR_INV_ARG;
    double elapsed;
    int err = ABT_timer_stop_and_read(timer, &elapsed);
    if (err == ABT_SUCCESS)
        *secs += elapsed;
    return err;
}

/* What a start + stop pair costs by itself: the mean over many pairs,
 * measured anew at each call. */
int ABT_timer_get_overhead(double *overhead)
{
    enum { PAIRS = 5000 };
    if (!overhead)
        return ABT_ERR_INV_ARG;
    double sum = 0;
    for (int i = 0; i < PAIRS; i++) {
        double start = bb_wtime();
        sum += bb_wtime() - start;
    }
    *overhead = sum / PAIRS;
    return ABT_SUCCESS;
}
