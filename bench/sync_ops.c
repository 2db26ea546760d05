/*
 * Uncontended synchronization calls and self queries on one ES (PEERS.md
 * "Synchronization and idle behaviour": mutex, self queries).
 *
 *   sync_ops OP [N]
 *     OP  mutex            ABT_mutex_lock + ABT_mutex_unlock
 *         spinlock         ABT_mutex_spinlock + ABT_mutex_unlock
 *         trylock          ABT_mutex_trylock + ABT_mutex_unlock
 *         key_set          ABT_key_set (the value changes every call)
 *         key_get          ABT_key_get
 *         self_get_thread  ABT_self_get_thread
 *         thread_self      ABT_thread_self
 *     N   timed iterations (default 10000000)
 *
 * The primary ES's only pool is a private FIFO pool (basic scheduler), as in
 * the other single-ES benchmarks; the main ULT, alone on it, loops on the
 * operation, checking every return code. WARMUP untimed iterations first,
 * then N timed ones. Reported: ops = N and ns per operation (per pair for the
 * mutex workloads). Under callgrind.sh the difference between two values of N
 * gives the instructions per iteration, loop and checks included, which is
 * how PEERS.md counts the Argobots numbers (its loop, call and check alone:
 * 9 instructions).
 */
#include "bench_util.h"

#define WARMUP 1000

static void fail(const char *op, long i, int ret)
{
    fprintf(stderr, "sync_ops: %s failed at iteration %ld: %d\n", op, i, ret);
    exit(1);
}

static ABT_mutex mutex;
static ABT_key key;

/* One loop of `iters` iterations of operation `op`; returns 0 for an unknown
 * op. Each case is a separate loop so that nothing but the calls themselves
 * and the return checks sit in it. */
static int run(const char *op, long iters)
{
    int ret;
    if (strcmp(op, "mutex") == 0) {
        for (long i = 0; i < iters; i++) {
            if ((ret = ABT_mutex_lock(mutex)) != ABT_SUCCESS ||
                (ret = ABT_mutex_unlock(mutex)) != ABT_SUCCESS)
                fail(op, i, ret);
        }
    } else if (strcmp(op, "spinlock") == 0) {
        for (long i = 0; i < iters; i++) {
            if ((ret = ABT_mutex_spinlock(mutex)) != ABT_SUCCESS ||
                (ret = ABT_mutex_unlock(mutex)) != ABT_SUCCESS)
                fail(op, i, ret);
        }
    } else if (strcmp(op, "trylock") == 0) {
        for (long i = 0; i < iters; i++) {
            if ((ret = ABT_mutex_trylock(mutex)) != ABT_SUCCESS ||
                (ret = ABT_mutex_unlock(mutex)) != ABT_SUCCESS)
                fail(op, i, ret);
        }
    } else if (strcmp(op, "key_set") == 0) {
        for (long i = 0; i < iters; i++) {
            if ((ret = ABT_key_set(key, (void *)(i + 1))) != ABT_SUCCESS)
                fail(op, i, ret);
        }
    } else if (strcmp(op, "key_get") == 0) {
        void *value = NULL;
        for (long i = 0; i < iters; i++) {
            if ((ret = ABT_key_get(key, &value)) != ABT_SUCCESS)
                fail(op, i, ret);
        }
        if (value != (void *)&key)
            fail(op, iters, -1); /* the value set before the loop */
    } else if (strcmp(op, "self_get_thread") == 0) {
        ABT_thread self;
        for (long i = 0; i < iters; i++) {
            if ((ret = ABT_self_get_thread(&self)) != ABT_SUCCESS)
                fail(op, i, ret);
        }
    } else if (strcmp(op, "thread_self") == 0) {
        ABT_thread self;
        for (long i = 0; i < iters; i++) {
            if ((ret = ABT_thread_self(&self)) != ABT_SUCCESS)
                fail(op, i, ret);
        }
    } else {
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s mutex|spinlock|trylock|key_set|key_get|self_get_thread|"
                        "thread_self [N]\n", argv[0]);
        return 2;
    }
    const char *op = argv[1];
    long iters = arg_long(argc, argv, 2, 10000000);

    CHECK(ABT_init(0, NULL));
    use_private_pool();
    CHECK(ABT_mutex_create(&mutex));
    CHECK(ABT_key_create(NULL, &key));
    CHECK(ABT_key_set(key, &key)); /* what key_get reads */

    if (!run(op, WARMUP)) {
        fprintf(stderr, "sync_ops: unknown operation '%s'\n", op);
        return 2;
    }
    double t0 = now_ns();
    run(op, iters);
    double t1 = now_ns();

    CHECK(ABT_key_free(&key));
    CHECK(ABT_mutex_free(&mutex));
    CHECK(ABT_finalize());
    printf("sync_ops op=%s ops=%ld ns_per_op=%.2f\n", op, iters, (t1 - t0) / (double)iters);
    return 0;
}
