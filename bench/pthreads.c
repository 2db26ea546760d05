/*
 * The same workloads with POSIX threads, for scale (issue #6, figure 5).
 * No Argobots: plain pthreads and sched_yield.
 *
 *   pthreads fork_join N REPS
 *     N     threads per round (default 64)
 *     REPS  timed rounds (default 20)
 *   The main thread creates N threads with empty bodies (default attributes),
 *   then joins them in creation order; one untimed round first.
 *   Reported: ns per thread (create + run + join).
 *
 *   pthreads yield M
 *     M     timed round trips (default 100000); one round trip is two switches
 *   Two threads, pinned to one CPU (the first one the process may use) when
 *   the affinity call succeeds, pass a turn back and forth: each waits for
 *   its turn with sched_yield, then gives the turn to the other. With both on
 *   one CPU, each sched_yield of the thread without the turn switches to the
 *   one that has it. 10 untimed round trips, then M timed by the first thread.
 *   Reported: ns per switch (time / 2M), pinned=1|0, and sched_yield calls
 *   per switch (1 when every yield lands on the other thread).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"

#define WARMUP 10

static void check(int err, const char *what)
{
    if (err != 0) {
        fprintf(stderr, "%s failed: %s\n", what, strerror(err));
        exit(1);
    }
}

/* ---- fork-join ---- */

static void *empty_thread(void *arg)
{
    return arg;
}

static void fork_join_round(pthread_t *ths, long n)
{
    for (long i = 0; i < n; i++)
        check(pthread_create(&ths[i], NULL, empty_thread, NULL), "pthread_create");
    for (long i = 0; i < n; i++)
        check(pthread_join(ths[i], NULL), "pthread_join");
}

static int fork_join(long n, long reps)
{
    pthread_t *ths = malloc((size_t)n * sizeof(*ths));
    fork_join_round(ths, n); /* warm-up */
    double t0 = now_ns();
    for (long r = 0; r < reps; r++)
        fork_join_round(ths, n);
    double t1 = now_ns();
    free(ths);
    long ops = n * reps;
    printf("pthreads workload=fork_join n=%ld reps=%ld ops=%ld ns_per_op=%.2f\n", n, reps, ops,
           (t1 - t0) / (double)ops);
    return 0;
}

/* ---- sched_yield ping-pong ---- */

typedef struct {
    int me;
    long rounds;
    long yields; /* sched_yield calls while waiting, timed rounds only */
    double t0, t1;
} player_t;

static atomic_int turn;

/* Wait for this player's turn; returns the number of sched_yield calls. */
static long wait_turn(int me)
{
    long yields = 0;
    while (atomic_load_explicit(&turn, memory_order_acquire) != me) {
        sched_yield();
        yields++;
    }
    return yields;
}

static void *player(void *arg)
{
    player_t *p = arg;
    for (long i = 0; i < WARMUP + p->rounds; i++) {
        long y = wait_turn(p->me);
        if (i == WARMUP)
            p->t0 = now_ns();
        if (i > WARMUP || (i == WARMUP && p->me == 1)) /* waits after t0 */
            p->yields += y;
        atomic_store_explicit(&turn, 1 - p->me, memory_order_release);
    }
    if (p->me == 0) { /* the last hand-back ends the timed window */
        p->yields += wait_turn(0);
        p->t1 = now_ns();
    }
    return NULL;
}

static int ping_pong(long rounds)
{
    cpu_set_t allowed, one;
    int cpu = -1;
    if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
        for (int c = 0; c < CPU_SETSIZE; c++) {
            if (CPU_ISSET(c, &allowed)) {
                cpu = c;
                break;
            }
        }
    }
    pthread_attr_t attr;
    check(pthread_attr_init(&attr), "pthread_attr_init");
    int pinned = 0;
    if (cpu >= 0) {
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        pinned = pthread_attr_setaffinity_np(&attr, sizeof(one), &one) == 0;
    }

    player_t p[2] = {{.me = 0, .rounds = rounds}, {.me = 1, .rounds = rounds}};
    pthread_t th[2];
    atomic_store(&turn, 0);
    for (int i = 0; i < 2; i++) {
        int err = pthread_create(&th[i], &attr, player, &p[i]);
        if (err != 0 && pinned && i == 0) { /* affinity refused: run unpinned */
            pinned = 0;
            check(pthread_attr_destroy(&attr), "pthread_attr_destroy");
            check(pthread_attr_init(&attr), "pthread_attr_init");
            err = pthread_create(&th[i], &attr, player, &p[i]);
        }
        check(err, "pthread_create");
    }
    for (int i = 0; i < 2; i++)
        check(pthread_join(th[i], NULL), "pthread_join");
    check(pthread_attr_destroy(&attr), "pthread_attr_destroy");

    long ops = 2 * rounds;
    printf("pthreads workload=yield pinned=%d cpu=%d rounds=%ld ops=%ld yields_per_switch=%.2f "
           "ns_per_op=%.2f\n",
           pinned, pinned ? cpu : -1, rounds, ops, (double)(p[0].yields + p[1].yields) / (double)ops,
           (p[0].t1 - p[0].t0) / (double)ops);
    return 0;
}

int main(int argc, char **argv)
{
    const char *workload = argc > 1 ? argv[1] : "fork_join";
    if (strcmp(workload, "fork_join") == 0)
        return fork_join(arg_long(argc, argv, 2, 64), arg_long(argc, argv, 3, 20));
    if (strcmp(workload, "yield") == 0)
        return ping_pong(arg_long(argc, argv, 2, 100000));
    fprintf(stderr, "usage: %s fork_join [N] [REPS] | yield [M]\n", argv[0]);
    return 2;
}
