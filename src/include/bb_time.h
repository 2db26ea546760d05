/* Wall-clock time in seconds, the clock of ABT_get_wtime and of the
 * deadlines that legacy pool callbacks receive. Real time, as in Argobots,
 * so that a deadline can be handed to pthread_cond_timedwait unchanged. */
#ifndef BB_TIME_H
#define BB_TIME_H

#include <time.h>

static inline double bb_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
