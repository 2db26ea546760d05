/* Memory that every unit gives back: rounds of work of every kind the
 * shortcuts of create, join and free take (plain ULTs and tasklets, ULTs
 * with attributes, a migration callback or key values, child-first ULTs,
 * join_many and free_many, migrations, revives, yields) and of every
 * synchronization object, run again and again, must leave the heap and the
 * mapped memory as they found them once the caches are warm. ASan and
 * valgrind turn the shortcuts off, so their leak checks cannot see a leak
 * there (the seventeenth audit found one, of migration callbacks); this
 * test looks at the heap itself. */
#include "bb_test.h"

#include <malloc.h>

enum { N = 256, ROUNDS = 8 };

static ABT_key key;
static ABT_pool pools[2];

static void empty(void *arg)
{
    (void)arg;
}

static void yields(void *arg)
{
    (void)arg;
    ABT_thread_yield();
}

static void sets_key(void *arg)
{
    CHECK_OK(ABT_key_set(key, arg));
}

static void moves(void *arg)
{
    (void)arg;
    ABT_thread self;
    CHECK_OK(ABT_thread_self(&self));
    CHECK_OK(ABT_thread_migrate_to_pool(self, pools[1]));
}

static void on_move(ABT_thread thread, void *arg)
{
    (void)thread;
    (void)arg;
}

static void drop_value(void *value)
{
    (void)value;
}

static size_t heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

/* The program's mapped size (/proc/self/statm, first field), in bytes. */
static size_t mapped(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return pages * (size_t)sysconf(_SC_PAGESIZE);
}

static void ults(ABT_pool pool, void (*body)(void *), ABT_thread_attr attr)
{
    ABT_thread t[N];
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(pool, body, (void *)(long)(i + 1), attr, &t[i]));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
}

static void tasklets(ABT_pool pool)
{
    ABT_task t[N];
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_task_create(pool, sets_key, (void *)(long)(i + 1), &t[i]));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_task_free(&t[i]));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_task_create(pool, empty, NULL, &t[i]));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_task_free(&t[i]));
}

static void many_and_revived(ABT_pool pool)
{
    ABT_thread t[N];
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(pool, yields, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    CHECK_OK(ABT_thread_join_many(N, t));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_revive(pool, sets_key, (void *)(long)(i + 1), &t[i]));
    CHECK_OK(ABT_thread_free_many(N, t));
}

static void child_first(ABT_pool pool)
{
    for (int i = 0; i < N; i++) {
        ABT_thread t;
        CHECK_OK(ABT_thread_create_to(pool, i % 2 ? yields : empty, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_OK(ABT_thread_free(&t));
    }
}

static void sync_objects(void)
{
    for (int i = 0; i < N / 8; i++) {
        ABT_mutex m;
        ABT_cond c;
        ABT_rwlock rw;
        ABT_eventual ev;
        ABT_future f;
        ABT_barrier b;
        CHECK_OK(ABT_mutex_create(&m));
        CHECK_OK(ABT_mutex_lock(m));
        CHECK_OK(ABT_mutex_unlock(m));
        CHECK_OK(ABT_mutex_free(&m));
        CHECK_OK(ABT_cond_create(&c));
        CHECK_OK(ABT_cond_free(&c));
        CHECK_OK(ABT_rwlock_create(&rw));
        CHECK_OK(ABT_rwlock_free(&rw));
        CHECK_OK(ABT_eventual_create(64, &ev));
        CHECK_OK(ABT_eventual_set(ev, NULL, 0));
        CHECK_OK(ABT_eventual_free(&ev));
        CHECK_OK(ABT_future_create(2, NULL, &f));
        CHECK_OK(ABT_future_set(f, NULL));
        CHECK_OK(ABT_future_set(f, NULL));
        CHECK_OK(ABT_future_free(&f));
        CHECK_OK(ABT_barrier_create(1, &b));
        CHECK_OK(ABT_barrier_wait(b));
        CHECK_OK(ABT_barrier_free(&b));
    }
}

static void one_round(ABT_thread_attr with_callback, ABT_thread_attr big_stack)
{
    ults(pools[0], empty, ABT_THREAD_ATTR_NULL);
    ults(pools[0], yields, ABT_THREAD_ATTR_NULL);
    ults(pools[0], sets_key, ABT_THREAD_ATTR_NULL);
    ults(pools[0], moves, with_callback);
    ults(pools[0], empty, big_stack);
    tasklets(pools[0]);
    many_and_revived(pools[0]);
    child_first(pools[0]);
    sync_objects();
}

int main(void)
{
    BB_TEST_BEGIN(60);
    if (BB_TEST_UNDER_ASAN || BB_TEST_UNDER_TSAN || BB_TEST_UNDER_MSAN || RUNNING_ON_VALGRIND) {
        /* They turn the shortcuts off, check the general paths' leaks
         * themselves, and map memory of their own as the program runs. */
        printf("SKIP: under a sanitizer or valgrind\n");
        return 77;
    }
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pools[i]));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 2, pools));
    CHECK_OK(ABT_key_create(drop_value, &key));
    ABT_thread_attr with_callback, big_stack;
    CHECK_OK(ABT_thread_attr_create(&with_callback));
    CHECK_OK(ABT_thread_attr_set_callback(with_callback, on_move, NULL));
    CHECK_OK(ABT_thread_attr_create(&big_stack));
    CHECK_OK(ABT_thread_attr_set_stacksize(big_stack, 64 << 10));

    one_round(with_callback, big_stack); /* fills the caches */
    one_round(with_callback, big_stack);
    size_t heap = heap_in_use(), map = mapped();
    for (int r = 0; r < ROUNDS; r++)
        one_round(with_callback, big_stack);
    size_t heap_after = heap_in_use(), map_after = mapped();
    /* About 2,800 units a round: a leak of one small block per unit of one
     * kind adds 8 x 256 x 32 bytes = 64 KiB. */
    if (heap_after > heap + 16 * 1024)
        BB_FAIL_AT("the heap grew by %zu bytes over %d rounds", heap_after - heap, ROUNDS);
    if (map_after > map + 256 * 1024)
        BB_FAIL_AT("mapped memory grew by %zu bytes over %d rounds", map_after - map, ROUNDS);

    CHECK_OK(ABT_thread_attr_free(&with_callback));
    CHECK_OK(ABT_thread_attr_free(&big_stack));
    CHECK_OK(ABT_key_free(&key));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
